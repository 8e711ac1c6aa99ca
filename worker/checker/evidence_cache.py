"""A bounded LRU cache for pure computations: documents' facts by content hash, verdicts
by claim and evidence.

The same document is cited by many claims, and its text never changes under a given
hash, so extraction runs once per distinct content rather than once per claim.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LruCache(Generic[K, V]):
    """Least-recently-used mapping from a key to a computed value."""

    def __init__(self, max_entries: int):
        if max_entries < 1:
            raise ValueError("an LRU cache needs room for at least one entry")
        self._max = max_entries
        self._entries: OrderedDict[K, V] = OrderedDict()
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
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self._max:
                self._entries.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        """Forget every entry (used to measure cold-cache behaviour)."""
        with self._lock:
            self._entries.clear()
