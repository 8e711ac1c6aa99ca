"""Store URLs: which backend a URL names, where its data lives, and how to print it safely."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from quantcheck.errors import UsageError

SQLITE_SCHEMES = frozenset({"sqlite"})
POSTGRES_SCHEMES = frozenset({"postgresql", "postgres"})
URL_FORMS = (
    "sqlite:///RELATIVE/PATH.db, sqlite:////ABSOLUTE/PATH.db or postgresql://USER@HOST:PORT/DB"
)

_USERINFO_PASSWORD = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*://[^:@/?#]*):([^@/?#]*)@")
_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&#]*", re.IGNORECASE)


def mask_url(url: str) -> str:
    """``url`` with any password, in the user info or a ``password=`` parameter, as ``***``."""
    masked = _USERINFO_PASSWORD.sub(r"\1:***@", url)
    return _QUERY_PASSWORD.sub(r"\1***", masked)


@dataclass(frozen=True, slots=True)
class SqliteTarget:
    """A SQLite store: the database file."""

    path: Path


@dataclass(frozen=True, slots=True)
class PostgresTarget:
    """A PostgreSQL store: the libpq connection URI, passed on unchanged."""

    conninfo: str


def parse_store_url(url: str) -> SqliteTarget | PostgresTarget:
    """Decide the backend from the URL scheme; a malformed or unsupported URL is a UsageError."""

    def bad(why: str) -> UsageError:
        return UsageError(f"document store URL {mask_url(url)!r} {why}; use {URL_FORMS}")

    try:
        parts = urlsplit(url)
        _ = parts.port  # parsing the port is what validates it
    except ValueError as exc:
        raise bad(f"is malformed ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme in SQLITE_SCHEMES:
        if parts.netloc:
            raise bad("names a host, which SQLite has no use for")
        if parts.query or parts.fragment:
            raise bad("has a query or fragment, which SQLite URLs do not take")
        # urlsplit keeps the slash after the empty host: '/rel/x.db' or '//abs/x.db'.
        path = unquote(parts.path[1:]) if parts.path.startswith("/") else ""
        if not path or path.endswith("/"):
            raise bad("names no database file")
        if path == ":memory:":
            raise bad("names an in-memory database, which other processes cannot share")
        return SqliteTarget(Path(path))
    if scheme in POSTGRES_SCHEMES:
        if not parts.hostname and "host=" not in parts.query:
            raise bad("names no host")
        return PostgresTarget(url)
    if not scheme:
        raise bad("has no scheme")
    raise bad(f"has the unsupported scheme {scheme!r}")
