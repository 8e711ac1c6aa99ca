"""Facts indexed beside the stored texts: the pass a load and a reindex share.

A load makes the facts of every content it stages that the store holds no current facts
for (under the indexer's stamp) before the version is published, so a version appears
with its facts or not at all, and a document whose facts cannot be made refuses the
load. A reindex makes them for a version already loaded (by an older checker, or
without facts) one content at a time, each written on its own: a reindex that is
stopped keeps what it wrote, and running it again does only what is left.

Contents are walked in hash order, a page at a time from the last hash seen, so a
content whose facts cannot be made is passed over instead of being met again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from quantcheck.checker.model import FactsStamp

# Contents read per query of a pass; each one is then read, indexed and written alone.
PAGE = 200

# Writing a content's facts under a stamp replaces facts of another stamp for its scope.
UPSERT_FACTS = "INSERT INTO doc_facts (sha256, scope, checker_version, encoding, facts)"
ON_CONFLICT = (
    " ON CONFLICT (sha256, scope) DO UPDATE SET checker_version = excluded.checker_version,"
    " encoding = excluded.encoding, facts = excluded.facts"
)


@dataclass(frozen=True, slots=True)
class Indexer:
    """How stored facts are made: the stamp they bear and the function that makes them
    from a document's text (a checker's :meth:`~quantcheck.checker.Checker.stored_facts`)."""

    stamp: FactsStamp
    facts_of: Callable[[str], bytes]


@dataclass(frozen=True, slots=True)
class Pending:
    """A content without current facts, and one document that holds it (to name it)."""

    sha256: str
    doc_id: str


@dataclass(frozen=True, slots=True)
class IndexFailure:
    """A document whose facts could not be made, and why."""

    doc_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class ReindexResult:
    """What a reindex of one version did: how many of its contents lacked current facts
    when it started, how many it indexed, and the ones it could not."""

    kb_version: str
    pending: int
    indexed: int
    failed: tuple[IndexFailure, ...]


# Called with the contents done so far and the contents pending when the pass began.
Progress = Callable[[int, int], None]


class Contents(Protocol):
    """The contents one pass walks, and where it writes their facts."""

    def pending(self, after: str, limit: int) -> list[Pending]:
        """Up to ``limit`` contents after hash ``after``, in hash order, that lack facts
        under the pass's stamp."""

    def count(self) -> int:
        """How many contents lack facts under the pass's stamp."""

    def text(self, sha256: str) -> str:
        """The text of one content."""

    def write(self, sha256: str, facts: bytes) -> None:
        """Store the facts of one content under the pass's stamp."""


def index_pending(
    contents: Contents,
    indexer: Indexer,
    on_failure: Callable[[IndexFailure], None],
    advance: Callable[[int], None] | None = None,
) -> int:
    """Make and write the facts of every pending content; returns how many were written.
    A content whose facts cannot be made goes to ``on_failure``, which may raise to end
    the pass; ``advance`` is told how many contents are done after each."""
    after = ""
    written = done = 0
    while page := contents.pending(after, PAGE):
        for item in page:
            text = contents.text(item.sha256)
            try:
                facts = indexer.facts_of(text)
            except Exception as exc:  # whatever it is, it names the document
                on_failure(IndexFailure(item.doc_id, f"{type(exc).__name__}: {exc}"))
            else:
                contents.write(item.sha256, facts)
                written += 1
            done += 1
            if advance is not None:
                advance(done)
        after = page[-1].sha256
    return written


@dataclass(frozen=True, slots=True)
class SqlContents:
    """The contents of ``source`` (a table, or a query of ``doc_id, sha256`` rows taking
    ``params``) for a pass under ``stamp``, through ``run`` (a statement and its
    parameters in, rows out) with ``mark`` as the placeholder. ``read`` takes a hash and
    gives the text; ``staging`` takes the hash and the facts, and None writes them to the
    store's facts under the stamp."""

    run: Callable[[str, tuple[Any, ...]], list[Any]]
    stamp: FactsStamp
    source: str
    params: tuple[Any, ...]
    read: str
    staging: str | None
    mark: str = "?"

    def _lacking(self, select: str, after: str, tail: str, *extra: Any) -> list[Any]:
        stamp, mark = self.stamp, self.mark
        return self.run(
            f"SELECT {select} FROM {self.source} AS s"
            f" LEFT JOIN doc_facts AS f ON f.sha256 = s.sha256 AND f.scope = {mark}"
            f" WHERE s.sha256 > {mark} AND (f.sha256 IS NULL"
            f" OR f.checker_version <> {mark} OR f.encoding <> {mark}){tail}",
            (*self.params, stamp.scope, after, stamp.checker_version, stamp.encoding, *extra),
        )

    def pending(self, after: str, limit: int) -> list[Pending]:
        tail = f" GROUP BY s.sha256 ORDER BY s.sha256 LIMIT {self.mark}"
        rows = self._lacking("s.sha256, min(s.doc_id)", after, tail, limit)
        return [Pending(str(sha256), str(doc_id)) for sha256, doc_id in rows]

    def count(self) -> int:
        return int(self._lacking("count(DISTINCT s.sha256)", "", "")[0][0])

    def text(self, sha256: str) -> str:
        return str(self.run(self.read, (sha256,))[0][0])

    def write(self, sha256: str, facts: bytes) -> None:
        if self.staging is not None:
            self.run(self.staging, (sha256, facts))
            return
        stamp, mark = self.stamp, self.mark
        self.run(
            f"{UPSERT_FACTS} VALUES ({', '.join([mark] * 5)}){ON_CONFLICT}",
            (sha256, stamp.scope, stamp.checker_version, stamp.encoding, facts),
        )
