"""The PostgreSQL document store: a connection pool shared by the threads of one process.

Every fault that means "the server cannot answer right now" (connection refused, the
server restarting or shut down by an administrator, no pooled connection within the
timeout) becomes :class:`StoreUnavailableError`, which callers retry. The pool checks a
connection before lending it and reconnects in the background, so the store recovers on
its own once the server is back. A lookup that finds nothing is an empty result.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool
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
from quantcheck.worker.store.migrations import migrate_postgres
from quantcheck.worker.store.url import mask_url

from quantcheck.checker.model import Document, FactsStamp, StoredFacts
from quantcheck.errors import StoreUnavailableError, UsageError

_T = TypeVar("_T")
Connection = psycopg.Connection[Any]

# Advisory-lock class key for loads; the second key is a hash of the version name, so
# two loads of one version take turns while loads of different versions run side by side.
_LOAD_LOCK_CLASS = 0x71C5
_MANIFEST_BATCH_ROWS = 10_000
# A readiness probe should answer quickly even while the server is away.
_PING_TIMEOUT_S = 2.0
_VERSION_COLUMNS = "kb_version, created_at, document_count, manifest_sha256"
# Refusals while connecting that retrying will not fix: unknown role or database, bad
# credentials, no pg_hba entry. libpq reports no SQLSTATE for a failed connection, so the
# server's (English) messages are matched; anything else counts as transient.
_PERMANENT_CONNECT_MESSAGES = (
    "does not exist",
    "authentication failed",
    "no pg_hba.conf entry",
    "permission denied",
)


def _bounded_connection(timeouts: StoreTimeouts) -> dict[str, Any]:
    """libpq connection parameters that bound connecting, every statement, and a peer
    that vanished without closing the connection."""
    return {
        "connect_timeout": timeouts.connect_s,
        "options": f"-c statement_timeout={max(int(timeouts.statement_s * 1000), 1)}",
        "keepalives": 1,
        "keepalives_idle": timeouts.keepalive_idle_s,
        "keepalives_interval": timeouts.keepalive_interval_s,
        "keepalives_count": timeouts.keepalive_count,
    }


def _is_permanent(exc: psycopg.OperationalError) -> bool:
    message = str(exc).lower()
    return any(phrase in message for phrase in _PERMANENT_CONNECT_MESSAGES)


def _one_line(exc: Exception) -> str:
    # libpq messages span lines (a hint after the error); callers print one line.
    return " ".join(str(exc).split())


def _version_info(row: tuple[Any, ...]) -> VersionInfo:
    created_at: datetime = row[1]
    return VersionInfo(str(row[0]), created_at.astimezone(UTC), int(row[2]), str(row[3]))


class PostgresStore(DocumentStore):
    """Documents in PostgreSQL; migrated to the current schema when opened. Documents are
    read with the facts stored for them under ``facts_scope`` (None: without facts)."""

    def __init__(
        self,
        conninfo: str,
        *,
        min_connections: int = 1,
        max_connections: int = 4,
        timeout_s: float = 5.0,
        reconnect_timeout_s: float = 10.0,
        timeouts: StoreTimeouts | None = None,
        facts_scope: str | None = None,
    ):
        self._where = f"PostgreSQL store {mask_url(conninfo)!r}"
        self._facts_scope = facts_scope
        self._timeout_s = timeout_s
        timeouts = timeouts or StoreTimeouts()
        connect_timeout_s = timeouts.connect_s
        # A direct first connection reports the real cause of a failure (the pool would
        # only time out) and runs the migrations before any pooled connection exists.
        try:
            with psycopg.connect(
                conninfo, autocommit=True, connect_timeout=connect_timeout_s
            ) as conn:
                migrate_postgres(conn, self._where)
        except psycopg.OperationalError as exc:
            if _is_permanent(exc):
                raise UsageError(f"cannot open {self._where}: {_one_line(exc)}") from None
            raise StoreUnavailableError(f"{self._where} is unavailable: {_one_line(exc)}") from exc
        except psycopg.ProgrammingError as exc:  # a conninfo libpq cannot parse
            raise UsageError(f"cannot open {self._where}: {_one_line(exc)}") from None
        self._pool: ConnectionPool[Connection] = ConnectionPool(
            conninfo,
            min_size=min_connections,
            max_size=max_connections,
            kwargs={"autocommit": True, **_bounded_connection(timeouts)},
            # A round trip before each loan catches connections the server dropped while
            # it restarted; the pool then replaces them.
            check=ConnectionPool.check_connection,
            timeout=timeout_s,
            # After this long the pool stops retrying in the background; the next request
            # starts a fresh attempt at once instead of waiting out a long backoff.
            reconnect_timeout=reconnect_timeout_s,
            name="quantcheck-store",
            open=False,
        )
        self._pool.open(wait=False)

    def __repr__(self) -> str:
        return f"PostgresStore({self._where})"

    @contextmanager
    def _translated(self) -> Iterator[None]:
        try:
            yield
        except psycopg.OperationalError as exc:
            # OperationalError covers refused and dropped connections, server shutdown
            # (AdminShutdown, CannotConnectNow) and the pool's own timeout.
            raise StoreUnavailableError(f"{self._where} is unavailable: {_one_line(exc)}") from exc

    def _query(self, work: Callable[[Connection], _T], timeout_s: float | None = None) -> _T:
        with self._translated(), self._pool.connection(timeout=timeout_s) as conn:
            return work(conn)

    def get_documents(self, kb_version: str, doc_ids: Collection[str]) -> dict[str, Document]:
        """The requested documents as of ``kb_version``, in one query."""
        ids = unique_ids(doc_ids)
        if not ids:
            return {}

        def work(conn: Connection) -> list[tuple[Any, ...]]:
            return conn.execute(
                "SELECT d.doc_id, d.topic, c.text, c.sha256,"
                " f.checker_version, f.encoding, f.facts"
                " FROM kb_documents AS d JOIN doc_contents AS c ON c.sha256 = d.sha256"
                " LEFT JOIN doc_facts AS f ON f.sha256 = d.sha256 AND f.scope = %s"
                " WHERE d.kb_version = %s AND d.doc_id = ANY(%s)",
                (self._facts_scope, kb_version, ids),
            ).fetchall()

        return {
            doc_id: Document(doc_id, text, topic, sha256, self._facts(version, encoding, facts))
            for doc_id, topic, text, sha256, version, encoding, facts in self._query(work)
        }

    def _facts(
        self, version: str | None, encoding: str | None, facts: bytes | None
    ) -> StoredFacts | None:
        if self._facts_scope is None or version is None or encoding is None or facts is None:
            return None
        return StoredFacts(FactsStamp(self._facts_scope, version, encoding), bytes(facts))

    def has_version(self, kb_version: str) -> bool:
        """True when ``kb_version`` has been loaded."""
        return self.get_version(kb_version) is not None

    def get_version(self, kb_version: str) -> VersionInfo | None:
        """The version's summary, or None."""
        row = self._query(
            lambda conn: conn.execute(
                f"SELECT {_VERSION_COLUMNS} FROM kb_versions WHERE kb_version = %s",
                (kb_version,),
            ).fetchone()
        )
        return None if row is None else _version_info(row)

    def list_versions(self) -> list[VersionInfo]:
        """Every loaded version, oldest first."""
        rows = self._query(
            lambda conn: conn.execute(
                f"SELECT {_VERSION_COLUMNS} FROM kb_versions ORDER BY created_at, kb_version"
            ).fetchall()
        )
        return [_version_info(row) for row in rows]

    def diff(self, old: str, new: str) -> VersionDiff:
        """Documents added, removed and changed from ``old`` to ``new``."""
        source = "(SELECT doc_id, topic, sha256 FROM kb_documents WHERE kb_version = %s)"

        def work(conn: Connection) -> VersionDiff:
            for kb_version in (old, new):
                row = conn.execute(
                    "SELECT 1 FROM kb_versions WHERE kb_version = %s", (kb_version,)
                ).fetchone()
                if row is None:
                    raise UnknownVersionError(kb_version)
            return _diff(conn, (old, source, (old,)), (new, source, (new,)))

        return self._query(work)

    def load_version(
        self, kb_version: str, documents: Iterable[Document], indexer: Indexer | None = None
    ) -> LoadResult:
        """Stage, validate and index, then publish ``documents`` as ``kb_version`` in one
        transaction."""
        validate_kb_version(kb_version)
        with self._translated(), self._pool.connection() as conn:
            try:
                with conn.transaction():
                    # A load may take minutes; only lookups are bounded by statement_s.
                    conn.execute("SET LOCAL statement_timeout = 0")
                    hasher = self._stage(conn, kb_version, documents)
                    conn.execute(
                        "CREATE TEMP TABLE qc_staged_facts ("
                        ' sha256 text COLLATE "C" PRIMARY KEY, facts bytea NOT NULL) ON COMMIT DROP'
                    )
                    exists = conn.execute(
                        "SELECT 1 FROM kb_versions WHERE kb_version = %s", (kb_version,)
                    ).fetchone()
                    # An existing version is left as it is (or refused): nothing to index.
                    if indexer is not None and exists is None:
                        self._index_staged(conn, kb_version, indexer)
                    return self._publish(conn, kb_version, hasher, indexer)
            except _Unchanged as unchanged:
                return unchanged.result

    def _index_staged(self, conn: Connection, kb_version: str, indexer: Indexer) -> None:
        conn.execute("CREATE INDEX ON qc_staging (sha256)")
        conn.execute("ANALYZE qc_staging")
        staged = SqlContents(
            _runner(conn),
            indexer.stamp,
            "qc_staging",
            (),
            "SELECT text FROM qc_staging WHERE sha256 = %s LIMIT 1",
            "INSERT INTO qc_staged_facts (sha256, facts) VALUES (%s, %s)"
            " ON CONFLICT (sha256) DO UPDATE SET facts = excluded.facts",
            mark="%s",
        )
        index_pending(staged, indexer, refuse_unindexable(kb_version))

    def contents_to_index(self, kb_version: str, stamp: FactsStamp) -> Contents:
        """The contents of a loaded version, each read and written in a statement of its
        own."""

        def run(sql: str, params: tuple[Any, ...]) -> list[Any]:
            def work(conn: Connection) -> list[Any]:
                # Like a load, a reindex reads and writes whole documents of any size.
                with conn.transaction():
                    conn.execute("SET LOCAL statement_timeout = 0")
                    return _runner(conn)(sql, params)

            return self._query(work)

        return SqlContents(
            run,
            stamp,
            "(SELECT doc_id, sha256 FROM kb_documents WHERE kb_version = %s)",
            (kb_version,),
            "SELECT text FROM doc_contents WHERE sha256 = %s",
            None,
            mark="%s",
        )

    def _stage(
        self, conn: Connection, kb_version: str, documents: Iterable[Document]
    ) -> ManifestHasher:
        # The staging table is private to this session and dropped with the transaction,
        # so an aborted or killed load leaves nothing behind.
        conn.execute(
            "CREATE TEMP TABLE qc_staging ("
            ' doc_id text COLLATE "C" PRIMARY KEY, topic text NOT NULL,'
            ' sha256 text COLLATE "C" NOT NULL, text text NOT NULL) ON COMMIT DROP'
        )
        try:
            with (
                conn.cursor() as cur,
                cur.copy("COPY qc_staging (doc_id, topic, sha256, text) FROM STDIN") as copy,
            ):
                for doc in checked_documents(kb_version, documents):
                    copy.write_row((doc.doc_id, doc.topic, doc.sha256, doc.text))
        except pg_errors.UniqueViolation as exc:
            detail = exc.diag.message_detail or "a doc_id repeats"
            raise InvalidDocumentError(
                f"a document appears more than once in the load of version {kb_version!r}: {detail}"
            ) from None
        hasher = ManifestHasher()
        with conn.cursor(name="qc_manifest") as cur:
            cur.itersize = _MANIFEST_BATCH_ROWS
            cur.execute("SELECT doc_id, sha256 FROM qc_staging ORDER BY doc_id")
            for doc_id, sha256 in cur:
                hasher.add(doc_id, sha256)
        if hasher.count == 0:
            raise InvalidDocumentError(f"no documents to load for version {kb_version!r}")
        return hasher

    def _publish(
        self, conn: Connection, kb_version: str, hasher: ManifestHasher, indexer: Indexer | None
    ) -> LoadResult:
        conn.execute("ANALYZE qc_staging")
        conn.execute(
            "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_LOAD_LOCK_CLASS, kb_version)
        )
        row = conn.execute(
            f"SELECT {_VERSION_COLUMNS} FROM kb_versions WHERE kb_version = %s", (kb_version,)
        ).fetchone()
        if row is not None:
            stored = "(SELECT doc_id, topic, sha256 FROM kb_documents WHERE kb_version = %s)"
            diff = _diff(conn, (kb_version, stored, (kb_version,)), (kb_version, "qc_staging", ()))
            if not diff.identical:
                raise VersionConflictError(kb_version, diff)
            raise _Unchanged(LoadResult(_version_info(row), created=False))
        info = VersionInfo(kb_version, datetime.now(UTC), hasher.count, hasher.hexdigest())
        conn.execute(
            f"INSERT INTO kb_versions ({_VERSION_COLUMNS}) VALUES (%s, %s, %s, %s)",
            (kb_version, info.created_at, info.document_count, info.manifest_sha256),
        )
        # Sorted, so concurrent loads sharing texts take their row locks in one order.
        conn.execute(
            "INSERT INTO doc_contents (sha256, text)"
            " SELECT sha256, text FROM qc_staging ORDER BY sha256 ON CONFLICT DO NOTHING"
        )
        conn.execute(
            "INSERT INTO kb_documents (kb_version, doc_id, topic, sha256)"
            " SELECT %s, doc_id, topic, sha256 FROM qc_staging",
            (kb_version,),
        )
        if indexer is not None:
            stamp = indexer.stamp
            # Sorted, like the texts, so that concurrent loads lock rows in one order.
            conn.execute(
                UPSERT_FACTS + " SELECT sha256, %s, %s, %s, facts FROM qc_staged_facts"
                " ORDER BY sha256" + ON_CONFLICT,
                (stamp.scope, stamp.checker_version, stamp.encoding),
            )
        return LoadResult(info, created=True)

    def ping(self) -> None:
        """Raise ``StoreUnavailableError`` unless the server answers a query."""
        self._query(
            lambda conn: conn.execute("SELECT 1").fetchone(),
            timeout_s=min(_PING_TIMEOUT_S, self._timeout_s),
        )

    def close(self) -> None:
        """Close the pool and its connections."""
        self._pool.close()


class _Unchanged(Exception):
    """Leaves the load transaction by rolling it back, carrying the no-op result."""

    def __init__(self, result: LoadResult):
        super().__init__(result.version.kb_version)
        self.result = result


def _diff(conn: Connection, old: Rows, new: Rows) -> VersionDiff:
    return version_diff(
        lambda sql, params: [str(row[0]) for row in conn.execute(sql.encode(), params)], old, new
    )


def _runner(conn: Connection) -> Callable[[str, tuple[Any, ...]], list[Any]]:
    """Runs one statement on ``conn``: its rows, or none for a statement without."""

    def run(sql: str, params: tuple[Any, ...]) -> list[Any]:
        cursor = conn.execute(sql.encode(), params)
        return cursor.fetchall() if cursor.description else []

    return run
