"""The evidence cache is bounded by bytes as well as by count: the facts of large documents
cannot make a process's memory grow with the number of documents it has checked."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pytest

from quantcheck.checker.evidence_cache import LruCache, retained_bytes
from quantcheck.checker.model import Status
from quantcheck.settings import MIB
from tests.support.memory import traced_mib

DOCUMENTS = 10
# Each document's facts take about 0.8 MiB: the bound has room for three, not four.
SENTENCES = 500
BOUND_MIB = 3

_MEASURE = """
import sys, tracemalloc
from quantcheck.checker import CheckOptions, Checker
from quantcheck.checker.model import Document, sha256_text

bound, documents, sentences = (int(arg) for arg in sys.argv[1:])
checker = Checker(CheckOptions(claim_cache_size=0, evidence_cache_bytes=bound or None))


def document(i, sentences):
    text = " ".join(
        f"Sensor {i}-{n} logs every {n % 60 + 1} seconds and draws {n % 9 + 1}.5 W."
        for n in range(sentences)
    )
    return Document(f"d{i}", text, "t", sha256_text(text))


# The first extraction loads the lemmatiser's tables: not the cache's doing.
checker.evidence(document(-1, 10))
checker.evidence_cache.clear()
tracemalloc.start()
baseline = tracemalloc.get_traced_memory()[0]
held = 0
for i in range(documents):
    checker.evidence(document(i, sentences))
    held = max(held, tracemalloc.get_traced_memory()[0] - baseline)
print(held // 1024)
"""


def test_the_cache_drops_the_oldest_values_to_stay_within_its_bytes() -> None:
    sizes = {"a": 40, "b": 30, "c": 20, "d": 10}
    measured: list[str] = []

    def size_of(key: str) -> int:
        measured.append(key)
        return sizes[key]

    cache: LruCache[str, str] = LruCache(10, max_bytes=60, size_of=size_of)
    for key in "abc":
        cache.get_or_compute(key, lambda k=key: k)
    assert (len(cache), cache.cached_bytes) == (2, 50), "a made room for c"
    cache.get_or_compute("b", lambda: "b")  # b is now the most recently used
    cache.get_or_compute("d", lambda: "d")
    assert (len(cache), cache.cached_bytes) == (3, 60)
    assert measured == ["a", "b", "c", "d"], "a value is measured once, when it is computed"
    cache.get_or_compute("c", lambda: "c")
    assert cache.misses == 4, "c stayed"


def test_a_value_larger_than_the_bound_is_returned_but_not_kept() -> None:
    cache: LruCache[str, list[int]] = LruCache(10, max_bytes=1_000)
    big = list(range(1_000))
    assert cache.get_or_compute("big", lambda: big) is big
    assert (len(cache), cache.cached_bytes) == (0, 0)


@dataclass(frozen=True, slots=True)
class Held:
    text: str
    kind: Status


def test_retained_bytes_counts_what_a_value_reaches_once() -> None:
    text = "x" * 10_000
    held = Held(text, Status.SUPPORTED)
    assert retained_bytes({"k": (held,)}) > 10_000, "through a mapping, a tuple and slots"
    assert retained_bytes([held, held]) - retained_bytes([held]) == sys.getsizeof(
        [held, held]
    ) - sys.getsizeof([held]), "the same object counts once"
    assert retained_bytes(held) == sys.getsizeof(held) + sys.getsizeof(text), (
        "enum members are shared by every value and not counted"
    )


def test_a_negative_bound_is_refused() -> None:
    with pytest.raises(ValueError, match="must not be negative"):
        LruCache[str, int](1, max_bytes=-1)


def test_the_facts_of_a_dozen_large_documents_stay_within_the_bound() -> None:
    def growth_mib(bound_bytes: int) -> float:
        """The most memory a process extracting every document's facts through a cache
        bounded by ``bound_bytes`` (0: by count only) holds between documents, over its
        baseline."""
        return traced_mib(_MEASURE, bound_bytes, DOCUMENTS, SENTENCES)

    bounded, unbounded = growth_mib(BOUND_MIB * MIB), growth_mib(0)
    print(f"memory held: {bounded:.1f} MiB bounded by {BOUND_MIB} MiB, {unbounded:.1f} without")
    assert unbounded > 2 * BOUND_MIB, "without the byte bound the facts would pile up"
    assert bounded < BOUND_MIB
