"""Turning a raw claim message into a claim event, or into the reason it cannot be one."""

from __future__ import annotations

from dataclasses import dataclass

import pydantic_core

from schemas import ClaimDecodeError, ClaimEvent, DeadLetterKind, parse_claim
from schemas.limits import MAX_ID_CHARS


@dataclass(frozen=True, slots=True)
class DecodeFailure:
    """Why a message is not a readable claim, and its claim ID when that much could be read."""

    kind: DeadLetterKind
    message: str
    claim_id: str | None = None


def decode_claim(value: bytes | None, *, max_message_bytes: int) -> ClaimEvent | DecodeFailure:
    """Read one claim message value.

    Values longer than ``max_message_bytes`` are refused as ``oversize`` before any parsing,
    so their cost stays one length check. Every other failure carries the kind
    :func:`schemas.parse_claim` gave it.
    """
    if value is not None and len(value) > max_message_bytes:
        return DecodeFailure(
            "oversize",
            f"message value is {len(value)} bytes, more than the limit of "
            f"{max_message_bytes} bytes",
        )
    try:
        return parse_claim(value)
    except ClaimDecodeError as exc:
        claim_id = _readable_claim_id(value) if exc.kind != "invalid_utf8" else None
        return DecodeFailure(exc.kind, exc.message, claim_id)


def _readable_claim_id(value: bytes | None) -> str | None:
    """The ``claim_id`` of a JSON object that failed validation, when it is a usable ID.

    Only failures pay for this second parse; it lets the dead letter name the claim.
    """
    if value is None:
        return None
    try:
        document = pydantic_core.from_json(value)
    except (ValueError, RecursionError):
        return None
    if not isinstance(document, dict):
        return None
    claim_id = document.get("claim_id")
    if isinstance(claim_id, str) and 0 < len(claim_id) <= MAX_ID_CHARS:
        return claim_id
    return None
