"""The answer event, version 1: a generated answer as the backend served it.

Published to the ``claims`` topic next to claim events, keyed by the answer ID. It carries
the answer text with its inline citation markers (``[1]``, ``[1, 3]``, ``[S01]``,
``【2】``, ``^[3]``, ``[^2]``) and what retrieval supplied; the worker splits it into one
claim per sentence. ``event_type`` tells it apart from a claim event, which has no such
field: see :mod:`quantcheck.schemas.event_types`.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, Field, StringConstraints
from quantcheck.schemas._common import (
    CONTRACT_CONFIG,
    NO_CONTROL_CHARACTERS,
    NO_NUL_CHARACTERS,
    AwareTimestamp,
    Identifier,
)
from quantcheck.schemas.decoding import decode
from quantcheck.schemas.fields import (
    Attributes,
    EventKbVersion,
    ModelName,
    Prompt,
    RetrievedDocIds,
    RetrieverName,
    SchemaVersionOne,
    keys_as_property_names,
)
from quantcheck.schemas.limits import (
    MAX_ANSWER_ID_CHARS,
    MAX_ANSWER_TEXT_CHARS,
    MAX_CITATIONS,
    MAX_ID_CHARS,
)

ANSWER_EVENT_TYPE: Final = "answer"
"""The ``event_type`` of an answer event."""

AnswerId = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_ANSWER_ID_CHARS), NO_CONTROL_CHARACTERS
]
"""An answer ID: short enough that ``<answer_id>:<n>`` is a valid claim ID."""

AnswerText = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_ANSWER_TEXT_CHARS), NO_NUL_CHARACTERS
]
MarkerLabel = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_ID_CHARS), NO_CONTROL_CHARACTERS
]
"""What a citation marker holds between its brackets: ``1`` in ``[1]``, ``【1】``,
``^[1]`` and ``[^1]``; ``S01`` in ``[S01]``."""

Citations = Annotated[
    dict[MarkerLabel, Identifier],
    Field(max_length=MAX_CITATIONS),
    keys_as_property_names(),
]


class AnswerEvent(BaseModel):
    """A generated answer with inline citation markers, the documents retrieval supplied
    and the knowledge-base version they come from."""

    model_config = CONTRACT_CONFIG

    schema_version: SchemaVersionOne = Field(
        description="Version of this contract; always 1. Other integers are refused as"
        " unsupported so that a newer producer is noticed, not misread."
    )
    event_type: Literal["answer"] = Field(
        description="Always 'answer': what tells an answer from a claim on the claims topic"
        " (claim events have no event_type)."
    )
    answer_id: AnswerId = Field(
        description="Unique ID of the answer; also the message key (UTF-8). Its claims are"
        " named '<answer_id>:<n>', n counting sentences from 1."
    )
    answer_text: AnswerText = Field(
        description="The answer as served, with its inline citation markers: [1], [1, 3],"
        " [1][2], [S01], 【2】, ^[3] or [^2]. Each sentence is checked as one claim citing"
        " the documents of its own markers."
    )
    citations: Citations = Field(
        default_factory=dict,
        description="Marker label (what the marker holds between its brackets, such as '1')"
        " to the document ID it stands for. A label not listed here is read as a document ID"
        " itself, so answers whose markers are document IDs ([S01]) may leave this out.",
    )
    retrieved_doc_ids: RetrievedDocIds
    kb_version: EventKbVersion
    prompt: Prompt = Field(
        default="",
        description="The prompt that produced the answer; only its SHA-256 reaches a verdict.",
    )
    model: ModelName = ""
    retriever: RetrieverName = ""
    produced_at: AwareTimestamp = Field(
        description="When the backend produced the answer: an RFC 3339 timestamp with offset."
    )
    attributes: Attributes = Field(
        default_factory=dict,
        description="Free-form scalar metadata for tracing (tenant, request ID, ...); every"
        " claim of the answer carries it, and the check ignores it.",
    )


def parse_answer(raw: bytes | bytearray | memoryview | None) -> AnswerEvent:
    """Read one answer message value (UTF-8 JSON) into an :class:`AnswerEvent`.

    Raises :class:`~quantcheck.schemas.decoding.ClaimDecodeError`, and nothing else, for any input
    that is not a valid version 1 answer, exactly as :func:`~quantcheck.schemas.claim.parse_claim`
    does for claims.
    """
    return decode(raw, AnswerEvent)


__all__ = [
    "ANSWER_EVENT_TYPE",
    "AnswerEvent",
    "AnswerId",
    "MarkerLabel",
    "parse_answer",
]
