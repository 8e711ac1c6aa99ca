"""SQLite specifics: file locations, WAL mode, and locks reported as transient."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from quantcheck.worker.store import open_store
from quantcheck.worker.store.sqlite import SqliteStore

from quantcheck.checker.model import Document
from quantcheck.errors import StoreUnavailableError, UsageError


def test_relative_url_is_relative_to_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with open_store("sqlite:///./sub.db") as store:
        store.load_version("v1", [Document("a", "x")])
    assert (tmp_path / "sub.db").is_file()
    with open_store("sqlite:///sub.db") as store:
        assert store.has_version("v1")


def test_absolute_url(tmp_path: Path) -> None:
    path = tmp_path / "abs.db"
    with open_store(f"sqlite:///{path}") as store:
        store.load_version("v1", [Document("a", "x")])
    assert path.is_file()


def test_wal_mode(tmp_path: Path) -> None:
    open_store(f"sqlite:///{tmp_path / 'w.db'}").close()
    with sqlite3.connect(tmp_path / "w.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def _writing_to_a_new_file(path: Path) -> sqlite3.Connection:
    """A connection holding a write transaction on a file still in rollback-journal mode."""
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("CREATE TABLE other (x)")
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO other VALUES (1)")
    return writer


def test_opening_waits_for_a_writer_before_switching_to_wal(tmp_path: Path) -> None:
    # SQLite refuses the switch at once, without its busy handler, while another
    # connection writes: the store must wait for the writer as it does for any lock.
    path = tmp_path / "busy.db"
    writer = _writing_to_a_new_file(path)
    release = threading.Timer(0.3, writer.execute, ("COMMIT",))
    release.start()
    try:
        SqliteStore(path, busy_timeout_s=30).close()
        assert writer.execute("SELECT count(*) FROM other").fetchone() == (1,)
    finally:
        release.join()
        writer.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_writer_held_past_the_busy_timeout_makes_opening_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "held.db"
    writer = _writing_to_a_new_file(path)
    try:
        with pytest.raises(StoreUnavailableError, match="locked"):
            SqliteStore(path, busy_timeout_s=0.2)
    finally:
        writer.close()


def test_missing_directory_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot open SQLite store"):
        open_store(f"sqlite:///{tmp_path / 'absent' / 'x.db'}")


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    (tmp_path / "junk.db").write_bytes(b"this is not a database" * 100)
    with pytest.raises(UsageError, match="not a database"):
        open_store(f"sqlite:///{tmp_path / 'junk.db'}")


def test_a_held_write_lock_makes_a_load_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    store = SqliteStore(path, busy_timeout_s=0.2)
    blocker = sqlite3.connect(path, isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreUnavailableError, match="locked"):
            store.load_version("v1", [Document("a", "x")])
        blocker.execute("ROLLBACK")
        assert store.load_version("v1", [Document("a", "x")]).created
    finally:
        blocker.close()
        store.close()


class _FailingConnection:
    """Stands in for the store's connection, failing every statement with one error."""

    def __init__(self, error: sqlite3.Error):
        self.error = error

    def execute(self, *args: object) -> None:
        raise self.error

    def close(self) -> None:
        pass


def _error(message: str, code: int) -> sqlite3.Error:
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code  # type: ignore[attr-defined]
    return error


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("disk I/O error", sqlite3.SQLITE_IOERR_READ),
        ("database is locked", sqlite3.SQLITE_BUSY),
        ("database table is locked", sqlite3.SQLITE_LOCKED),
    ],
)
def test_transient_faults_during_lookups_are_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, message: str, code: int
) -> None:
    store = SqliteStore(tmp_path / "x.db")
    monkeypatch.setattr(store, "_conn", _FailingConnection(_error(message, code)))
    with pytest.raises(StoreUnavailableError, match=message):
        store.get_documents("v1", ["a"])
    with pytest.raises(StoreUnavailableError):
        store.ping()


def test_other_errors_are_not_called_transient(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SqliteStore(tmp_path / "x.db")
    monkeypatch.setattr(store, "_conn", _FailingConnection(_error("no such table", 1)))
    with pytest.raises(sqlite3.OperationalError):
        store.get_documents("v1", ["a"])
