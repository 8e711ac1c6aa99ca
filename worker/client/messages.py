"""The Kafka message of an event of the claims topic: its key and its value."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from quantcheck.schemas import AnswerEvent, ClaimEvent, parse_answer, parse_claim


def event_message(event: AnswerEvent | ClaimEvent) -> tuple[bytes, bytes]:
    """The key (the answer or claim ID, UTF-8) and value (the event's JSON, UTF-8)."""
    key = event.answer_id if isinstance(event, AnswerEvent) else event.claim_id
    return key.encode("utf-8"), event.model_dump_json().encode("utf-8")


def as_answer(answer: AnswerEvent | Mapping[str, Any]) -> AnswerEvent:
    """``answer`` as an event, a mapping read exactly as the worker will read its JSON.

    Raises :class:`~quantcheck.schemas.ClaimDecodeError` naming the failing fields."""
    if isinstance(answer, AnswerEvent):
        return answer
    return parse_answer(_json(answer))


def as_claim(claim: ClaimEvent | Mapping[str, Any]) -> ClaimEvent:
    """``claim`` as an event, a mapping read exactly as the worker will read its JSON.

    Raises :class:`~quantcheck.schemas.ClaimDecodeError` naming the failing fields."""
    if isinstance(claim, ClaimEvent):
        return claim
    return parse_claim(_json(claim))


def _json(mapping: Mapping[str, Any]) -> bytes:
    return json.dumps(dict(mapping), default=_timestamp, ensure_ascii=False).encode("utf-8")


def _timestamp(value: object) -> str:
    # produced_at may be given as a datetime; its JSON form is RFC 3339 text.
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")
