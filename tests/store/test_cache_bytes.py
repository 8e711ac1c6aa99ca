"""The document cache is bounded by bytes as well as by count: large documents cannot make a
worker's memory grow with the number it has seen."""

from __future__ import annotations

from pathlib import Path

from quantcheck.worker.store import CachingStore, open_store
from quantcheck.worker.store.cache import document_bytes

from quantcheck.checker.model import Document, sha256_text
from tests.support.memory import traced_mib

MIB = 1024 * 1024
BIG_DOCUMENTS = 50
BIG_DOCUMENT_BYTES = 5_000_000
BOUND_MIB = 32


def document(doc_id: str, size: int) -> Document:
    text = (doc_id + " ") * (size // (len(doc_id) + 1))
    return Document(doc_id=doc_id, text=text, topic="t", sha256=sha256_text(text))


def test_the_cache_drops_the_oldest_documents_to_stay_within_its_bytes(tmp_path: Path) -> None:
    with open_store(f"sqlite:///{tmp_path / 'store.db'}") as inner:
        inner.load_version("v1", (document(f"d{i}", 10_000) for i in range(10)))
        one = document_bytes(inner.get_document("v1", "d0"))
        cache = CachingStore(inner, max_documents=100, max_bytes=3 * one)
        for i in range(10):
            assert cache.get_document("v1", f"d{i}") is not None
        assert cache.cached_bytes <= 3 * one
        before = cache.misses
        cache.get_documents("v1", ["d7", "d8", "d9"])
        assert cache.misses == before, "the three most recent documents stayed"
        cache.get_document("v1", "d0")
        assert cache.misses == before + 1, "the oldest were dropped"


def test_a_document_larger_than_the_bound_is_served_but_not_kept(tmp_path: Path) -> None:
    with open_store(f"sqlite:///{tmp_path / 'store.db'}") as inner:
        inner.load_version("v1", [document("big", 100_000)])
        cache = CachingStore(inner, max_documents=100, max_bytes=10_000)
        assert cache.get_document("v1", "big") is not None
        assert cache.cached_bytes == 0


_MEASURE = """
import sys, tracemalloc
from quantcheck.worker.store import CachingStore, open_store

inner = open_store(sys.argv[1])
bound = int(sys.argv[2])
cache = CachingStore(inner, max_documents=10_000, max_bytes=bound or None)
tracemalloc.start()
baseline = tracemalloc.get_traced_memory()[0]
held = 0
for i in range(int(sys.argv[3])):
    cache.get_document("v1", f"d{i}")
    held = max(held, tracemalloc.get_traced_memory()[0] - baseline)
print(held // 1024)
"""


def test_fifty_five_megabyte_documents_stay_within_the_bound(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'big.db'}"
    with open_store(url) as store:
        store.load_version(
            "v1", (document(f"d{i}", BIG_DOCUMENT_BYTES) for i in range(BIG_DOCUMENTS))
        )

    def growth_mib(bound_bytes: int) -> float:
        """The most memory a process reading every document through a cache bounded by
        ``bound_bytes`` (0: by count only) holds between lookups, over its baseline."""
        return traced_mib(_MEASURE, url, bound_bytes, BIG_DOCUMENTS)

    bounded, unbounded = growth_mib(BOUND_MIB * MIB), growth_mib(0)
    print(f"memory held: {bounded:.1f} MiB bounded by {BOUND_MIB} MiB, {unbounded:.1f} without")
    assert unbounded > BOUND_MIB, "without the byte bound the documents would pile up"
    assert bounded < BOUND_MIB
