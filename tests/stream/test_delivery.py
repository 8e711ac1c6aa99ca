"""Delivering a batch: bounded broker calls, transactions that commit outputs and offsets
together, and at-least-once publishing before committing."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.coordinator.base import Generation
from quantcheck.worker.stream.config import consumer_config, producer_config
from quantcheck.worker.stream.delivery import (
    AtLeastOnceDelivery,
    DeliveryError,
    FencedError,
    TransactionalDelivery,
    kafka_offsets,
    send,
)
from quantcheck.worker.stream.fencing import stable_generation
from quantcheck.worker.stream.ports import Producer
from quantcheck.worker.stream.producer import BoundedProducer
from quantcheck.worker.stream.records import OutputRecord

from tests.stream.workers import connection
from tests.support.kafka import KafkaBroker, consume_all, create_topics, produce

Names = Callable[[str], str]


class Group:
    """A consumer group member holding the input topic's partitions, as the worker's would."""

    def __init__(self, bootstrap: str, topic: str, group: str) -> None:
        config = consumer_config(
            connection(bootstrap), group_id=group, client_id="tests", max_poll_records=100
        )
        self.consumer: Any = KafkaConsumer(topic, **config)
        deadline = time.monotonic() + 30
        while not self.consumer.assignment() and time.monotonic() < deadline:
            self.consumer.poll(timeout_ms=200)
        assert self.consumer.assignment(), "no partitions assigned"

    def committed(self, topic: str) -> int | None:
        offset: int | None = self.consumer.committed(TopicPartition(topic, 0))
        return offset

    @property
    def generation(self) -> int | None:
        return stable_generation(self.consumer.group_metadata())


@pytest.fixture
def group(kafka_broker: KafkaBroker, unique_topic: Names) -> Iterator[tuple[Group, str, str]]:
    source, sink = unique_topic("claims"), unique_topic("verdicts")
    create_topics(kafka_broker.bootstrap, [source, sink])
    produce(kafka_broker.bootstrap, source, [b"c0", b"c1", b"c2"])
    member = Group(kafka_broker.bootstrap, source, unique_topic("group"))
    yield member, source, sink
    member.consumer.close(autocommit=False)


def producers(bootstrap: str, txn_id: str | None) -> Callable[[], Producer]:
    def factory() -> Producer:
        config = producer_config(connection(bootstrap), client_id="tests", transactional_id=txn_id)
        return BoundedProducer(config)

    return factory


def outputs(sink: str, *values: bytes) -> list[OutputRecord]:
    return [OutputRecord(sink, b"k-" + value, value) for value in values]


@pytest.mark.integration
def test_a_transaction_commits_outputs_and_offsets_together(
    kafka_broker: KafkaBroker, group: tuple[Group, str, str], unique_topic: Names
) -> None:
    member, source, sink = group
    delivery = TransactionalDelivery(
        producers(kafka_broker.bootstrap, unique_topic("txn")), member.consumer
    )
    try:
        delivery.ensure_producer()
        delivery.deliver(
            outputs(sink, b"v0", b"v1"), {(source, 0): 2}, generation=member.generation
        )
    finally:
        delivery.close(5)
    committed = consume_all(kafka_broker.bootstrap, sink, expected=None)
    assert [(r.key, r.value) for r in committed] == [(b"k-v0", b"v0"), (b"k-v1", b"v1")]
    assert member.committed(source) == 2


@pytest.mark.integration
def test_a_transaction_cut_short_is_all_or_nothing_after_recovery(
    kafka_broker: KafkaBroker, group: tuple[Group, str, str], unique_topic: Names
) -> None:
    member, source, sink = group
    delivery = TransactionalDelivery(
        producers(kafka_broker.bootstrap, unique_topic("txn")), member.consumer
    )
    try:
        delivery.ensure_producer()
        with pytest.raises(DeliveryError) as caught:
            # Too short for any broker: the producer is given up mid-transaction.
            delivery.deliver(
                outputs(sink, b"v0", b"v1", b"v2"),
                {(source, 0): 3},
                generation=member.generation,
                timeout_s=1e-6,
            )
        assert caught.value.rewind_to_committed
        # The new producer's initialisation settles whatever the old one left open.
        delivery.ensure_producer()
        committed = member.committed(source)
        visible = consume_all(kafka_broker.bootstrap, sink, expected=None)
        assert (committed, len(visible)) in {(None, 0), (3, 3)}
        delivery.deliver(outputs(sink, b"again"), {(source, 0): 3}, generation=member.generation)
    finally:
        delivery.close(5)
    assert member.committed(source) == 3
    assert consume_all(kafka_broker.bootstrap, sink, expected=None)[-1].value == b"again"


@pytest.mark.integration
def test_at_least_once_publishes_then_commits(
    kafka_broker: KafkaBroker, group: tuple[Group, str, str]
) -> None:
    member, source, sink = group
    delivery = AtLeastOnceDelivery(producers(kafka_broker.bootstrap, None), member.consumer)
    try:
        delivery.deliver(outputs(sink, b"v0"), {(source, 0): 1}, generation=member.generation)
    finally:
        delivery.close(5)
    assert [r.value for r in consume_all(kafka_broker.bootstrap, sink, expected=None)] == [b"v0"]
    assert member.committed(source) == 1


@pytest.mark.integration
def test_null_headers_and_keyless_tombstones_are_sent_as_empty_bytes(
    kafka_broker: KafkaBroker, unique_topic: Names
) -> None:
    topic = unique_topic("dlq")
    create_topics(kafka_broker.bootstrap, [topic])
    producer = KafkaProducer(bootstrap_servers=kafka_broker.bootstrap)
    try:
        futures = [
            send(producer, OutputRecord(topic, b"k", b"v", (("a", None), ("b", b"x")))),
            send(producer, OutputRecord(topic, None, None)),
        ]
        producer.flush()
        for future in futures:
            future.get(timeout=30)
    finally:
        producer.close()
    first, second = consume_all(kafka_broker.bootstrap, topic, expected=None)
    assert first.headers == (("a", b""), ("b", b"x"))
    assert (second.key, second.value) == (None, b"")


@pytest.mark.integration
def test_the_broker_takes_a_commit_with_the_generation_an_eviction_leaves(
    kafka_broker: KafkaBroker, group: tuple[Group, str, str], unique_topic: Names
) -> None:
    """Why the fence exists: after an eviction kafka-python's heartbeat thread resets the
    member to generation -1 without a member ID, and a transactional offset commit under
    that metadata skips the broker's generation check while the group has members."""
    member, source, sink = group
    member.consumer._coordinator.reset_generation()
    stale = member.consumer.group_metadata()
    assert (stale.generation_id, stale.member_id) == (-1, "")
    config = producer_config(
        connection(kafka_broker.bootstrap), client_id="tests", transactional_id=unique_topic("txn")
    )
    producer = KafkaProducer(**config)
    try:
        producer.init_transactions()
        producer.begin_transaction()
        send(producer, OutputRecord(sink, b"k", b"stale"))
        producer.send_offsets_to_transaction(kafka_offsets({(source, 0): 3}), stale)
        producer.commit_transaction()
    finally:
        producer.close(5)
    assert member.committed(source) == 3


@pytest.mark.integration
def test_a_member_out_of_its_generation_commits_nothing(
    kafka_broker: KafkaBroker, group: tuple[Group, str, str], unique_topic: Names
) -> None:
    member, source, sink = group
    read_in = member.generation
    assert read_in is not None
    member.consumer._coordinator.reset_generation()
    delivery = TransactionalDelivery(
        producers(kafka_broker.bootstrap, unique_topic("txn")), member.consumer
    )
    try:
        delivery.ensure_producer()
        with pytest.raises(FencedError, match="not in a stable group generation"):
            delivery.deliver(outputs(sink, b"v0"), {(source, 0): 1}, generation=read_in)
    finally:
        delivery.close(5)
    assert member.committed(source) is None
    assert consume_all(kafka_broker.bootstrap, sink, expected=None) == []


@pytest.mark.integration
def test_offsets_the_group_refused_are_not_committed_with_the_next_batch(
    kafka_broker: KafkaBroker, group: tuple[Group, str, str], unique_topic: Names
) -> None:
    """The duplicates the eviction fault test found: kafka-python keeps the offsets of a
    refused transactional commit after the abort and sends them with the next transaction's,
    under a generation the broker accepts, moving back the committed offset of a partition
    that another member may have delivered past meanwhile."""
    member, source, sink = group
    read_in = member.generation
    coordinator = member.consumer._coordinator
    current = coordinator._generation
    delivery = TransactionalDelivery(
        producers(kafka_broker.bootstrap, unique_topic("txn")), member.consumer
    )
    try:
        delivery.ensure_producer()
        # What an evicted member sees until its heartbeat finds out: its old generation,
        # which the broker no longer knows.
        coordinator._generation = Generation(current.generation_id, "evicted", current.protocol)
        with pytest.raises(DeliveryError, match="rebalanced"):
            delivery.deliver(outputs(sink, b"stale"), {(source, 0): 3}, generation=read_in)
        coordinator._generation = current
        delivery.deliver(outputs(sink, b"next"), {(sink, 0): 1}, generation=read_in)
    finally:
        delivery.close(5)
    assert member.committed(source) is None
    assert [r.value for r in consume_all(kafka_broker.bootstrap, sink, expected=None)] == [b"next"]
