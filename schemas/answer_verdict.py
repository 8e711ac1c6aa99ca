"""The answer verdict, version 1: one record per answer on the ``claim-verdicts`` topic.

After the claims split from an answer are checked, each has its own verdict (keyed by its
claim ID ``<answer_id>:<n>``), and the answer gets one more record, keyed by the answer
ID, that sums them up: the worst status, the count per status and each claim with its
status and its sentence's place in the answer. Its ``event_type`` tells it apart from a
claim verdict, which has no such field: see :mod:`quantcheck.schemas.event_types`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Annotated, Final, Literal

from pydantic import BaseModel, Field, NonNegativeInt, StringConstraints, model_validator
from pydantic_core import PydanticCustomError
from quantcheck.schemas._common import CONTRACT_CONFIG, AwareTimestamp, Identifier, KbVersion, Name
from quantcheck.schemas.verdict import STATUSES, Sha256Hex, SourceCoordinates, Span, VerdictStatus

ANSWER_VERDICT_EVENT_TYPE: Final = "answer_verdict"
"""The ``event_type`` of an answer verdict."""

WORST_FIRST: Final[tuple[VerdictStatus, ...]] = (
    "unsupported_quantity",
    "unknown_citation",
    "citation_not_retrieved",
    "missing_citation",
    "needs_review_negation",
    "needs_review_no_quantity",
    "supported",
)
"""Statuses from worst to best, for an answer's overall status. A number the cited
evidence does not hold is the error the check exists to catch; then come citations that
cannot be trusted (invented, never retrieved, absent), then what a reviewer must look at,
then supported."""

EMPTY_ANSWER_STATUS: Final[VerdictStatus] = "needs_review_no_quantity"
"""The status of an answer with no sentence to check (only markers or white space)."""

_RANK: Final = {status: rank for rank, status in enumerate(WORST_FIRST)}


def worst_status(statuses: Iterable[VerdictStatus]) -> VerdictStatus:
    """The worst of ``statuses`` by :data:`WORST_FIRST`; :data:`EMPTY_ANSWER_STATUS` for
    none."""
    return min(statuses, key=_RANK.__getitem__, default=EMPTY_ANSWER_STATUS)


class StatusCounts(BaseModel):
    """How many of an answer's claims got each status; every status is present."""

    model_config = CONTRACT_CONFIG | {"json_schema_serialization_defaults_required": True}

    missing_citation: NonNegativeInt = 0
    unknown_citation: NonNegativeInt = 0
    citation_not_retrieved: NonNegativeInt = 0
    needs_review_no_quantity: NonNegativeInt = 0
    unsupported_quantity: NonNegativeInt = 0
    needs_review_negation: NonNegativeInt = 0
    supported: NonNegativeInt = 0

    @classmethod
    def of(cls, statuses: Iterable[VerdictStatus]) -> StatusCounts:
        """The counts of ``statuses``."""
        counts: Counter[str] = Counter(statuses)
        return cls(**counts)

    def as_dict(self) -> dict[VerdictStatus, int]:
        """Status to count, in gate order."""
        return {status: getattr(self, status) for status in STATUSES}


class AnswerClaim(BaseModel):
    """One claim of the answer: its ID, its status and where its sentence is."""

    model_config = CONTRACT_CONFIG

    claim_id: Identifier = Field(description="'<answer_id>:<n>'; its verdict has this key.")
    status: VerdictStatus = Field(description="The status of the claim's verdict.")
    span: Span = Field(
        description="The sentence in answer_text, markers included (Unicode code points)."
    )


class AnswerVerdictEvent(BaseModel):
    """The outcome of checking every sentence of one answer."""

    model_config = CONTRACT_CONFIG | {"json_schema_serialization_defaults_required": True}

    schema_version: Literal[1] = Field(default=1, description="Version of this contract; 1.")
    event_type: Literal["answer_verdict"] = Field(
        default="answer_verdict",
        description="Always 'answer_verdict': what tells this record from a claim verdict on"
        " the verdicts topic (claim verdicts have no event_type).",
    )
    answer_id: Identifier = Field(description="ID of the checked answer; also the message key.")
    status: VerdictStatus = Field(
        description="The worst status among the claims (unsupported_quantity, unknown_citation,"
        " citation_not_retrieved, missing_citation, needs_review_negation,"
        " needs_review_no_quantity, supported, worst first); needs_review_no_quantity when"
        " the answer had no sentence to check."
    )
    counts: StatusCounts = Field(description="How many claims got each status.")
    claims: list[AnswerClaim] = Field(description="Every claim of the answer, in sentence order.")
    kb_version: KbVersion = Field(description="Knowledge-base version the evidence was read at.")
    model: Name = Field(default="", description="The answer's model name, if known.")
    retriever: Name = Field(default="", description="The answer's retriever name, if known.")
    prompt_sha256: Sha256Hex = Field(
        description="SHA-256 of the answer's prompt encoded as UTF-8 (of the empty string when"
        " the answer had no prompt)."
    )
    checker_version: Annotated[Name, StringConstraints(min_length=1)] = Field(
        description="Version of the checker that decided."
    )
    source: SourceCoordinates = Field(description="Where the answer message was read.")
    checked_at: AwareTimestamp = Field(description="When the check ran: RFC 3339 with offset.")

    @model_validator(mode="after")
    def _consistent(self) -> AnswerVerdictEvent:
        statuses = [claim.status for claim in self.claims]
        if self.counts != StatusCounts.of(statuses):
            raise PydanticCustomError("answer_counts", "counts should tally the claims' statuses")
        if self.status != worst_status(statuses):
            raise PydanticCustomError(
                "answer_status", "status should be the worst of the claims' statuses"
            )
        return self


def dump_answer_verdict(verdict: AnswerVerdictEvent) -> bytes:
    """The record as compact UTF-8 JSON, keys in field order."""
    return verdict.model_dump_json().encode("utf-8")


__all__ = [
    "ANSWER_VERDICT_EVENT_TYPE",
    "EMPTY_ANSWER_STATUS",
    "WORST_FIRST",
    "AnswerClaim",
    "AnswerVerdictEvent",
    "StatusCounts",
    "dump_answer_verdict",
    "worst_status",
]
