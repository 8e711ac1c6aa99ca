"""PostgreSQL for tests: one server per session, a fresh empty database per test.

Registered from tests/conftest.py with ``pytest_plugins = ["tests.support.postgres"]``.
``QUANTCHECK_TEST_POSTGRES_URL`` points the tests at an existing server (which they then
may not stop); otherwise ``deploy/local/postgres`` starts a throwaway cluster in a session
temporary directory and deletes it at the end.

``store_url`` is parametrized over both backends, so a test taking it runs once against
SQLite and once, marked ``integration``, against PostgreSQL.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "local" / "postgres"
URL_ENV = "QUANTCHECK_TEST_POSTGRES_URL"


@dataclass
class PostgresServer:
    """A PostgreSQL server for the session; ``external`` servers cannot be stopped."""

    url: str
    external: bool
    state_dir: Path | None = None

    def _script(self, command: str) -> str:
        if self.external or self.state_dir is None:
            pytest.skip(f"the server from {URL_ENV} is not ours to {command}")
        result = subprocess.run(
            [str(SCRIPT), command, "--state-dir", str(self.state_dir)],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        if result.returncode != 0:
            pytest.fail(f"deploy/local/postgres {command} failed: {result.stderr.strip()}")
        return result.stdout.strip()

    def stop(self) -> None:
        """Stop the server (its data stays), as an outage would."""
        self._script("stop")

    def start(self) -> None:
        """Start it again on the same port, so ``url`` stays valid."""
        url = self._script("start")
        assert url == self.url, f"restarted on {url}, expected {self.url}"

    def database_url(self, name: str) -> str:
        """The server's URL with the database part replaced by ``name``."""
        parts = urlsplit(self.url)
        return urlunsplit(parts._replace(path=f"/{name}"))


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresServer]:
    """The session's PostgreSQL server, started on first use."""
    external = os.environ.get(URL_ENV)
    if external:
        yield PostgresServer(external, external=True)
        return
    state_dir = tmp_path_factory.mktemp("postgres")
    # atexit too, so an interrupted session does not leave a server running.
    atexit.register(_destroy, state_dir)
    server = PostgresServer("", external=False, state_dir=state_dir)
    try:
        server.url = server._script("start")
        yield server
    finally:
        _destroy(state_dir)


def _destroy(state_dir: Path) -> None:
    subprocess.run(
        [str(SCRIPT), "destroy", "--state-dir", str(state_dir)],
        capture_output=True,
        check=False,
        timeout=120,
    )


@pytest.fixture
def postgres_database(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty database on the session's server, dropped after the test."""
    name = f"qc_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server.url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield postgres_server.database_url(name)
    finally:
        # FORCE ends sessions a test left open, e.g. in a killed child process.
        with psycopg.connect(postgres_server.url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.integration)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of an empty document store, once per backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    url: str = request.getfixturevalue("postgres_database")
    return url
