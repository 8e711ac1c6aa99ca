"""Checker verdicts become verdict events that reproduce the decision."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import jsonschema
import pytest
from quantcheck.schemas import VerdictEvent, dump_verdict
from quantcheck.schemas.generate import SCHEMA_DIR
from quantcheck.worker.stream.verdicts import source_of, verdict_event, verdict_json, verdict_record

from quantcheck.checker import CHECKER_VERSION, Checker, Claim
from quantcheck.checker.model import Status
from tests.quantities.test_cases import CASES, checker_of, claim_of, documents_of
from tests.stream.samples import as_records, handbook, sample_claims

CHECKED_AT = datetime(2024, 6, 1, 12, 0, 5, tzinfo=UTC)


def check_samples() -> list[tuple[VerdictEvent, Status]]:
    documents = handbook()
    checker = Checker()
    results = []
    for claim, record in zip(sample_claims(), as_records(sample_claims()), strict=True):
        verdict = checker.check(
            Claim(claim.claim_text, tuple(claim.cited_doc_ids), frozenset(claim.retrieved_doc_ids)),
            documents,
        )
        event = verdict_event(verdict, claim, source_of(record), checked_at=CHECKED_AT)
        results.append((event, verdict.status))
    return results


def test_every_sample_verdict_satisfies_the_published_schema() -> None:
    schema = json.loads((SCHEMA_DIR / "verdict.v1.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    for event, _ in check_samples():
        validator.validate(json.loads(dump_verdict(event)))


def test_every_sample_verdict_passes_the_contract_models_own_validation() -> None:
    # Events are built without validation; the strict model must accept what is built.
    for event, _ in check_samples():
        data = dump_verdict(event)
        assert dump_verdict(VerdictEvent.model_validate_json(data)) == data


def test_the_event_records_what_reproduces_the_decision() -> None:
    documents = handbook()
    by_id = {event.claim_id: (event, status) for event, status in check_samples()}
    event, status = by_id["C04"]
    assert event.status == status.value == "supported"
    assert event.kb_version == "v1"
    assert event.cited_doc_ids == ["S02"]
    assert [(d.doc_id, d.sha256) for d in event.evidence_documents] == [
        ("S02", documents["S02"].sha256)
    ]
    prompt = "At what flow rate is the meter calibrated?"
    assert event.prompt_sha256 == hashlib.sha256(prompt.encode()).hexdigest()
    assert event.checker_version == CHECKER_VERSION
    assert event.checked_at == CHECKED_AT
    assert (event.model, event.retriever) == ("model-a", "bm25")
    assert (event.source.topic, event.source.partition, event.source.offset) == ("claims", 0, 3)
    (fact,) = event.facts
    assert (fact.category, fact.relation, fact.value, fact.matched) == (
        "flow_l_per_min",
        "=",
        "2.5",
        True,
    )
    assert fact.text == "2.5 L/min"
    claim_text = "Calibrate the flow meter at 2.5 L/min before each deployment."
    assert claim_text[fact.span.start : fact.span.end] == fact.text
    assert fact.evidence is not None
    assert fact.evidence.doc_id == "S02"
    evidence_text = documents["S02"].text
    assert evidence_text[fact.evidence.span.start : fact.evidence.span.end] == fact.evidence.text


def test_an_unmatched_fact_has_no_evidence_and_a_citation_failure_no_documents() -> None:
    by_id = {event.claim_id: event for event, _ in check_samples()}
    unsupported = by_id["C02"]
    assert unsupported.status == "unsupported_quantity"
    assert [f.matched for f in unsupported.facts] == [False]
    assert unsupported.facts[0].evidence is None
    assert unsupported.facts[0].match_kind is None
    missing = by_id["C12"]
    assert missing.status == "missing_citation"
    assert (missing.facts, missing.evidence_documents) == ([], [])


def test_a_range_fact_carries_its_upper_bound() -> None:
    claim = sample_claims()[6].model_copy(
        update={"claim_text": "Upload log files of 20-30 MB.", "cited_doc_ids": ["S05"]}
    )
    verdict = Checker().check(
        Claim(claim.claim_text, ("S05",), frozenset(claim.retrieved_doc_ids)), handbook()
    )
    event = verdict_event(verdict, claim, source_of(as_records([claim])[0]), checked_at=CHECKED_AT)
    (fact,) = event.facts
    assert (fact.label, fact.relation, fact.value, fact.upper) == (
        "size_mb=20..30",
        "..",
        "20",
        "30",
    )
    # The handbook names single sizes, never this range.
    assert (fact.matched, fact.evidence) == (False, None)


def test_same_input_and_checked_at_give_the_same_bytes() -> None:
    first = [dump_verdict(event) for event, _ in check_samples()]
    again = [dump_verdict(event) for event, _ in check_samples()]
    assert first == again


def test_checked_at_keeps_the_offset_it_was_given() -> None:
    claim = sample_claims()[0]
    record = as_records([claim])[0]
    verdict = Checker().check(
        Claim(claim.claim_text, tuple(claim.cited_doc_ids), frozenset(claim.retrieved_doc_ids)),
        handbook(),
    )
    later = datetime(2025, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=2)))
    event = verdict_event(verdict, claim, source_of(record), checked_at=later)
    assert json.loads(dump_verdict(event))["checked_at"] == "2025-01-02T03:04:05+02:00"


def test_the_verdict_record_is_keyed_by_claim_id() -> None:
    event, _ = check_samples()[0]
    record = verdict_record(dump_verdict(event), key=event.claim_id, topic="claim-verdicts")
    assert (record.topic, record.key, record.headers) == ("claim-verdicts", b"C01", ())
    assert record.value == dump_verdict(event)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_the_fast_json_equals_the_validated_event(case: dict[str, Any]) -> None:
    # The worker serializes without building the model; both paths must give equal bytes
    # on every kind of fact the labelled cases exercise.
    documents = documents_of(case)
    verdict = checker_of(case).check(claim_of(case, documents), documents)
    claim = sample_claims()[0].model_copy(update={"claim_text": case["claim"]})
    source = source_of(as_records([claim])[0])
    fast = verdict_json(verdict, claim, source, checked_at=CHECKED_AT)
    assert fast == dump_verdict(verdict_event(verdict, claim, source, checked_at=CHECKED_AT))
