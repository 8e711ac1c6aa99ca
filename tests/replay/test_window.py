"""Window arguments and their resolution into offset ranges, without a broker."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from quantcheck.worker.replay.window import (
    PartitionRange,
    TopicOffsets,
    WindowRequest,
    format_millis,
    parse_partition_offset,
    parse_timestamp,
    resolve_window,
)

from quantcheck.errors import UsageError

# Three partitions: 0 holds offsets 10..109, 1 holds 0..49, 2 is empty at offset 7.
OFFSETS = TopicOffsets(beginnings={0: 10, 1: 0, 2: 7}, ends={0: 110, 1: 50, 2: 7})
# Partition 0 has one record per millisecond from t=1000 at offset 10; partition 1 from
# t=1000 at offset 0; partition 2 has nothing.
T0 = 1_000


def times(millis: int) -> Mapping[int, int | None]:
    found: dict[int, int | None] = {}
    for partition, first in ((0, 10), (1, 0)):
        offset = first + max(millis - T0, 0)
        found[partition] = offset if offset < OFFSETS.ends[partition] else None
    found[2] = None
    return found


def resolve(**kwargs: object) -> tuple[PartitionRange, ...]:
    request = WindowRequest.build(**kwargs)  # type: ignore[arg-type]
    return resolve_window("claims", request, OFFSETS, times).ranges


def test_without_bounds_every_partition_is_replayed_from_its_first_to_its_end_offset() -> None:
    assert resolve() == (
        PartitionRange(0, 10, 110),
        PartitionRange(1, 0, 50),
        PartitionRange(2, 7, 7),
    )


def test_time_bounds_are_resolved_per_partition_and_the_end_is_exclusive() -> None:
    ranges = resolve(from_ms=T0 + 20, to_ms=T0 + 30)
    assert ranges[:2] == (PartitionRange(0, 30, 40), PartitionRange(1, 20, 30))
    assert ranges[2].size == 0


def test_a_time_past_every_record_gives_an_empty_range_not_an_error() -> None:
    ranges = resolve(from_ms=T0 + 80)
    assert ranges[0] == PartitionRange(0, 90, 110)
    # Partition 1 has no record at or after the start: nothing to replay there.
    assert ranges[1] == PartitionRange(1, 50, 50)


def test_an_end_time_past_the_last_record_stops_at_the_end_offset_fixed_at_the_start() -> None:
    assert resolve(to_ms=T0 + 10_000)[0] == PartitionRange(0, 10, 110)


def test_offset_bounds_name_the_partitions_and_default_to_first_and_end() -> None:
    ranges = resolve(from_offsets=[(0, 20)], to_offsets=[(1, 5)])
    assert ranges == (PartitionRange(0, 20, 110), PartitionRange(1, 0, 5))


def test_partition_narrows_and_last_counts_per_partition_before_the_end() -> None:
    assert resolve(partitions=[1], last=5) == (PartitionRange(1, 45, 50),)
    assert resolve(last=200)[0] == PartitionRange(0, 10, 110)
    assert resolve(last=3, to_offsets=[(0, 50)]) == (PartitionRange(0, 47, 50),)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"from_ms": 5, "last": 3}, "--from and --last cannot be combined"),
        ({"from_ms": 5, "from_offsets": [(0, 1)]}, "--from and --from-offset cannot be combined"),
        ({"to_ms": 5, "to_offsets": [(0, 1)]}, "--to and --to-offset cannot be combined"),
        ({"from_offsets": [(0, 1)], "last": 3}, "--from-offset and --last cannot be combined"),
        ({"last": 0}, "--last must be at least 1"),
        ({"from_ms": 2000, "to_ms": 1000}, "--from 1970-01-01T00:00:02.000Z is not before --to"),
        ({"from_offsets": [(0, 9), (0, 10)]}, "--from-offset gives partition 0 twice"),
        ({"from_offsets": [(0, 9)], "to_offsets": [(0, 3)]}, "--from-offset 0:9 is after"),
        ({"partitions": [1], "from_offsets": [(0, 9)]}, "which --partition leaves out"),
    ],
)
def test_bounds_that_do_not_fit_together_are_refused_before_the_broker_is_asked(
    kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        WindowRequest.build(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"partitions": [3]}, "partition 3 does not exist in topic 'claims'"),
        ({"from_offsets": [(0, 5)]}, r"--from-offset 0:5 is out of range: .* offsets 10 to 109"),
        ({"to_offsets": [(1, 51)]}, "--to-offset 1:51 is out of range"),
        ({"from_offsets": [(2, 8)]}, "partition 2 is empty"),
    ],
)
def test_bounds_outside_what_the_topic_holds_are_refused(
    kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        resolve(**kwargs)


def test_partition_offsets_parse_and_bad_ones_name_the_flag() -> None:
    assert parse_partition_offset(" 3:1500 ", "--from-offset") == (3, 1500)
    for bad in ("3", "a:1", "3:-1", "-1:3", "3:1:2", ""):
        with pytest.raises(UsageError, match=r"--to-offset .* is not PARTITION:OFFSET"):
            parse_partition_offset(bad, "--to-offset")


def test_timestamps_with_and_without_offset_and_bad_ones() -> None:
    assert parse_timestamp("2026-05-04T14:00:00Z", "--from") == 1_777_903_200_000
    assert parse_timestamp("2026-05-04T16:00:00+02:00", "--from") == 1_777_903_200_000
    # No offset means UTC, whatever the machine's time zone.
    assert parse_timestamp("2026-05-04T14:00:00", "--from") == 1_777_903_200_000
    assert parse_timestamp("2026-05-04T14:00:00.250Z", "--to") == 1_777_903_200_250
    with pytest.raises(UsageError, match="--to 'yesterday' is not an ISO 8601 timestamp"):
        parse_timestamp("yesterday", "--to")
    with pytest.raises(UsageError, match="before 1970"):
        parse_timestamp("1969-12-31T23:59:59Z", "--from")
    assert format_millis(1_777_903_200_250) == "2026-05-04T14:00:00.250Z"
