"""The Kafka clients as the worker sees them: typed seams for the loop and the delivery.

The real clients are kafka-python's ``KafkaConsumer`` (which has these methods as they are)
and :class:`quantcheck.worker.stream.producer.BoundedProducer`; fast tests use fakes with the same
shape to drive rebalances, evictions, timeouts and refused records without a broker.
Partitions are kafka-python's ``TopicPartition`` tuples, whatever their origin.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from quantcheck.worker.stream.records import OutputRecord

from quantcheck.errors import TransientError

TopicPartitionT = Any
"""kafka-python's ``TopicPartition`` (a named tuple of ``topic`` and ``partition``)."""

GroupMetadata = Any
"""kafka-python's ``ConsumerGroupMetadata``: ``group_id``, ``generation_id``, ``member_id``,
``group_instance_id`` and ``state``."""


class CallTimeoutError(TransientError):
    """A broker call did not return within its bound."""


class Consumer(Protocol):
    """The consumer calls the worker makes; each one that waits takes a bound."""

    def subscribe(self, topics: list[str], listener: Any) -> None:
        """Join the group for ``topics``; ``listener`` hears of assignment changes. Every
        partition assigned, including one revoked and handed straight back, starts at the
        group's committed offset."""

    def poll(self, timeout_ms: int, max_records: int) -> Mapping[TopicPartitionT, list[Any]]:
        """Fetched records by partition, waiting at most ``timeout_ms``."""

    def assignment(self) -> set[TopicPartitionT]:
        """The partitions this member holds now."""

    def pause(self, *partitions: TopicPartitionT) -> None:
        """Stop fetching ``partitions``."""

    def resume(self, *partitions: TopicPartitionT) -> None:
        """Fetch ``partitions`` again."""

    def paused(self) -> set[TopicPartitionT]:
        """The paused partitions."""

    def seek(self, partition: TopicPartitionT, offset: int) -> None:
        """Read ``partition`` from ``offset`` next."""

    def seek_to_beginning(self, *partitions: TopicPartitionT) -> None:
        """Read ``partitions`` from their first offset next."""

    def committed(self, partition: TopicPartitionT, timeout_ms: int) -> int | None:
        """The group's committed offset of ``partition``, or None."""

    def end_offsets(
        self, partitions: list[TopicPartitionT], timeout_ms: int
    ) -> dict[TopicPartitionT, int]:
        """The end (for read_committed: last stable) offset of each partition."""

    def position(self, partition: TopicPartitionT, timeout_ms: int) -> int | None:
        """The offset of the next record to fetch."""

    def group_metadata(self) -> GroupMetadata:
        """A snapshot of this member's generation, member ID and state."""

    def topics_within(self, timeout_ms: int) -> set[str]:
        """The topics the cluster has, asked now; raises ``KafkaTimeoutError`` after
        ``timeout_ms``."""

    def commit(self, offsets: Mapping[TopicPartitionT, Any], timeout_ms: int) -> None:
        """Commit ``offsets`` outside a transaction."""

    def close(self, autocommit: bool, timeout_ms: int) -> None:
        """Leave the group and release the connections."""


class SendFuture(Protocol):
    """The outcome of one :meth:`Producer.send`."""

    @property
    def is_done(self) -> bool:
        """Whether the broker answered (or the send failed)."""

    @property
    def exception(self) -> BaseException | None:
        """Why the send failed, once done."""

    def failed(self) -> bool:
        """Whether the send is done and failed."""


class Producer(Protocol):
    """A producer whose every wait has a bound and that never leaves a thread behind."""

    def init_transactions(self) -> None:
        """Register the transactional ID, aborting what a previous producer left open."""

    def begin_transaction(self) -> None:
        """Start a transaction (a local step)."""

    def send(self, record: OutputRecord) -> SendFuture:
        """Hand one record to the producer."""

    def send_offsets(
        self, offsets: Mapping[TopicPartitionT, Any], group: GroupMetadata, timeout_s: float
    ) -> None:
        """Add the consumer offsets to the open transaction, fenced by ``group``."""

    def commit(self, timeout_s: float) -> None:
        """Commit the open transaction."""

    def abort(self, timeout_s: float) -> None:
        """Abort the open transaction: none of its records or offsets is committed, then
        or with a later transaction."""

    def flush(self, timeout_s: float) -> None:
        """Wait until every record sent so far is acknowledged or failed."""

    def close(self, timeout_s: float) -> None:
        """Send what is left within ``timeout_s``, then stop; never raises."""

    def abandon(self) -> None:
        """Stop at once, dropping whatever is in flight; never raises."""
