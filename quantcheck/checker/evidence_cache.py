"""A bounded LRU cache for pure computations: documents' facts by content hash, verdicts
by claim and evidence.

The same document is cited by many claims, and its text never changes under a given
hash, so extraction runs once per distinct content rather than once per claim. Documents
may be tens of megabytes, and so may their facts, so the cache can be bounded by the bytes
its values hold as well as by their number.
"""

from __future__ import annotations

import enum
import gc
import sys
import threading
import types
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# Objects that refer to no others that are part of a value: its leaves, and the functions
# a lazy mapping keeps to compute itself (what they reach belongs to their module).
_OPAQUE = (
    str,
    bytes,
    int,
    float,
    complex,
    bool,
    type(None),
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
)
# Objects every cached value shares.
_SHARED = (enum.Enum, type)


def retained_bytes(value: object) -> int:
    """The memory held by ``value`` and every object it reaches (containers, fields and
    slots, as the garbage collector sees them), each object counted once; enum members
    and classes, which every value shares, are not counted. A mapping other than a dict is
    read by what it holds, not by its items: measuring must not compute what a lazy
    mapping defers, nor make the objects a compact one makes on lookup."""
    seen: set[int] = set()
    stack = [value]
    total = 0
    size_of, referents = sys.getsizeof, gc.get_referents
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, _SHARED):
            continue
        total += size_of(item)
        if not isinstance(item, _OPAQUE):
            # Asked of the collector, which knows every object's references in C: reading
            # fields and slots one by one took as long as decoding the value.
            stack.extend(referents(item))
    return total


class LruCache(Generic[K, V]):
    """Least-recently-used mapping from a key to a computed value, holding at most
    ``max_entries`` values and, when ``max_bytes`` is given, at most that many bytes of them
    as ``size_of`` measures each value (once, when it is computed). A value larger than
    ``max_bytes`` is returned but not kept."""

    def __init__(
        self,
        max_entries: int,
        *,
        max_bytes: int | None = None,
        size_of: Callable[[V], int] = retained_bytes,
    ):
        if max_entries < 1:
            raise ValueError("an LRU cache needs room for at least one entry")
        if max_bytes is not None and max_bytes < 0:
            raise ValueError(f"max_bytes must not be negative, got {max_bytes}")
        self._max = max_entries
        self._max_bytes = max_bytes
        self._size_of = size_of
        self._entries: OrderedDict[K, V] = OrderedDict()
        # Bytes of each entry, kept only under a byte bound.
        self._sizes: dict[K, int] = {}
        self.cached_bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get_or_compute(self, key: K, compute: Callable[[], V]) -> V:
        """The cached value for ``key``, computing and storing it on a miss."""
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return value
            self.misses += 1
        # Computed outside the lock: extraction is pure, so a rare duplicate is harmless.
        value = compute()
        size = 0 if self._max_bytes is None else self._size_of(value)
        if self._max_bytes is not None and size > self._max_bytes:
            return value
        with self._lock:
            if self._max_bytes is not None:
                self.cached_bytes += size - self._sizes.get(key, 0)
                self._sizes[key] = size
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self._max or (
                self._max_bytes is not None and self.cached_bytes > self._max_bytes
            ):
                dropped, _ = self._entries.popitem(last=False)
                self.cached_bytes -= self._sizes.pop(dropped, 0)
        return value

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        """Forget every entry (used to measure cold-cache behaviour)."""
        with self._lock:
            self._entries.clear()
            self._sizes.clear()
            self.cached_bytes = 0
