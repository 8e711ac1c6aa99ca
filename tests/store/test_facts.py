"""Facts stored beside the texts, on every backend: a load indexes what it publishes and
refuses a document whose facts cannot be made; readers get the facts of their scope; a
reindex makes the facts a version lacks, keeps what it wrote when it is killed, and
does nothing the second time."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from dataclasses import replace

import pytest
from quantcheck.worker.store import (
    DocumentStore,
    Indexer,
    InvalidDocumentError,
    UnknownVersionError,
    open_store,
)

from quantcheck.checker import Checker, CheckOptions
from quantcheck.checker.model import Document, StoredFacts
from quantcheck.quantities.categories import Scope
from tests.store import procs

SPAWN = multiprocessing.get_context("spawn")


def indexer(scope: Scope = Scope.ALL) -> Indexer:
    checker = Checker(CheckOptions(scope=scope))
    return Indexer(checker.facts_stamp, checker.stored_facts)


class Counting:
    """An indexer that counts the texts it indexes and fails on the ones it is told to."""

    def __init__(self, inner: Indexer, failing: frozenset[str] = frozenset()):
        self.inner = inner
        self.failing = failing
        self.texts: list[str] = []

    def indexer(self) -> Indexer:
        return Indexer(self.inner.stamp, self.facts_of)

    def facts_of(self, text: str) -> bytes:
        self.texts.append(text)
        if any(marker in text for marker in self.failing):
            raise MemoryError("its facts would take 900 MiB, over the bound of 256 MiB")
        return self.inner.facts_of(text)


@pytest.fixture
def reader(store_url: str) -> Iterator[DocumentStore]:
    with open_store(store_url, facts_scope=Scope.ALL.value) as opened:
        yield opened


def documents(count: int, tag: str = "t") -> list[Document]:
    return list(procs.generated(tag, count))


def test_a_load_stores_the_facts_each_reader_of_the_scope_gets(
    store_url: str, reader: DocumentStore
) -> None:
    loaded = [*documents(5), Document("copy", documents(1)[0].text)]
    counting = Counting(indexer())
    with open_store(store_url) as store:
        assert store.load_version("v1", loaded, counting.indexer()).created
        # Without a scope, documents are read without facts.
        assert all(d.facts is None for d in store.get_documents("v1", ["D000000"]).values())
    # Five distinct texts: the copy shares its content, and its facts.
    assert len(counting.texts) == 5
    found = reader.get_documents("v1", [d.doc_id for d in loaded])
    checker = Checker()
    for doc in loaded:
        facts = found[doc.doc_id].facts
        assert facts == StoredFacts(checker.facts_stamp, checker.stored_facts(doc.text))
    with open_store(store_url, facts_scope=Scope.UNITS.value) as units:
        assert units.get_document("v1", "D000001") == replace(loaded[1], facts=None)


def test_reloading_a_version_indexes_nothing(store_url: str) -> None:
    counting = Counting(indexer())
    with open_store(store_url) as store:
        store.load_version("v1", documents(3), counting.indexer())
        assert len(counting.texts) == 3
        assert store.load_version("v1", documents(3), counting.indexer()).unchanged
        # A new version sharing every text finds them indexed already.
        assert store.load_version("v2", documents(3), counting.indexer()).created
    assert len(counting.texts) == 3


def test_a_document_whose_facts_cannot_be_made_refuses_the_load(
    store_url: str, reader: DocumentStore
) -> None:
    loaded = documents(4)
    counting = Counting(indexer(), failing=frozenset({"Document 2 of"}))
    with open_store(store_url) as store:
        with pytest.raises(InvalidDocumentError) as refused:
            store.load_version("v1", loaded, counting.indexer())
        assert not store.has_version("v1")
    message = str(refused.value)
    assert "'D000002'" in message
    assert "'v1'" in message
    assert "900 MiB" in message
    assert "\n" not in message
    # Nothing of the refused load was kept, facts included: a new load indexes all again.
    again = Counting(indexer())
    with open_store(store_url) as store:
        store.load_version("v1", loaded, again.indexer())
    assert len(again.texts) == 4
    assert reader.get_document("v1", "D000002") is not None


def test_a_reindex_makes_the_facts_a_version_lacks_once(
    store_url: str, reader: DocumentStore
) -> None:
    with open_store(store_url) as store:
        store.load_version("v1", documents(7))
        assert all(d.facts is None for d in reader.get_documents("v1", ["D000000"]).values())
        seen: list[tuple[int, int]] = []
        first = store.reindex("v1", indexer(), lambda done, total: seen.append((done, total)))
        assert (first.pending, first.indexed, first.failed) == (7, 7, ())
        assert seen == [(n, 7) for n in range(8)]
        again = store.reindex("v1", indexer())
        assert (again.pending, again.indexed) == (0, 0)
    assert all(d.facts is not None for d in reader.get_documents("v1", ["D000003"]).values())


def test_a_reindex_replaces_facts_of_another_checker_version(
    store_url: str, reader: DocumentStore
) -> None:
    current = indexer()
    old = Indexer(replace(current.stamp, checker_version="0.9.0"), current.facts_of)
    with open_store(store_url) as store:
        store.load_version("v1", documents(4), old)
        stale = reader.get_document("v1", "D000001")
        assert stale is not None
        assert stale.facts is not None
        assert stale.facts.stamp.checker_version == "0.9.0"
        result = store.reindex("v1", current)
        assert (result.pending, result.indexed) == (4, 4)
        # Another scope is a separate set of facts.
        units = store.reindex("v1", indexer(Scope.UNITS))
        assert (units.pending, units.indexed) == (4, 4)
    stored = reader.get_document("v1", "D000001")
    assert stored is not None
    assert stored.facts is not None
    assert stored.facts.stamp == current.stamp


def test_a_reindex_reports_what_it_cannot_index_and_does_the_rest(store_url: str) -> None:
    counting = Counting(indexer(), failing=frozenset({"Document 3 of"}))
    with open_store(store_url) as store:
        store.load_version("v1", documents(6))
        result = store.reindex("v1", counting.indexer())
        assert (result.pending, result.indexed) == (6, 5)
        assert [f.doc_id for f in result.failed] == ["D000003"]
        assert "MemoryError" in result.failed[0].reason
        # Run again, it tries only the one left.
        retry = store.reindex("v1", counting.indexer())
        assert (retry.pending, retry.indexed, len(retry.failed)) == (1, 0, 1)
        with pytest.raises(UnknownVersionError):
            store.reindex("nope", indexer())


def test_a_killed_reindex_keeps_its_work_and_is_resumed(
    store_url: str, reader: DocumentStore
) -> None:
    total, before_kill = 60, 25
    with open_store(store_url) as store:
        store.load_version("v1", documents(total))
    reached = SPAWN.Event()
    child = SPAWN.Process(target=procs.reindex_until, args=(store_url, "v1", before_kill, reached))
    child.start()
    try:
        assert reached.wait(60), "the reindex never got that far"
    finally:
        child.kill()
        child.join(30)
    assert child.exitcode is not None
    assert child.exitcode < 0
    with open_store(store_url) as store:
        resumed = store.reindex("v1", indexer())
    assert (resumed.pending, resumed.indexed) == (total - before_kill, total - before_kill)
    found = reader.get_documents("v1", [d.doc_id for d in documents(total)])
    assert all(doc.facts is not None for doc in found.values())
    assert len(found) == total
