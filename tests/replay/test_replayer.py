"""Re-checking records as the worker does, comparing, filtering, without a broker."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime

from quantcheck.schemas import VerdictEvent, dead_letter_headers, read_dead_letter_headers
from quantcheck.worker.replay.compare import Transition
from quantcheck.worker.replay.recorded import Recorded, recorded_dead_letter
from quantcheck.worker.replay.replayer import Filters, checked_at_of
from quantcheck.worker.replay.source import SourceRecord
from quantcheck.worker.stream.batch import BatchProcessor
from quantcheck.worker.stream.records import InputRecord

from quantcheck.checker import Checker
from quantcheck.checker.model import sha256_text
from tests.replay.samples import handbook_v2, recorded_as, replayer, sources, versions
from tests.stream.samples import EXPECTED_STATUSES, SETTINGS, as_records, sample_claims


def none(source: SourceRecord) -> tuple[Recorded, ...]:
    return ()


def test_a_replayed_verdict_is_the_workers_verdict_byte_for_byte_checked_at_the_record_time() -> (
    None
):
    records = as_records(sample_claims())
    replayed = replayer(comparing=False).replay(sources(records), none)
    worker = BatchProcessor(Checker(), versions(), SETTINGS)
    for record, item in zip(records, replayed, strict=True):
        moment = datetime.fromtimestamp(record.timestamp / 1000, UTC)
        published = worker.process([record], checked_at=moment).outputs[0]
        assert item.verdict is not None
        assert item.claim.verdict_json == item.verdict.value == published.value
        assert published.topic == SETTINGS.verdicts_topic
    statuses = Counter(item.claim.new.status for item in replayed)
    assert statuses == EXPECTED_STATUSES


def test_the_same_input_gives_the_same_bytes_however_it_is_chunked() -> None:
    records = as_records(sample_claims())
    whole = replayer().replay(sources(records), none)
    one_by_one = [item for source in sources(records) for item in replayer().replay([source], none)]
    assert [i.claim for i in whole] == [i.claim for i in one_by_one]
    verdict = VerdictEvent.model_validate_json(whole[3].claim.verdict_json or b"")
    assert verdict.checked_at == checked_at_of(records[3])
    assert verdict.checked_at.isoformat() == "2023-11-14T22:13:20.003000+00:00"


def test_a_record_without_timestamp_is_checked_at_the_epoch() -> None:
    record = as_records(sample_claims()[:1])[0]
    assert checked_at_of(InputRecord("claims", 0, 0, -1, record.key, record.value)) == datetime(
        1970, 1, 1, tzinfo=UTC
    )


def test_comparison_by_status_names_the_change_and_keeps_both_reasons() -> None:
    records = as_records(sample_claims()[:3])
    recorded = {
        0: (recorded_as("supported", "C01", "matched"),),
        1: (recorded_as("supported", "C02", "was matched once"),),
        2: (),
    }
    replayed = replayer().replay(sources(records), lambda s: recorded[s.offset])
    first, second, third = (item.claim for item in replayed)
    assert (first.transition, first.label) == (Transition.UNCHANGED, "unchanged")
    assert second.transition is Transition.CHANGED
    assert second.label == "supported -> unsupported_quantity"
    assert second.recorded is not None
    assert second.recorded.reason == "was matched once"
    assert second.new.reason == "not in cited evidence: time_seconds=45"
    assert (third.transition, third.recorded) == (Transition.RECORDED_MISSING, None)


def test_a_verdict_recorded_under_another_claim_id_does_not_count() -> None:
    records = as_records(sample_claims()[:1])
    replayed = replayer().replay(sources(records), lambda s: (recorded_as("supported", "C99"),))
    assert replayed[0].claim.transition is Transition.RECORDED_MISSING


def test_the_override_version_is_asked_and_recorded_in_the_verdict() -> None:
    records = as_records(sample_claims()[:3])
    recorded = {i: (recorded_as("supported", f"C0{i + 1}"),) for i in range(3)}
    replayed = replayer(kb_version_override="v2").replay(
        sources(records), lambda s: recorded[s.offset]
    )
    labels = [item.claim.label for item in replayed]
    assert labels == [
        "supported -> unsupported_quantity",
        "supported -> unsupported_quantity",
        "unchanged",
    ]
    verdict = VerdictEvent.model_validate_json(replayed[0].claim.verdict_json or b"")
    assert verdict.kb_version == "v2"
    s01 = handbook_v2()["S01"]
    assert [(d.doc_id, d.sha256) for d in verdict.evidence_documents] == [
        ("S01", sha256_text(s01.text))
    ]
    # Only the version changes: the claim's source and prompt stay the original's.
    assert (verdict.source.offset, verdict.claim_id) == (0, "C01")


def test_filters_select_by_claim_fields_and_by_recorded_status() -> None:
    events = sample_claims()
    events[1] = events[1].model_copy(update={"model": "model-b"})
    records = [*as_records(events), InputRecord("claims", 0, 99, 5, b"k", b"not json")]

    def lookup(source: SourceRecord) -> tuple[Recorded, ...]:
        return (recorded_as("supported" if source.offset < 8 else "unsupported_quantity", None),)

    def replayed_ids(filters: Filters) -> list[str | None]:
        return [
            i.claim.claim_id for i in replayer(filters=filters).replay(sources(records), lookup)
        ]

    assert replayed_ids(Filters(claim_ids=frozenset({"C03", "C12"}))) == ["C03", "C12"]
    assert replayed_ids(Filters(models=frozenset({"model-b"}))) == ["C02"]
    assert replayed_ids(Filters(kb_versions=frozenset({"v9"}))) == []
    by_status = replayed_ids(Filters(statuses=frozenset({"unsupported_quantity"})))
    assert by_status == [*(f"C{n:02d}" for n in range(9, 17)), None]
    assert len(replayed_ids(Filters())) == 17


def test_a_message_that_is_no_claim_stays_a_dead_letter_and_is_unchanged_without_verdict() -> None:
    record = InputRecord("claims", 0, 7, 5, b"k", b'{"claim_id": "M1", ')
    (item,) = replayer().replay(sources([record]), none)
    assert (item.claim.new.status, item.claim.new.verdict) == ("invalid_json", False)
    assert item.claim.claim_id is None
    assert item.claim.verdict_json is None
    assert item.claim.transition is Transition.UNCHANGED
    assert not item.passes_gates


def test_a_dead_letter_is_replayed_as_its_original_message_and_compared_with_its_kind() -> None:
    event = sample_claims()[0].model_copy(update={"kb_version": "v9"})
    claim = as_records([event], topic="claims", partition=2, headers=(("trace", b"t1"),))[0]
    headers = dead_letter_headers(
        claim.headers,
        kind="unknown_kb_version",
        message="knowledge-base version 'v9' is not in the document store",
        topic="claims",
        partition=2,
        offset=0,
        timestamp=claim.timestamp,
        group="quantcheck",
        worker_version="0",
        checker_version="0",
        claim_id="C01",
    )
    info = read_dead_letter_headers(headers)
    source = SourceRecord("claims-dlq", 1, 40, claim, info)
    recorded = recorded_dead_letter(info)
    assert (recorded.claim_id, recorded.decision.verdict) == ("C01", False)
    store = versions()
    store.versions["v9"] = store.versions["v1"]
    (item,) = replayer(store).replay([source], lambda s: (recorded,))
    assert item.claim.label == "unknown_kb_version -> supported"
    assert item.passes_gates
    assert (item.claim.read_at.topic, item.claim.read_at.offset) == ("claims-dlq", 40)
    verdict = json.loads(item.claim.verdict_json or b"")
    assert verdict["source"] == {
        "topic": "claims",
        "partition": 2,
        "offset": 0,
        "timestamp": claim.timestamp,
    }
    # What a republish would send: the original message, byte for byte.
    assert (item.source.claim.key, item.source.claim.value) == (claim.key, claim.value)
    assert item.source.claim.headers == (("trace", b"t1"),)
