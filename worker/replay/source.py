"""Reading a window: partition after partition, in offset order, as claim messages.

Partitions are read one at a time so that every run of the same replay sees the records in
the same order (partition, then offset), whatever the broker's fetches interleave; outputs
written in that order are byte-identical across runs. A partition is finished when the
consumer's position reaches the range's end: with read_committed, transaction markers and
aborted records take offsets that are never returned, so records cannot be counted instead.

Dead letters are turned back into the claim message they carry, with the coordinates,
timestamp and headers it had before it was dead-lettered.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from kafka import TopicPartition
from kafka.errors import KafkaError
from quantcheck.schemas import DeadLetterHeaderError, DeadLetterInfo, read_dead_letter_headers
from quantcheck.worker.replay.window import PartitionRange, Window
from quantcheck.worker.stream.records import InputRecord, from_consumer_record

from quantcheck.errors import UsageError

POLL_TIMEOUT_MS = 500
# A partition whose position has not moved for this long while records are still due means
# the broker is gone or a transaction blocks the range; the replay ends with one line.
STALL_TIMEOUT_S = 60.0


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """One record of the window: where the replay read it, and the claim message in it.

    For the claims topic ``claim`` is the record itself. For a dead letter it is the
    original message: its key and value, its headers without the ``quantcheck.*`` ones,
    and the topic, partition, offset and timestamp it was first read at.
    """

    topic: str
    partition: int
    offset: int
    claim: InputRecord
    dead_letter: DeadLetterInfo | None = None


def read_range(
    consumer: Any,
    topic: str,
    span: PartitionRange,
    *,
    stall_timeout_s: float = STALL_TIMEOUT_S,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[list[InputRecord]]:
    """The records of ``span`` in offset order, a poll's worth at a time.

    Raises UsageError when the partition cannot be read or makes no progress for
    ``stall_timeout_s``.
    """
    if span.size <= 0:
        return
    tp = TopicPartition(topic, span.partition)
    consumer.assign([tp])
    consumer.seek(tp, span.start)
    position = span.start
    moved_at = clock()
    while position < span.end:
        try:
            polled = consumer.poll(timeout_ms=POLL_TIMEOUT_MS)
            now_at = consumer.position(tp)
        except KafkaError as exc:
            raise UsageError(
                f"cannot read {topic} partition {span.partition} at offset {position}: {exc}"
            ) from None
        records = [
            from_consumer_record(record)
            for record in polled.get(tp, ())
            if span.start <= record.offset < span.end
        ]
        if records:
            yield records
        if now_at > position:
            position, moved_at = now_at, clock()
        elif clock() - moved_at > stall_timeout_s:
            raise UsageError(
                f"no progress reading {topic} partition {span.partition} at offset {position} "
                f"for {stall_timeout_s:g}s (end offset {span.end})"
            )


class WindowReader:
    """Reads a window as :class:`SourceRecord` chunks, partition by partition."""

    def __init__(
        self,
        consumer: Any,
        window: Window,
        *,
        dead_letters: bool,
        stall_timeout_s: float = STALL_TIMEOUT_S,
    ) -> None:
        self._consumer = consumer
        self._window = window
        self._dead_letters = dead_letters
        self._stall_timeout_s = stall_timeout_s
        self.records_read = 0
        self.not_dead_letters = 0

    def chunks(self) -> Iterator[list[SourceRecord]]:
        """Every record of the window, in partition then offset order.

        On a dead-letter topic, records whose headers do not describe a dead letter are
        counted in :attr:`not_dead_letters` and left out.
        """
        for span in self._window.ranges:
            for records in read_range(
                self._consumer, self._window.topic, span, stall_timeout_s=self._stall_timeout_s
            ):
                self.records_read += len(records)
                chunk = [source for source in map(self._source, records) if source is not None]
                self.not_dead_letters += len(records) - len(chunk)
                if chunk:
                    yield chunk

    def first_timestamp(self) -> int | None:
        """The earliest timestamp among the first records of the window's partitions.

        Only the first fetch of each partition is read; the reader can start over after it.
        """
        stamps = []
        for span in self._window.ranges:
            for records in read_range(
                self._consumer, self._window.topic, span, stall_timeout_s=self._stall_timeout_s
            ):
                stamps.append(records[0].timestamp)
                break
        known = [stamp for stamp in stamps if stamp >= 0]
        return min(known) if known else None

    def _source(self, record: InputRecord) -> SourceRecord | None:
        if not self._dead_letters:
            return SourceRecord(record.topic, record.partition, record.offset, record)
        try:
            info = read_dead_letter_headers(record.headers)
        except DeadLetterHeaderError:
            return None
        if not info.topic or info.partition < 0 or info.offset < 0:
            return None
        claim = InputRecord(
            topic=info.topic,
            partition=info.partition,
            offset=info.offset,
            timestamp=info.timestamp,
            key=record.key,
            value=record.value,
            headers=info.original_headers,
        )
        return SourceRecord(record.topic, record.partition, record.offset, claim, info)
