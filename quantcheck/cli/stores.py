"""Opening the document store for a command: one line and exit 2 when it cannot be reached."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from quantcheck.errors import TransientError, UsageError
from quantcheck.worker.store import CachingStore, DocumentStore, StoreTimeouts, open_store


@contextmanager
def opened_store(
    url: str,
    *,
    cache_size: int | None = None,
    cache_bytes: int | None = None,
    timeouts: StoreTimeouts | None = None,
    create: bool = False,
    facts_scope: str | None = None,
) -> Iterator[DocumentStore]:
    """The store at ``url``, behind an in-process cache of ``cache_size`` documents if given.
    Only a command that writes documents (``create``) makes a SQLite file that is not there:
    one that only reads would otherwise leave an empty store behind, under a mistyped name.
    A command that checks claims reads documents with their facts stored under its scope
    (``facts_scope``).

    A store that cannot be reached, when the command starts or while it runs, ends the
    command with one line like any other failure; a command that rides out outages (the
    worker) handles them before they get here.
    """
    try:
        inner = open_store(url, timeouts, create=create, facts_scope=facts_scope)
        store = inner if cache_size is None else CachingStore(inner, cache_size, cache_bytes)
        with store:
            yield store
    except TransientError as exc:
        raise UsageError(str(exc)) from None
