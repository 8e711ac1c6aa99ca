"""The claim event, version 1: what a RAG backend publishes to the ``claims`` topic.

A backend builds a :class:`ClaimEvent` and publishes ``event.model_dump_json()`` with the
claim ID, UTF-8 encoded, as the message key. The worker reads messages with
:func:`parse_claim`, which turns every way a message can be wrong into one
:class:`ClaimDecodeError`.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints
from quantcheck.schemas._common import (
    CONTRACT_CONFIG,
    NO_NUL_CHARACTERS,
    AwareTimestamp,
    Identifier,
)
from quantcheck.schemas.decoding import (
    CLAIM_DECODE_KINDS,
    ClaimDecodeError,
    ClaimDecodeKind,
    decode,
    summarize_errors,
)
from quantcheck.schemas.fields import (
    Attributes,
    AttributeValue,
    EventKbVersion,
    ModelName,
    Prompt,
    RetrievedDocIds,
    RetrieverName,
    SchemaVersionOne,
)
from quantcheck.schemas.limits import MAX_CITED_DOC_IDS, MAX_CLAIM_TEXT_CHARS

ClaimText = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_CLAIM_TEXT_CHARS), NO_NUL_CHARACTERS
]
CitedDocIds = Annotated[list[Identifier], Field(max_length=MAX_CITED_DOC_IDS)]


class ClaimEvent(BaseModel):
    """One claim to check: a statement from a generated answer, the documents it cites and
    the documents retrieval supplied, as of one knowledge-base version."""

    model_config = CONTRACT_CONFIG

    schema_version: SchemaVersionOne = Field(
        description="Version of this contract; always 1. Other integers are refused as"
        " unsupported so that a newer producer is noticed, not misread."
    )
    claim_id: Identifier = Field(
        description="Unique ID of the claim; also the message key (UTF-8). Verdicts and dead"
        " letters carry it."
    )
    answer_id: Identifier | None = Field(
        default=None, description="ID of the generated answer the claim was taken from."
    )
    claim_text: ClaimText = Field(description="The statement to check, as the answer wrote it.")
    cited_doc_ids: CitedDocIds = Field(
        description="IDs of the documents the claim cites, in citation order. An empty list"
        " means the claim cites nothing (status missing_citation)."
    )
    retrieved_doc_ids: RetrievedDocIds
    kb_version: EventKbVersion
    prompt: Prompt = Field(
        default="",
        description="The prompt that produced the answer; only its SHA-256 reaches the verdict.",
    )
    model: ModelName = ""
    retriever: RetrieverName = ""
    produced_at: AwareTimestamp = Field(
        description="When the backend produced the claim: an RFC 3339 timestamp with offset."
    )
    attributes: Attributes = Field(
        default_factory=dict,
        description="Free-form scalar metadata for tracing (tenant, request ID, ...); the"
        " check ignores it.",
    )


def parse_claim(raw: bytes | bytearray | memoryview | None) -> ClaimEvent:
    """Read one claim message value (UTF-8 JSON) into a :class:`ClaimEvent`.

    Raises :class:`ClaimDecodeError`, and nothing else, for any input that is not a valid
    version 1 claim: bytes that are not UTF-8, text that is not JSON (including nesting
    deeper than the parser's limit of 200 levels and integers of more than 4300 digits),
    JSON that is not a claim object, or a claim of another ``schema_version``. ``None``
    (a tombstone) counts as invalid JSON.

    The raw size is not checked here: the worker refuses values larger than
    ``MAX_CLAIM_MESSAGE_BYTES`` before calling this. Within that size every input is
    handled in time proportional to its length.
    """
    return decode(raw, ClaimEvent)


__all__ = [
    "CLAIM_DECODE_KINDS",
    "AttributeValue",
    "ClaimDecodeError",
    "ClaimDecodeKind",
    "ClaimEvent",
    "parse_claim",
    "summarize_errors",
]
