"""The verdict contract: deterministic bytes, lossless round trips, and its rules."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from pydantic import ValidationError
from quantcheck.schemas import (
    STATUSES,
    EvidenceDocument,
    SourceCoordinates,
    Span,
    VerdictEvent,
    dump_verdict,
)

from tests.schemas.samples import fact, verdict


def test_dump_is_compact_json_in_field_order() -> None:
    raw = dump_verdict(verdict())
    assert json.dumps(json.loads(raw), separators=(",", ":"), ensure_ascii=False).encode() == raw
    assert list(json.loads(raw)) == list(VerdictEvent.model_fields)
    assert list(json.loads(raw)["facts"][0]) == list(type(fact()).model_fields)


def test_equal_verdicts_give_equal_bytes() -> None:
    assert dump_verdict(verdict()) == dump_verdict(verdict())
    assert dump_verdict(verdict()) != dump_verdict(verdict(reason="other"))


def test_round_trip_is_byte_for_byte() -> None:
    raw = dump_verdict(verdict())
    again = VerdictEvent.model_validate_json(raw)
    assert again == verdict()
    assert dump_verdict(again) == raw


def test_round_trip_keeps_offset_and_microseconds() -> None:
    checked = datetime(2024, 6, 1, 14, 0, 0, 1, tzinfo=timezone(timedelta(hours=2)))
    raw = dump_verdict(verdict(checked_at=checked))
    assert b'"checked_at":"2024-06-01T14:00:00.000001+02:00"' in raw
    assert VerdictEvent.model_validate_json(raw).checked_at == checked


def test_dump_is_utf8_with_unicode_text() -> None:
    raw = dump_verdict(verdict(reason="unsupported: 45 °C ≠ 60 °C"))
    assert "45 °C ≠ 60 °C".encode() in raw


def test_every_status_is_accepted() -> None:
    for status in STATUSES:
        assert verdict(status=status).status == status


def test_citation_failure_verdict_has_no_facts() -> None:
    event = verdict(status="missing_citation", facts=[], evidence_documents=[], cited_doc_ids=[])
    assert VerdictEvent.model_validate_json(dump_verdict(event)) == event


def test_unmatched_range_fact() -> None:
    item = fact(
        label="temperature_c=2..8",
        category="temperature_c",
        relation="..",
        value="2",
        upper="8",
        matched=False,
        match_kind=None,
        evidence=None,
    )
    event = verdict(status="unsupported_quantity", facts=[item])
    assert VerdictEvent.model_validate_json(dump_verdict(event)).facts[0].upper == "8"


def test_fact_with_a_problem() -> None:
    item = fact(
        label="date=2024-02-30",
        category="date",
        value="2024-02-30",
        matched=False,
        match_kind=None,
        evidence=None,
        problem="not a calendar date",
    )
    assert verdict(facts=[item]).facts[0].problem == "not a calendar date"


def test_verdict_is_frozen() -> None:
    with pytest.raises(ValidationError):
        verdict().status = "supported"


INVALID: list[tuple[dict[str, Any], str]] = [
    ({"status": "ok"}, "status"),
    ({"status": "SUPPORTED"}, "status"),
    ({"claim_id": ""}, "claim_id"),
    ({"prompt_sha256": "E3B0" + "0" * 60}, "prompt_sha256"),
    ({"prompt_sha256": "0" * 63}, "prompt_sha256"),
    ({"checker_version": ""}, "checker_version"),
    ({"checked_at": datetime(2024, 6, 1)}, "checked_at"),
    ({"cited_doc_ids": ["x" * 201]}, "cited_doc_ids.0"),
    ({"unexpected": 1}, "unexpected"),
    ({"schema_version": 2}, "schema_version"),
]


@pytest.mark.parametrize(("overrides", "location"), INVALID)
def test_verdict_refuses(overrides: dict[str, Any], location: str) -> None:
    with pytest.raises(ValidationError) as caught:
        verdict(**overrides)
    locations = {".".join(str(p) for p in e["loc"]) for e in caught.value.errors()}
    assert location in locations


def test_span_must_not_end_before_it_starts() -> None:
    assert Span(start=3, end=3).end == 3
    with pytest.raises(ValidationError, match="Span should not end before it starts"):
        Span(start=4, end=3)
    with pytest.raises(ValidationError):
        Span(start=-1, end=3)


def test_fact_rules() -> None:
    with pytest.raises(ValidationError, match="relation"):
        fact(relation="~")
    with pytest.raises(ValidationError, match="match_kind"):
        fact(match_kind="fuzzy")
    for kind in ("exact", "within_range", "approximate_match", "converted_match", None):
        assert fact(match_kind=kind).match_kind == kind


def test_source_coordinates_rules() -> None:
    assert SourceCoordinates(topic="claims", partition=0, offset=0, timestamp=-1).timestamp == -1
    for bad in (
        {"partition": -1},
        {"offset": -1},
        {"timestamp": -2},
        {"topic": ""},
        {"timestamp": "1717243200000"},
    ):
        values: dict[str, Any] = {"topic": "claims", "partition": 0, "offset": 0, "timestamp": 0}
        with pytest.raises(ValidationError):
            SourceCoordinates(**(values | bad))


def test_evidence_document_hash_is_lowercase_hex() -> None:
    assert EvidenceDocument(doc_id="S01", sha256="0f" * 32).sha256 == "0f" * 32
    with pytest.raises(ValidationError, match="sha256"):
        EvidenceDocument(doc_id="S01", sha256="0F" * 32)


def test_json_reading_is_strict() -> None:
    payload = json.loads(dump_verdict(verdict()))
    payload["source"]["partition"] = "0"
    with pytest.raises(ValidationError, match="partition"):
        VerdictEvent.model_validate_json(json.dumps(payload))
    payload = json.loads(dump_verdict(verdict()))
    payload["facts"][0]["matched"] = 1
    with pytest.raises(ValidationError, match="matched"):
        VerdictEvent.model_validate_json(json.dumps(payload))


def test_checked_at_accepts_any_offset() -> None:
    assert verdict(checked_at=datetime(2024, 1, 1, tzinfo=UTC)).checked_at.tzinfo is UTC
