"""The SQLite document store: one file, one writer and many readers across processes.

WAL mode lets readers keep reading while a load commits, and every reader sees a
version either not at all or complete. A load stages its documents in a per-connection
temporary table first, so validation (duplicates, empty texts) finishes before the
database file is locked; only the short publish step holds the write lock.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from quantcheck.worker.store.base import (
    DocumentStore,
    InvalidDocumentError,
    LoadResult,
    ManifestHasher,
    UnknownVersionError,
    VersionConflictError,
    VersionDiff,
    VersionInfo,
    checked_documents,
    refuse_unindexable,
    unique_ids,
    validate_kb_version,
)
from quantcheck.worker.store.diffing import Rows, version_diff
from quantcheck.worker.store.indexing import (
    ON_CONFLICT,
    UPSERT_FACTS,
    Contents,
    Indexer,
    SqlContents,
    index_pending,
)
from quantcheck.worker.store.migrations import migrate_sqlite

from quantcheck.checker.model import Document, FactsStamp, StoredFacts
from quantcheck.errors import StoreUnavailableError, UsageError

DEFAULT_BUSY_TIMEOUT_S = 10.0

# Faults that pass: another process holds a lock, or the disk hiccupped.
_TRANSIENT_CODES = frozenset(
    {
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_PROTOCOL,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
    }
)

_VERSION_COLUMNS = "kb_version, created_at, document_count, manifest_sha256"


def _version_info(row: tuple[str, str, int, str]) -> VersionInfo:
    created_at = datetime.fromisoformat(row[1]).astimezone(UTC)
    return VersionInfo(row[0], created_at, int(row[2]), row[3])


class SqliteStore(DocumentStore):
    """Documents in a SQLite file; migrated to the current schema when opened. Documents
    are read with the facts stored for them under ``facts_scope`` (None: without facts)."""

    def __init__(
        self,
        path: Path | str,
        *,
        busy_timeout_s: float = DEFAULT_BUSY_TIMEOUT_S,
        facts_scope: str | None = None,
    ):
        self._path = Path(path)
        self._busy_timeout_s = busy_timeout_s
        self._facts_scope = facts_scope
        self._where = f"SQLite store {str(self._path)!r}"
        # One shared reading connection; the lock makes it safe for the metrics thread.
        self._lock = threading.Lock()
        conn = self._connect()
        try:
            with self._translated():
                migrate_sqlite(conn, self._where)
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    def __repr__(self) -> str:
        return f"SqliteStore({str(self._path)!r})"

    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(
                self._path,
                timeout=self._busy_timeout_s,
                isolation_level=None,  # autocommit; transactions are explicit
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise UsageError(f"cannot open {self._where}: {exc}") from None
        try:
            with self._translated():
                self._enter_wal(conn)
                # In WAL mode NORMAL never corrupts; a power cut may lose the last commits.
                conn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise UsageError(f"cannot open {self._where}: {exc}") from None
        except BaseException:
            conn.close()
            raise
        return conn

    def _enter_wal(self, conn: sqlite3.Connection) -> None:
        # Switching a new file to WAL needs an exclusive lock, and SQLite answers BUSY at
        # once rather than calling the busy handler when processes open it together (the
        # wait could deadlock). So the switch is retried until the busy timeout runs out.
        deadline = time.monotonic() + self._busy_timeout_s
        pause = 0.001
        while True:
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                code = getattr(exc, "sqlite_errorcode", None)
                busy = code is not None and code & 0xFF == sqlite3.SQLITE_BUSY
                if not busy or time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.05)

    @contextmanager
    def _translated(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            code = getattr(exc, "sqlite_errorcode", None)
            if code is not None and code & 0xFF in _TRANSIENT_CODES:
                raise StoreUnavailableError(f"{self._where} is unavailable: {exc}") from exc
            raise

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._translated():
            yield self._conn

    def get_documents(self, kb_version: str, doc_ids: Collection[str]) -> dict[str, Document]:
        """The requested documents as of ``kb_version``, in one query."""
        ids = unique_ids(doc_ids)
        if not ids:
            return {}
        # json_each takes any number of IDs without hitting the bound-parameter limit.
        with self._reading() as conn:
            rows = conn.execute(
                "SELECT d.doc_id, d.topic, c.text, c.sha256,"
                " f.checker_version, f.encoding, f.facts"
                " FROM kb_documents AS d JOIN doc_contents AS c ON c.sha256 = d.sha256"
                " LEFT JOIN doc_facts AS f ON f.sha256 = d.sha256 AND f.scope = ?"
                " WHERE d.kb_version = ? AND d.doc_id IN (SELECT value FROM json_each(?))",
                (self._facts_scope, kb_version, json.dumps(ids)),
            ).fetchall()
        return {
            doc_id: Document(doc_id, text, topic, sha256, self._facts(version, encoding, facts))
            for doc_id, topic, text, sha256, version, encoding, facts in rows
        }

    def _facts(
        self, version: str | None, encoding: str | None, facts: bytes | None
    ) -> StoredFacts | None:
        if self._facts_scope is None or version is None or encoding is None or facts is None:
            return None
        return StoredFacts(FactsStamp(self._facts_scope, version, encoding), facts)

    def has_version(self, kb_version: str) -> bool:
        """True when ``kb_version`` has been loaded."""
        return self.get_version(kb_version) is not None

    def get_version(self, kb_version: str) -> VersionInfo | None:
        """The version's summary, or None."""
        with self._reading() as conn:
            row = conn.execute(
                f"SELECT {_VERSION_COLUMNS} FROM kb_versions WHERE kb_version = ?", (kb_version,)
            ).fetchone()
        return None if row is None else _version_info(row)

    def list_versions(self) -> list[VersionInfo]:
        """Every loaded version, oldest first."""
        with self._reading() as conn:
            rows = conn.execute(
                f"SELECT {_VERSION_COLUMNS} FROM kb_versions ORDER BY created_at, kb_version"
            ).fetchall()
        return [_version_info(row) for row in rows]

    def diff(self, old: str, new: str) -> VersionDiff:
        """Documents added, removed and changed from ``old`` to ``new``."""
        source = "(SELECT doc_id, topic, sha256 FROM kb_documents WHERE kb_version = ?)"
        with self._reading() as conn:
            for kb_version in (old, new):
                if (
                    conn.execute(
                        "SELECT 1 FROM kb_versions WHERE kb_version = ?", (kb_version,)
                    ).fetchone()
                    is None
                ):
                    raise UnknownVersionError(kb_version)
            return _diff(conn, (old, source, (old,)), (new, source, (new,)))

    def load_version(
        self, kb_version: str, documents: Iterable[Document], indexer: Indexer | None = None
    ) -> LoadResult:
        """Stage, validate and index, then publish ``documents`` as ``kb_version`` in one
        transaction."""
        validate_kb_version(kb_version)
        conn = self._connect()
        # Closing the connection rolls back whatever is unfinished and drops the staging tables.
        try:
            with self._translated():
                hasher = self._stage(conn, kb_version, documents)
                conn.execute(
                    "CREATE TEMP TABLE qc_staged_facts"
                    " (sha256 TEXT PRIMARY KEY, facts BLOB NOT NULL)"
                )
                exists = conn.execute(
                    "SELECT 1 FROM kb_versions WHERE kb_version = ?", (kb_version,)
                ).fetchone()
                # An existing version is left as it is (or refused): nothing to index for it.
                if indexer is not None and exists is None:
                    self._index_staged(conn, kb_version, indexer)
                return self._publish(conn, kb_version, hasher, indexer)
        finally:
            conn.close()

    def _index_staged(self, conn: sqlite3.Connection, kb_version: str, indexer: Indexer) -> None:
        conn.execute("CREATE INDEX temp.qc_staging_by_content ON qc_staging (sha256)")
        staged = SqlContents(
            lambda sql, params: conn.execute(sql, params).fetchall(),
            indexer.stamp,
            "temp.qc_staging",
            (),
            "SELECT text FROM temp.qc_staging WHERE sha256 = ? LIMIT 1",
            "INSERT OR REPLACE INTO temp.qc_staged_facts (sha256, facts) VALUES (?, ?)",
        )
        # Only temporary tables are written: no lock on the store while texts are indexed.
        conn.execute("BEGIN")
        index_pending(staged, indexer, refuse_unindexable(kb_version))
        conn.execute("COMMIT")

    def contents_to_index(self, kb_version: str, stamp: FactsStamp) -> Contents:
        """The contents of a loaded version, each read and written in a statement of its
        own."""

        def run(sql: str, params: tuple[Any, ...]) -> list[Any]:
            with self._reading() as conn:
                return conn.execute(sql, params).fetchall()

        return SqlContents(
            run,
            stamp,
            "(SELECT doc_id, sha256 FROM kb_documents WHERE kb_version = ?)",
            (kb_version,),
            "SELECT text FROM doc_contents WHERE sha256 = ?",
            None,
        )

    def _stage(
        self, conn: sqlite3.Connection, kb_version: str, documents: Iterable[Document]
    ) -> ManifestHasher:
        # A TEMP table lives in this connection's own temporary file: writing it takes no
        # lock on the store, and it vanishes if the process dies.
        conn.execute(
            "CREATE TEMP TABLE qc_staging ("
            " doc_id TEXT PRIMARY KEY, topic TEXT NOT NULL, sha256 TEXT NOT NULL,"
            " text TEXT NOT NULL)"
        )
        conn.execute("BEGIN")
        insert = "INSERT INTO temp.qc_staging (doc_id, topic, sha256, text) VALUES (?, ?, ?, ?)"
        for doc in checked_documents(kb_version, documents):
            try:
                conn.execute(insert, (doc.doc_id, doc.topic, doc.sha256, doc.text))
            except sqlite3.IntegrityError:
                raise InvalidDocumentError(
                    f"document {doc.doc_id!r} appears more than once in the load of "
                    f"version {kb_version!r}"
                ) from None
        conn.execute("COMMIT")
        hasher = ManifestHasher()
        for doc_id, sha256 in conn.execute(
            "SELECT doc_id, sha256 FROM temp.qc_staging ORDER BY doc_id"
        ):
            hasher.add(doc_id, sha256)
        if hasher.count == 0:
            raise InvalidDocumentError(f"no documents to load for version {kb_version!r}")
        return hasher

    def _publish(
        self,
        conn: sqlite3.Connection,
        kb_version: str,
        hasher: ManifestHasher,
        indexer: Indexer | None,
    ) -> LoadResult:
        conn.execute("BEGIN IMMEDIATE")
        row = conn.execute(
            f"SELECT {_VERSION_COLUMNS} FROM kb_versions WHERE kb_version = ?", (kb_version,)
        ).fetchone()
        if row is not None:
            stored = "(SELECT doc_id, topic, sha256 FROM kb_documents WHERE kb_version = ?)"
            staged = "temp.qc_staging"
            diff = _diff(conn, (kb_version, stored, (kb_version,)), (kb_version, staged, ()))
            conn.execute("ROLLBACK")
            if not diff.identical:
                raise VersionConflictError(kb_version, diff)
            return LoadResult(_version_info(row), created=False)
        info = VersionInfo(kb_version, datetime.now(UTC), hasher.count, hasher.hexdigest())
        conn.execute(
            f"INSERT INTO kb_versions ({_VERSION_COLUMNS}) VALUES (?, ?, ?, ?)",
            (kb_version, info.created_at.isoformat(), info.document_count, info.manifest_sha256),
        )
        conn.execute(
            "INSERT OR IGNORE INTO doc_contents (sha256, text)"
            " SELECT sha256, text FROM temp.qc_staging"
        )
        conn.execute(
            "INSERT INTO kb_documents (kb_version, doc_id, topic, sha256)"
            " SELECT ?, doc_id, topic, sha256 FROM temp.qc_staging",
            (kb_version,),
        )
        if indexer is not None:
            stamp = indexer.stamp
            # "WHERE true" tells SQLite's parser the ON CONFLICT is the upsert's.
            conn.execute(
                UPSERT_FACTS + " SELECT sha256, ?, ?, ?, facts FROM temp.qc_staged_facts"
                " WHERE true" + ON_CONFLICT,
                (stamp.scope, stamp.checker_version, stamp.encoding),
            )
        conn.execute("COMMIT")
        return LoadResult(info, created=True)

    def ping(self) -> None:
        """Raise ``StoreUnavailableError`` unless the database file answers a query."""
        with self._reading() as conn:
            conn.execute("SELECT max(version) FROM schema_version").fetchone()

    def close(self) -> None:
        """Close the reading connection."""
        with self._lock:
            self._conn.close()


def _diff(conn: sqlite3.Connection, old: Rows, new: Rows) -> VersionDiff:
    return version_diff(lambda sql, params: [row[0] for row in conn.execute(sql, params)], old, new)
