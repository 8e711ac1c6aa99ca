"""Delivering a batch: bounded broker calls, transactions that commit outputs and offsets
together, and at-least-once publishing before committing."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition

from tests.stream.workers import connection
from tests.support.kafka import KafkaBroker, consume_all, create_topics, produce
from worker.stream.config import consumer_config, producer_config
from worker.stream.delivery import (
    AtLeastOnceDelivery,
    CallTimeoutError,
    DeliveryError,
    TransactionalDelivery,
    bounded,
    send,
)
from worker.stream.records import OutputRecord

Names = Callable[[str], str]


def test_bounded_returns_when_the_call_does() -> None:
    seen: list[int] = []
    bounded(lambda: seen.append(1), 5.0, "append")
    assert seen == [1]


def test_bounded_passes_the_calls_error_on() -> None:
    def fail() -> None:
        raise ValueError("from the helper thread")

    with pytest.raises(ValueError, match="from the helper thread"):
        bounded(fail, 5.0, "fail")


def test_bounded_gives_up_on_a_call_that_hangs() -> None:
    release = threading.Event()
    started = time.monotonic()
    with pytest.raises(CallTimeoutError, match=r"commit did not finish within 0\.2s"):
        bounded(release.wait, 0.2, "commit")
    assert time.monotonic() - started < 2
    release.set()


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


@pytest.fixture
def group(kafka_broker: KafkaBroker, unique_topic: Names) -> Iterator[tuple[Group, str, str]]:
    source, sink = unique_topic("claims"), unique_topic("verdicts")
    create_topics(kafka_broker.bootstrap, [source, sink])
    produce(kafka_broker.bootstrap, source, [b"c0", b"c1", b"c2"])
    member = Group(kafka_broker.bootstrap, source, unique_topic("group"))
    yield member, source, sink
    member.consumer.close(autocommit=False)


def producers(bootstrap: str, txn_id: str | None) -> Callable[[], Any]:
    def factory() -> Any:
        config = producer_config(connection(bootstrap), client_id="tests", transactional_id=txn_id)
        return KafkaProducer(**config)

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
        delivery.deliver(outputs(sink, b"v0", b"v1"), {(source, 0): 2})
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
            delivery.deliver(outputs(sink, b"v0", b"v1", b"v2"), {(source, 0): 3}, timeout_s=1e-6)
        assert caught.value.rewind_to_committed
        # The new producer's initialisation settles whatever the old one left open.
        delivery.ensure_producer()
        committed = member.committed(source)
        visible = consume_all(kafka_broker.bootstrap, sink, expected=None)
        assert (committed, len(visible)) in {(None, 0), (3, 3)}
        delivery.deliver(outputs(sink, b"again"), {(source, 0): 3})
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
        delivery.deliver(outputs(sink, b"v0"), {(source, 0): 1})
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
    producer = producers(kafka_broker.bootstrap, None)()
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
