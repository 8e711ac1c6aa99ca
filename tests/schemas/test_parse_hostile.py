"""parse_claim on hostile input: only ClaimDecodeError escapes, and large input fails fast."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from quantcheck.schemas import (
    CLAIM_DECODE_KINDS,
    ClaimDecodeError,
    ClaimEvent,
    parse_claim,
    parse_claims_topic_value,
)
from quantcheck.schemas.limits import MAX_CLAIM_MESSAGE_BYTES, MAX_ERROR_MESSAGE_CHARS

from tests.schemas.samples import answer_payload, claim_bytes, claim_payload


def parses_or_refuses(raw: bytes) -> ClaimEvent | ClaimDecodeError:
    """parse_claim's result, or the ClaimDecodeError it raised; anything else escapes."""
    outcome: ClaimEvent | ClaimDecodeError
    try:
        outcome = parse_claim(raw)
    except ClaimDecodeError as exc:
        outcome = exc
    if isinstance(outcome, ClaimDecodeError):
        assert outcome.kind in CLAIM_DECODE_KINDS
        assert len(outcome.message) <= MAX_ERROR_MESSAGE_CHARS
        assert is_one_line(outcome.message), outcome.message
    return outcome


def is_one_line(text: str) -> bool:
    """No control, format, surrogate or line-breaking characters."""
    return not any(unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Zl", "Zp"} for ch in text)


# No deadline: timing is tested below on purpose-built inputs, not on a loaded machine.
@settings(deadline=None)
@given(st.binary(max_size=4096))
def test_arbitrary_bytes(raw: bytes) -> None:
    parses_or_refuses(raw)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=30,
)


@settings(deadline=None)
@given(JSON_VALUES)
def test_arbitrary_json(value: Any) -> None:
    parses_or_refuses(json.dumps(value).encode())


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(sorted(claim_payload())), JSON_VALUES, max_size=6))
def test_claims_with_arbitrary_field_values(overrides: dict[str, Any]) -> None:
    parses_or_refuses(json.dumps(claim_payload(**overrides)).encode())


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(sorted(answer_payload())), JSON_VALUES, max_size=6))
def test_answers_with_arbitrary_field_values(overrides: dict[str, Any]) -> None:
    # The claims topic's reader: only ClaimDecodeError escapes for answers too.
    outcome: object
    try:
        outcome = parse_claims_topic_value(json.dumps(answer_payload(**overrides)).encode())
    except ClaimDecodeError as exc:
        outcome = exc
    if isinstance(outcome, ClaimDecodeError):
        assert outcome.kind in CLAIM_DECODE_KINDS
        assert is_one_line(outcome.message), outcome.message


@settings(deadline=None)
@given(st.integers(min_value=0, max_value=2000), st.binary(min_size=1, max_size=8))
def test_corrupted_claims(position: int, junk: bytes) -> None:
    raw = claim_bytes()
    position = min(position, len(raw))
    parses_or_refuses(raw[:position] + junk + raw[position:])


HOSTILE: list[tuple[str, bytes, str]] = [
    ("nested arrays", b"[" * 100_000 + b"]" * 100_000, "invalid_json"),
    ("nested objects", b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "invalid_json"),
    (
        "nested attribute value",
        claim_bytes()[:-2] + b',"x":' + b"[" * 150 + b"]" * 150 + b"}}",
        "schema_violation",
    ),
    ("unterminated nesting", b"[" * 1_000_000, "invalid_json"),
    ("huge integer", b'{"schema_version":' + b"9" * 100_000 + b"}", "invalid_json"),
    (
        "huge integer attribute",
        claim_bytes(attributes={"n": 0}).replace(b'"n": 0', b'"n": ' + b"7" * 5000),
        "invalid_json",
    ),
    (
        "huge exponent",
        claim_bytes(attributes={"n": 0}).replace(b'"n": 0', b'"n": 1e999999'),
        "schema_violation",
    ),
    ("NUL bytes", b"\x00" * 10_000, "invalid_json"),
    ("raw NUL in string", claim_bytes(claim_id="ab").replace(b'"ab"', b'"a\x00b"'), "invalid_json"),
    ("escaped NUL in text", claim_bytes(claim_text="a\x00b"), "schema_violation"),
    (
        "unpaired surrogate escape",
        claim_bytes(claim_id="ab").replace(b'"ab"', b'"\\ud800"'),
        "invalid_json",
    ),
    (
        "100,000 cited IDs",
        claim_bytes(cited_doc_ids=[f"D{i}" for i in range(100_000)]),
        "schema_violation",
    ),
    (
        "100,000 invalid retrieved IDs",
        claim_bytes(retrieved_doc_ids=[[]] * 100_000),
        "schema_violation",
    ),
    (
        "100,000 retrieved IDs",
        claim_bytes(retrieved_doc_ids=[f"D{i}" for i in range(100_000)]),
        "schema_violation",
    ),
    (
        "100,000 attributes",
        claim_bytes(attributes={f"k{i}": [] for i in range(100_000)}),
        "schema_violation",
    ),
    (
        "100,000 unknown fields",
        json.dumps({**claim_payload(), **{f"x{i}": [] for i in range(100_000)}}).encode(),
        "schema_violation",
    ),
    ("5 MB claim text", claim_bytes(claim_text="x" * 5_000_000), "schema_violation"),
    ("5 MB unknown field", claim_bytes(extra="x" * 5_000_000), "schema_violation"),
    ("5 MB of invalid UTF-8", b"\x80" * 5_000_000, "invalid_utf8"),
    ("5 MB of whitespace", b" " * 5_000_000, "invalid_json"),
    ("100,000-element top-level array", json.dumps([{}] * 100_000).encode(), "schema_violation"),
]


@pytest.mark.parametrize(
    ("raw", "kind"), [(raw, kind) for _, raw, kind in HOSTILE], ids=[name for name, _, _ in HOSTILE]
)
def test_hostile_input_is_refused_with_its_kind(raw: bytes, kind: str) -> None:
    outcome = parses_or_refuses(raw)
    assert isinstance(outcome, ClaimDecodeError)
    assert outcome.kind == kind, outcome.message


def test_largest_valid_claim_parses() -> None:
    raw = claim_bytes(
        prompt="p" * 200_000,
        claim_text="c" * 20_000,
        retrieved_doc_ids=[f"D{i:0>190}" for i in range(1000)],
    )
    assert len(raw) < MAX_CLAIM_MESSAGE_BYTES
    event = parse_claim(raw)
    assert len(event.retrieved_doc_ids) == 1000
