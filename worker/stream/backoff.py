"""Capped exponential backoff with jitter, for retrying after a transient failure."""

from __future__ import annotations

import random
from collections.abc import Callable


class Backoff:
    """Delays that double from ``initial_s`` up to ``maximum_s``, each varied by ±``jitter``.

    The jitter keeps workers that failed together (say, when the store went away) from
    retrying in lockstep.
    """

    def __init__(
        self,
        *,
        initial_s: float = 0.25,
        maximum_s: float = 5.0,
        factor: float = 2.0,
        jitter: float = 0.2,
        uniform: Callable[[float, float], float] = random.uniform,
    ) -> None:
        if not 0 < initial_s <= maximum_s:
            raise ValueError("backoff needs 0 < initial_s <= maximum_s")
        self._initial = initial_s
        self._maximum = maximum_s
        self._factor = factor
        self._jitter = jitter
        self._uniform = uniform
        self.attempts = 0

    def next_delay(self) -> float:
        """The delay before the next attempt; each call counts one more failed attempt."""
        base = min(self._initial * self._factor**self.attempts, self._maximum)
        self.attempts += 1
        return base * self._uniform(1 - self._jitter, 1 + self._jitter)

    def reset(self) -> None:
        """Start again from ``initial_s`` after a success."""
        self.attempts = 0
