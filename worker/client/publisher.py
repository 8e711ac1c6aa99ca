"""A publisher that never blocks its caller: a bounded buffer and one background sender.

``publish_answer`` and ``publish_claim`` validate the event against the contract (a bad
event is the caller's bug and raises at once), put it in a bounded buffer and return.
A daemon thread connects to Kafka, retrying with backoff while the cluster is away, and
sends what the buffer holds, keyed by answer or claim ID.

**When the buffer is full** (the cluster has been away for a while, or cannot keep up) the
event being published is dropped: ``publish_*`` returns False and ``stats().dropped``
counts it. The older events keep their place and their order; the backend's response is
never held up by the guardrail. Events the cluster refuses, and those still unsent when
``close`` gives up, count as ``failed``.

From asyncio code ``publish_*`` can be called directly (they do not block);
``flush_async`` and ``close_async``, or ``async with``, wait without blocking the loop.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Final

from kafka import KafkaProducer
from quantcheck.schemas import AnswerEvent, ClaimEvent
from quantcheck.worker.client.messages import as_answer, as_claim, event_message

DEFAULT_TOPIC: Final = "claims"
DEFAULT_BUFFER_SIZE: Final = 10_000
"""Events held while the cluster is away: at a few kilobytes each, some tens of MB."""

# Kafka settings the publisher starts from; ``producer_config`` overrides any of them.
# An answer must reach the topic once, in order per key, even across broker failovers.
PRODUCER_DEFAULTS: Final[Mapping[str, Any]] = {
    "acks": "all",
    "enable_idempotence": True,
    "linger_ms": 5,
    # A send that cannot get metadata gives up within this, in the background thread.
    "max_block_ms": 10_000,
    "bootstrap_timeout_ms": 10_000,
    "max_request_size": 10 * 1024 * 1024,
}

_IDLE_POLL_S = 0.1
_RECONNECT_FIRST_S = 0.5
_RECONNECT_MAX_S = 10.0

log = logging.getLogger("quantcheck.client")


@dataclass(frozen=True, slots=True)
class PublisherStats:
    """What happened to the events handed to a publisher so far."""

    accepted: int
    """Taken into the buffer."""
    delivered: int
    """Acknowledged by the cluster."""
    dropped: int
    """Refused because the buffer was full or the publisher closed; never sent."""
    failed: int
    """Accepted but not delivered: refused by the cluster, or unsent when closing gave up."""

    @property
    def pending(self) -> int:
        """Accepted and not yet delivered or failed."""
        return self.accepted - self.delivered - self.failed


class Publisher:
    """Publishes answer and claim events to the claims topic from a background thread."""

    def __init__(
        self,
        bootstrap_servers: str | Sequence[str],
        *,
        topic: str = DEFAULT_TOPIC,
        buffer_size: int = DEFAULT_BUFFER_SIZE,
        client_id: str = "quantcheck-publisher",
        producer_config: Mapping[str, Any] | None = None,
    ) -> None:
        """Start the sender; nothing here waits for the cluster.

        ``producer_config`` holds further kafka-python producer settings, such as
        ``security_protocol``, ``sasl_mechanism`` or ``ssl_cafile``.
        """
        if buffer_size < 1:
            raise ValueError(f"buffer_size must be at least 1, got {buffer_size}")
        servers = (
            bootstrap_servers.split(",")
            if isinstance(bootstrap_servers, str)
            else bootstrap_servers
        )
        self.topic = topic
        self._config: dict[str, Any] = {
            **PRODUCER_DEFAULTS,
            "client_id": client_id,
            **(producer_config or {}),
            "bootstrap_servers": [server.strip() for server in servers if server.strip()],
        }
        self._buffer: queue.Queue[tuple[bytes, bytes]] = queue.Queue(maxsize=buffer_size)
        self._changed = threading.Condition()
        self._accepted = self._delivered = self._dropped = self._failed = 0
        self._closing = threading.Event()
        self._settled = False
        self._sender = threading.Thread(target=self._run, name="quantcheck-publisher", daemon=True)
        self._sender.start()

    # --- publishing, from any thread or coroutine ---------------------------------------

    def publish_answer(self, answer: AnswerEvent | Mapping[str, Any]) -> bool:
        """Queue an answer event; False when it was dropped (buffer full or closed).

        A mapping is read exactly as the worker reads the JSON (``produced_at`` may be a
        datetime). Raises :class:`~quantcheck.schemas.ClaimDecodeError` for an invalid answer.
        """
        return self._offer(event_message(as_answer(answer)))

    def publish_claim(self, claim: ClaimEvent | Mapping[str, Any]) -> bool:
        """Queue a claim event; False when it was dropped (buffer full or closed).

        Raises :class:`~quantcheck.schemas.ClaimDecodeError` for an invalid claim.
        """
        return self._offer(event_message(as_claim(claim)))

    def stats(self) -> PublisherStats:
        """The counters so far."""
        with self._changed:
            return PublisherStats(self._accepted, self._delivered, self._dropped, self._failed)

    def flush(self, timeout_s: float = 30.0) -> bool:
        """Wait until every accepted event is delivered or failed; False on timeout."""
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while self._accepted - self._delivered - self._failed > 0:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._changed.wait(remaining)
        return True

    def close(self, timeout_s: float = 30.0) -> None:
        """Send what is buffered within ``timeout_s``, then stop; what is left unsent then
        counts as failed. Later ``publish_*`` calls drop their events."""
        deadline = time.monotonic() + timeout_s
        self.flush(timeout_s)
        self._closing.set()
        self._sender.join(max(deadline - time.monotonic(), 0.0))
        with self._changed:
            self._failed += self._accepted - self._delivered - self._failed
            self._settled = True
            self._changed.notify_all()

    async def flush_async(self, timeout_s: float = 30.0) -> bool:
        """:meth:`flush` without blocking the event loop."""
        return await asyncio.to_thread(self.flush, timeout_s)

    async def close_async(self, timeout_s: float = 30.0) -> None:
        """:meth:`close` without blocking the event loop."""
        await asyncio.to_thread(self.close, timeout_s)

    def __enter__(self) -> Publisher:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    async def __aenter__(self) -> Publisher:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close_async()

    def _offer(self, message: tuple[bytes, bytes]) -> bool:
        with self._changed:
            if self._closing.is_set():
                self._dropped += 1
                return False
            try:
                self._buffer.put_nowait(message)
            except queue.Full:
                self._dropped += 1
                return False
            self._accepted += 1
            return True

    # --- the sender thread -------------------------------------------------------------

    def _run(self) -> None:
        producer: Any = None
        try:
            while True:
                try:
                    key, value = self._buffer.get(timeout=_IDLE_POLL_S)
                except queue.Empty:
                    if self._closing.is_set():
                        return
                    continue
                if producer is None:
                    producer = self._connect()
                    if producer is None:
                        return
                self._send(producer, key, value)
        finally:
            if producer is not None:
                producer.close(timeout=0)

    def _connect(self) -> Any:
        """A producer, retrying with backoff; None when closing before one connects."""
        delay = _RECONNECT_FIRST_S
        while True:
            try:
                return KafkaProducer(**self._config)
            # Whatever the client raises, the sender must live on: a dead sender would
            # silently drop every later event.
            except Exception as exc:
                log.warning("cannot reach Kafka, retrying in %.1fs: %s", delay, exc)
            if self._closing.wait(delay):
                return None
            delay = min(delay * 2, _RECONNECT_MAX_S)

    def _send(self, producer: Any, key: bytes, value: bytes) -> None:
        try:
            future = producer.send(self.topic, key=key, value=value)
        except Exception as exc:  # as in _connect: the sender must live on
            self._record_failure(exc)
            return
        future.add_callback(self._record_delivery)
        future.add_errback(self._record_failure)

    def _record_delivery(self, _metadata: object) -> None:
        with self._changed:
            if not self._settled:
                self._delivered += 1
                self._changed.notify_all()

    def _record_failure(self, exc: BaseException) -> None:
        log.warning("an event was not delivered to %s: %s", self.topic, exc)
        with self._changed:
            if not self._settled:
                self._failed += 1
                self._changed.notify_all()
