-- Facts indexed once per distinct content, at load time: a reader takes them instead of
-- extracting the text again. One row per content and scope; checker_version and
-- encoding say what made it, and a reader with another stamp ignores it until
-- quantcheck docs reindex replaces it.

CREATE TABLE doc_facts (
    sha256          text COLLATE "C" NOT NULL,
    scope           text COLLATE "C" NOT NULL,
    checker_version text NOT NULL,
    encoding        text NOT NULL,
    facts           bytea NOT NULL,
    PRIMARY KEY (sha256, scope)
);

-- A version's contents in hash order: what a reindex walks, a page at a time.
CREATE INDEX kb_documents_by_content ON kb_documents (kb_version, sha256);

-- The facts are compressed already: storing them as they are spares the server a second
-- compression on write and a decompression on every read.
ALTER TABLE doc_facts ALTER COLUMN facts SET STORAGE EXTERNAL;
