"""Schema migrations: recorded, applied once even by processes opening a store together."""

from __future__ import annotations

import multiprocessing
import sqlite3
from urllib.parse import urlsplit

import psycopg
import pytest
from quantcheck.worker.store import open_store
from quantcheck.worker.store.migrations import load_migrations, split_sqlite_script

from quantcheck.errors import UsageError
from tests.store import procs

SPAWN = multiprocessing.get_context("spawn")


def query(url: str, statement: str) -> list[tuple[object, ...]]:
    """Run one statement directly against the store's database."""
    if url.startswith("sqlite:"):
        with sqlite3.connect(urlsplit(url).path[1:]) as conn:
            return conn.execute(statement).fetchall()
    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(statement.encode())
        return cursor.fetchall() if cursor.description else []


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_migration_files_are_numbered_from_one(backend: str) -> None:
    migrations = load_migrations(backend)
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert all(m.sql.strip() for m in migrations)


def test_every_migration_is_recorded(store_url: str) -> None:
    open_store(store_url).close()
    backend = "sqlite" if store_url.startswith("sqlite:") else "postgres"
    expected = [(m.version, m.name) for m in load_migrations(backend)]
    assert query(store_url, "SELECT version, name FROM schema_version ORDER BY version") == expected
    open_store(store_url).close()  # reopening applies nothing twice
    assert len(query(store_url, "SELECT version FROM schema_version")) == len(expected)


def test_processes_opening_a_new_store_together(store_url: str) -> None:
    # The barrier makes them open the new file at the same moment, where locks collide.
    ready = SPAWN.Barrier(8)
    openers = [
        SPAWN.Process(target=procs.load, args=(store_url, f"v{i}", f"tag{i}", 10, ready))
        for i in range(8)
    ]
    for opener in openers:
        opener.start()
    for opener in openers:
        opener.join(120)
    assert [opener.exitcode for opener in openers] == [0] * 8
    backend = "sqlite" if store_url.startswith("sqlite:") else "postgres"
    assert len(query(store_url, "SELECT version FROM schema_version")) == len(
        load_migrations(backend)
    )
    with open_store(store_url) as store:
        assert sorted(v.kb_version for v in store.list_versions()) == [f"v{i}" for i in range(8)]


def test_a_newer_schema_is_refused(store_url: str) -> None:
    open_store(store_url).close()
    query(
        store_url,
        "INSERT INTO schema_version (version, name, applied_at)"
        " VALUES (999, 'future', '2100-01-01T00:00:00+00:00')",
    )
    with pytest.raises(UsageError, match="schema version 999, newer than this quantcheck"):
        open_store(store_url)


def test_split_sqlite_script() -> None:
    script = "-- a comment\nCREATE TABLE a (x TEXT DEFAULT ';');\n\nCREATE TABLE b (y);\n-- end\n"
    assert split_sqlite_script(script) == [
        "-- a comment\nCREATE TABLE a (x TEXT DEFAULT ';');",
        "CREATE TABLE b (y);",
    ]
    with pytest.raises(RuntimeError, match="incomplete"):
        split_sqlite_script("CREATE TABLE c (z)")
