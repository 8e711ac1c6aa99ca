-- Versioned documents. Texts are stored once per distinct content (keyed by SHA-256),
-- so versions that share most documents share their storage. kb_documents refers to
-- kb_versions and doc_contents without foreign keys: only a load writes these tables,
-- all three in one transaction, and per-row key checks would dominate its time.

CREATE TABLE kb_versions (
    kb_version      TEXT PRIMARY KEY,
    created_at      TEXT NOT NULL,      -- ISO 8601, UTC
    document_count  INTEGER NOT NULL,
    manifest_sha256 TEXT NOT NULL
);

CREATE TABLE doc_contents (
    sha256 TEXT PRIMARY KEY,
    text   TEXT NOT NULL
);

-- Default BINARY collation orders doc_id by UTF-8 bytes, i.e. by code point, as the
-- manifest requires.
CREATE TABLE kb_documents (
    kb_version TEXT NOT NULL,
    doc_id     TEXT NOT NULL,
    topic      TEXT NOT NULL,
    sha256     TEXT NOT NULL,
    PRIMARY KEY (kb_version, doc_id)
) WITHOUT ROWID;
