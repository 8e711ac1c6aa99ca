"""The answer verdict: worst status and counts that agree with its claims, and how it is
told from a claim verdict on the verdicts topic."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import ValidationError
from quantcheck.schemas import (
    STATUSES,
    WORST_FIRST,
    AnswerClaim,
    AnswerVerdictEvent,
    SourceCoordinates,
    Span,
    StatusCounts,
    VerdictEvent,
    VerdictRecordError,
    VerdictStatus,
    dump_answer_verdict,
    dump_verdict,
    parse_verdicts_topic_value,
    worst_status,
)

from tests.schemas.samples import EMPTY_SHA256, verdict

CLAIM_STATUSES: tuple[VerdictStatus, ...] = (
    "needs_review_no_quantity",
    "supported",
    "unsupported_quantity",
    "supported",
)


def answer_verdict(
    statuses: tuple[VerdictStatus, ...] = CLAIM_STATUSES, **overrides: Any
) -> AnswerVerdictEvent:
    claims = [
        AnswerClaim(claim_id=f"A01:{n}", status=status, span=Span(start=10 * n, end=10 * n + 9))
        for n, status in enumerate(statuses, start=1)
    ]
    values: dict[str, Any] = {
        "answer_id": "A01",
        "status": worst_status(statuses),
        "counts": StatusCounts.of(statuses),
        "claims": claims,
        "kb_version": "handbook-2024-06",
        "prompt_sha256": EMPTY_SHA256,
        "checker_version": "1",
        "source": SourceCoordinates(topic="claims", partition=0, offset=7, timestamp=0),
        "checked_at": datetime(2024, 6, 1, 12, tzinfo=UTC),
    }
    values.update(overrides)
    return AnswerVerdictEvent(**values)


def test_worst_first_orders_every_status_once() -> None:
    assert sorted(WORST_FIRST) == sorted(STATUSES)
    assert WORST_FIRST[0] == "unsupported_quantity"
    assert WORST_FIRST[-1] == "supported"


@pytest.mark.parametrize(
    ("statuses", "worst"),
    [
        (CLAIM_STATUSES, "unsupported_quantity"),
        (("supported", "missing_citation", "unknown_citation"), "unknown_citation"),
        (
            ("supported", "needs_review_negation", "needs_review_no_quantity"),
            "needs_review_negation",
        ),
        (("supported",), "supported"),
        ((), "needs_review_no_quantity"),
    ],
)
def test_worst_status(statuses: tuple[VerdictStatus, ...], worst: VerdictStatus) -> None:
    assert worst_status(statuses) == worst


def test_counts_hold_every_status() -> None:
    counts = StatusCounts.of(CLAIM_STATUSES).as_dict()
    assert list(counts) == list(STATUSES)
    assert counts["supported"] == 2
    assert sum(counts.values()) == len(CLAIM_STATUSES)


def test_a_record_agrees_with_its_claims() -> None:
    record = answer_verdict()
    assert record.status == "unsupported_quantity"
    assert record.counts.unsupported_quantity == 1
    assert [c.claim_id for c in record.claims] == ["A01:1", "A01:2", "A01:3", "A01:4"]
    assert json.loads(dump_answer_verdict(record))["event_type"] == "answer_verdict"


def test_an_answer_without_claims_needs_review() -> None:
    record = answer_verdict(())
    assert record.status == "needs_review_no_quantity"
    assert sum(record.counts.as_dict().values()) == 0


@pytest.mark.parametrize(
    ("overrides", "error"),
    [
        ({"status": "supported"}, "answer_status"),
        ({"counts": StatusCounts(supported=4)}, "answer_counts"),
        ({"event_type": "verdict"}, "literal_error"),
    ],
)
def test_inconsistent_records_are_refused(overrides: dict[str, Any], error: str) -> None:
    with pytest.raises(ValidationError) as caught:
        answer_verdict(**overrides)
    assert caught.value.errors()[0]["type"] == error


def test_the_verdicts_topic_tells_the_two_records_apart() -> None:
    claim_record = parse_verdicts_topic_value(dump_verdict(verdict()))
    answer_record = parse_verdicts_topic_value(dump_answer_verdict(answer_verdict()))
    assert isinstance(claim_record, VerdictEvent)
    assert isinstance(answer_record, AnswerVerdictEvent)
    assert answer_record == answer_verdict()


def test_a_claim_verdict_has_no_event_type() -> None:
    assert "event_type" not in json.loads(dump_verdict(verdict()))


@pytest.mark.parametrize(
    "raw",
    [
        b"\xff",
        b"[]",
        b'{"event_type": "answer_verdict"}',
        dump_verdict(verdict())[:-1] + b', "extra": 1}',
    ],
)
def test_other_values_of_the_verdicts_topic_are_refused(raw: bytes) -> None:
    with pytest.raises(VerdictRecordError) as caught:
        parse_verdicts_topic_value(raw)
    assert "\n" not in str(caught.value)
