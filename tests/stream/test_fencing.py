"""The generation check that keeps an evicted member from committing a stale batch."""

from __future__ import annotations

import pytest
from kafka.structs import ConsumerGroupMetadata, MemberState
from quantcheck.worker.stream.fencing import fence_reason, stable_generation


def group(generation: int, member: str = "m-1", state: str = MemberState.STABLE) -> object:
    return ConsumerGroupMetadata("workers", generation, member, None, state)


def test_a_stable_member_commits_in_the_generation_it_read_in() -> None:
    assert stable_generation(group(4)) == 4
    assert fence_reason(group(4), 4) is None


@pytest.mark.parametrize(
    ("metadata", "read_in", "reason"),
    [
        (group(-1, ""), 4, "evicted"),
        (group(-1, "m-1"), 4, "evicted"),
        (group(4, state=MemberState.REBALANCING), 4, "rebalancing"),
        (group(5), 4, "read in generation 4, the member is now in 5"),
        (group(4), None, "not in a stable generation"),
    ],
    ids=["evicted", "generation-reset", "rebalancing", "newer-generation", "read-unstable"],
)
def test_anything_else_is_fenced(metadata: object, read_in: int | None, reason: str) -> None:
    found = fence_reason(metadata, read_in)
    assert found is not None
    assert reason in found
