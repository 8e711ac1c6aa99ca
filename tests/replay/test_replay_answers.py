"""Replaying answers without a broker: a row per sentence claim and one for the answer's
own record, each compared under its ID; dead letters of answers replayed whole."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from quantcheck.schemas import (
    AnswerVerdictEvent,
    DeadLetterKind,
    dead_letter_headers,
    read_dead_letter_headers,
)
from quantcheck.worker.replay.compare import Decision, Tally, Transition, answer_reason
from quantcheck.worker.replay.recorded import Recorded, RecordedIndex, recorded_dead_letter
from quantcheck.worker.replay.replayer import Filters, Replayed
from quantcheck.worker.replay.source import SourceRecord
from quantcheck.worker.replay.window import PartitionRange, Window
from quantcheck.worker.stream.batch import BatchProcessor
from quantcheck.worker.stream.records import InputRecord

from quantcheck.checker import Checker
from tests.answers.samples import answer
from tests.replay.samples import recorded_as, replayer, sources, versions
from tests.replay.test_report_html import report_page
from tests.stream.samples import MIXED_MARKERS, SETTINGS, as_records, sample_claims

ALL_SUPPORTED = "The logger records a reading every 15 seconds [1]. Calibrate at 2.5 L/min【2】."
"""Both supported in v1; the first is unsupported in v2 (S01 says 30 seconds there)."""


def nothing(source: SourceRecord) -> tuple[Recorded, ...]:
    return ()


def recorded_run(records: list[InputRecord]) -> dict[int, tuple[Recorded, ...]]:
    """What a worker would have recorded for ``records`` against v1, by offset."""
    first = replayer(comparing=False).replay(sources(records), nothing)
    recorded: dict[int, tuple[Recorded, ...]] = {}
    for item in first:
        entry = Recorded(item.claim.claim_id, item.claim.new)
        recorded[item.source.offset] = (*recorded.get(item.source.offset, ()), entry)
    return recorded


def rows(items: list[Replayed]) -> list[tuple[str | None, str | None, str]]:
    return [(i.claim.claim_id, i.claim.answer_id, i.claim.label) for i in items]


def test_an_answer_gives_a_row_per_claim_and_one_for_its_record_with_the_workers_bytes() -> None:
    records = as_records([answer(MIXED_MARKERS)])
    replayed = replayer(comparing=False).replay(sources(records), nothing)
    assert [(i.claim.claim_id, i.claim.answer_id) for i in replayed] == [
        ("A01:1", "A01"),
        ("A01:2", "A01"),
        ("A01:3", "A01"),
        ("A01:4", "A01"),
        (None, "A01"),
    ]
    moment = datetime.fromtimestamp(records[0].timestamp / 1000, UTC)
    published = BatchProcessor(Checker(), versions(), SETTINGS).process(records, checked_at=moment)
    worker = [o.value for o in published.outputs if o.topic == SETTINGS.verdicts_topic]
    assert [i.claim.verdict_json for i in replayed] == worker
    own = replayed[-1]
    assert own.claim.is_answer
    assert (own.claim.new.status, own.claim.new.reason) == (
        "unsupported_quantity",
        "4 claims: 1 unsupported_quantity, 1 missing_citation, 2 supported",
    )
    record = AnswerVerdictEvent.model_validate_json(own.claim.verdict_json or b"")
    assert record.status == own.claim.new.status
    # A citation failure in one sentence means the answer would be dead-lettered again.
    assert not any(i.passes_gates for i in replayed)


def test_each_claim_and_the_answer_record_are_compared_under_their_own_ids() -> None:
    records = as_records([answer(ALL_SUPPORTED), sample_claims()[0]])
    recorded = recorded_run(records)
    replayed = replayer(kb_version_override="v2").replay(
        sources(records), lambda s: recorded[s.offset]
    )
    assert rows(replayed) == [
        ("A01:1", "A01", "supported -> unsupported_quantity"),
        ("A01:2", "A01", "unchanged"),
        (None, "A01", "supported -> unsupported_quantity"),
        ("C01", None, "supported -> unsupported_quantity"),
    ]
    tally = Tally(comparing=True)
    for item in replayed:
        tally.add(item.claim)
    assert tally.lines() == [
        "claims=3",
        "unsupported_quantity=2",
        "supported=1",
        "answers=1",
        "answers.unsupported_quantity=1",
        "supported -> unsupported_quantity: 3",
        "unchanged: 1",
        "recorded_missing: 0",
    ]
    assert tally.differences == 3


def test_a_change_in_counts_alone_shows_in_the_answer_reason_not_as_a_change() -> None:
    records = as_records([answer(MIXED_MARKERS)])
    recorded = recorded_run(records)
    replayed = replayer(kb_version_override="v2").replay(
        sources(records), lambda s: recorded[s.offset]
    )
    own = replayed[-1]
    assert own.claim.transition is Transition.UNCHANGED
    assert own.claim.recorded is not None
    assert own.claim.recorded.reason != own.claim.new.reason
    assert rows(replayed)[0] == ("A01:1", "A01", "supported -> unsupported_quantity")


def test_a_sentence_new_since_the_recording_is_recorded_missing() -> None:
    records = as_records([answer(ALL_SUPPORTED)])
    recorded = recorded_run(records)[0]
    without_second = tuple(entry for entry in recorded if entry.claim_id != "A01:2")
    replayed = replayer().replay(sources(records), lambda s: without_second)
    assert rows(replayed) == [
        ("A01:1", "A01", "unchanged"),
        ("A01:2", "A01", "recorded_missing"),
        (None, "A01", "unchanged"),
    ]


def test_the_index_keeps_every_verdict_of_an_answer_and_the_last_of_each() -> None:
    records = as_records([answer(ALL_SUPPORTED)])
    values = [
        i.claim.verdict_json or b""
        for i in replayer(comparing=False).replay(sources(records), nothing)
    ]
    index = RecordedIndex(Window("claims", (PartitionRange(0, 0, 1),)))
    for value in [*values, values[0]]:
        index.add(value)
    assert (len(index), index.duplicates, index.unreadable) == (3, 1, 0)
    taken = index.take(0, 0)
    assert [(t.claim_id, t.decision.status) for t in taken] == [
        ("A01:1", "supported"),
        ("A01:2", "supported"),
        (None, "supported"),
    ]
    assert taken[2].decision.reason == "2 claims: 2 supported"
    assert (len(index), index.take(0, 0)) == (0, ())


def dead_letter_source(
    records: list[InputRecord], kind: DeadLetterKind, claim_id: str | None, answer_id: str | None
) -> tuple[SourceRecord, Recorded]:
    (record,) = records
    headers = dead_letter_headers(
        record.headers,
        kind=kind,
        message="recorded",
        topic=record.topic,
        partition=record.partition,
        offset=record.offset,
        timestamp=record.timestamp,
        group="quantcheck",
        worker_version="0",
        checker_version="0",
        claim_id=claim_id,
        answer_id=answer_id,
    )
    info = read_dead_letter_headers(headers)
    return SourceRecord("claims-dlq", 0, 9, record, info), recorded_dead_letter(info)


def test_a_dead_letter_of_one_sentence_reports_that_sentence_only() -> None:
    # S05 is cited but not retrieved in the recording; retrieved when it is replayed.
    text = "Uploads start at 25 MB [S05]. Calibrate at 2.5 L/min【2】."
    source, recorded = dead_letter_source(
        as_records([answer(text, retrieved_doc_ids=["S02", "S05"])]),
        "citation_not_retrieved",
        "A01:1",
        "A01",
    )
    (item,) = replayer().replay([source], lambda s: (recorded,))
    assert (item.claim.claim_id, item.claim.label) == (
        "A01:1",
        "citation_not_retrieved -> supported",
    )
    assert item.passes_gates


def test_a_dead_letter_of_a_whole_answer_stands_for_each_of_its_claims() -> None:
    source, recorded = dead_letter_source(
        as_records([answer(ALL_SUPPORTED, kb_version="v2")]), "unknown_kb_version", None, "A01"
    )
    replayed = replayer().replay([source], lambda s: (recorded,))
    assert rows(replayed) == [
        ("A01:1", "A01", "unknown_kb_version -> unsupported_quantity"),
        ("A01:2", "A01", "unknown_kb_version -> supported"),
        (None, "A01", "unknown_kb_version -> unsupported_quantity"),
    ]
    assert all(i.passes_gates for i in replayed)
    assert {i.source.claim.value for i in replayed} == {source.claim.value}


def test_an_answer_still_unknown_stays_one_unchanged_row() -> None:
    source, recorded = dead_letter_source(
        as_records([answer(ALL_SUPPORTED, kb_version="v9")]), "unknown_kb_version", None, "A01"
    )
    (item,) = replayer().replay([source], lambda s: (recorded,))
    assert (item.claim.claim_id, item.claim.answer_id, item.claim.label) == (
        None,
        "A01",
        "unchanged",
    )
    assert not item.passes_gates


def test_claim_filters_select_an_answer_and_among_its_rows() -> None:
    records = as_records([answer(MIXED_MARKERS), sample_claims()[0]])
    recorded = recorded_run(records)

    def replayed(filters: Filters) -> list[str | None]:
        items = replayer(filters=filters).replay(sources(records), lambda s: recorded[s.offset])
        return [i.claim.claim_id for i in items]

    assert replayed(Filters(claim_ids=frozenset({"A01:2", "C01"}))) == ["A01:2", "C01"]
    assert replayed(Filters(claim_ids=frozenset({"A01"}))) == [
        "A01:1",
        "A01:2",
        "A01:3",
        "A01:4",
        None,
    ]
    assert replayed(Filters(statuses=frozenset({"missing_citation"}))) == ["A01:4"]
    assert replayed(Filters(models=frozenset({"nobody"}))) == []


def test_the_answer_reason_counts_worst_first() -> None:
    assert answer_reason({"supported": 2, "missing_citation": 1, "unknown_citation": 0}) == (
        "3 claims: 1 missing_citation, 2 supported"
    )
    assert answer_reason({}) == "0 claims"
    assert answer_reason({"supported": 1}) == "1 claim: 1 supported"


def test_the_report_highlights_a_sentence_in_the_answer_text() -> None:
    records = as_records([answer(ALL_SUPPORTED)])
    recorded = recorded_run(records)
    replayed = replayer(kb_version_override="v2").replay(
        sources(records), lambda s: recorded[s.offset]
    )
    page = report_page(replayed)
    start = page.index("<h3>A01:1:")
    section = page[start : page.index("</section>", start)]
    assert (
        'every <mark class="missing" title="time_seconds=15: missing">15 seconds</mark> [1].'
        in section
    )
    assert "<h3>answer A01: supported -&gt; unsupported_quantity</h3>" in page
    assert json.loads(replayed[-1].claim.verdict_json or b"")["event_type"] == "answer_verdict"


def test_a_recorded_answer_row_never_stands_for_a_new_claim() -> None:
    records = as_records([answer(ALL_SUPPORTED)])
    own = recorded_as("supported", None)
    replayed = replayer().replay(sources(records), lambda s: (own, recorded_as("x", "A01:9")))
    assert [i.claim.transition for i in replayed] == [
        Transition.RECORDED_MISSING,
        Transition.RECORDED_MISSING,
        Transition.UNCHANGED,
    ]
    assert replayed[-1].claim.recorded == Decision("supported", "recorded", verdict=True)
