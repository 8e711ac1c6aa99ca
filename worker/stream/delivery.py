"""Publishing a batch's outputs and committing its input offsets, as one unit or in order.

Exactly-once
    One transaction per batch holds the verdicts, the dead letters and the consumer
    offsets, so read_committed readers see either all of a batch or none of it, and a
    batch is never committed twice. Offsets are committed only while the member is in the
    stable group generation the batch was read in (:mod:`quantcheck.worker.stream.fencing`).
At-least-once
    An idempotent producer publishes the batch, and the consumer commits the offsets only
    after every record is acknowledged. A crash in between means the batch is published
    again, never that it is lost.

Every call that waits for the broker is bounded (:class:`.ports.Producer`). A
producer that failed in a way that leaves its state unknown is abandoned, and the next
batch gets a new one with the same transactional id, whose initialisation aborts whatever
the old one left open. Errors are told apart by :mod:`quantcheck.worker.stream.failures`: a record
the broker refuses for what it is raises :class:`RecordRefusedError` naming it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

from kafka.errors import CommitFailedError, KafkaError
from kafka.structs import OffsetAndMetadata, TopicPartition
from quantcheck.worker.stream.failures import RECORD_REFUSED, describe
from quantcheck.worker.stream.fencing import fence_reason
from quantcheck.worker.stream.ports import CallTimeoutError, Consumer, Producer, SendFuture
from quantcheck.worker.stream.records import OutputRecord

from quantcheck.errors import TransientError

ProducerFactory = Callable[[], Producer]
Offsets = Mapping[tuple[str, int], int]

DEFAULT_CALL_TIMEOUT_S = 15.0


class DeliveryError(TransientError):
    """A batch was not delivered; reading it again from the right offsets repairs that.

    ``rewind_to_committed`` tells where to read again from: the group's committed offsets
    when it is unknown whether the batch was committed (or the member lost its partitions),
    else the batch's first offsets. ``cause`` is the client's error, when there was one.
    """

    def __init__(
        self,
        message: str,
        *,
        rewind_to_committed: bool = False,
        cause: BaseException | None = None,
    ) -> None:
        super().__init__(message)
        self.rewind_to_committed = rewind_to_committed
        self.cause = cause


class FencedError(DeliveryError):
    """The member left the generation the batch was read in; nothing was committed."""


class RecordRefusedError(DeliveryError):
    """The broker refused some outputs for what they are, ``refusals`` maps their indexes to
    its errors; nothing was committed (exactly-once), or the other records may have been
    published (at-least-once)."""

    def __init__(self, refusals: Mapping[int, BaseException]) -> None:
        first = min(refusals)
        super().__init__(
            f"{len(refusals)} output(s) refused, the first: {describe(refusals[first])}",
            cause=refusals[first],
        )
        self.refusals = dict(refusals)


def kafka_offsets(offsets: Offsets) -> dict[Any, Any]:
    """Offsets in the shape kafka-python's commit calls take."""
    return {
        TopicPartition(topic, partition): OffsetAndMetadata(offset, "", -1)
        for (topic, partition), offset in offsets.items()
    }


def send(producer: Any, output: OutputRecord) -> Any:
    """Hand one record to a kafka-python producer; returns its delivery future."""
    # kafka-python refuses null header values and records with neither key nor value,
    # both of which Kafka allows; such inputs are passed on with empty bytes instead.
    headers = [(name, b"" if value is None else value) for name, value in output.headers]
    value = output.value
    if value is None and output.key is None:
        value = b""
    return producer.send(output.topic, value=value, key=output.key, headers=headers)


def refused(futures: Sequence[SendFuture]) -> RecordRefusedError | None:
    """The records the broker refused for what they are, among ``futures``, if any."""
    refusals = {
        index: future.exception
        for index, future in enumerate(futures)
        if future.is_done and future.failed() and isinstance(future.exception, RECORD_REFUSED)
    }
    return RecordRefusedError(refusals) if refusals else None


class Delivery(ABC):
    """Publishes batches with one producer at a time, replacing it when it fails."""

    exactly_once: bool

    def __init__(self, producer_factory: ProducerFactory, consumer: Consumer) -> None:
        self._factory = producer_factory
        self._consumer = consumer
        self._producer: Producer | None = None

    def ensure_producer(self) -> None:
        """Create (and for transactions, initialise) a producer unless one is in place.

        Raises :class:`DeliveryError` when the broker cannot be reached yet.
        """
        if self._producer is not None:
            return
        try:
            producer = self._factory()
        except KafkaError as exc:
            raise DeliveryError(f"cannot create a producer: {describe(exc)}", cause=exc) from exc
        try:
            self._initialise(producer)
        except (KafkaError, CallTimeoutError) as exc:
            producer.abandon()
            raise DeliveryError(
                f"cannot initialise the producer: {describe(exc)}", cause=exc
            ) from exc
        self._producer = producer

    @abstractmethod
    def deliver(
        self,
        outputs: Sequence[OutputRecord],
        offsets: Offsets,
        *,
        generation: int | None,
        timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
    ) -> None:
        """Publish ``outputs`` and commit ``offsets`` (next offset per partition) for a
        batch read in group ``generation``.

        Raises :class:`DeliveryError` (or a subclass) when the batch was not delivered.
        """

    def close(self, timeout_s: float) -> None:
        """Close the producer, waiting at most ``timeout_s`` for it to send what it holds."""
        producer, self._producer = self._producer, None
        if producer is not None:
            producer.close(timeout_s)

    def _fence(self, generation: int | None) -> Any:
        """The group metadata to commit under; raises :class:`FencedError` when stale."""
        group = self._consumer.group_metadata()
        reason = fence_reason(group, generation)
        if reason is not None:
            raise FencedError(f"fenced: {reason}", rewind_to_committed=True)
        return group

    @abstractmethod
    def _initialise(self, producer: Producer) -> None:
        """Prepare a new producer before its first batch."""

    def _lose_producer(self) -> None:
        producer, self._producer = self._producer, None
        if producer is not None:
            producer.abandon()

    def _require(self) -> Producer:
        self.ensure_producer()
        assert self._producer is not None
        return self._producer


class TransactionalDelivery(Delivery):
    """Exactly-once: each batch is one transaction that also commits the consumer offsets."""

    exactly_once = True

    def _initialise(self, producer: Producer) -> None:
        producer.init_transactions()

    def deliver(
        self,
        outputs: Sequence[OutputRecord],
        offsets: Offsets,
        *,
        generation: int | None,
        timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
    ) -> None:
        """Publish and commit the batch in one transaction (see :meth:`Delivery.deliver`)."""
        producer = self._require()
        try:
            producer.begin_transaction()
        except KafkaError as exc:
            self._lose_producer()
            raise DeliveryError(
                f"cannot begin a transaction: {describe(exc)}", rewind_to_committed=True, cause=exc
            ) from exc
        futures: list[SendFuture] = []
        try:
            for output in outputs:
                futures.append(producer.send(output))
        except KafkaError as exc:
            # send() refuses a record larger than max_request_size itself, and any send
            # once a record sent before it was refused.
            self._discard(producer, timeout_s)
            if isinstance(exc, RECORD_REFUSED):
                raise RecordRefusedError({len(futures): exc}) from exc
            raise refused(futures) or DeliveryError(
                f"cannot send the batch: {describe(exc)}", cause=exc
            ) from exc
        try:
            # A refused record leaves the transaction unable to commit, and the commit
            # would only say so when it times out: find out from the acknowledgements.
            producer.flush(timeout_s)
        except KafkaError as exc:
            self._fail(producer, futures, timeout_s, exc, "the batch was not acknowledged")
        rejected = refused(futures)
        if rejected is not None:
            self._discard(producer, timeout_s)
            raise rejected
        try:
            group = self._fence(generation)
        except FencedError:
            self._abort(producer, timeout_s)
            raise
        try:
            if offsets:
                producer.send_offsets(kafka_offsets(offsets), group, timeout_s)
            producer.commit(timeout_s)
        except CommitFailedError as exc:
            # The group moved on (a rebalance); the batch is aborted and read again by
            # whichever member owns its partitions now.
            self._abort(producer, timeout_s)
            raise DeliveryError(f"the group rebalanced: {describe(exc)}", cause=exc) from exc
        except (KafkaError, CallTimeoutError) as exc:
            self._fail(producer, futures, timeout_s, exc, "transaction failed")

    def _fail(
        self,
        producer: Producer,
        futures: Sequence[SendFuture],
        timeout_s: float,
        exc: Exception,
        what: str,
    ) -> NoReturn:
        """Raise for a failed flush or commit: a refused record if the acknowledgements
        name one (the producer is discarded), else a failure whose outcome is unknown
        (the producer is replaced and the batch read again from the committed offsets)."""
        rejected = refused(futures)
        if rejected is not None:
            self._discard(producer, timeout_s)
            raise rejected from exc
        self._lose_producer()
        raise DeliveryError(
            f"{what}: {describe(exc)}", rewind_to_committed=True, cause=exc
        ) from exc

    def _discard(self, producer: Producer, timeout_s: float) -> None:
        """Abort the transaction and replace the producer: after a refused record
        kafka-python's producer can fail the next transaction's acknowledgements too."""
        self._abort(producer, timeout_s)
        self._lose_producer()

    def _abort(self, producer: Producer, timeout_s: float) -> None:
        """Abort the open transaction; a producer that cannot abort is replaced."""
        try:
            producer.abort(timeout_s)
        except (KafkaError, CallTimeoutError) as exc:
            self._lose_producer()
            raise DeliveryError(
                f"cannot abort the transaction: {describe(exc)}",
                rewind_to_committed=True,
                cause=exc,
            ) from exc


class AtLeastOnceDelivery(Delivery):
    """At-least-once: publish, wait for every acknowledgement, then commit the offsets."""

    exactly_once = False

    def _initialise(self, producer: Producer) -> None:
        """An idempotent producer needs no preparation."""

    def deliver(
        self,
        outputs: Sequence[OutputRecord],
        offsets: Offsets,
        *,
        generation: int | None,
        timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
    ) -> None:
        """Publish the batch, then commit its offsets (see :meth:`Delivery.deliver`)."""
        producer = self._require()
        futures: list[SendFuture] = []
        try:
            for output in outputs:
                futures.append(producer.send(output))
            producer.flush(timeout_s)
        except KafkaError as exc:
            # Records the old producer still holds may arrive later, which at-least-once
            # allows; a new producer starts without them.
            self._lose_producer()
            if isinstance(exc, RECORD_REFUSED):
                raise RecordRefusedError({len(futures): exc}) from exc
            raise DeliveryError(f"cannot publish the batch: {describe(exc)}", cause=exc) from exc
        rejected = refused(futures)
        if rejected is not None:
            raise rejected
        for future in futures:
            error = future.exception if future.failed() else None
            if error is not None:
                self._lose_producer()
                raise DeliveryError(f"cannot publish the batch: {describe(error)}", cause=error)
        self._fence(generation)
        try:
            self._consumer.commit(kafka_offsets(offsets), int(timeout_s * 1000))
        except KafkaError as exc:
            raise DeliveryError(f"cannot commit the offsets: {describe(exc)}", cause=exc) from exc
