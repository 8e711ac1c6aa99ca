"""Store URLs: backend choice, paths, and errors that never show a password."""

from __future__ import annotations

from pathlib import Path

import pytest
from quantcheck.worker.store import mask_url, open_store
from quantcheck.worker.store.url import PostgresTarget, SqliteTarget, parse_store_url

from quantcheck.errors import UsageError
from quantcheck.settings import BY_NAME


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///./quantcheck.db", Path("quantcheck.db")),
        ("sqlite:///relative/path.db", Path("relative/path.db")),
        ("sqlite:////abs/path.db", Path("/abs/path.db")),
        ("sqlite:////abs/with%20space.db", Path("/abs/with space.db")),
    ],
)
def test_sqlite_paths(url: str, path: Path) -> None:
    assert parse_store_url(url) == SqliteTarget(path)


def test_the_default_setting_is_a_valid_url() -> None:
    assert isinstance(parse_store_url(BY_NAME["store_url"].default), SqliteTarget)


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://postgres@127.0.0.1:5432/quantcheck",
        "postgres://user:pw@db.internal/quantcheck?sslmode=require",
    ],
)
def test_postgres_urls_pass_through(url: str) -> None:
    assert parse_store_url(url) == PostgresTarget(url)


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("mysql://root:s3cret@db/kb", "unsupported scheme 'mysql'"),
        ("quantcheck.db", "has no scheme"),
        ("sqlite://host/kb.db", "names a host"),
        ("sqlite:///", "names no database file"),
        ("sqlite:///:memory:", "in-memory"),
        ("sqlite:///kb.db?mode=ro", "query"),
        ("postgresql://u:s3cret@db:port/kb", "malformed"),
        ("postgresql:///kb", "names no host"),
    ],
)
def test_bad_urls_are_usage_errors_naming_the_masked_url(url: str, why: str) -> None:
    with pytest.raises(UsageError) as caught:
        open_store(url)
    message = str(caught.value)
    assert why in message
    assert mask_url(url) in message
    assert "s3cret" not in message


@pytest.mark.parametrize(
    ("url", "masked"),
    [
        ("postgresql://u:pw@h:5432/db", "postgresql://u:***@h:5432/db"),
        ("postgresql://:pw@h/db", "postgresql://:***@h/db"),
        ("postgresql://u@h/db", "postgresql://u@h/db"),
        ("postgresql://h/db?user=u&password=pw&x=1", "postgresql://h/db?user=u&password=***&x=1"),
        ("sqlite:///./a.db", "sqlite:///./a.db"),
    ],
)
def test_mask_url(url: str, masked: str) -> None:
    assert mask_url(url) == masked
