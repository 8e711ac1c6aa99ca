"""Whether this member may still commit offsets for a batch: the group generation check.

A transactional offset commit carries the member's generation, and the broker refuses a
stale one. But when a heartbeat fails because the member was evicted (it was frozen for
longer than the session timeout, say), kafka-python resets the generation to -1 and the
member ID to empty on its own I/O thread, and a transactional commit with generation -1 and
no member ID skips the broker's check altogether. A worker thawed mid-batch would then
commit verdicts and offsets for partitions that another member has already checked again.
So offsets are committed only while the member is in a stable generation, the same one in
which the batch was read; anything else aborts the batch, which is read again from the
committed offsets by whichever member owns its partitions after the rejoin.
"""

from __future__ import annotations

from kafka.structs import MemberState
from quantcheck.worker.stream.ports import GroupMetadata


def stable_generation(group: GroupMetadata) -> int | None:
    """The member's generation when it is a stable member of the group, else None."""
    if group.state != MemberState.STABLE or group.generation_id < 0 or not group.member_id:
        return None
    generation: int = group.generation_id
    return generation


def fence_reason(group: GroupMetadata, read_in: int | None) -> str | None:
    """Why a batch read in generation ``read_in`` must not commit under ``group``, or None."""
    now = stable_generation(group)
    if now is None:
        return (
            f"the member is not in a stable group generation (state {group.state}, "
            f"generation {group.generation_id}): it was evicted or is rebalancing"
        )
    if read_in is None:
        return "the batch was read while the member was not in a stable generation"
    if now != read_in:
        return f"the batch was read in generation {read_in}, the member is now in {now}"
    return None
