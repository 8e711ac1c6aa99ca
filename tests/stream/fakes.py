"""In-memory stand-ins for the Kafka clients behind :mod:`~quantcheck.worker.stream.ports`,
for fast tests of the worker's own logic: rebalances, evictions, timeouts and refused records.

They do what the worker relies on and no more; the real clients' behaviour is tested
against the real broker elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kafka.structs import ConsumerGroupMetadata, MemberState, TopicPartition
from quantcheck.worker.stream.ports import CallTimeoutError, SendFuture
from quantcheck.worker.stream.records import OutputRecord

GROUP = "workers"


@dataclass
class FakeRecord:
    """What kafka-python's ``ConsumerRecord`` offers the worker."""

    topic: str
    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    timestamp: int = 0
    headers: list[tuple[str, bytes]] = field(default_factory=list)


class FakeConsumer:
    """One group member reading from in-memory partitions.

    The test drives the group: :meth:`rebalance` assigns partitions in a new generation
    (telling the listener), :meth:`evict` does what kafka-python's heartbeat thread does
    when the broker no longer knows the member.
    """

    def __init__(self, topic: str, partitions: int = 1) -> None:
        self.topic = topic
        self.logs: dict[int, list[FakeRecord]] = {p: [] for p in range(partitions)}
        self.positions: dict[Any, int] = {}
        self.committed_offsets: dict[Any, int] = {}
        self.generation = -1
        self.member_id = ""
        self.state = MemberState.UNJOINED
        self.listener: Any = None
        self.known_topics: set[str] = set()
        self._assigned: set[Any] = set()
        self._paused: set[Any] = set()

    # --- driven by the test ------------------------------------------------------------

    def append(self, partition: int, key: bytes, value: bytes) -> None:
        log = self.logs[partition]
        log.append(FakeRecord(self.topic, partition, len(log), key, value))

    def rebalance(self, partitions: set[int]) -> None:
        """Revoke everything (eager rebalancing), then assign ``partitions`` anew, each
        from the committed offset, as the worker's consumer does."""
        if self.listener is not None and self._assigned:
            self.listener.on_partitions_revoked(set(self._assigned))
        self._assigned = set()
        self.generation += 1 if self.generation >= 0 else 2
        self.member_id, self.state = "member-1", MemberState.STABLE
        self._assign(partitions)

    def evict(self) -> None:
        """The broker dropped the member: generation -1, no member ID, rejoin needed."""
        self.generation, self.member_id, self.state = -1, "", MemberState.UNJOINED

    def rejoin_after_eviction(self, partitions: set[int]) -> None:
        """What the next poll does after an eviction: the partitions are lost, then a new
        assignment starts from the committed offsets."""
        lost = set(self._assigned)
        if self.listener is not None and lost:
            self.listener.on_partitions_lost(lost)
        self._assigned = set()
        self.generation, self.member_id, self.state = 7, "member-2", MemberState.STABLE
        self._assign(partitions)

    def _assign(self, partitions: set[int]) -> None:
        tps = {TopicPartition(self.topic, p) for p in partitions}
        for tp in tps - self._assigned:
            self.positions[tp] = self.committed_offsets.get(tp, 0)
        self._assigned = tps
        self._paused &= tps
        if self.listener is not None:
            self.listener.on_partitions_assigned(set(tps))

    # --- the Consumer protocol ---------------------------------------------------------

    def subscribe(self, topics: list[str], listener: Any) -> None:
        self.listener = listener

    def poll(self, timeout_ms: int, max_records: int) -> Mapping[Any, list[Any]]:
        fetched: dict[Any, list[Any]] = {}
        for tp in sorted(self._assigned - self._paused):
            log = self.logs[tp.partition]
            start = self.positions[tp]
            batch = log[start : start + max_records - sum(map(len, fetched.values()))]
            if batch:
                fetched[tp] = list(batch)
                self.positions[tp] = start + len(batch)
        return fetched

    def assignment(self) -> set[Any]:
        return set(self._assigned)

    def pause(self, *partitions: Any) -> None:
        self._paused |= set(partitions)

    def resume(self, *partitions: Any) -> None:
        self._paused -= set(partitions)

    def paused(self) -> set[Any]:
        return set(self._paused)

    def seek(self, partition: Any, offset: int) -> None:
        self.positions[partition] = offset

    def seek_to_beginning(self, *partitions: Any) -> None:
        for tp in partitions:
            self.positions[tp] = 0

    def committed(self, partition: Any, timeout_ms: int) -> int | None:
        return self.committed_offsets.get(partition)

    def end_offsets(self, partitions: list[Any], timeout_ms: int) -> dict[Any, int]:
        return {tp: len(self.logs[tp.partition]) for tp in partitions}

    def position(self, partition: Any, timeout_ms: int) -> int | None:
        return self.positions.get(partition)

    def group_metadata(self) -> Any:
        return ConsumerGroupMetadata(
            group_id=GROUP,
            generation_id=self.generation,
            member_id=self.member_id,
            group_instance_id=None,
            state=self.state,
        )

    def topics_within(self, timeout_ms: int) -> set[str]:
        return set(self.known_topics)

    def commit(self, offsets: Mapping[Any, Any], timeout_ms: int) -> None:
        for tp, meta in offsets.items():
            self.committed_offsets[tp] = meta.offset

    def close(self, autocommit: bool, timeout_ms: int) -> None:
        self._assigned = set()


@dataclass
class FakeFuture:
    """A send that has been answered."""

    error: BaseException | None = None

    @property
    def is_done(self) -> bool:
        return True

    @property
    def exception(self) -> BaseException | None:
        return self.error

    def failed(self) -> bool:
        return self.error is not None


@dataclass
class Cluster:
    """What the fake producers write to, shared by every producer a delivery creates.

    ``refuse`` names a predicate on records the broker refuses (with the given error);
    ``commit_error`` makes the next commits raise; ``hang`` makes commits time out.
    """

    consumer: FakeConsumer
    committed: list[OutputRecord] = field(default_factory=list)
    refuse: tuple[Any, BaseException] | None = None
    commit_errors: list[BaseException] = field(default_factory=list)
    hang: bool = False
    producers: list[FakeProducer] = field(default_factory=list)

    def new_producer(self) -> FakeProducer:
        producer = FakeProducer(self)
        self.producers.append(producer)
        return producer


class FakeProducer:
    """A transactional producer writing to a :class:`Cluster` when a transaction commits."""

    def __init__(self, cluster: Cluster) -> None:
        self._cluster = cluster
        self._open: list[OutputRecord] = []
        self._offsets: dict[Any, Any] = {}
        self._failed: BaseException | None = None
        self._in_transaction = False
        self.abandoned = False
        self.closed = False
        self.aborts = 0

    def init_transactions(self) -> None:
        pass

    def begin_transaction(self) -> None:
        self._open, self._offsets, self._failed = [], {}, None
        self._in_transaction = True

    def send(self, record: OutputRecord) -> SendFuture:
        refuse = self._cluster.refuse
        if refuse is not None and refuse[0](record):
            self._failed = refuse[1]
            return FakeFuture(refuse[1])
        # Without a transaction a record is published as soon as it is acknowledged.
        (self._open if self._in_transaction else self._cluster.committed).append(record)
        return FakeFuture()

    def send_offsets(self, offsets: Mapping[Any, Any], group: Any, timeout_s: float) -> None:
        self._offsets = dict(offsets)

    def commit(self, timeout_s: float) -> None:
        if self._cluster.hang:
            raise CallTimeoutError(f"commit did not finish within {timeout_s:g}s")
        if self._cluster.commit_errors:
            raise self._cluster.commit_errors.pop(0)
        if self._failed is not None:
            raise self._failed
        self._cluster.committed.extend(self._open)
        self._cluster.consumer.commit(self._offsets, 0)

    def abort(self, timeout_s: float) -> None:
        self.aborts += 1
        self._open, self._offsets = [], {}

    def flush(self, timeout_s: float) -> None:
        pass

    def close(self, timeout_s: float) -> None:
        self.closed = True

    def abandon(self) -> None:
        self.abandoned = True
