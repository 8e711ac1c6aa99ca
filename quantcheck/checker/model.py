"""Inputs and outputs of the check: claims, documents, statuses and verdicts."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from enum import StrEnum

from quantcheck.checker.policy import Difference
from quantcheck.quantities.facts import Fact, Mention, SetAside, Span


class Status(StrEnum):
    """Every outcome of the check, in the order the gates are applied."""

    MISSING_CITATION = "missing_citation"
    UNKNOWN_CITATION = "unknown_citation"
    CITATION_NOT_RETRIEVED = "citation_not_retrieved"
    NEEDS_REVIEW_NO_QUANTITY = "needs_review_no_quantity"
    UNSUPPORTED_QUANTITY = "unsupported_quantity"
    NEEDS_REVIEW_NEGATION = "needs_review_negation"
    SUPPORTED = "supported"

    @property
    def is_citation_failure(self) -> bool:
        """True for the statuses decided before any evidence is read."""
        return self in CITATION_FAILURES


CITATION_FAILURES = frozenset(
    {Status.MISSING_CITATION, Status.UNKNOWN_CITATION, Status.CITATION_NOT_RETRIEVED}
)


class MatchKind(StrEnum):
    """How a claim fact was found in the evidence; anything but EXACT is also reported as a flag."""

    EXACT = "exact"
    WITHIN_RANGE = "within_range"
    PERIOD = "period_match"
    APPROXIMATE = "approximate_match"
    CONVERTED = "converted_match"
    NOUN_DIFFERS = "noun_differs"
    # The claimed number is in the evidence under a reading that differs in a way the
    # policy accepts (see :mod:`quantcheck.checker.policy`); the difference says how.
    OTHER_READING = "other_reading"
    # Not written, but implied: a computation over evidence values gives the claimed one
    # (see :mod:`quantcheck.checker.derived`); the derivation says which.
    DERIVED = "derived"


def sha256_text(text: str) -> str:
    """Hex SHA-256 of the UTF-8 encoding of ``text``: the identity of a document's content."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class FactsStamp:
    """What made a document's stored facts: the scope they were read under, the checker
    version and the encoding. A checker reads stored facts only under its own stamp, and
    extracts the document again under any other."""

    scope: str
    checker_version: str
    encoding: str


@dataclass(frozen=True, slots=True)
class StoredFacts:
    """A document's facts as the store keeps them beside its text: extracted and indexed
    once, when the document was loaded (see :mod:`.index_codec`)."""

    stamp: FactsStamp
    data: bytes


@dataclass(frozen=True, slots=True)
class Document:
    """One evidence document as of one knowledge-base version, with the facts stored for
    it, when the store holds some."""

    doc_id: str
    text: str
    topic: str = ""
    sha256: str = field(default="")
    facts: StoredFacts | None = None

    def __post_init__(self) -> None:
        if not self.sha256:
            object.__setattr__(self, "sha256", sha256_text(self.text))


# Unicode category Cc, the C0 and C1 control characters.
_CONTROL_CHARACTER = re.compile("[\x00-\x1f\x7f-\x9f]")


def has_control_character(value: str) -> bool:
    """Whether ``value`` holds a C0 or C1 control character."""
    return _CONTROL_CHARACTER.search(value) is not None


def doc_id_problem(doc_id: str) -> str | None:
    """Why ``doc_id`` is not a valid document ID, or None when it is."""
    if not doc_id or doc_id.isspace():
        return "doc_id is empty"
    if doc_id != doc_id.strip():
        return "doc_id has surrounding whitespace"
    if has_control_character(doc_id):
        return "doc_id contains a control character"
    return None


def text_problem(text: str) -> str | None:
    """Why ``text`` is not a valid document text, or None when it is."""
    if not text or text.isspace():
        return "text is empty"
    # PostgreSQL text cannot hold NUL; refusing it everywhere keeps the backends alike.
    if "\x00" in text:
        return "text contains a NUL character"
    return None


@dataclass(frozen=True, slots=True)
class Claim:
    """One checkable statement with the IDs it cites and the IDs retrieval supplied."""

    text: str
    cited_doc_ids: tuple[str, ...]
    retrieved_doc_ids: frozenset[str]
    # False for a sentence of an answer with neither a citation marker nor a number: it
    # is reported as holding no quantity, not as a citation failure.
    gated: bool = True


@dataclass(frozen=True, slots=True)
class EvidenceRef:
    """A cited document the check read, identified by content hash for reproducibility."""

    doc_id: str
    sha256: str


@dataclass(frozen=True, slots=True)
class Binding:
    """What a claim fact and its evidence occurrence are said of (see :mod:`.anchors`):
    the words bound to each, and, when the occurrence belongs to something else, the
    rival value the claim's words name instead and that rival's words."""

    claimed: frozenset[str]
    found: frozenset[str]
    rival: Mention | None = None
    rival_words: frozenset[str] = frozenset()

    @property
    def own(self) -> tuple[str, ...]:
        """The occurrence's words that set it apart from the rival, sorted."""
        return tuple(sorted(self.found - self.rival_words))

    @property
    def naming(self) -> tuple[str, ...]:
        """The claim's words that point to the rival rather than the occurrence, sorted."""
        words = self.claimed & (self.rival_words - self.found) or self.claimed & self.rival_words
        return tuple(sorted(words))


@dataclass(frozen=True, slots=True)
class FactCheck:
    """The outcome for one claim fact: matched or not, and where in the evidence."""

    mention: Mention
    matched: bool
    match_kind: MatchKind | None = None
    evidence_doc_id: str | None = None
    evidence: Mention | None = None
    negation_conflict: bool = False
    # When the value is in the evidence only for another period: that period.
    other_period: Fact | None = None
    # When the claimed number is in the evidence but in a differing fact (``evidence``):
    # how it differs. Set on an accepted other_reading match and on a fact that failed.
    difference: Difference | None = None
    # For a derived match: the computation over evidence values ("3 × 90"), and the
    # mentions it used (evidence first; a multiplying count of the claim after).
    derivation: str | None = None
    sources: tuple[Mention, ...] = ()
    # The words the claim fact and its evidence occurrence are bound to, where read.
    binding: Binding | None = None

    @property
    def evidence_span(self) -> Span | None:
        """Where the supporting mention sits in its evidence document."""
        return None if self.evidence is None else self.evidence.span


@dataclass(frozen=True, slots=True)
class Verdict:
    """The check's answer for one claim: a status, a reason in words, and the facts behind it."""

    status: Status
    reason: str
    facts: tuple[FactCheck, ...] = ()
    flags: tuple[str, ...] = ()
    evidence: tuple[EvidenceRef, ...] = ()
    set_aside: tuple[SetAside, ...] = ()

    @property
    def supported(self) -> bool:
        """True when every number of the claim is in the cited evidence."""
        return self.status is Status.SUPPORTED
