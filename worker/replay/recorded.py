"""The verdicts recorded for a window, indexed by the coordinates of the claim they answer.

The compare topic is read once, before the window, with read_committed and up to its end
offsets at that moment. Only verdicts whose source lies inside the window are kept, and of
those only what a comparison needs (claim ID, status, reason), so memory grows with the
window, not with the topic. An entry is removed when its claim is replayed.

An answer message has several: one verdict per sentence claim and the answer's own record
(kept with no claim ID, its reason made from its counts by
:func:`~quantcheck.worker.replay.compare.answer_reason`).

Verdicts are written after the claims they answer, so for a window that starts at a time
the topic is read from that time, less :data:`CLOCK_SKEW_MS` for producers whose clocks
disagree; otherwise from the earliest timestamp among the window's first records.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, NonNegativeInt, ValidationError
from quantcheck.schemas import DeadLetterInfo, VerdictStatus
from quantcheck.worker.replay.clients import offsets_at, partitions_of, topic_offsets
from quantcheck.worker.replay.compare import Decision, answer_reason
from quantcheck.worker.replay.source import STALL_TIMEOUT_S, read_range
from quantcheck.worker.replay.window import PartitionRange, Window
from quantcheck.worker.stream.batch import CITATION_FAILURE_KINDS

CLOCK_SKEW_MS = 5 * 60 * 1000
"""How much earlier than the window's start a verdict's timestamp may be and still count."""

_CITATION_FAILURE_KINDS = frozenset(CITATION_FAILURE_KINDS.values())


class _RecordedSource(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    topic: str
    partition: NonNegativeInt
    offset: NonNegativeInt


class RecordedVerdictMessage(BaseModel):
    """The part of a verdict message a comparison reads; other fields are ignored, so
    verdicts of later minor versions still compare."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    claim_id: str
    status: VerdictStatus
    reason: str
    source: _RecordedSource


class RecordedAnswerMessage(BaseModel):
    """The part of an answer verdict a comparison reads."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    event_type: Literal["answer_verdict"]
    status: VerdictStatus
    counts: dict[str, NonNegativeInt]
    source: _RecordedSource


@dataclass(frozen=True, slots=True)
class Recorded:
    """The recorded outcome of one claim message, and the claim ID it was recorded under
    (None for an answer's own record, and for a dead letter that names no claim)."""

    claim_id: str | None
    decision: Decision


Entries = Recorded | tuple[Recorded, ...]
"""What is recorded for one message: a claim's verdict alone (most messages, kept without
a tuple around it), or everything recorded for an answer."""


def recorded_for(entries: tuple[Recorded, ...], claim_id: str | None) -> Recorded | None:
    """The entry recorded for the replayed claim ``claim_id`` (None: an answer's own row,
    or a message that cannot be read now) of one message.

    The entry of the same claim ID; otherwise a lone entry when either side has no claim
    ID: the coordinates found it, and one side cannot say which claim it was (a dead
    letter of a whole answer stands for each of its claims).
    """
    for entry in entries:
        if entry.claim_id == claim_id:
            return entry
    if len(entries) == 1 and None in (claim_id, entries[0].claim_id):
        return entries[0]
    return None


def recorded_dead_letter(info: DeadLetterInfo) -> Recorded:
    """A dead letter's recorded outcome: its kind and message. Citation failures are the
    kinds that got a verdict as well."""
    return Recorded(
        info.claim_id,
        Decision(info.kind, info.message, verdict=info.kind in _CITATION_FAILURE_KINDS),
    )


class RecordedIndex:
    """Recorded outcomes of a window's claims by (partition, offset) of the claim."""

    def __init__(self, window: Window) -> None:
        self._topic = window.topic
        self._ranges = {span.partition: span for span in window.ranges}
        self._entries: dict[int, dict[int, Entries]] = {}
        self._size = 0
        self.duplicates = 0
        self.unreadable = 0

    def add(self, value: bytes | None) -> None:
        """Index one verdict message if it answers a claim of the window.

        A later verdict for the same claim (or answer) replaces an earlier one
        (at-least-once delivery may have written two). Messages that are not verdicts are
        counted in :attr:`unreadable`.
        """
        read = _read_verdict(value or b"")
        if read is None:
            self.unreadable += 1
            return
        source, entry = read
        span = self._ranges.get(source.partition)
        if source.topic != self._topic or span is None:
            return
        if not span.start <= source.offset < span.end:
            return
        entries = self._entries.setdefault(source.partition, {})
        held = entries.get(source.offset)
        if held is None:
            entries[source.offset] = entry
            self._size += 1
            return
        kept = [held] if isinstance(held, Recorded) else list(held)
        same = [i for i, old in enumerate(kept) if old.claim_id == entry.claim_id]
        if same:
            self.duplicates += 1
            kept[same[0]] = entry
        else:
            self._size += 1
            kept.append(entry)
        entries[source.offset] = kept[0] if len(kept) == 1 else tuple(kept)

    def take(self, partition: int, offset: int) -> tuple[Recorded, ...]:
        """What was recorded for a claims message, removed from the index; () if nothing."""
        found = self._entries.get(partition, {}).pop(offset, None)
        if found is None:
            return ()
        taken = (found,) if isinstance(found, Recorded) else found
        self._size -= len(taken)
        return taken

    def __len__(self) -> int:
        return self._size


def _read_verdict(value: bytes) -> tuple[_RecordedSource, Recorded] | None:
    """The source and recorded outcome of a claim verdict or an answer verdict; None for
    anything else. Claim verdicts, nearly every message, are tried first."""
    try:
        claim = RecordedVerdictMessage.model_validate_json(value)
    except ValidationError:
        pass
    else:
        # Statuses and reasons repeat across claims; one shared copy each keeps the index
        # small.
        decision = Decision(sys.intern(claim.status), sys.intern(claim.reason), verdict=True)
        return claim.source, Recorded(claim.claim_id, decision)
    try:
        answer = RecordedAnswerMessage.model_validate_json(value)
    except ValidationError:
        return None
    decision = Decision(sys.intern(answer.status), answer_reason(answer.counts), verdict=True)
    return answer.source, Recorded(None, decision)


def read_recorded(
    consumer: Any,
    topic: str,
    window: Window,
    *,
    since_ms: int | None,
    stall_timeout_s: float = STALL_TIMEOUT_S,
) -> RecordedIndex:
    """Index the verdicts in ``topic`` that answer claims of ``window``.

    ``since_ms`` is when the window's first claim was written; None reads the topic from
    the beginning of each partition.
    """
    index = RecordedIndex(window)
    for span in compare_ranges(consumer, topic, since_ms):
        for records in read_range(consumer, topic, span, stall_timeout_s=stall_timeout_s):
            for record in records:
                index.add(record.value)
    return index


def compare_ranges(consumer: Any, topic: str, since_ms: int | None) -> Iterator[PartitionRange]:
    """The range of each partition of ``topic`` that may hold verdicts written since
    ``since_ms`` (less the clock skew allowance), up to its end offset now."""
    partitions = partitions_of(consumer, topic)
    offsets = topic_offsets(consumer, partitions)
    starts: dict[int, int | None] = dict(offsets.beginnings)
    if since_ms is not None:
        starts = offsets_at(consumer, partitions, max(since_ms - CLOCK_SKEW_MS, 0))
    for tp in partitions:
        start = starts.get(tp.partition)
        if start is not None:
            yield PartitionRange(tp.partition, start, offsets.ends[tp.partition])
