-- Facts indexed once per distinct content, at load time: a reader takes them instead of
-- extracting the text again. One row per content and scope; checker_version and
-- encoding say what made it, and a reader with another stamp ignores it until
-- quantcheck docs reindex replaces it.

CREATE TABLE doc_facts (
    sha256          TEXT NOT NULL,
    scope           TEXT NOT NULL,
    checker_version TEXT NOT NULL,
    encoding        TEXT NOT NULL,
    facts           BLOB NOT NULL,
    PRIMARY KEY (sha256, scope)
) WITHOUT ROWID;

-- A version's contents in hash order: what a reindex walks, a page at a time.
CREATE INDEX kb_documents_by_content ON kb_documents (kb_version, sha256);
