"""The Kafka clients of a replay: a consumer outside every group, and a plain producer.

The consumer has no group id and is only ever ``assign``-ed, so it never joins, commits to
or rebalances the workers' consumer group; it reads raw bytes and only committed records,
like the worker. The producer is idempotent but not transactional: a replay's outputs are
diagnostics, not the production record.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from kafka import KafkaConsumer, TopicPartition
from kafka.errors import KafkaError
from quantcheck.worker.replay.window import TopicOffsets
from quantcheck.worker.stream.clients import plain_producer, unreachable
from quantcheck.worker.stream.config import KafkaConnection

from quantcheck.errors import UsageError

CLIENT_ID = "quantcheck-replay"
# Every offset lookup is a bounded call: an unreachable broker ends the replay with one line
# instead of a hang.
LOOKUP_TIMEOUT_MS = 15_000
MAX_POLL_RECORDS = 1_000


def consumer_config(connection: KafkaConnection) -> dict[str, Any]:
    """A consumer that belongs to no group and reads committed records as raw bytes."""
    return {
        **connection.client_config(CLIENT_ID),
        "group_id": None,
        "enable_auto_commit": False,
        # A position that falls out of the log (retention deleting the window while it is
        # read) must fail loudly rather than skip to another offset.
        "auto_offset_reset": "none",
        "isolation_level": "read_committed",
        "max_poll_records": MAX_POLL_RECORDS,
        "allow_auto_create_topics": False,
    }


@contextmanager
def replay_consumer(connection: KafkaConnection) -> Iterator[Any]:
    """An open group-less consumer, closed without committing anything."""
    try:
        consumer = KafkaConsumer(**consumer_config(connection))
    except KafkaError as exc:
        raise unreachable(connection, exc) from None
    try:
        yield consumer
    finally:
        consumer.close(autocommit=False)


def replay_producer(connection: KafkaConnection) -> AbstractContextManager[Any]:
    """An idempotent producer for published verdicts and republished claims."""
    return plain_producer(connection, client_id=CLIENT_ID, close_timeout_s=10)


def existing_topics(consumer: Any) -> set[str]:
    """The names of every topic in the cluster."""
    try:
        return set(consumer.topics())
    except KafkaError as exc:
        raise UsageError(f"cannot list the Kafka topics: {exc}") from None


def require_topics(consumer: Any, wanted: Mapping[str, str]) -> set[str]:
    """Every topic in the cluster; raises UsageError for the first of ``wanted`` (a topic
    and the flag that named it) that does not exist."""
    existing = existing_topics(consumer)
    for topic, flag in wanted.items():
        if topic not in existing:
            raise UsageError(f"{flag}: topic {topic!r} does not exist")
    return existing


def partitions_of(consumer: Any, topic: str) -> list[Any]:
    """The topic's partitions as TopicPartitions, in partition order."""
    ids = consumer.partitions_for_topic(topic)
    if not ids:
        raise UsageError(f"topic {topic!r} does not exist")
    return [TopicPartition(topic, partition) for partition in sorted(ids)]


def topic_offsets(consumer: Any, partitions: list[Any]) -> TopicOffsets:
    """First and end offsets now; the end is the last stable offset, as read_committed sees it."""
    try:
        beginnings = consumer.beginning_offsets(partitions, timeout_ms=LOOKUP_TIMEOUT_MS)
        ends = consumer.end_offsets(partitions, timeout_ms=LOOKUP_TIMEOUT_MS)
    except KafkaError as exc:
        raise UsageError(f"cannot look up the offsets of {partitions[0].topic}: {exc}") from None
    return TopicOffsets(
        {tp.partition: offset for tp, offset in beginnings.items()},
        {tp.partition: offset for tp, offset in ends.items()},
    )


def offsets_at(consumer: Any, partitions: list[Any], millis: int) -> dict[int, int | None]:
    """Per partition, the first offset whose timestamp is at or after ``millis``, or None."""
    try:
        found = consumer.offsets_for_times(
            {tp: millis for tp in partitions}, timeout_ms=LOOKUP_TIMEOUT_MS
        )
    except KafkaError as exc:
        raise UsageError(
            f"cannot look up offsets by time in {partitions[0].topic}: {exc}"
        ) from None
    return {tp.partition: None if hit is None else hit.offset for tp, hit in found.items()}
