"""The sample claims and handbook as the replay tests use them, plus a changed handbook."""

from __future__ import annotations

from collections.abc import Iterable

from quantcheck.worker.replay.compare import Decision
from quantcheck.worker.replay.recorded import Recorded
from quantcheck.worker.replay.replayer import Filters, Replayed, Replayer
from quantcheck.worker.replay.source import SourceRecord
from quantcheck.worker.stream.batch import BatchProcessor
from quantcheck.worker.stream.records import InputRecord

from quantcheck.checker import Checker, Document
from tests.stream.samples import SETTINGS, Versions, as_records, handbook, sample_claims


def handbook_v2() -> dict[str, Document]:
    """The handbook with S01's normal logging interval changed from 15 to 30 seconds."""
    documents = handbook()
    s01 = documents["S01"]
    assert "every 15 seconds" in s01.text
    documents["S01"] = Document("S01", s01.text.replace("15 seconds", "30 seconds"), s01.topic)
    return documents


def versions() -> Versions:
    """v1 is the shipped handbook, v2 the changed one."""
    return Versions({"v1": handbook(), "v2": handbook_v2()})


def replayer(
    resolver: Versions | None = None,
    *,
    comparing: bool = True,
    filters: Filters | None = None,
    kb_version_override: str | None = None,
) -> Replayer:
    """A replayer over the in-memory versions with the stream tests' batch settings."""
    return Replayer(
        BatchProcessor(Checker(), resolver or versions(), SETTINGS),
        verdicts_topic=SETTINGS.verdicts_topic,
        max_message_bytes=SETTINGS.max_message_bytes,
        comparing=comparing,
        filters=filters,
        kb_version_override=kb_version_override,
    )


def sources(records: Iterable[InputRecord]) -> list[SourceRecord]:
    """Records read from the claims topic itself."""
    return [SourceRecord(r.topic, r.partition, r.offset, r) for r in records]


def recorded_as(status: str, claim_id: str | None, reason: str = "recorded") -> Recorded:
    """A recorded verdict with ``status``."""
    return Recorded(claim_id, Decision(status, reason, verdict=True))


HOSTILE_TEXT = '<script>alert("x")</script> & the logger records every 15 seconds.'
THIRTY_SECONDS = "During normal operation, readings are logged every 30 seconds."


def changed_claims() -> list[Replayed]:
    """The sample claims plus two more, recorded against v1 and replayed against v2.

    Three claims change: C01 and the hostile one (15 seconds is no longer supported) and
    T30 (30 seconds now is).
    """
    base = sample_claims()[0]
    events = [
        *sample_claims(),
        base.model_copy(update={"claim_id": "X<1>", "claim_text": HOSTILE_TEXT}),
        base.model_copy(update={"claim_id": "T30", "claim_text": THIRTY_SECONDS}),
    ]
    records = sources(as_records(events))
    first = replayer(comparing=False).replay(records, lambda s: ())
    recorded = {item.source.offset: Recorded(item.claim.claim_id, item.claim.new) for item in first}
    return replayer(kb_version_override="v2").replay(records, lambda s: (recorded[s.offset],))
