"""How a reader tells the records of one topic apart.

The claims topic carries claim events and answer events; the verdicts topic carries claim
verdicts and answer verdicts. The newer record of each pair names itself in a top-level
``event_type`` field (``answer``, ``answer_verdict``); the older one has no such field,
so every claim and claim verdict written before answers existed reads as it always did.
The field is in the value rather than in a header so that a record stays
self-describing wherever its value goes: files, dead letters, replays.
"""

from __future__ import annotations

from typing import Final

from pydantic import ValidationError
from quantcheck.schemas._common import one_line
from quantcheck.schemas.answer import ANSWER_EVENT_TYPE, AnswerEvent
from quantcheck.schemas.answer_verdict import ANSWER_VERDICT_EVENT_TYPE, AnswerVerdictEvent
from quantcheck.schemas.claim import ClaimEvent
from quantcheck.schemas.decoding import (
    ClaimDecodeError,
    read_document,
    summarize_errors,
    validate_document,
)
from quantcheck.schemas.limits import MAX_ERROR_MESSAGE_CHARS
from quantcheck.schemas.verdict import VerdictEvent

EVENT_TYPE_FIELD: Final = "event_type"
"""The top-level field that names a record's type where a topic carries two."""


def parse_claims_topic_value(
    raw: bytes | bytearray | memoryview | None,
) -> ClaimEvent | AnswerEvent:
    """Read a value of the claims topic: an :class:`AnswerEvent` when its ``event_type``
    is ``answer``, otherwise a :class:`ClaimEvent`.

    Raises :class:`ClaimDecodeError`, and nothing else, as ``parse_claim`` does; a value
    whose ``event_type`` is anything but ``answer`` is a schema violation.
    """
    data, document = read_document(raw)
    if isinstance(document, dict) and EVENT_TYPE_FIELD in document:
        kind = document[EVENT_TYPE_FIELD]
        if kind != ANSWER_EVENT_TYPE:
            shown = one_line(repr(kind), 60)
            raise ClaimDecodeError(
                "schema_violation",
                f"{EVENT_TYPE_FIELD}: Input should be '{ANSWER_EVENT_TYPE}', not {shown}"
                " (claim events have no event_type)",
            )
        return validate_document(data, document, AnswerEvent)
    return validate_document(data, document, ClaimEvent)


class VerdictRecordError(ValueError):
    """A value of the verdicts topic that is neither a claim verdict nor an answer verdict;
    the message names the failing fields in one line."""


def parse_verdicts_topic_value(raw: bytes) -> VerdictEvent | AnswerVerdictEvent:
    """Read a value of the verdicts topic: an :class:`AnswerVerdictEvent` when its
    ``event_type`` is ``answer_verdict``, otherwise a :class:`VerdictEvent`.

    Raises :class:`VerdictRecordError` for anything else.
    """
    try:
        _, document = read_document(raw)
    except ClaimDecodeError as exc:
        raise VerdictRecordError(exc.message) from None
    is_answer = isinstance(document, dict) and EVENT_TYPE_FIELD in document
    model = AnswerVerdictEvent if is_answer else VerdictEvent
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_context=False, include_input=False)
        message = summarize_errors(((e["loc"], e["msg"]) for e in errors), exc.error_count())
        raise VerdictRecordError(one_line(message, MAX_ERROR_MESSAGE_CHARS)) from None


__all__ = [
    "ANSWER_EVENT_TYPE",
    "ANSWER_VERDICT_EVENT_TYPE",
    "EVENT_TYPE_FIELD",
    "VerdictRecordError",
    "parse_claims_topic_value",
    "parse_verdicts_topic_value",
]
