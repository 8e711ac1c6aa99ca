-- Versioned documents. Texts are stored once per distinct content (keyed by SHA-256),
-- so versions that share most documents share their storage. kb_documents refers to
-- kb_versions and doc_contents without foreign keys: only a load writes these tables,
-- all three in one transaction, and per-row key checks would dominate its time.

CREATE TABLE kb_versions (
    kb_version      text COLLATE "C" PRIMARY KEY,
    created_at      timestamptz NOT NULL,
    document_count  integer NOT NULL,
    manifest_sha256 text NOT NULL
);

CREATE TABLE doc_contents (
    sha256 text COLLATE "C" PRIMARY KEY,
    text   text NOT NULL
);

-- COLLATE "C" orders doc_id by code point, as the manifest requires, whatever the
-- database's locale, and lets the primary key index serve that order.
CREATE TABLE kb_documents (
    kb_version text COLLATE "C" NOT NULL,
    doc_id     text COLLATE "C" NOT NULL,
    topic      text NOT NULL,
    sha256     text COLLATE "C" NOT NULL,
    PRIMARY KEY (kb_version, doc_id)
);
