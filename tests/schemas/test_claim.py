"""The claim contract: each rule accepts its edge and refuses one step past it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from pydantic import ValidationError
from quantcheck.schemas import ClaimDecodeError, ClaimEvent, parse_claim
from quantcheck.schemas.claim import summarize_errors
from quantcheck.schemas.limits import (
    MAX_ATTRIBUTE_KEY_CHARS,
    MAX_ATTRIBUTE_VALUE_CHARS,
    MAX_ATTRIBUTES,
    MAX_CITED_DOC_IDS,
    MAX_CLAIM_TEXT_CHARS,
    MAX_ERROR_MESSAGE_CHARS,
    MAX_ID_CHARS,
    MAX_KB_VERSION_CHARS,
    MAX_NAME_CHARS,
    MAX_PROMPT_CHARS,
    MAX_RETRIEVED_DOC_IDS,
)

from tests.schemas.samples import DROP, claim_bytes, claim_payload


def test_sample_claim_parses() -> None:
    event = parse_claim(claim_bytes())
    assert event.claim_id == "C01"
    assert event.cited_doc_ids == ["S01"]
    assert event.produced_at == datetime(2024, 6, 1, 12, tzinfo=UTC)
    assert event.attributes == {"tenant": "field-ops", "attempt": 1, "score": 0.5, "cached": False}


def test_round_trip_through_json_is_lossless() -> None:
    event = parse_claim(claim_bytes(produced_at="2024-06-01T14:00:00.123456+02:00"))
    again = parse_claim(event.model_dump_json().encode())
    assert again == event
    assert again.produced_at.utcoffset() == timedelta(hours=2)
    assert again.model_dump_json() == event.model_dump_json()


def test_backend_builds_claim_in_python() -> None:
    event = ClaimEvent(
        schema_version=1,
        claim_id="C9",
        claim_text="Store probes at 4 degrees Celsius.",
        cited_doc_ids=[],
        retrieved_doc_ids=[],
        kb_version="kb1",
        produced_at=datetime(2024, 1, 1, tzinfo=UTC),
    )
    assert (event.prompt, event.model, event.retriever, event.answer_id) == ("", "", "", None)
    assert event.attributes == {}
    assert parse_claim(event.model_dump_json().encode()) == event


def test_claim_is_frozen() -> None:
    event = parse_claim(claim_bytes())
    with pytest.raises(ValidationError):
        event.claim_id = "other"


def test_optional_fields_have_defaults() -> None:
    event = parse_claim(
        claim_bytes(answer_id=DROP, prompt=DROP, model=DROP, retriever=DROP, attributes=DROP)
    )
    assert (event.answer_id, event.prompt, event.model, event.retriever) == (None, "", "", "")
    assert event.attributes == {}


VALID: list[tuple[str, Any]] = [
    ("claim_id", "x" * MAX_ID_CHARS),
    ("claim_id", "doc/é 42 \u4e2d"),
    ("answer_id", None),
    ("answer_id", "a" * MAX_ID_CHARS),
    ("claim_text", "x" * MAX_CLAIM_TEXT_CHARS),
    ("claim_text", "line one\nline two\twith a tab"),
    ("cited_doc_ids", []),
    ("cited_doc_ids", [f"D{i}" for i in range(MAX_CITED_DOC_IDS)]),
    ("cited_doc_ids", ["x" * MAX_ID_CHARS]),
    ("retrieved_doc_ids", []),
    ("retrieved_doc_ids", [f"D{i}" for i in range(MAX_RETRIEVED_DOC_IDS)]),
    ("kb_version", "v" * MAX_KB_VERSION_CHARS),
    ("prompt", ""),
    ("prompt", "p" * MAX_PROMPT_CHARS),
    ("model", ""),
    ("model", "m" * MAX_NAME_CHARS),
    ("retriever", "r" * MAX_NAME_CHARS),
    ("produced_at", "2024-06-01T12:00:00+02:00"),
    ("produced_at", "2024-06-01T12:00:00.5-05:30"),
    ("attributes", {}),
    ("attributes", {f"k{i}": i for i in range(MAX_ATTRIBUTES)}),
    ("attributes", {"k" * MAX_ATTRIBUTE_KEY_CHARS: "v" * MAX_ATTRIBUTE_VALUE_CHARS}),
    ("attributes", {"s": "x", "i": -3, "f": 2.5, "b": True, "n": None, "big": 10**30}),
]


@pytest.mark.parametrize(
    ("field", "value"), VALID, ids=[f"{f}-{i}" for i, (f, _) in enumerate(VALID)]
)
def test_field_accepts(field: str, value: Any) -> None:
    event = parse_claim(claim_bytes(**{field: value}))
    if field == "produced_at":
        assert event.produced_at == datetime.fromisoformat(value)
    else:
        assert getattr(event, field) == value


INVALID: list[tuple[str, Any, str]] = [
    ("schema_version", DROP, "schema_version: Field required"),
    ("schema_version", True, "schema_version: Input should be 1"),
    ("schema_version", 1.0, "schema_version: Input should be 1"),
    ("schema_version", "1", "schema_version: Input should be 1"),
    ("claim_id", DROP, "claim_id: Field required"),
    ("claim_id", "", "claim_id: String should have at least 1 character"),
    ("claim_id", "x" * (MAX_ID_CHARS + 1), "claim_id: String should have at most 200 characters"),
    ("claim_id", "a\tb", "claim_id: String should not contain control characters"),
    ("claim_id", "a\x85b", "claim_id: String should not contain control characters"),
    ("claim_id", 17, "claim_id: Input should be a valid string"),
    ("answer_id", "", "answer_id: String should have at least 1 character"),
    ("claim_text", "", "claim_text: String should have at least 1 character"),
    ("claim_text", "x" * (MAX_CLAIM_TEXT_CHARS + 1), "claim_text: String should have at most"),
    ("claim_text", "a\x00b", "claim_text: String should not contain NUL characters"),
    ("cited_doc_ids", None, "cited_doc_ids: Input should be a valid array"),
    ("cited_doc_ids", "S01", "cited_doc_ids: Input should be a valid array"),
    (
        "cited_doc_ids",
        [f"D{i}" for i in range(MAX_CITED_DOC_IDS + 1)],
        "cited_doc_ids: List should have at most 64 items",
    ),
    ("cited_doc_ids", ["S01", ""], "cited_doc_ids.1: String should have at least 1 character"),
    (
        "cited_doc_ids",
        ["a", "b", "c", "x" * (MAX_ID_CHARS + 1)],
        "cited_doc_ids.3: String should have at most 200 characters",
    ),
    ("cited_doc_ids", [7], "cited_doc_ids.0: Input should be a valid string"),
    (
        "retrieved_doc_ids",
        ["D"] * (MAX_RETRIEVED_DOC_IDS + 1),
        "retrieved_doc_ids: List should have at most 1000 items",
    ),
    ("retrieved_doc_ids", DROP, "retrieved_doc_ids: Field required"),
    ("kb_version", "", "kb_version: String should have at least 1 character"),
    ("kb_version", "v" * (MAX_KB_VERSION_CHARS + 1), "kb_version: String should have at most"),
    ("prompt", "p" * (MAX_PROMPT_CHARS + 1), "prompt: String should have at most"),
    ("prompt", "\x00", "prompt: String should not contain NUL characters"),
    ("prompt", None, "prompt: Input should be a valid string"),
    ("model", "m" * (MAX_NAME_CHARS + 1), "model: String should have at most"),
    ("retriever", "bm\n25", "retriever: String should not contain control characters"),
    ("produced_at", "2024-06-01T12:00:00", "produced_at: Input should have a timezone offset"),
    ("produced_at", "2024-06-01", "produced_at: Input should be a valid datetime"),
    ("produced_at", 1717243200, "produced_at: Input should be a valid datetime"),
    ("produced_at", "yesterday", "produced_at: Input should be a valid datetime"),
    (
        "attributes",
        {f"k{i}": i for i in range(MAX_ATTRIBUTES + 1)},
        "attributes: Dictionary should have at most 64 items",
    ),
    ("attributes", {"": 1}, "attributes..[key]: String should have at least 1 character"),
    (
        "attributes",
        {"k" * (MAX_ATTRIBUTE_KEY_CHARS + 1): 1},
        "attributes.kkkkk",
    ),
    ("attributes", {"a\nb": 1}, "attributes.a\\nb.[key]: String should not contain control"),
    ("attributes", {"k": [1]}, "attributes.k: Input should be a string of at most 1000"),
    ("attributes", {"k": {"nested": 1}}, "attributes.k: Input should be a string of at most"),
    ("attributes", {"k": "v" * (MAX_ATTRIBUTE_VALUE_CHARS + 1)}, "attributes.k: Input should be"),
    ("attributes", {"k": float("nan")}, "attributes.k: Input should be a string of at most"),
    ("attributes", {"k": float("inf")}, "attributes.k: Input should be a string of at most"),
    ("attributes", [], "attributes: Input should be an object"),
    ("claim_ids", ["x"], "claim_ids: Extra inputs are not permitted"),
]


@pytest.mark.parametrize(
    ("field", "value", "message"), INVALID, ids=[f"{f}-{i}" for i, (f, _, _) in enumerate(INVALID)]
)
def test_field_refuses(field: str, value: Any, message: str) -> None:
    with pytest.raises(ClaimDecodeError) as caught:
        parse_claim(claim_bytes(**{field: value}))
    assert caught.value.kind == "schema_violation"
    assert caught.value.message.startswith(message), caught.value.message
    assert "\n" not in caught.value.message


def test_python_construction_refuses_naive_datetime() -> None:
    with pytest.raises(ValidationError, match="timezone offset"):
        ClaimEvent.model_validate({**claim_payload(), "produced_at": datetime(2024, 1, 1)})


def test_python_construction_accepts_aware_datetime() -> None:
    produced = datetime(2024, 1, 1, tzinfo=timezone(timedelta(hours=-7)))
    event = ClaimEvent.model_validate({**claim_payload(), "produced_at": produced})
    assert event.produced_at == produced


def test_python_construction_refuses_unpaired_surrogate() -> None:
    # JSON cannot carry one, but a Python caller can; the event could never be encoded.
    payload = {**claim_payload(), "produced_at": datetime(2024, 1, 1, tzinfo=UTC)}
    with pytest.raises(ValidationError, match="claim_text\n  Input should be a valid string"):
        ClaimEvent.model_validate({**payload, "claim_text": "a\udc00"})


def test_json_strictness_refuses_coercions() -> None:
    with pytest.raises(ClaimDecodeError, match=r"cited_doc_ids\.0: Input"):
        parse_claim(claim_bytes(cited_doc_ids=[1]))
    with pytest.raises(ClaimDecodeError, match=r"attributes\.flag: "):
        parse_claim(claim_bytes(attributes={"flag": ["yes"]}))


# Every decode kind, from a representative input, with what its message must name.
KINDS: list[tuple[bytes | None, str, str]] = [
    (b"\xff\xfe{}", "invalid_utf8", "invalid UTF-8 at byte 0"),
    (claim_bytes()[:10] + b"\xc3\x28" + claim_bytes()[10:], "invalid_utf8", "at byte 10"),
    (b"", "invalid_json", "invalid JSON: EOF while parsing"),
    (b"{'claim_id': 1}", "invalid_json", "line 1 column 2"),
    (b'{"schema_version": 1,}', "invalid_json", "invalid JSON: "),
    (b"\xef\xbb\xbf" + claim_bytes(), "invalid_json", "line 1 column 1"),
    (None, "invalid_json", "tombstone"),
    (b"[1, 2]", "schema_violation", "(root): Input should be a JSON object, not an array"),
    (b'"claim"', "schema_violation", "(root): Input should be a JSON object, not a string"),
    (b"null", "schema_violation", "(root): Input should be a JSON object, not null"),
    (b"42", "schema_violation", "(root): Input should be a JSON object, not a number"),
    (b"true", "schema_violation", "(root): Input should be a JSON object, not a boolean"),
    (claim_bytes(claim_id=""), "schema_violation", "claim_id: "),
    (claim_bytes(schema_version=2), "unsupported_schema_version", "schema_version: 2 is not"),
    (claim_bytes(schema_version=0), "unsupported_schema_version", "schema_version: 0 is not"),
    (
        claim_bytes(schema_version=2, claim_text=None, extra=1),
        "unsupported_schema_version",
        "schema_version: 2",
    ),
    (
        claim_bytes(schema_version=10**40),
        "unsupported_schema_version",
        "a version this large is not supported",
    ),
]


@pytest.mark.parametrize(("raw", "kind", "fragment"), KINDS)
def test_decode_kinds(raw: bytes | None, kind: str, fragment: str) -> None:
    with pytest.raises(ClaimDecodeError) as caught:
        parse_claim(raw)
    assert caught.value.kind == kind
    assert fragment in caught.value.message, caught.value.message
    assert str(caught.value) == caught.value.message


def test_parse_accepts_bytearray_and_memoryview() -> None:
    raw = claim_bytes()
    assert parse_claim(bytearray(raw)) == parse_claim(memoryview(raw)) == parse_claim(raw)


def test_message_names_three_errors_and_counts_the_rest() -> None:
    raw = claim_bytes(claim_id="", kb_version="", cited_doc_ids=[1, 2], produced_at="x")
    with pytest.raises(ClaimDecodeError) as caught:
        parse_claim(raw)
    assert caught.value.message == (
        "claim_id: String should have at least 1 character; "
        "cited_doc_ids.0: Input should be a valid string; "
        "cited_doc_ids.1: Input should be a valid string; and 2 more"
    )


def test_unknown_fields_are_reported_even_when_numerous() -> None:
    payload = claim_payload()
    payload.update({f"x{i}": i for i in range(20)})
    with pytest.raises(ClaimDecodeError) as caught:
        parse_claim(json.dumps(payload).encode())
    assert caught.value.kind == "schema_violation"
    assert caught.value.message == (
        "x0: Extra inputs are not permitted; x1: Extra inputs are not permitted; "
        "x2: Extra inputs are not permitted; and 17 more"
    )


def test_hostile_key_cannot_break_the_message_line() -> None:
    key = "\u202e" + "\n" * 500 + "k" * 5000
    with pytest.raises(ClaimDecodeError) as caught:
        parse_claim(claim_bytes(attributes={key: 1}))
    message = caught.value.message
    assert message.isprintable()
    assert len(message) <= MAX_ERROR_MESSAGE_CHARS
    assert message.startswith("attributes.\\u202e\\n")


def test_summarize_errors_formats_paths() -> None:
    assert summarize_errors([((), "bad")]) == "(root): bad"
    assert summarize_errors([(("a", 0, "b"), "bad")]) == "a.0.b: bad"
    text = summarize_errors([(("f",), "m")] * 5)
    assert text == "f: m; f: m; f: m; and 2 more"
    assert summarize_errors([(("f",), "m")], total=10) == "f: m; and 9 more"


def test_decode_error_message_is_bounded() -> None:
    error = ClaimDecodeError("invalid_json", "x" * 10_000 + "\n")
    assert len(error.message) == MAX_ERROR_MESSAGE_CHARS
    assert error.message.endswith("...")
