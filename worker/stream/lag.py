"""Consumer lag per assigned partition, refreshed every so often rather than every batch."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from kafka.errors import KafkaError

DEFAULT_INTERVAL_S = 10.0
_QUERY_TIMEOUT_MS = 2_000


class LagMonitor:
    """Measures how far behind the end of each assigned partition the consumer is."""

    def __init__(
        self,
        *,
        interval_s: float = DEFAULT_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._interval_s = interval_s
        self._clock = clock
        self._next_at = clock()

    def due(self) -> bool:
        """Whether it is time for another measurement."""
        return self._clock() >= self._next_at

    def measure(self, consumer: Any) -> dict[int, int] | None:
        """Lag per partition number, or ``None`` when the broker did not answer in time.

        The end offsets come from one ListOffsets request; for a read_committed consumer
        they are the last stable offsets, so open transactions do not count as lag.
        """
        assigned = list(consumer.assignment())
        if not assigned:
            # Measured again on the next turn, so the first assignment shows up at once.
            return {}
        self._next_at = self._clock() + self._interval_s
        try:
            ends = consumer.end_offsets(assigned, timeout_ms=_QUERY_TIMEOUT_MS)
            lags: dict[int, int] = {}
            for tp in assigned:
                position = consumer.position(tp, timeout_ms=_QUERY_TIMEOUT_MS)
                end = ends.get(tp)
                if position is not None and end is not None:
                    lags[tp.partition] = max(end - position, 0)
        except (KafkaError, ValueError):
            # ValueError: a partition was revoked while measuring; the next round has it right.
            return None
        return lags
