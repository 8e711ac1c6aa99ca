"""The versioned document store: resolves cited documents as of a knowledge-base version.

``open_store(url)`` picks the backend from the URL scheme: ``sqlite:///PATH`` for one
machine, ``postgresql://USER@HOST:PORT/DB`` for a fleet of workers.
"""

from __future__ import annotations

from quantcheck.worker.store.base import (
    DocumentStore,
    InvalidDocumentError,
    LoadResult,
    ManifestHasher,
    StoreTimeouts,
    UnknownVersionError,
    VersionConflictError,
    VersionDiff,
    VersionInfo,
    manifest_sha256,
    validate_kb_version,
)
from quantcheck.worker.store.cache import CachingStore
from quantcheck.worker.store.indexing import Indexer, IndexFailure, ReindexResult
from quantcheck.worker.store.url import SqliteTarget, mask_url, parse_store_url

from quantcheck.errors import UsageError


def open_store(
    url: str,
    timeouts: StoreTimeouts | None = None,
    *,
    create: bool = True,
    facts_scope: str | None = None,
) -> DocumentStore:
    """Open (creating and migrating as needed) the store ``url`` names; ``timeouts`` bound
    a PostgreSQL server's answers (their defaults when None). With ``create`` False a
    SQLite file that does not exist is a UsageError rather than a new, empty store.
    Documents are read with the facts stored for them under ``facts_scope``, if given.

    Raises ``UsageError`` for a malformed or unsupported URL, with any password masked,
    and ``StoreUnavailableError`` when the server cannot be reached.
    """
    target = parse_store_url(url)
    # Backends are imported on demand so SQLite users never load the PostgreSQL driver.
    if isinstance(target, SqliteTarget):
        from quantcheck.worker.store.sqlite import SqliteStore  # noqa: PLC0415

        if not create and not target.path.exists():
            raise UsageError(
                f"no document store at {str(target.path)!r}: load documents into it with"
                " quantcheck docs load, or name another with --store"
            )
        return SqliteStore(target.path, facts_scope=facts_scope)
    from quantcheck.worker.store.postgres import PostgresStore  # noqa: PLC0415

    return PostgresStore(target.conninfo, timeouts=timeouts, facts_scope=facts_scope)


__all__ = [
    "CachingStore",
    "DocumentStore",
    "IndexFailure",
    "Indexer",
    "InvalidDocumentError",
    "LoadResult",
    "ManifestHasher",
    "ReindexResult",
    "StoreTimeouts",
    "UnknownVersionError",
    "VersionConflictError",
    "VersionDiff",
    "VersionInfo",
    "manifest_sha256",
    "mask_url",
    "open_store",
    "validate_kb_version",
]
