"""The window of a replay: which partitions, and which offsets of each, fixed when it starts.

A window is one half-open offset range ``[start, end)`` per partition. Every bound is
resolved once, before the first record is read, and the end never lies past the partition's
end offset at that moment: a replay terminates however fast producers keep writing.

Time bounds are resolved the way Kafka resolves them: ``--from T`` starts at the first
offset whose record timestamp is at or after ``T``, and ``--to T`` ends before the first
offset at or after ``T``. ``--last N`` takes the last ``N`` records of each selected
partition before the end.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from quantcheck.errors import UsageError

OffsetsForTime = Callable[[int], Mapping[int, int | None]]
"""Per partition, the first offset whose timestamp is at or after a time (ms), or None."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = timedelta(milliseconds=1)
_PARTITION_OFFSET = re.compile(r"([0-9]{1,9}):([0-9]{1,19})")


def parse_partition_offset(text: str, flag: str) -> tuple[int, int]:
    """``PARTITION:OFFSET`` as two integers; anything else is a one-line UsageError."""
    match = _PARTITION_OFFSET.fullmatch(text.strip())
    if match is None:
        raise UsageError(f"{flag} {text!r} is not PARTITION:OFFSET (e.g. 0:1500)")
    return int(match.group(1)), int(match.group(2))


def parse_timestamp(text: str, flag: str) -> int:
    """An ISO 8601 timestamp as milliseconds since the Unix epoch.

    A timestamp without an offset is read as UTC, never as the local time zone, so the same
    command selects the same records on every machine.
    """
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(
            f"{flag} {text!r} is not an ISO 8601 timestamp (e.g. 2026-05-04T14:00:00Z)"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    millis = (moment - _EPOCH) // _ONE_MS
    if millis < 0:
        raise UsageError(f"{flag} {text!r} is before 1970, where Kafka has no timestamps")
    return millis


def format_millis(millis: int) -> str:
    """Milliseconds since the epoch as an ISO 8601 UTC timestamp."""
    moment = _EPOCH + millis * _ONE_MS
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class WindowRequest:
    """The window as the command line asked for it, before the broker is consulted.

    ``partitions`` empty means every partition, or those the offset bounds name.
    """

    partitions: tuple[int, ...] = ()
    from_ms: int | None = None
    to_ms: int | None = None
    from_offsets: Mapping[int, int] = field(default_factory=dict)
    to_offsets: Mapping[int, int] = field(default_factory=dict)
    last: int | None = None

    @classmethod
    def build(
        cls,
        *,
        partitions: Iterable[int] = (),
        from_ms: int | None = None,
        to_ms: int | None = None,
        from_offsets: Iterable[tuple[int, int]] = (),
        to_offsets: Iterable[tuple[int, int]] = (),
        last: int | None = None,
    ) -> WindowRequest:
        """Check that the bounds fit together; raise UsageError naming the first that does not."""
        starts = _by_partition(from_offsets, "--from-offset")
        ends = _by_partition(to_offsets, "--to-offset")
        if from_ms is not None and starts:
            raise UsageError("--from and --from-offset cannot be combined; give one start")
        if to_ms is not None and ends:
            raise UsageError("--to and --to-offset cannot be combined; give one end")
        if last is not None:
            if from_ms is not None:
                raise UsageError("--from and --last cannot be combined; give one start")
            if starts:
                raise UsageError("--from-offset and --last cannot be combined; give one start")
            if last < 1:
                raise UsageError(f"--last must be at least 1, got {last}")
        if from_ms is not None and to_ms is not None and from_ms >= to_ms:
            raise UsageError(
                f"--from {format_millis(from_ms)} is not before --to {format_millis(to_ms)}"
            )
        for partition, start in starts.items():
            if partition in ends and start > ends[partition]:
                raise UsageError(
                    f"--from-offset {partition}:{start} is after "
                    f"--to-offset {partition}:{ends[partition]}"
                )
        chosen = tuple(sorted(set(partitions)))
        if chosen:
            outside = sorted((starts.keys() | ends.keys()) - set(chosen))
            if outside:
                raise UsageError(
                    f"--from-offset/--to-offset name partition {outside[0]}, "
                    f"which --partition leaves out"
                )
        return cls(chosen, from_ms, to_ms, starts, ends, last)


@dataclass(frozen=True, slots=True)
class PartitionRange:
    """The offsets ``[start, end)`` of one partition."""

    partition: int
    start: int
    end: int

    @property
    def size(self) -> int:
        """How many offsets the range spans (transaction markers included)."""
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class Window:
    """A resolved window: one range per partition, in partition order."""

    topic: str
    ranges: tuple[PartitionRange, ...]
    from_ms: int | None = None

    @property
    def size(self) -> int:
        """Offsets spanned over all partitions: an upper bound on the records read."""
        return sum(r.size for r in self.ranges)

    def describe(self) -> str:
        """One line for people: the topic and each partition's range."""
        parts = ", ".join(f"{r.partition}:[{r.start},{r.end})" for r in self.ranges)
        return f"{self.topic} {parts or '(no partitions)'}: up to {self.size} records"


@dataclass(frozen=True, slots=True)
class TopicOffsets:
    """Each partition's first and end offsets when the replay starts."""

    beginnings: Mapping[int, int]
    ends: Mapping[int, int]


def resolve_window(
    topic: str,
    request: WindowRequest,
    offsets: TopicOffsets,
    offsets_for_time: OffsetsForTime,
) -> Window:
    """The offset ranges ``request`` selects in a topic with these ``offsets``.

    Raises UsageError for a partition the topic does not have and for an offset outside
    what the partition holds.
    """
    existing = sorted(offsets.ends)
    chosen = request.partitions or tuple(
        sorted(request.from_offsets.keys() | request.to_offsets.keys())
    )
    for partition in chosen:
        if partition not in offsets.ends:
            raise UsageError(
                f"partition {partition} does not exist in topic {topic!r} "
                f"(it has partitions 0-{len(existing) - 1})"
            )
    selected = list(chosen) or existing
    bounds_by_flag = (("--from-offset", request.from_offsets), ("--to-offset", request.to_offsets))
    for flag, bounds in bounds_by_flag:
        for partition, offset in bounds.items():
            first, end = offsets.beginnings[partition], offsets.ends[partition]
            if not first <= offset <= end:
                raise UsageError(
                    f"{flag} {partition}:{offset} is out of range: partition {partition} "
                    f"holds offsets {first} to {end - 1}"
                    if end > first
                    else f"{flag} {partition}:{offset} is out of range: partition {partition} "
                    f"is empty (next offset {end})"
                )
    starts = offsets_for_time(request.from_ms) if request.from_ms is not None else {}
    stops = offsets_for_time(request.to_ms) if request.to_ms is not None else {}
    ranges = []
    for partition in selected:
        first, end = offsets.beginnings[partition], offsets.ends[partition]
        stop = request.to_offsets.get(partition, end)
        if request.to_ms is not None:
            found = stops.get(partition)
            stop = end if found is None else min(found, end)
        start = request.from_offsets.get(partition, first)
        if request.from_ms is not None:
            found = starts.get(partition)
            start = end if found is None else found
        if request.last is not None:
            start = max(first, stop - request.last)
        ranges.append(PartitionRange(partition, min(start, stop), stop))
    return Window(topic, tuple(ranges), request.from_ms)


def _by_partition(pairs: Iterable[tuple[int, int]], flag: str) -> dict[int, int]:
    bounds: dict[int, int] = {}
    for partition, offset in pairs:
        if partition in bounds:
            raise UsageError(f"{flag} gives partition {partition} twice")
        bounds[partition] = offset
    return bounds
