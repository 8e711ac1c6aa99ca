"""What ``/healthz`` and ``/readyz`` report, kept current by the poll loop.

The loop writes; the HTTP server's threads read. Liveness only asks whether the loop is
still turning; readiness also asks whether the worker can do its job right now.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from quantcheck.errors import TransientError

# Longer than any single step of the loop may block: a store query (seconds), a bounded
# transaction call (15 s) or a producer's initialisation (about 15 s).
DEFAULT_STALE_AFTER_S = 60.0


class Health:
    """Liveness and readiness of one worker."""

    def __init__(
        self,
        *,
        store_ping: Callable[[], None],
        stale_after_s: float = DEFAULT_STALE_AFTER_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store_ping = store_ping
        self._stale_after_s = stale_after_s
        self._clock = clock
        self._lock = threading.Lock()
        self._last_beat = clock()
        self._subscribed = False
        self._assigned = 0
        self._stable = False
        self._degraded: str | None = None
        self._stopping = False

    def beat(self) -> None:
        """Record that the poll loop just ran."""
        now = self._clock()
        with self._lock:
            self._last_beat = now

    def set_group(self, *, subscribed: bool, assigned: int, stable: bool) -> None:
        """Record the consumer's subscription, assignment and membership state."""
        with self._lock:
            self._subscribed, self._assigned, self._stable = subscribed, assigned, stable

    def set_degraded(self, reason: str | None) -> None:
        """Record why the worker is retrying a failure, or ``None`` once it is not."""
        with self._lock:
            self._degraded = reason

    def set_stopping(self) -> None:
        """Record that the worker is shutting down."""
        with self._lock:
            self._stopping = True

    @property
    def degraded(self) -> str | None:
        """Why the worker is retrying, if it is."""
        with self._lock:
            return self._degraded

    def live(self) -> bool:
        """True while the poll loop has run recently."""
        with self._lock:
            last = self._last_beat
        return self._clock() - last <= self._stale_after_s

    def ready(self) -> tuple[bool, str]:
        """Whether the worker should receive work, with the reason."""
        with self._lock:
            stopping, degraded = self._stopping, self._degraded
            subscribed, assigned, stable = self._subscribed, self._assigned, self._stable
        if stopping:
            return False, "shutting down"
        if degraded is not None:
            return False, f"degraded: {degraded}"
        if not subscribed:
            return False, "not subscribed to the claims topic yet"
        if assigned == 0 and not stable:
            return False, "joining the consumer group"
        try:
            self._store_ping()
        except TransientError as exc:
            return False, f"document store unreachable: {exc}"
        if assigned == 0:
            return True, "group member without partitions (more workers than partitions)"
        return True, f"{assigned} partition(s) assigned"
