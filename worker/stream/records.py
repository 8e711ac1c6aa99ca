"""The records the worker reads and writes, as plain values independent of the Kafka client."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

Header = tuple[str, bytes | None]
"""A record header: a name and a value, which Kafka allows to be null."""


@dataclass(frozen=True, slots=True)
class InputRecord:
    """One message read from the claims topic, exactly as the broker returned it."""

    topic: str
    partition: int
    offset: int
    timestamp: int  # milliseconds since the Unix epoch, -1 when the message has none
    key: bytes | None
    value: bytes | None
    headers: tuple[Header, ...] = ()


@dataclass(frozen=True, slots=True)
class OutputRecord:
    """One message to write: a verdict or a dead letter."""

    topic: str
    key: bytes | None
    value: bytes | None
    headers: tuple[Header, ...] = ()


def from_consumer_record(record: Any) -> InputRecord:
    """Copy a kafka-python ``ConsumerRecord`` (consumed as raw bytes) into an InputRecord."""
    timestamp = record.timestamp if record.timestamp is not None else -1
    return InputRecord(
        topic=record.topic,
        partition=record.partition,
        offset=record.offset,
        timestamp=timestamp,
        key=record.key,
        value=record.value,
        # kafka-python gives a list of (name, value) tuples, usually empty.
        headers=tuple(record.headers) if record.headers else (),
    )


def first_offsets(records: Iterable[InputRecord]) -> dict[tuple[str, int], int]:
    """The lowest offset per ``(topic, partition)``: where to rewind to read them again."""
    firsts: dict[tuple[str, int], int] = {}
    for record in records:
        where = (record.topic, record.partition)
        if where not in firsts or record.offset < firsts[where]:
            firsts[where] = record.offset
    return firsts


def next_offsets(records: Iterable[InputRecord]) -> dict[tuple[str, int], int]:
    """The offset to commit per ``(topic, partition)``: one past the highest one read."""
    nexts: dict[tuple[str, int], int] = {}
    for record in records:
        where = (record.topic, record.partition)
        nexts[where] = max(nexts.get(where, 0), record.offset + 1)
    return nexts
