"""Raw messages of the claims topic become claim or answer events, or classified failures."""

from __future__ import annotations

import json

import pytest
from quantcheck.schemas import AnswerEvent, ClaimEvent
from quantcheck.worker.stream.decode import DecodeFailure, decode_message

from tests.schemas.samples import answer_payload, claim_bytes

LIMIT = 1_000_000


def test_a_valid_claim_is_decoded() -> None:
    claim = decode_message(claim_bytes(), max_message_bytes=LIMIT)
    assert isinstance(claim, ClaimEvent)
    assert claim.claim_id == "C01"


def test_a_value_over_the_limit_is_oversize_without_being_parsed() -> None:
    # Not JSON at all: a size check that parsed first would call it invalid_json.
    failure = decode_message(b"x" * 101, max_message_bytes=100)
    assert failure == DecodeFailure(
        "oversize", "message value is 101 bytes, more than the limit of 100 bytes"
    )


def test_a_value_at_the_limit_is_parsed() -> None:
    value = claim_bytes()
    assert isinstance(decode_message(value, max_message_bytes=len(value)), ClaimEvent)


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        (b"\xff\xfe{}", "invalid_utf8"),
        (b"{not json", "invalid_json"),
        (None, "invalid_json"),
        (b"[1, 2]", "schema_violation"),
        (claim_bytes(claim_text=""), "schema_violation"),
        (claim_bytes(schema_version=2), "unsupported_schema_version"),
    ],
)
def test_each_failure_keeps_the_kind_the_contract_gives_it(value: bytes | None, kind: str) -> None:
    failure = decode_message(value, max_message_bytes=LIMIT)
    assert isinstance(failure, DecodeFailure)
    assert failure.kind == kind
    assert failure.message


def test_a_claim_that_fails_validation_is_still_named_by_its_id() -> None:
    failure = decode_message(claim_bytes(cited_doc_ids="S01"), max_message_bytes=LIMIT)
    assert isinstance(failure, DecodeFailure)
    assert (failure.kind, failure.claim_id) == ("schema_violation", "C01")


@pytest.mark.parametrize(
    "value",
    [b"{not json", claim_bytes(claim_id=""), claim_bytes(claim_id=7), b"\xff"],
)
def test_no_claim_id_is_made_up_when_none_can_be_read(value: bytes) -> None:
    failure = decode_message(value, max_message_bytes=LIMIT)
    assert isinstance(failure, DecodeFailure)
    assert failure.claim_id is None


def answer_bytes(**overrides: object) -> bytes:
    return json.dumps(answer_payload(**overrides), ensure_ascii=False).encode("utf-8")


def test_an_answer_is_told_from_a_claim_by_its_event_type() -> None:
    answer = decode_message(answer_bytes(), max_message_bytes=LIMIT)
    assert isinstance(answer, AnswerEvent)
    assert answer.answer_id == "A01"


def test_an_answer_that_fails_validation_is_named_by_its_answer_id() -> None:
    failure = decode_message(answer_bytes(answer_text=""), max_message_bytes=LIMIT)
    assert isinstance(failure, DecodeFailure)
    assert (failure.kind, failure.claim_id, failure.answer_id) == ("schema_violation", None, "A01")
    assert failure.message.startswith("answer_text:")


def test_an_unknown_event_type_is_a_schema_violation_named_by_its_claim_id() -> None:
    failure = decode_message(claim_bytes(event_type="question"), max_message_bytes=LIMIT)
    assert isinstance(failure, DecodeFailure)
    assert (failure.kind, failure.claim_id, failure.answer_id) == ("schema_violation", "C01", None)
