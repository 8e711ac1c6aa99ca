"""A mapping computed the first time it is read.

Some parts of a document's index serve only some claims: the codes a text names serve
claims that cite an identifier, the sentence groups serve derived figures. Most documents
are never asked for them (on the development sets, one in eleven is asked for its codes),
so they are computed on first use and kept from then on. Computing is pure, so two
threads that race to compute one compute the same thing, and either result is kept.
"""

from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterator, KeysView, Mapping, ValuesView
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Deferred(Mapping[K, V]):
    """The mapping ``compute()`` returns, computed on first read."""

    __slots__ = ("_compute", "_found")

    def __init__(self, compute: Callable[[], Mapping[K, V]]) -> None:
        self._compute = compute
        self._found: Mapping[K, V] | None = None

    def _mapping(self) -> Mapping[K, V]:
        found = self._found
        if found is None:
            found = self._found = self._compute()
        return found

    def __getitem__(self, key: K) -> V:
        return self._mapping()[key]

    def __contains__(self, key: object) -> bool:
        return key in self._mapping()

    def __iter__(self) -> Iterator[K]:
        return iter(self._mapping())

    def __len__(self) -> int:
        return len(self._mapping())

    def keys(self) -> KeysView[K]:
        """The keys, computing the mapping if need be."""
        return self._mapping().keys()

    def values(self) -> ValuesView[V]:
        """The values, computing the mapping if need be."""
        return self._mapping().values()

    def items(self) -> ItemsView[K, V]:
        """The items, computing the mapping if need be."""
        return self._mapping().items()
