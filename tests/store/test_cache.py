"""The LRU cache: bounded, batched, never caching what may still change, thread-safe."""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterable
from datetime import UTC, datetime

import pytest
from quantcheck.worker.store import CachingStore, open_store
from quantcheck.worker.store.base import (
    DocumentStore,
    LoadResult,
    VersionDiff,
    VersionInfo,
    manifest_sha256,
)
from quantcheck.worker.store.indexing import Contents, Indexer

from quantcheck.checker.model import Document, FactsStamp

_EPOCH = datetime(2024, 1, 1, tzinfo=UTC)


class CountingStore(DocumentStore):
    """An in-memory store that records every call made to it."""

    def __init__(self) -> None:
        self.versions: dict[str, dict[str, Document]] = {}
        self.document_calls: list[tuple[str, list[str]]] = []
        self.version_calls = 0
        self.pings = 0
        self.closed = False
        self._lock = threading.Lock()

    def get_documents(self, kb_version: str, doc_ids: Collection[str]) -> dict[str, Document]:
        with self._lock:
            self.document_calls.append((kb_version, list(doc_ids)))
        docs = self.versions.get(kb_version, {})
        return {doc_id: docs[doc_id] for doc_id in doc_ids if doc_id in docs}

    def has_version(self, kb_version: str) -> bool:
        return self.get_version(kb_version) is not None

    def get_version(self, kb_version: str) -> VersionInfo | None:
        with self._lock:
            self.version_calls += 1
        docs = self.versions.get(kb_version)
        if docs is None:
            return None
        return VersionInfo(kb_version, _EPOCH, len(docs), manifest_sha256(docs.values()))

    def list_versions(self) -> list[VersionInfo]:
        return [info for v in self.versions if (info := self.get_version(v)) is not None]

    def load_version(
        self, kb_version: str, documents: Iterable[Document], indexer: Indexer | None = None
    ) -> LoadResult:
        self.versions[kb_version] = {d.doc_id: d for d in documents}
        info = self.get_version(kb_version)
        assert info is not None
        return LoadResult(info, created=True)

    def diff(self, old: str, new: str) -> VersionDiff:
        return VersionDiff(old, new, (), (), ())

    def contents_to_index(self, kb_version: str, stamp: FactsStamp) -> Contents:
        raise NotImplementedError("this store keeps no facts")

    def ping(self) -> None:
        with self._lock:
            self.pings += 1

    def close(self) -> None:
        self.closed = True


def docs(*ids: str) -> list[Document]:
    return [Document(doc_id, f"text of {doc_id}") for doc_id in ids]


@pytest.fixture
def inner() -> CountingStore:
    store = CountingStore()
    store.load_version("v1", docs("a", "b", "c", "d", "e"))
    return store


def test_hits_skip_the_inner_store_and_misses_go_in_one_batch(inner: CountingStore) -> None:
    cache = CachingStore(inner, max_documents=100)
    assert set(cache.get_documents("v1", ["a", "b"])) == {"a", "b"}
    assert set(cache.get_documents("v1", ["a", "b", "c", "d"])) == {"a", "b", "c", "d"}
    assert set(cache.get_documents("v1", ["d", "c", "b", "a"])) == {"a", "b", "c", "d"}
    assert inner.document_calls == [("v1", ["a", "b"]), ("v1", ["c", "d"])]
    assert (cache.hits, cache.misses) == (6, 4)


def test_least_recently_used_documents_are_evicted(inner: CountingStore) -> None:
    cache = CachingStore(inner, max_documents=3)
    cache.get_documents("v1", ["a", "b", "c"])
    cache.get_documents("v1", ["a"])  # now b is the least recently used
    cache.get_documents("v1", ["d"])
    inner.document_calls.clear()
    cache.get_documents("v1", ["a", "c", "d"])
    assert inner.document_calls == []
    cache.get_documents("v1", ["b"])
    assert inner.document_calls == [("v1", ["b"])]


def test_documents_are_cached_per_version(inner: CountingStore) -> None:
    inner.load_version("v2", [Document("a", "changed text")])
    cache = CachingStore(inner, max_documents=10)
    assert cache.get_documents("v1", ["a"])["a"].text == "text of a"
    assert cache.get_documents("v2", ["a"])["a"].text == "changed text"


def test_a_version_loaded_later_is_seen(inner: CountingStore) -> None:
    cache = CachingStore(inner, max_documents=10)
    assert not cache.has_version("v9")
    assert cache.get_documents("v9", ["a"]) == {}
    inner.load_version("v9", docs("a"))
    assert cache.has_version("v9")
    assert set(cache.get_documents("v9", ["a"])) == {"a"}


def test_existing_versions_and_their_absent_ids_are_cached(inner: CountingStore) -> None:
    cache = CachingStore(inner, max_documents=10)
    assert cache.get_version("v1") is not None
    calls = inner.version_calls
    assert cache.has_version("v1")
    assert inner.version_calls == calls
    assert cache.get_documents("v1", ["zz"]) == {}
    assert cache.get_documents("v1", ["zz"]) == {}
    assert inner.document_calls == [("v1", ["zz"])]


def test_size_zero_caches_nothing(inner: CountingStore) -> None:
    cache = CachingStore(inner, max_documents=0)
    cache.get_documents("v1", ["a"])
    cache.get_documents("v1", ["a"])
    assert len(inner.document_calls) == 2
    with pytest.raises(ValueError, match="negative"):
        CachingStore(inner, max_documents=-1)


def test_other_calls_pass_through(inner: CountingStore) -> None:
    cache = CachingStore(inner, max_documents=10)
    assert cache.load_version("v3", docs("x")).created
    assert [v.kb_version for v in cache.list_versions()] == ["v1", "v3"]
    cache.ping()
    assert inner.pings == 1
    cache.close()
    assert inner.closed


def test_threads_share_the_cache_safely(inner: CountingStore) -> None:
    inner.load_version("big", docs(*(f"k{i}" for i in range(200))))
    cache = CachingStore(inner, max_documents=50)
    failures: list[BaseException] = []

    def work(offset: int) -> None:
        try:
            for round_ in range(200):
                ids = [f"k{(offset + round_ + j) % 200}" for j in range(5)]
                assert set(cache.get_documents("big", ids)) == set(ids)
                cache.ping()
        except BaseException as exc:  # reported to the main thread
            failures.append(exc)

    threads = [threading.Thread(target=work, args=(i * 17,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(cache._entries) <= 50
    assert cache.hits + cache.misses == 8 * 200 * 5


def test_over_a_real_store(store_url: str) -> None:
    with open_store(store_url) as real:
        real.load_version("v1", docs("a", "b"))
        cache = CachingStore(real, max_documents=10)
        assert set(cache.get_documents("v1", ["a", "b", "c"])) == {"a", "b"}
        assert set(cache.get_documents("v1", ["a", "b", "c"])) == {"a", "b"}
        assert cache.hits == 2
