"""The index of recorded verdicts: only the window's, last one wins, junk is counted."""

from __future__ import annotations

import json

from quantcheck.worker.replay.recorded import RecordedIndex
from quantcheck.worker.replay.window import PartitionRange, Window

from tests.replay.samples import replayer, sources
from tests.stream.samples import as_records, sample_claims

C01_VERDICT = (
    replayer(comparing=False)
    .replay(sources(as_records(sample_claims()[:1])), lambda s: ())[0]
    .claim.verdict_json
    or b""
)
WINDOW = Window("claims", (PartitionRange(0, 2, 5), PartitionRange(1, 0, 0)))


def verdict(offset: int, status: str = "supported", *, topic: str = "claims") -> bytes:
    """C01's verdict as if it answered ``topic`` partition 0 at ``offset``."""
    body = json.loads(C01_VERDICT)
    body["source"] = {"topic": topic, "partition": 0, "offset": offset, "timestamp": 1}
    body["status"] = status
    return json.dumps(body).encode()


def replayed_verdicts() -> list[bytes]:
    items = replayer(comparing=False).replay(sources(as_records(sample_claims()[:1])), lambda s: ())
    return [item.claim.verdict_json or b"" for item in items]


def test_only_verdicts_of_claims_inside_the_window_are_kept() -> None:
    index = RecordedIndex(WINDOW)
    for offset in range(7):
        index.add(verdict(offset))
    index.add(verdict(3, topic="other-claims"))
    assert len(index) == 3
    assert index.take(0, 1) == ()
    (found,) = index.take(0, 2)
    assert (found.claim_id, found.decision.status, found.decision.verdict) == (
        "C01",
        "supported",
        True,
    )
    # Taken once: the index shrinks as the window is replayed.
    assert index.take(0, 2) == ()
    assert len(index) == 2


def test_the_last_of_two_verdicts_for_one_claim_counts() -> None:
    index = RecordedIndex(WINDOW)
    index.add(verdict(4, "supported"))
    index.add(verdict(4, "unsupported_quantity"))
    assert (len(index), index.duplicates) == (1, 1)
    (found,) = index.take(0, 4)
    assert found.decision.status == "unsupported_quantity"


def test_records_that_are_not_verdicts_are_counted_not_kept() -> None:
    index = RecordedIndex(WINDOW)
    for junk in (None, b"", b"{", b'{"claim_id": "C1"}', verdict(3, "great")):
        index.add(junk)
    assert (len(index), index.unreadable) == (0, 5)
