"""Schema migrations: numbered SQL files per backend, applied in order when a store opens.

Files live in ``migrations/<backend>/NNNN_name.sql``; ``NNNN`` is the schema version the
file brings the store to. Applied versions are recorded in ``schema_version``. Every
pending migration runs in one transaction under a store-wide lock (SQLite's write lock,
a PostgreSQL advisory lock), and the version is re-read after taking the lock, so two
processes opening a new store at once apply each migration exactly once.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import TYPE_CHECKING, Any

from quantcheck.errors import UsageError

if TYPE_CHECKING:
    import psycopg

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
# An arbitrary constant naming the advisory lock that serializes migrations.
_POSTGRES_LOCK_KEY = 0x71C_5C4E


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: the version it produces and the SQL that produces it."""

    version: int
    name: str
    sql: str


def load_migrations(backend: str) -> tuple[Migration, ...]:
    """The backend's migrations in version order; versions must run 1, 2, 3, ... without gaps."""
    folder = resources.files("quantcheck.worker.store").joinpath("migrations", backend)
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(
            f"{backend} migrations are not numbered 1..N: {[m.version for m in found]}"
        )
    return tuple(found)


def _check_not_newer(current: int, migrations: tuple[Migration, ...], where: str) -> None:
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise UsageError(
            f"{where} has schema version {current}, newer than this quantcheck knows ({latest}); "
            "upgrade quantcheck"
        )


def split_sqlite_script(script: str) -> list[str]:
    """Split a SQL script into statements using SQLite's own notion of a complete statement.

    ``sqlite3.Connection.executescript`` would commit the surrounding transaction, so the
    statements are run one by one instead.
    """
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    leftover = [ln for ln in pending.splitlines() if ln.strip() and not ln.strip().startswith("--")]
    if leftover:
        raise RuntimeError(
            f"incomplete SQL statement at the end of a migration: {pending.strip()!r}"
        )
    return statements


def _sqlite_current(conn: sqlite3.Connection) -> int:
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if exists is None:
        return 0
    row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    return int(row[0])


def migrate_sqlite(conn: sqlite3.Connection, where: str) -> int:
    """Bring a SQLite store (connection in autocommit mode) up to date; returns its version."""
    migrations = load_migrations("sqlite")
    current = _sqlite_current(conn)
    _check_not_newer(current, migrations, where)
    if current == len(migrations):
        # Up to date: no write lock, so opening never waits for a long-running load.
        return current
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        current = _sqlite_current(conn)
        _check_not_newer(current, migrations, where)
        for migration in migrations[current:]:
            for statement in split_sqlite_script(migration.sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, datetime.now(UTC).isoformat()),
            )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return len(migrations)


def migrate_postgres(conn: psycopg.Connection[Any], where: str) -> int:
    """Bring a PostgreSQL store up to date; returns its version."""
    migrations = load_migrations("postgres")
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_POSTGRES_LOCK_KEY,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
        current = int(row[0]) if row else 0
        _check_not_newer(current, migrations, where)
        for migration in migrations[current:]:
            # No parameters, so psycopg sends the whole file as one simple query.
            conn.execute(migration.sql.encode())
            conn.execute(
                "INSERT INTO schema_version (version, name) VALUES (%s, %s)",
                (migration.version, migration.name),
            )
    return len(migrations)
