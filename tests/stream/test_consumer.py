"""The worker's consumer: a partition handed straight back in a rebalance starts again at the
group's committed offset, not where this member stopped reading."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from kafka import ConsumerRebalanceListener, KafkaConsumer
from quantcheck.worker.stream.config import consumer_config
from quantcheck.worker.stream.consumer import WorkerConsumer

from tests.stream.workers import connection
from tests.support.kafka import KafkaBroker, create_topics, produce

Names = Callable[[str], str]

DEADLINE_S = 60


class Changes(ConsumerRebalanceListener):  # type: ignore[misc]
    """Counts the assignments the member hears of."""

    def __init__(self) -> None:
        self.assigned = 0

    def on_partitions_revoked(self, revoked: Iterable[Any]) -> None:
        pass

    def on_partitions_assigned(self, assigned: Iterable[Any]) -> None:
        self.assigned += 1


@pytest.mark.integration
def test_a_partition_handed_straight_back_starts_at_the_committed_offset(
    kafka_broker: KafkaBroker, unique_topic: Names
) -> None:
    bootstrap = kafka_broker.bootstrap
    topic, group = unique_topic("claims"), unique_topic("group")
    create_topics(bootstrap, [topic])
    produce(bootstrap, topic, [b"c0", b"c1", b"c2"])
    config = consumer_config(
        connection(bootstrap), group_id=group, client_id="a-member", max_poll_records=100
    )
    member = WorkerConsumer(**config)
    changes = Changes()
    member.subscribe([topic], listener=changes)
    joiner: Any = None
    try:
        read: list[bytes] = []
        deadline = time.monotonic() + DEADLINE_S
        while len(read) < 3 and time.monotonic() < deadline:
            read += [r.value for batch in member.poll(200, 100).values() for r in batch]
        assert read == [b"c0", b"c1", b"c2"], "read without committing anything"

        # A second member joins: the group rebalances and, every partition being revoked,
        # hands this one straight back, as the assignors give the topic's only partition to
        # the member whose ID ("a-member-...") sorts first. The joiner reads the same topic:
        # one for another topic made the leader assign before it had that topic's metadata,
        # which kafka-python sometimes left with this member assigned nothing for a minute.
        joiner = KafkaConsumer(topic, **{**config, "client_id": "b-joiner"})
        again: list[bytes] = []
        while len(again) < 3 and time.monotonic() < deadline:
            # Both keep polling, so that every rebalance completes.
            again += [r.value for batch in member.poll(100, 100).values() for r in batch]
            joiner.poll(timeout_ms=100)
        assert changes.assigned >= 2, "the partition was handed back"
        assert again == [b"c0", b"c1", b"c2"], "read again from the committed offset"
    finally:
        member.close(autocommit=False, timeout_ms=5_000)
        if joiner is not None:
            joiner.close(autocommit=False)
