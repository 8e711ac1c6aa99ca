"""Publishing a batch's outputs and committing its input offsets, as one unit or in order.

Exactly-once
    One transaction per batch holds the verdicts, the dead letters and the consumer
    offsets (``send_offsets_to_transaction``), so read_committed readers see either all
    of a batch or none of it, and a batch is never committed twice.
At-least-once
    An idempotent producer publishes the batch, and the consumer commits the offsets only
    after every record is acknowledged. A crash in between means the batch is published
    again, never that it is lost.

Some kafka-python calls can wait forever after a broker restart, so every call that
waits for the broker runs with a bound (:func:`bounded`). A producer that failed in a way
that leaves its state unknown is abandoned, and the next batch gets a new one with the
same transactional id, whose initialisation aborts whatever the old one left open.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kafka.errors import CommitFailedError, KafkaError
from kafka.structs import OffsetAndMetadata, TopicPartition

from worker.errors import TransientError
from worker.stream.config import MAX_BLOCK_MS
from worker.stream.records import OutputRecord

ProducerFactory = Callable[[], Any]
Offsets = Mapping[tuple[str, int], int]

DEFAULT_CALL_TIMEOUT_S = 15.0
# init_transactions waits up to max_block_ms itself; the margin covers a call that ignores it.
INIT_TIMEOUT_S = MAX_BLOCK_MS / 1000 + 5.0


class DeliveryError(TransientError):
    """A batch was not delivered; reading it again from the right offsets repairs that.

    ``rewind_to_committed`` tells where to read again from: the group's committed offsets
    when it is unknown whether the batch was committed, else the batch's first offsets.
    """

    def __init__(self, message: str, *, rewind_to_committed: bool = False) -> None:
        super().__init__(message)
        self.rewind_to_committed = rewind_to_committed


class CallTimeoutError(TransientError):
    """A broker call did not return within its bound."""


def bounded(call: Callable[[], object], timeout_s: float, what: str) -> None:
    """Run ``call`` on a helper thread and wait at most ``timeout_s`` for it.

    Raises :class:`CallTimeoutError` when it does not return in time (the thread is left to
    finish or block on its own; it is a daemon), else whatever ``call`` raised.
    """
    errors: list[BaseException] = []

    def target() -> None:
        try:
            call()
        except BaseException as exc:  # handed to the waiting thread below
            errors.append(exc)

    thread = threading.Thread(target=target, name=f"quantcheck-{what}", daemon=True)
    thread.start()
    thread.join(timeout_s)
    if thread.is_alive():
        raise CallTimeoutError(f"{what} did not finish within {timeout_s:g}s")
    if errors:
        raise errors[0]


def kafka_offsets(offsets: Offsets) -> dict[Any, Any]:
    """Offsets in the shape kafka-python's commit calls take."""
    return {
        TopicPartition(topic, partition): OffsetAndMetadata(offset, "", -1)
        for (topic, partition), offset in offsets.items()
    }


def abandon(producer: Any) -> None:
    """Close ``producer`` at once, dropping whatever it still had to send."""
    try:
        producer.close(timeout=0)
    except Exception:
        # close() flushes first and gives up while records are still in flight, which
        # would leave its I/O thread retrying them forever; stop that thread directly.
        sender = getattr(producer, "_sender", None)
        if sender is not None:
            sender.force_close()


def send(producer: Any, output: OutputRecord) -> Any:
    """Hand one record to the producer; returns its delivery future."""
    # kafka-python refuses null header values and records with neither key nor value,
    # both of which Kafka allows; such inputs are passed on with empty bytes instead.
    headers = [(name, b"" if value is None else value) for name, value in output.headers]
    value = output.value
    if value is None and output.key is None:
        value = b""
    return producer.send(output.topic, value=value, key=output.key, headers=headers)


class Delivery(ABC):
    """Publishes batches with one producer at a time, replacing it when it fails."""

    exactly_once: bool

    def __init__(self, producer_factory: ProducerFactory, consumer: Any) -> None:
        self._factory = producer_factory
        self._consumer = consumer
        self._producer: Any = None

    def ensure_producer(self) -> None:
        """Create (and for transactions, initialise) a producer unless one is in place.

        Raises :class:`DeliveryError` when the broker cannot be reached yet.
        """
        if self._producer is not None:
            return
        try:
            producer = self._factory()
        except KafkaError as exc:
            raise DeliveryError(f"cannot create a producer: {_describe(exc)}") from exc
        try:
            self._initialise(producer)
        except (KafkaError, CallTimeoutError) as exc:
            abandon(producer)
            raise DeliveryError(f"cannot initialise the producer: {_describe(exc)}") from exc
        self._producer = producer

    @abstractmethod
    def deliver(
        self,
        outputs: Sequence[OutputRecord],
        offsets: Offsets,
        *,
        timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
    ) -> None:
        """Publish ``outputs`` and commit ``offsets`` (next offset per partition).

        Raises :class:`DeliveryError` when the batch was not delivered.
        """

    def close(self, timeout_s: float) -> None:
        """Close the producer, waiting at most ``timeout_s`` for it to send what it holds."""
        producer, self._producer = self._producer, None
        if producer is None:
            return
        try:
            bounded(lambda: producer.close(timeout=timeout_s), timeout_s + 1.0, "producer-close")
        except (KafkaError, CallTimeoutError):
            abandon(producer)

    @abstractmethod
    def _initialise(self, producer: Any) -> None:
        """Prepare a new producer before its first batch."""

    def _lose_producer(self) -> None:
        producer, self._producer = self._producer, None
        if producer is not None:
            abandon(producer)

    def _require(self) -> Any:
        self.ensure_producer()
        return self._producer


class TransactionalDelivery(Delivery):
    """Exactly-once: each batch is one transaction that also commits the consumer offsets."""

    exactly_once = True

    def _initialise(self, producer: Any) -> None:
        bounded(producer.init_transactions, INIT_TIMEOUT_S, "init-transactions")

    def deliver(
        self,
        outputs: Sequence[OutputRecord],
        offsets: Offsets,
        *,
        timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
    ) -> None:
        """Publish and commit the batch in one transaction (see :meth:`Delivery.deliver`)."""
        producer = self._require()
        try:
            producer.begin_transaction()
        except KafkaError as exc:
            self._lose_producer()
            raise DeliveryError(
                f"cannot begin a transaction: {_describe(exc)}", rewind_to_committed=True
            ) from exc
        try:
            for output in outputs:
                send(producer, output)
        except KafkaError as exc:
            self._abort(producer, timeout_s)
            raise DeliveryError(f"cannot send the batch: {_describe(exc)}") from exc
        try:
            if offsets:
                group = self._consumer.group_metadata()
                bounded(
                    lambda: producer.send_offsets_to_transaction(kafka_offsets(offsets), group),
                    timeout_s,
                    "send-offsets",
                )
            bounded(producer.commit_transaction, timeout_s, "commit")
        except CommitFailedError as exc:
            # The group moved on (a rebalance); the batch is aborted and read again by
            # whichever member owns its partitions now.
            self._abort(producer, timeout_s)
            raise DeliveryError(f"the group rebalanced: {_describe(exc)}") from exc
        except (KafkaError, CallTimeoutError) as exc:
            self._lose_producer()
            raise DeliveryError(
                f"transaction failed: {_describe(exc)}", rewind_to_committed=True
            ) from exc

    def _abort(self, producer: Any, timeout_s: float) -> None:
        """Abort the open transaction; a producer that cannot abort is replaced."""
        try:
            bounded(producer.abort_transaction, timeout_s, "abort")
        except (KafkaError, CallTimeoutError) as exc:
            self._lose_producer()
            raise DeliveryError(
                f"cannot abort the transaction: {_describe(exc)}", rewind_to_committed=True
            ) from exc


class AtLeastOnceDelivery(Delivery):
    """At-least-once: publish, wait for every acknowledgement, then commit the offsets."""

    exactly_once = False

    def _initialise(self, producer: Any) -> None:
        """An idempotent producer needs no preparation."""

    def deliver(
        self,
        outputs: Sequence[OutputRecord],
        offsets: Offsets,
        *,
        timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
    ) -> None:
        """Publish the batch, then commit its offsets (see :meth:`Delivery.deliver`)."""
        producer = self._require()
        try:
            futures = [send(producer, output) for output in outputs]
            bounded(lambda: producer.flush(timeout=timeout_s), timeout_s + 1.0, "flush")
            for future in futures:
                if future.failed():
                    raise future.exception
        except (KafkaError, CallTimeoutError) as exc:
            # Records the old producer still holds may arrive later, which at-least-once
            # allows; a new producer starts without them.
            self._lose_producer()
            raise DeliveryError(f"cannot publish the batch: {_describe(exc)}") from exc
        try:
            self._consumer.commit(offsets=kafka_offsets(offsets), timeout_ms=int(timeout_s * 1000))
        except KafkaError as exc:
            raise DeliveryError(f"cannot commit the offsets: {_describe(exc)}") from exc


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    name = type(exc).__name__
    return f"{name}: {text}" if text else name
