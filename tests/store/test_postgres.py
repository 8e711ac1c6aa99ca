"""PostgreSQL faults: a server outage and dropped connections, recovered without reopening."""

from __future__ import annotations

import time
from collections.abc import Iterator

import psycopg
import pytest
from quantcheck.worker.store import DocumentStore, open_store

from quantcheck.checker.model import Document
from quantcheck.errors import StoreUnavailableError, UsageError
from tests.support.postgres import PostgresServer

pytestmark = [pytest.mark.integration, pytest.mark.faults]

DOCS = [
    Document("S01", "Log a reading every 15 seconds."),
    Document("S02", "Calibrate at 2.5 L/min."),
]


@pytest.fixture
def store(postgres_database: str) -> Iterator[DocumentStore]:
    with open_store(postgres_database) as opened:
        opened.load_version("v1", DOCS)
        yield opened


def test_backend_sessions_killed_by_an_administrator_are_replaced(
    store: DocumentStore, postgres_database: str
) -> None:
    assert store.get_documents("v1", ["S01"])
    with psycopg.connect(postgres_database, autocommit=True) as admin:
        killed = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    assert killed is not None
    assert killed[0] >= 1
    # The pool notices the dead connections before lending them and opens new ones.
    assert set(store.get_documents("v1", ["S01", "S02"])) == {"S01", "S02"}
    store.ping()


@pytest.mark.slow
def test_outage_raises_unavailable_then_recovers(
    store: DocumentStore, postgres_server: PostgresServer, postgres_database: str
) -> None:
    if postgres_server.external:
        pytest.skip("cannot stop a server this session did not start")
    assert set(store.get_documents("v1", ["S01", "S02"])) == {"S01", "S02"}
    postgres_server.stop()
    try:
        with pytest.raises(StoreUnavailableError):
            store.get_documents("v1", ["S01"])
        with pytest.raises(StoreUnavailableError):
            store.has_version("v1")
        with pytest.raises(StoreUnavailableError):
            store.ping()
        with pytest.raises(StoreUnavailableError):
            open_store(postgres_database).close()
    finally:
        postgres_server.start()
    deadline = time.monotonic() + 60
    while True:
        try:
            found = store.get_documents("v1", ["S01", "S02"])
            break
        except StoreUnavailableError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    assert found == {d.doc_id: d for d in DOCS}
    store.ping()
    assert store.has_version("v1")


def test_unknown_database_is_a_usage_error(postgres_server: PostgresServer) -> None:
    url = postgres_server.database_url("no_such_database_here")
    with pytest.raises(UsageError, match="does not exist") as caught:
        open_store(url)
    assert not isinstance(caught.value, StoreUnavailableError)


def test_nothing_listening_is_unavailable() -> None:
    with pytest.raises(StoreUnavailableError, match="unavailable"):
        open_store("postgresql://postgres:hunter2@127.0.0.1:1/quantcheck")
    with pytest.raises(StoreUnavailableError) as caught:
        open_store("postgresql://postgres:hunter2@127.0.0.1:1/quantcheck")
    assert "hunter2" not in str(caught.value)
