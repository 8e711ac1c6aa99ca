"""The verdict event, version 1: what the worker publishes to ``claim-verdicts``.

One verdict per claim, keyed by the claim ID. It records everything needed to reproduce
the decision: the knowledge-base version, the content hash of every evidence document
read, the prompt's hash, the checker's version and the claim message's coordinates.
:func:`dump_verdict` is the one way verdicts are serialized, so that a replay of the same
input can be compared byte for byte.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, get_args

from pydantic import BaseModel, Field, NonNegativeInt, StringConstraints, model_validator
from pydantic_core import PydanticCustomError
from quantcheck.schemas._common import CONTRACT_CONFIG, AwareTimestamp, Identifier, KbVersion, Name
from quantcheck.schemas.limits import MAX_TOPIC_CHARS

VerdictStatus = Literal[
    "missing_citation",
    "unknown_citation",
    "citation_not_retrieved",
    "needs_review_no_quantity",
    "unsupported_quantity",
    "needs_review_negation",
    "supported",
]
"""Every outcome of the check, in the order its gates are applied."""

STATUSES: Final[tuple[VerdictStatus, ...]] = get_args(VerdictStatus)

MatchKind = Literal[
    "exact",
    "within_range",
    "period_match",
    "approximate_match",
    "converted_match",
    "noun_differs",
    "other_reading",
    "derived",
]
"""How a claim fact was found in the evidence."""

MATCH_KINDS: Final[tuple[MatchKind, ...]] = get_args(MatchKind)

Difference = Literal[
    "other_sign",
    "sign_in_words",
    "other_value",
    "other_unit",
    "other_dimension",
    "other_period",
    "other_date",
    "evidence_bound",
    "claim_bound",
    "other_bound",
    "without_unit",
    "data_share",
    "document_unit",
    "unit_not_claimed",
    "unit_stated_apart",
    "unit_left_out",
    "scale_unstated",
    "other_noun",
    "in_date",
    "in_code",
    "same_code",
    "same_clock",
    "other_reading",
    "unread",
    "loose_word",
    "rank",
    "other_code",
    "other_thing",
]
"""How the evidence holds a claimed number inside a fact that differs from the claim's."""

DIFFERENCES: Final[tuple[Difference, ...]] = get_args(Difference)

Relation = Literal["=", "<", "<=", ">", ">=", ".."]
"""How a fact relates its category to its value; ``..`` is a closed range."""

RELATIONS: Final[tuple[Relation, ...]] = get_args(Relation)

Sha256Hex = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
"""A SHA-256 digest as 64 lowercase hexadecimal digits."""


class Span(BaseModel):
    """Half-open character offsets ``[start, end)`` into a text, counted in Unicode code
    points (Python string indexes, not UTF-16 units or bytes)."""

    model_config = CONTRACT_CONFIG

    start: NonNegativeInt = Field(description="Offset of the first character.")
    end: NonNegativeInt = Field(description="Offset just past the last character; >= start.")

    @model_validator(mode="after")
    def _ordered(self) -> Span:
        if self.end < self.start:
            raise PydanticCustomError("span_order", "Span should not end before it starts")
        return self


class EvidenceMatch(BaseModel):
    """Where a claim fact was found in a cited document."""

    model_config = CONTRACT_CONFIG

    doc_id: Identifier = Field(description="ID of the evidence document.")
    span: Span = Field(description="Where the supporting mention sits in the document text.")
    text: str = Field(description="The supporting mention as the document writes it.")
    label: str = Field(description="The supporting mention's fact, e.g. time_seconds=60.")


class FactBinding(BaseModel):
    """What a claim fact and its evidence occurrence are said of: the content words bound
    to each (lemmatized; in data, with the words of the key path and row label)."""

    model_config = CONTRACT_CONFIG

    claim: list[str] = Field(description="The words the claim's value is bound to, sorted.")
    evidence: list[str] = Field(
        description="The words the evidence occurrence is bound to, sorted."
    )
    rival: str | None = Field(
        default=None,
        description="For a fact not matched because the occurrence is said of something"
        " else (difference other_thing): the label of the evidence value the claim's words"
        " name instead, e.g. money_usd=12; null otherwise.",
    )
    rival_words: list[str] = Field(
        default_factory=list,
        description="The claim's words that set the rival apart from the occurrence.",
    )


class FactResult(BaseModel):
    """One fact found in the claim text and what the check made of it."""

    model_config = CONTRACT_CONFIG

    label: str = Field(description="The normalized fact as reasons print it, e.g. time_seconds=60.")
    category: str = Field(description="What the fact measures, e.g. time_seconds or date.")
    relation: Relation = Field(description="How the category relates to the value.")
    value: str = Field(
        description="The value as exact decimal text (90, 2.5, never 9E+1) or an ISO 8601"
        " date; the lower bound of a range."
    )
    upper: str | None = Field(
        default=None, description="Upper bound of a range (relation ..); null otherwise."
    )
    text: str = Field(description="The mention as the claim writes it.")
    span: Span = Field(
        description="Where the mention sits in the claim text; for a claim split from an"
        " answer, in the answer text (the claim text has the markers removed)."
    )
    negated: bool = Field(description="The claim states the fact in a negated context.")
    approximate: bool = Field(description="The claim hedges the value (about, roughly, ~).")
    matched: bool = Field(description="Some cited document supports the fact.")
    match_kind: MatchKind | None = Field(
        default=None, description="How the fact was matched; null when it was not."
    )
    evidence: EvidenceMatch | None = Field(
        default=None,
        description="The supporting mention; for a fact not matched, the evidence mention"
        " that holds its number in a differing fact (see difference), else null.",
    )
    derivation: str | None = Field(
        default=None,
        description="For a match of kind derived: the computation over evidence values that"
        " gives the claimed one, e.g. '3 × 90' or 'lowest and highest of 8 values of main >"
        " temp'; null otherwise.",
    )
    difference: Difference | None = Field(
        default=None,
        description="When the evidence holds the claimed number only inside a fact that"
        " differs from the claim's: how it differs (e.g. other_unit, other_period,"
        " evidence_bound). Set on a fact not matched for that reason, and on a match of kind"
        " other_reading, whose difference the check accepts; null otherwise.",
    )
    negation_conflict: bool = Field(
        default=False,
        description="The claim and the evidence disagree on whether this fact is negated"
        " (see status needs_review_negation).",
    )
    problem: str | None = Field(
        default=None,
        description="Why the mention could not be used as written (e.g. not a calendar date).",
    )
    period: str | None = Field(
        default=None,
        description="The period the claim states the value for, as a label (e.g."
        " date_quarter=2021-Q3): the nearest date in the value's clause; null when it has"
        " none. A value the evidence states only for another period is not matched.",
    )
    binding: FactBinding | None = Field(
        default=None,
        description="What the claim's value and its evidence occurrence are said of, where"
        " the check read it (values of money, percentages, units and counts); null"
        " otherwise.",
    )


class SetAsideNumber(BaseModel):
    """A number in the claim deliberately not checked, with the reason why."""

    model_config = CONTRACT_CONFIG

    text: str = Field(description="The number as the claim writes it.")
    span: Span = Field(
        description="Where it sits in the claim text; for a claim split from an answer, in"
        " the answer text (the claim text has the markers removed)."
    )
    reason: str = Field(
        description='Why it is not a fact: list_marker ("2. " at the start of a line),'
        ' citation_marker ("[2]"), source_reference ("passage 2", "Source 1"), idiom'
        ' ("open 24/7") or rating_scale (the 5 of "rated 4.6 out of 5").'
    )


class EvidenceDocument(BaseModel):
    """A cited document the check read, identified by the hash of its content."""

    model_config = CONTRACT_CONFIG

    doc_id: Identifier = Field(description="ID of the document.")
    sha256: Sha256Hex = Field(description="SHA-256 of the document text encoded as UTF-8.")


class SourceCoordinates(BaseModel):
    """Where the claim message was read: enough to find and replay it."""

    model_config = CONTRACT_CONFIG

    topic: Annotated[str, StringConstraints(min_length=1, max_length=MAX_TOPIC_CHARS)] = Field(
        description="Topic the claim was read from."
    )
    partition: NonNegativeInt = Field(description="Partition of the claim message.")
    offset: NonNegativeInt = Field(description="Offset of the claim message.")
    timestamp: Annotated[int, Field(ge=-1)] = Field(
        description="Timestamp of the claim message in milliseconds since the Unix epoch;"
        " -1 when the message has none."
    )


class VerdictEvent(BaseModel):
    """The outcome of checking one claim, with what is needed to reproduce it."""

    model_config = CONTRACT_CONFIG | {"json_schema_serialization_defaults_required": True}

    schema_version: Literal[1] = Field(default=1, description="Version of this contract; 1.")
    claim_id: Identifier = Field(description="ID of the checked claim; also the message key.")
    answer_id: Identifier | None = Field(
        default=None, description="ID of the answer the claim came from, if the claim had one."
    )
    status: VerdictStatus = Field(description="The outcome.")
    reason: str = Field(description="The outcome explained in one sentence.")
    facts: list[FactResult] = Field(
        default_factory=list, description="Every fact found in the claim text."
    )
    flags: list[str] = Field(
        default_factory=list,
        description="Remarks that do not change the status (e.g. approximate_match).",
    )
    set_aside: list[SetAsideNumber] = Field(
        default_factory=list,
        description="Numbers in the claim text that are not facts, each with its reason;"
        " every other digit of the claim lies inside one of the facts.",
    )
    kb_version: KbVersion = Field(description="Knowledge-base version the evidence was read at.")
    cited_doc_ids: list[Identifier] = Field(description="The claim's cited document IDs.")
    evidence_documents: list[EvidenceDocument] = Field(
        default_factory=list,
        description="Every evidence document read, with its content hash; empty for citation"
        " failures.",
    )
    model: Name = Field(default="", description="The claim's model name, if known.")
    retriever: Name = Field(default="", description="The claim's retriever name, if known.")
    prompt_sha256: Sha256Hex = Field(
        description="SHA-256 of the claim's prompt encoded as UTF-8 (of the empty string when"
        " the claim had no prompt)."
    )
    checker_version: Annotated[Name, StringConstraints(min_length=1)] = Field(
        description="Version of the checker that decided; a replay with another version may"
        " decide differently."
    )
    source: SourceCoordinates = Field(description="Where the claim message was read.")
    checked_at: AwareTimestamp = Field(description="When the check ran: RFC 3339 with offset.")


def dump_verdict(verdict: VerdictEvent) -> bytes:
    """The verdict as compact UTF-8 JSON, keys in field order: equal verdicts give equal bytes."""
    return verdict.model_dump_json().encode("utf-8")


__all__ = [
    "DIFFERENCES",
    "MATCH_KINDS",
    "RELATIONS",
    "STATUSES",
    "Difference",
    "EvidenceDocument",
    "EvidenceMatch",
    "FactResult",
    "MatchKind",
    "Relation",
    "SetAsideNumber",
    "SourceCoordinates",
    "Span",
    "VerdictEvent",
    "VerdictStatus",
    "dump_verdict",
]
