"""The local broker (deploy/local/kafka) does what the worker relies on: explicitly created
multi-partition topics, transactions with read_committed isolation, consumer offsets committed
inside a transaction, fencing of a stale producer, and data kept across a restart on the same
address.

These run against whatever ``kafka_broker`` provides, so they double as a check of an external
broker given through KAFKA_BOOTSTRAP_SERVERS (the restart test then skips).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.errors import ProducerFencedError
from kafka.structs import OffsetAndMetadata

from tests.support.kafka import (
    KAFKA_SCRIPT,
    KafkaBroker,
    OutgoingRecord,
    consume_all,
    create_topics,
    produce,
)

pytestmark = pytest.mark.integration

Names = Callable[[str], str]


@pytest.fixture
def admin(kafka_broker: KafkaBroker) -> Iterator[Any]:
    client = KafkaAdminClient(bootstrap_servers=kafka_broker.bootstrap)
    yield client
    client.close()


def transactional_producer(bootstrap: str, transactional_id: str) -> Any:
    producer = KafkaProducer(bootstrap_servers=bootstrap, transactional_id=transactional_id)
    producer.init_transactions()
    return producer


def group_consumer(bootstrap: str, topic: str, group: str) -> Any:
    """A consumer as the worker runs one: in a group, offsets committed only by transactions."""
    return KafkaConsumer(
        topic,
        bootstrap_servers=bootstrap,
        group_id=group,
        enable_auto_commit=False,
        auto_offset_reset="earliest",
        isolation_level="read_committed",
    )


def topic_names(bootstrap: str) -> list[str]:
    client = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        return list(client.list_topics())
    finally:
        client.close()


def poll_records(consumer: Any, count: int, timeout_s: float = 30.0) -> list[Any]:
    """Poll until ``count`` records arrived (joining the group happens inside poll)."""
    records: list[Any] = []
    deadline = time.monotonic() + timeout_s
    while len(records) < count and time.monotonic() < deadline:
        for batch in consumer.poll(timeout_ms=500).values():
            records.extend(batch)
    return records


def test_topic_with_six_partitions_takes_records_on_each(
    kafka_broker: KafkaBroker, admin: Any, unique_topic: Names
) -> None:
    topic = unique_topic("claims")
    create_topics(kafka_broker.bootstrap, [topic], partitions=6)

    (described,) = admin.describe_topics([topic])
    assert sorted(p["partition_index"] for p in described["partitions"]) == list(range(6))
    assert all(p["leader_id"] >= 0 for p in described["partitions"])

    placed = produce(
        kafka_broker.bootstrap,
        topic,
        [OutgoingRecord(value=b"v%d" % n, key=b"k%d" % n, partition=n) for n in range(6)],
    )
    assert placed == [(n, 0) for n in range(6)]

    records = consume_all(kafka_broker.bootstrap, topic, expected=None)
    assert sorted((r.partition, r.key, r.value) for r in records) == [
        (n, b"k%d" % n, b"v%d" % n) for n in range(6)
    ]


def test_topics_are_not_created_on_first_use(
    kafka_broker: KafkaBroker, unique_topic: Names
) -> None:
    # The broker leaves topic creation to the worker, so a missing topic stays missing.
    topic = unique_topic("never-created")
    with pytest.raises(TimeoutError, match="does not exist"):
        consume_all(kafka_broker.bootstrap, topic, expected=None, timeout_s=2)


def test_read_committed_sees_committed_records_and_not_aborted_ones(
    kafka_broker: KafkaBroker, unique_topic: Names
) -> None:
    topic = unique_topic("verdicts")
    create_topics(kafka_broker.bootstrap, [topic], partitions=2)
    producer = transactional_producer(kafka_broker.bootstrap, unique_topic("txn"))
    try:
        producer.begin_transaction()
        producer.send(topic, b"committed-1", key=b"a", headers=[("trace", b"t1")])
        producer.send(topic, b"committed-2", key=b"b")
        producer.commit_transaction()

        producer.begin_transaction()
        producer.send(topic, b"aborted", key=b"a")
        # Flushed, so the aborted record really is in the log and has to be filtered out.
        producer.flush()
        producer.abort_transaction()

        producer.begin_transaction()
        producer.send(topic, b"committed-3", key=b"b")
        producer.commit_transaction()
    finally:
        producer.close()

    committed = consume_all(kafka_broker.bootstrap, topic, expected=None)
    assert sorted(r.value for r in committed if r.value) == [
        b"committed-1",
        b"committed-2",
        b"committed-3",
    ]
    (first,) = [r for r in committed if r.value == b"committed-1"]
    assert first.key == b"a"
    assert first.headers == (("trace", b"t1"),)
    assert first.timestamp > 0

    everything = consume_all(
        kafka_broker.bootstrap, topic, expected=None, isolation_level="read_uncommitted"
    )
    assert b"aborted" in {r.value for r in everything}


def test_read_committed_does_not_wait_for_an_open_transaction(
    kafka_broker: KafkaBroker, unique_topic: Names
) -> None:
    topic = unique_topic("verdicts")
    create_topics(kafka_broker.bootstrap, [topic])
    produce(kafka_broker.bootstrap, topic, [b"plain"])
    producer = transactional_producer(kafka_broker.bootstrap, unique_topic("txn"))
    try:
        producer.begin_transaction()
        producer.send(topic, b"pending")
        producer.flush()

        visible = consume_all(kafka_broker.bootstrap, topic, expected=None, timeout_s=10)
        assert [r.value for r in visible] == [b"plain"]

        producer.commit_transaction()
    finally:
        producer.close()
    after = consume_all(kafka_broker.bootstrap, topic, expected=None)
    assert [r.value for r in after] == [b"plain", b"pending"]


def test_offsets_sent_in_a_transaction_are_what_a_fresh_group_member_resumes_from(
    kafka_broker: KafkaBroker, unique_topic: Names
) -> None:
    source, sink = unique_topic("claims"), unique_topic("verdicts")
    group = unique_topic("group")
    create_topics(kafka_broker.bootstrap, [source, sink], partitions=3)
    produce(
        kafka_broker.bootstrap,
        source,
        [OutgoingRecord(value=b"claim-%d" % n, partition=n % 3) for n in range(6)],
    )

    producer = transactional_producer(kafka_broker.bootstrap, unique_topic("txn"))
    consumer = group_consumer(kafka_broker.bootstrap, source, group)
    try:
        inputs = poll_records(consumer, 6)
        assert len(inputs) == 6
        next_offsets = {}
        for record in inputs:
            tp = TopicPartition(record.topic, record.partition)
            next_offsets[tp] = OffsetAndMetadata(record.offset + 1, "", -1)

        producer.begin_transaction()
        for record in inputs:
            producer.send(sink, b"verdict-for-" + record.value, key=record.key)
        producer.send_offsets_to_transaction(next_offsets, consumer.group_metadata())
        producer.commit_transaction()

        # An aborted transaction's offsets must not move the group.
        producer.begin_transaction()
        rewound = {tp: OffsetAndMetadata(0, "", -1) for tp in next_offsets}
        producer.send_offsets_to_transaction(rewound, consumer.group_metadata())
        producer.abort_transaction()
    finally:
        consumer.close(autocommit=False)
        producer.close()

    outputs = consume_all(kafka_broker.bootstrap, sink, expected=None)
    assert len(outputs) == 6

    produce(kafka_broker.bootstrap, source, [OutgoingRecord(value=b"claim-new", partition=1)])
    fresh = group_consumer(kafka_broker.bootstrap, source, group)
    try:
        resumed = poll_records(fresh, 1)
        # Give a wrongly rewound group the chance to deliver old records too.
        resumed += poll_records(fresh, 1, timeout_s=2)
        assert [r.value for r in resumed] == [b"claim-new"]
        assert {tp: fresh.committed(tp) for tp in next_offsets} == {
            tp: offset.offset for tp, offset in next_offsets.items()
        }
    finally:
        fresh.close(autocommit=False)


def test_a_second_producer_with_the_same_transactional_id_fences_the_first(
    kafka_broker: KafkaBroker, unique_topic: Names
) -> None:
    topic = unique_topic("verdicts")
    transactional_id = unique_topic("txn")
    create_topics(kafka_broker.bootstrap, [topic])
    zombie = transactional_producer(kafka_broker.bootstrap, transactional_id)
    successor = None
    try:
        zombie.begin_transaction()
        zombie.send(topic, b"from-zombie").get(timeout=30)
        # Initialising the successor aborts the zombie's open transaction and bumps the epoch.
        successor = transactional_producer(kafka_broker.bootstrap, transactional_id)
        with pytest.raises(ProducerFencedError):
            zombie.commit_transaction()

        successor.begin_transaction()
        successor.send(topic, b"from-successor")
        successor.commit_transaction()
    finally:
        zombie.close(timeout=5)
        if successor is not None:
            successor.close()

    records = consume_all(kafka_broker.bootstrap, topic, expected=None)
    assert [r.value for r in records] == [b"from-successor"]


def test_the_script_reports_the_running_broker(kafka_broker: KafkaBroker) -> None:
    if kafka_broker.state_dir is None:
        pytest.skip("the broker comes from KAFKA_BOOTSTRAP_SERVERS, not from deploy/local/kafka")
    status = subprocess.run(
        [str(KAFKA_SCRIPT), "status", "--state-dir", str(kafka_broker.state_dir)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (status.returncode, status.stdout) == (0, f"running {kafka_broker.bootstrap}\n")


@pytest.mark.faults
def test_restart_keeps_the_address_topics_records_and_group_offsets(
    kafka_broker: KafkaBroker, unique_topic: Names
) -> None:
    if kafka_broker.external:
        pytest.skip("the broker comes from KAFKA_BOOTSTRAP_SERVERS and cannot be restarted")
    topic, group = unique_topic("claims"), unique_topic("group")
    create_topics(kafka_broker.bootstrap, [topic], partitions=6)
    produce(kafka_broker.bootstrap, topic, [OutgoingRecord(value=b"before", partition=4)])
    tp = TopicPartition(topic, 4)
    producer = transactional_producer(kafka_broker.bootstrap, unique_topic("txn"))
    consumer = group_consumer(kafka_broker.bootstrap, topic, group)
    try:
        assert len(poll_records(consumer, 1)) == 1
        producer.begin_transaction()
        producer.send_offsets_to_transaction(
            {tp: OffsetAndMetadata(1, "", -1)}, consumer.group_metadata()
        )
        producer.commit_transaction()
    finally:
        consumer.close(autocommit=False)
        producer.close()

    kafka_broker.stop()
    kafka_broker.start()

    assert topic in topic_names(kafka_broker.bootstrap)
    records = consume_all(kafka_broker.bootstrap, topic, expected=None)
    assert [(r.partition, r.value) for r in records] == [(4, b"before")]
    assert produce(
        kafka_broker.bootstrap, topic, [OutgoingRecord(value=b"after", partition=4)]
    ) == [(4, 1)]
    fresh = group_consumer(kafka_broker.bootstrap, topic, group)
    try:
        assert [r.value for r in poll_records(fresh, 1)] == [b"after"]
    finally:
        fresh.close(autocommit=False)


def test_a_state_dir_keeps_the_mode_it_started_with(kafka_broker: KafkaBroker) -> None:
    if kafka_broker.state_dir is None:
        pytest.skip("the broker comes from KAFKA_BOOTSTRAP_SERVERS, not from deploy/local/kafka")
    started = subprocess.run(
        [str(KAFKA_SCRIPT), "start", "--authorizer", "--state-dir", str(kafka_broker.state_dir)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert started.returncode == 1
    assert "was set up without --authorizer" in started.stderr
