"""Property: whatever arrives on the claims topic, the decode-validate-check path turns each
message into a verdict or a classified dead letter, and never raises.

Batches of random bytes, random JSON and claims with random fields go through
:func:`decode_message` and :class:`BatchProcessor`, with the handbook held in a dictionary.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from quantcheck.schemas import (
    DEAD_LETTER_KINDS,
    ClaimEvent,
    VerdictEvent,
    read_dead_letter_headers,
)
from quantcheck.worker.stream.batch import BatchProcessor, Checked, DeadLettered
from quantcheck.worker.stream.decode import DecodeFailure, decode_message
from quantcheck.worker.stream.records import InputRecord

from quantcheck.checker import Checker
from tests.schemas.samples import DROP, claim_payload
from tests.stream.samples import KB_VERSION, SETTINGS, Versions, handbook

CHECKED_AT = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
DOCUMENTS = handbook()
CHECKER = Checker()

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)

# Pieces of the text the checker reads: numbers, ranges, dates, units and their qualifiers.
TOKENS = [
    *"0123456789",
    *" -.,:/%+",
    " seconds",
    " minutes",
    " percent",
    " liters per minute",
    " °C",
    " mm",
    " kPa",
    " between ",
    " and ",
    " to ",
    " not ",
    " about ",
    " at least ",
    "2024-06-01",
    "15 seconds",
]
CLAIM_TEXT = st.lists(st.sampled_from(TOKENS), min_size=1, max_size=40).map("".join) | st.text(
    max_size=60
)
DOC_ID = st.sampled_from([*sorted(DOCUMENTS), "S99"]) | st.text(max_size=6)

CLAIMS = st.fixed_dictionaries(
    {
        "claim_text": CLAIM_TEXT,
        "cited_doc_ids": st.lists(DOC_ID, max_size=4),
        "retrieved_doc_ids": st.lists(DOC_ID, max_size=6),
        "kb_version": st.sampled_from([KB_VERSION, "v9"]),
    }
).map(lambda fields: claim_payload(**fields))
"""Claims that mostly pass validation, so the check itself runs on random text."""

BROKEN_CLAIMS = st.tuples(
    CLAIMS,
    st.dictionaries(
        st.sampled_from([*sorted(claim_payload()), "extra"]),
        JSON_VALUES | st.integers(-1, 3) | st.just(DROP),
        min_size=1,
        max_size=3,
    ),
).map(lambda pair: {**pair[0], **pair[1]})
"""Claims with a few fields replaced by random JSON or removed."""


def encoded(payload: dict[str, Any]) -> bytes:
    """``payload`` as UTF-8 JSON, with the fields set to ``DROP`` left out."""
    return json.dumps({k: v for k, v in payload.items() if v is not DROP}).encode()


def corrupted(value: bytes, position: int, junk: bytes) -> bytes:
    """``value`` with ``junk`` inserted at ``position`` (clamped to its length)."""
    position = min(position, len(value))
    return value[:position] + junk + value[position:]


JUNK = st.binary(min_size=1, max_size=8)
JSON_MESSAGES = st.one_of(
    CLAIMS.map(encoded),
    BROKEN_CLAIMS.map(encoded),
    JSON_VALUES.map(lambda value: json.dumps(value).encode()),
    st.builds(
        corrupted, CLAIMS.map(encoded), st.integers(0, 500), st.binary(min_size=1, max_size=8)
    ),
    # Either side of the size limit.
    st.integers(SETTINGS.max_message_bytes - 1, SETTINGS.max_message_bytes + 1).map(
        lambda size: b" " * size
    ),
    st.none(),
)


def as_batch(values: list[bytes | None]) -> list[InputRecord]:
    """The values as consecutive messages of one partition."""
    return [
        InputRecord("claims", 3, offset, 1_700_000_000_000, b"key-%d" % offset, value)
        for offset, value in enumerate(values)
    ]


def assert_verdict_or_classified_dead_letter(records: list[InputRecord]) -> None:
    """Each record decodes to a claim or a classified failure, and the batch gives each one a
    verdict or a dead letter of a known kind, in order, with the value kept as read."""
    for record in records:
        decoded = decode_message(record.value, max_message_bytes=SETTINGS.max_message_bytes)
        assert isinstance(decoded, ClaimEvent | DecodeFailure)
        if isinstance(decoded, DecodeFailure):
            assert decoded.kind in DEAD_LETTER_KINDS

    processor = BatchProcessor(CHECKER, Versions({KB_VERSION: DOCUMENTS}), SETTINGS)
    result = processor.process(records, checked_at=CHECKED_AT)

    assert [outcome.record for outcome in result.outcomes] == records
    # (topic, offset of the message it stands for, dead-letter kind) of every output, in order.
    expected: list[tuple[str, int, str | None]] = []
    for outcome in result.outcomes:
        offset = outcome.record.offset
        # Shown by --hypothesis-show-statistics: how often each path was taken.
        event(outcome.kind if isinstance(outcome, DeadLettered) else "verdict")
        if isinstance(outcome, DeadLettered):
            assert outcome.kind in DEAD_LETTER_KINDS
            expected.append((SETTINGS.dlq_topic, offset, outcome.kind))
        else:
            assert isinstance(outcome, Checked)
            expected.append((SETTINGS.verdicts_topic, offset, None))
            if outcome.dead_lettered:
                expected.append((SETTINGS.dlq_topic, offset, outcome.verdict.status.value))
    produced: list[tuple[str, int, str | None]] = []
    for output in result.outputs:
        if output.topic == SETTINGS.dlq_topic:
            info = read_dead_letter_headers(output.headers)
            source = records[info.offset]
            assert (output.key, output.value) == (source.key, source.value)
            produced.append((output.topic, info.offset, info.kind))
        else:
            verdict = VerdictEvent.model_validate_json(output.value or b"")
            assert output.key == verdict.claim_id.encode()
            produced.append((output.topic, verdict.source.offset, None))
    assert produced == expected


# No deadline: a loaded CI machine must not turn a slow example into a failure; the fault
# suite bounds the time per message against the real worker.
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(max_size=512) | st.none(), min_size=1, max_size=6))
def test_random_bytes_become_verdicts_or_classified_dead_letters(
    values: list[bytes | None],
) -> None:
    assert_verdict_or_classified_dead_letter(as_batch(values))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(JSON_MESSAGES, min_size=1, max_size=6))
def test_random_json_and_claims_become_verdicts_or_classified_dead_letters(
    values: list[bytes | None],
) -> None:
    assert_verdict_or_classified_dead_letter(as_batch(values))
