"""Turning a raw message of the claims topic into a claim or answer event, or into the
reason it cannot be one."""

from __future__ import annotations

from dataclasses import dataclass

import pydantic_core
from quantcheck.schemas import (
    ANSWER_EVENT_TYPE,
    EVENT_TYPE_FIELD,
    AnswerEvent,
    ClaimDecodeError,
    ClaimEvent,
    DeadLetterKind,
    parse_claims_topic_value,
)
from quantcheck.schemas.limits import MAX_ID_CHARS


@dataclass(frozen=True, slots=True)
class DecodeFailure:
    """Why a message is not a readable event, and its claim ID (for a claim) or answer ID
    (for an answer) when that much could be read."""

    kind: DeadLetterKind
    message: str
    claim_id: str | None = None
    answer_id: str | None = None


def decode_message(
    value: bytes | None, *, max_message_bytes: int
) -> ClaimEvent | AnswerEvent | DecodeFailure:
    """Read one message value of the claims topic: a claim event, or an answer event when
    its ``event_type`` says so.

    Values longer than ``max_message_bytes`` are refused as ``oversize`` before any parsing,
    so their cost stays one length check. Every other failure carries the kind
    :func:`quantcheck.schemas.parse_claims_topic_value` gave it.
    """
    if value is not None and len(value) > max_message_bytes:
        return DecodeFailure(
            "oversize",
            f"message value is {len(value)} bytes, more than the limit of "
            f"{max_message_bytes} bytes",
        )
    try:
        return parse_claims_topic_value(value)
    except ClaimDecodeError as exc:
        if exc.kind == "invalid_utf8":
            return DecodeFailure(exc.kind, exc.message)
        claim_id, answer_id = _readable_ids(value)
        return DecodeFailure(exc.kind, exc.message, claim_id, answer_id)


def _readable_ids(value: bytes | None) -> tuple[str | None, str | None]:
    """The usable ``claim_id`` of a JSON claim, or ``answer_id`` of a JSON answer, that
    failed validation.

    Only failures pay for this second parse; it lets the dead letter name the event.
    """
    if value is None:
        return None, None
    try:
        document = pydantic_core.from_json(value)
    except (ValueError, RecursionError):
        return None, None
    if not isinstance(document, dict):
        return None, None
    if document.get(EVENT_TYPE_FIELD) == ANSWER_EVENT_TYPE:
        return None, _usable_id(document.get("answer_id"))
    return _usable_id(document.get("claim_id")), None


def _usable_id(value: object) -> str | None:
    if isinstance(value, str) and 0 < len(value) <= MAX_ID_CHARS:
        return value
    return None
