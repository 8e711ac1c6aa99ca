"""The answer event: its fields, its bounds, and how it is read from the claims topic."""

from __future__ import annotations

import json
from typing import Any

import pytest
from quantcheck.schemas import (
    AnswerEvent,
    ClaimDecodeError,
    ClaimEvent,
    parse_answer,
    parse_claims_topic_value,
)
from quantcheck.schemas.limits import MAX_ANSWER_ID_CHARS, MAX_ANSWER_TEXT_CHARS, MAX_ID_CHARS

from tests.schemas.samples import DROP, answer_payload, claim_payload


def encoded(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")


def test_a_full_answer_is_read() -> None:
    event = parse_answer(encoded(answer_payload()))
    assert event.answer_id == "A01"
    assert event.citations == {"1": "S01", "2": "S02"}
    assert event.event_type == "answer"


def test_citations_and_the_descriptive_fields_are_optional() -> None:
    payload = answer_payload(citations=DROP, prompt=DROP, model=DROP, retriever=DROP)
    event = parse_answer(encoded(payload | {"attributes": {}}))
    assert event.citations == {}
    assert (event.prompt, event.model, event.retriever) == ("", "", "")


def test_the_longest_answer_id_leaves_room_for_claim_numbers() -> None:
    longest = "a" * MAX_ANSWER_ID_CHARS
    parse_answer(encoded(answer_payload(answer_id=longest)))
    assert len(f"{longest}:{MAX_ANSWER_TEXT_CHARS}") == MAX_ID_CHARS
    with pytest.raises(ClaimDecodeError, match="answer_id"):
        parse_answer(encoded(answer_payload(answer_id=longest + "a")))


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"event_type": DROP}, "event_type"),
        ({"event_type": "claim"}, "event_type"),
        ({"answer_text": ""}, "answer_text"),
        ({"answer_text": "x" * (MAX_ANSWER_TEXT_CHARS + 1)}, "answer_text"),
        ({"citations": {"1": ""}}, "citations.1"),
        ({"citations": {"": "S01"}}, "citations"),
        ({"citations": {"1": ["S01"]}}, "citations.1"),
        ({"retrieved_doc_ids": DROP}, "retrieved_doc_ids"),
        ({"claim_text": "x"}, "claim_text"),
        ({"schema_version": True}, "schema_version"),
    ],
)
def test_bad_answers_name_the_field(overrides: dict[str, Any], field: str) -> None:
    with pytest.raises(ClaimDecodeError) as caught:
        parse_answer(encoded(answer_payload(**overrides)))
    assert caught.value.kind == "schema_violation"
    assert caught.value.message.startswith(field), caught.value.message


def test_another_schema_version_is_unsupported() -> None:
    with pytest.raises(ClaimDecodeError) as caught:
        parse_answer(encoded(answer_payload(schema_version=2)))
    assert caught.value.kind == "unsupported_schema_version"


# --- telling answers from claims on the claims topic ---------------------------------


def test_the_claims_topic_reads_answers_and_claims() -> None:
    assert isinstance(parse_claims_topic_value(encoded(answer_payload())), AnswerEvent)
    assert isinstance(parse_claims_topic_value(encoded(claim_payload())), ClaimEvent)


def test_a_claim_without_event_type_reads_as_it_always_did() -> None:
    claim = parse_claims_topic_value(encoded(claim_payload()))
    assert (
        claim.model_dump() == ClaimEvent.model_validate_json(encoded(claim_payload())).model_dump()
    )


@pytest.mark.parametrize("kind", ["claim", "Answer", None, 1])
def test_any_other_event_type_is_refused(kind: object) -> None:
    with pytest.raises(ClaimDecodeError) as caught:
        parse_claims_topic_value(encoded(claim_payload(event_type=kind)))
    assert caught.value.kind == "schema_violation"
    assert caught.value.message.startswith("event_type: Input should be 'answer'")


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        (b"\xff", "invalid_utf8"),
        (b"{", "invalid_json"),
        (None, "invalid_json"),
        (b"[]", "schema_violation"),
        (
            json.dumps({"event_type": "answer", "schema_version": 3}).encode(),
            "unsupported_schema_version",
        ),
    ],
)
def test_unreadable_values_keep_their_kinds(raw: bytes | None, kind: str) -> None:
    with pytest.raises(ClaimDecodeError) as caught:
        parse_claims_topic_value(raw)
    assert caught.value.kind == kind


def test_answer_with_too_many_unknown_keys_fails_in_one_line() -> None:
    payload = answer_payload() | {f"extra{i}": i for i in range(10_000)}
    with pytest.raises(ClaimDecodeError) as caught:
        parse_claims_topic_value(encoded(payload))
    assert caught.value.message.endswith("and 9997 more")
