"""Answer events in a batch: one verdict per sentence, then the answer record, spans in the
answer, dead letters of the whole answer message, one lookup per version. No broker."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from quantcheck.schemas import (
    AnswerVerdictEvent,
    VerdictEvent,
    parse_verdicts_topic_value,
    read_dead_letter_headers,
)
from quantcheck.schemas.limits import MAX_CITED_DOC_IDS
from quantcheck.worker.stream.batch import (
    BatchProcessor,
    BatchResult,
    Checked,
    CheckedAnswer,
    DeadLettered,
)
from quantcheck.worker.stream.records import InputRecord, OutputRecord

from quantcheck.answers.split import Uncited
from quantcheck.checker import Checker
from tests.answers.samples import FOUR_SENTENCES, answer
from tests.stream.samples import (
    KB_VERSION,
    MIXED_MARKERS,
    MIXED_MARKERS_STATUSES,
    SETTINGS,
    Versions,
    as_records,
    handbook,
    sample_claims,
)

CHECKED_AT = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def versions() -> Versions:
    return Versions({KB_VERSION: handbook()})


def process(versions: Versions, records: list[InputRecord], checker: Any = None) -> BatchResult:
    processor = BatchProcessor(checker or Checker(), versions, SETTINGS)
    return processor.process(records, checked_at=CHECKED_AT)


def verdicts(result: BatchResult) -> list[VerdictEvent | AnswerVerdictEvent]:
    return [
        parse_verdicts_topic_value(o.value or b"")
        for o in result.outputs
        if o.topic == SETTINGS.verdicts_topic
    ]


def letters(result: BatchResult) -> list[OutputRecord]:
    return [o for o in result.outputs if o.topic == SETTINGS.dlq_topic]


def test_four_sentences_with_mixed_markers_give_four_verdicts_and_one_answer_record(
    versions: Versions,
) -> None:
    (record,) = as_records([answer(MIXED_MARKERS, retrieved_doc_ids=["S01", "S02", "S05"])])
    result = process(versions, [record])
    (outcome,) = result.outcomes
    assert isinstance(outcome, CheckedAnswer)
    *claims, summary = verdicts(result)
    assert [type(v) for v in claims] == [VerdictEvent] * 4
    assert isinstance(summary, AnswerVerdictEvent)
    ids = ["A01:1", "A01:2", "A01:3", "A01:4"]
    assert [v.claim_id for v in claims if isinstance(v, VerdictEvent)] == ids
    statuses = [v.status for v in claims]
    assert tuple(statuses) == MIXED_MARKERS_STATUSES
    assert [c.answer_id for c in claims if isinstance(c, VerdictEvent)] == ["A01"] * 4
    assert [c.cited_doc_ids for c in claims if isinstance(c, VerdictEvent)] == [
        ["S01"],
        ["S01"],
        ["S02"],
        [],
    ]
    # The answer record: keyed by the answer ID, after its claims, agreeing with them.
    keys = [o.key for o in result.outputs if o.topic == SETTINGS.verdicts_topic]
    assert keys == [i.encode() for i in ids] + [b"A01"]
    assert summary.answer_id == "A01"
    assert summary.status == "unsupported_quantity"
    assert {k: v for k, v in summary.counts.as_dict().items() if v} == Counter(statuses)
    assert [(c.claim_id, c.status) for c in summary.claims] == list(zip(ids, statuses, strict=True))
    sentences = [MIXED_MARKERS[c.span.start : c.span.end] for c in summary.claims]
    assert sentences[1] == "On low battery it logs every 45 seconds [S01]."
    assert sentences[2].endswith("e.g. before each deployment【2】.")
    assert (summary.kb_version, summary.source.offset) == (KB_VERSION, record.offset)
    assert summary.checked_at == CHECKED_AT


def test_fact_spans_point_into_the_answer_text(versions: Versions) -> None:
    (record,) = as_records([answer(MIXED_MARKERS)])
    claims = [v for v in verdicts(process(versions, [record])) if isinstance(v, VerdictEvent)]
    found = [
        (fact.text, MIXED_MARKERS[fact.span.start : fact.span.end])
        for c in claims
        for fact in c.facts
    ]
    assert ("2.5 L/min", "2.5 L/min") in found
    assert ("45 seconds", "45 seconds") in found
    assert all(text == placed for text, placed in found)


def test_set_aside_numbers_point_into_the_answer_text(versions: Versions) -> None:
    text = "Steps to follow [1]:\n1. Log every 15 seconds [1].\n2. Calibrate at 2.5 L/min【2】."
    (record,) = as_records([answer(text)])
    claims = [v for v in verdicts(process(versions, [record])) if isinstance(v, VerdictEvent)]
    aside = [(n.text, n.reason, n.span) for c in claims for n in c.set_aside]
    assert aside, [c.model_dump() for c in claims]
    for number, reason, span in aside:
        assert text[span.start : span.end] == number
        assert reason == "list_marker"


@pytest.mark.parametrize(
    "text",
    [
        "The logger logs every 15 seconds [1].",
        "The logger logs every 15 seconds [1, 2].",
        "The logger logs every 15 seconds [1][2].",
        "The logger logs every 15 seconds [S01].",
        "The logger logs every 15 seconds【1】.",
        "The logger logs every 15 seconds^[1].",
        "The logger logs every 15 seconds[^1].",
    ],
)
def test_each_marker_style_is_checked_against_its_documents(versions: Versions, text: str) -> None:
    (record,) = as_records([answer(text)])
    claim, summary = verdicts(process(versions, [record]))
    assert isinstance(claim, VerdictEvent)
    assert (claim.claim_id, claim.status) == ("A01:1", "supported")
    assert "S01" in claim.cited_doc_ids
    (fact,) = claim.facts
    assert text[fact.span.start : fact.span.end] == "15 seconds"
    assert isinstance(summary, AnswerVerdictEvent)
    assert (summary.status, summary.counts.supported) == ("supported", 1)


def test_a_sentence_without_marker_or_number_is_no_citation_failure(versions: Versions) -> None:
    (record,) = as_records([answer(FOUR_SENTENCES)])
    result = process(versions, [record])
    *claims, summary = verdicts(result)
    assert [c.status for c in claims] == [
        "needs_review_no_quantity",
        "supported",
        "unsupported_quantity",
        "supported",
    ]
    assert letters(result) == []
    assert isinstance(summary, AnswerVerdictEvent)
    assert summary.counts.needs_review_no_quantity == 1


def test_a_sentence_that_fails_a_citation_gate_dead_letters_the_answer_naming_the_sentence(
    versions: Versions,
) -> None:
    (record,) = as_records([answer(MIXED_MARKERS)], headers=(("trace-id", b"t-1"),))
    result = process(versions, [record])
    (letter,) = letters(result)
    assert (letter.key, letter.value) == (b"A01", record.value)
    info = read_dead_letter_headers(letter.headers)
    assert (info.kind, info.claim_id, info.answer_id) == ("missing_citation", "A01:4", "A01")
    assert info.original_headers == record.headers
    assert (info.partition, info.offset) == (record.partition, record.offset)
    # The sentence's verdict comes first, the answer record after the dead letter.
    order = [(o.topic, o.key) for o in result.outputs]
    assert order.index(("verdicts", b"A01:4")) < order.index(("dlq", b"A01"))
    assert order[-1] == ("verdicts", b"A01")


def test_claims_and_answers_share_one_lookup_per_version(versions: Versions) -> None:
    claims = sample_claims()
    events = [claims[0], answer(MIXED_MARKERS, retrieved_doc_ids=["S01", "S02", "S05"]), claims[1]]
    result = process(versions, as_records(events))
    assert [type(o) for o in result.outcomes] == [Checked, CheckedAnswer, Checked]
    assert len(versions.lookups) == 1
    ((version, doc_ids),) = versions.lookups
    assert version == KB_VERSION
    assert {"S01", "S02"} <= set(doc_ids)


def test_an_answer_of_an_unknown_version_is_dead_lettered_whole(versions: Versions) -> None:
    (record,) = as_records([answer(MIXED_MARKERS, kb_version="v9")])
    result = process(versions, [record])
    assert verdicts(result) == []
    (letter,) = letters(result)
    assert (letter.key, letter.value) == (record.key, record.value)
    info = read_dead_letter_headers(letter.headers)
    assert (info.kind, info.claim_id, info.answer_id) == ("unknown_kb_version", None, "A01")
    assert "'v9'" in info.message


def test_an_unreadable_answer_is_dead_lettered_with_its_bytes_and_answer_id(
    versions: Versions,
) -> None:
    good = as_records([answer(MIXED_MARKERS)])[0]
    payload = json.loads(good.value or b"")
    payload["citations"] = {"1": ""}
    bad = InputRecord("claims", 0, 1, 5, b"A01", json.dumps(payload).encode())
    result = process(versions, [bad])
    (letter,) = letters(result)
    assert letter.value == bad.value
    info = read_dead_letter_headers(letter.headers)
    assert (info.kind, info.claim_id, info.answer_id) == ("schema_violation", None, "A01")
    assert info.message.startswith("citations.1:")


def test_an_answer_without_sentences_gets_an_empty_answer_record(versions: Versions) -> None:
    (record,) = as_records([answer("[1] [2]")])
    (summary,) = verdicts(process(versions, [record]))
    assert isinstance(summary, AnswerVerdictEvent)
    assert (summary.status, summary.claims) == ("needs_review_no_quantity", [])


class FailsOnSecondSentence(Checker):
    def check(self, claim, documents):  # type: ignore[no-untyped-def]
        if "45 seconds" in claim.text:
            raise RuntimeError("boom")
        return super().check(claim, documents)


def test_a_sentence_the_checker_fails_on_dead_letters_the_whole_answer(
    versions: Versions,
) -> None:
    records = as_records([answer(MIXED_MARKERS), sample_claims()[0]])
    result = process(versions, records, FailsOnSecondSentence())
    whole, claim = result.outcomes
    assert isinstance(whole, DeadLettered)
    assert (whole.kind, whole.claim_id, whole.answer_id) == ("check_failed", None, "A01")
    assert whole.message == "A01:2: the check failed: RuntimeError: boom"
    assert isinstance(claim, Checked)
    assert [o.key for o in result.outputs] == [b"A01", b"C01"]


def test_a_refused_answer_verdict_dead_letters_the_whole_answer(versions: Versions) -> None:
    records = as_records([answer(MIXED_MARKERS), sample_claims()[0]])
    processor = BatchProcessor(Checker(), versions, SETTINGS)
    result = processor.process(records, checked_at=CHECKED_AT)
    refused = next(i for i, o in enumerate(result.outputs) if o.key == b"A01:2")
    amended = processor.refuse_outputs(result, {refused: ("verdict_too_large", "too large")})
    whole = amended.outcomes[0]
    assert isinstance(whole, DeadLettered)
    assert (whole.kind, whole.claim_id, whole.answer_id) == ("verdict_too_large", None, "A01")
    assert [(o.topic, o.key) for o in amended.outputs] == [
        ("dlq", b"A01"),
        ("verdicts", b"C01"),
    ]
    info = read_dead_letter_headers(amended.outputs[0].headers)
    assert (info.kind, info.answer_id, info.claim_id) == ("verdict_too_large", "A01", None)
    assert amended.outputs[0].value == records[0].value


def test_an_answer_the_splitter_fails_on_is_dead_lettered_whole(
    versions: Versions, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fails(*args: object, **kwargs: object) -> None:
        raise ValueError("no sentences here")

    monkeypatch.setattr("quantcheck.worker.stream.batch.answer_sentences", fails)
    records = as_records([answer(MIXED_MARKERS), sample_claims()[0]])
    whole, claim = process(versions, records).outcomes
    assert isinstance(whole, DeadLettered)
    assert (whole.kind, whole.answer_id) == ("check_failed", "A01")
    assert whole.message == "the split failed: ValueError: no sentences here"
    assert isinstance(claim, Checked)


def test_with_uncited_retrieved_a_sentence_without_marker_is_checked_against_retrieval(
    versions: Versions,
) -> None:
    (record,) = as_records([answer(MIXED_MARKERS, retrieved_doc_ids=["S01", "S02", "S05"])])
    settings = replace(SETTINGS, uncited=Uncited.RETRIEVED)
    result = BatchProcessor(Checker(), versions, settings).process([record], checked_at=CHECKED_AT)
    *claims, record_verdict = verdicts(result)
    fourth = claims[3]
    assert isinstance(fourth, VerdictEvent)
    # "retried after 5 minutes" is in S05, which retrieval supplied and no marker named.
    assert (fourth.status, fourth.cited_doc_ids) == ("supported", ["S01", "S02", "S05"])
    assert "cites_retrieved" in fourth.flags
    assert all("cites_retrieved" not in c.flags for c in claims[:3] if isinstance(c, VerdictEvent))
    assert isinstance(record_verdict, AnswerVerdictEvent)
    assert record_verdict.status == "unsupported_quantity"
    assert letters(result) == []  # nothing fails a citation gate any more


def test_with_uncited_retrieved_an_answer_retrieving_too_many_documents_is_dead_lettered(
    versions: Versions,
) -> None:
    many = [f"D{n}" for n in range(MAX_CITED_DOC_IDS + 1)]
    (record,) = as_records([answer("Upload files at 25 MB.", retrieved_doc_ids=many)])
    settings = replace(SETTINGS, uncited=Uncited.RETRIEVED)
    result = BatchProcessor(Checker(), versions, settings).process([record], checked_at=CHECKED_AT)
    (outcome,) = result.outcomes
    assert isinstance(outcome, DeadLettered)
    assert outcome.kind == "check_failed"
    assert "would cite all 65 retrieved documents" in outcome.message
    assert verdicts(result) == []
