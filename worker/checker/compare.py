"""Matching one claim fact against the facts of the cited evidence.

A claim fact is supported by an evidence fact of the same category when, in order of
preference: the signatures are equal (exact); the claimed value or interval lies inside
an evidence interval (within_range); one side came through an inexact conversion and
both agree at the precision of the less precise literal (converted_match); or the claim
is hedged ("about 96 percent") and the evidence rounds to it at the claim's written
precision (approximate_match). Bounds only match the same relation and value. A match
whose polarity differs (one side negated) is kept, but only when no same-polarity match
exists, and is reported as a negation conflict.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from worker.checker.model import FactCheck, MatchKind
from worker.quantities.extract import Extraction
from worker.quantities.facts import Fact, Mention, Relation

_PREFERENCE = {
    MatchKind.EXACT: 0,
    MatchKind.WITHIN_RANGE: 1,
    MatchKind.CONVERTED: 2,
    MatchKind.APPROXIMATE: 3,
}


@dataclass(frozen=True, slots=True)
class EvidenceIndex:
    """One document's extracted facts, indexed for exact and per-category lookups."""

    extraction: Extraction
    by_fact: Mapping[Fact, tuple[Mention, ...]] = field(default_factory=dict)
    by_category: Mapping[str, tuple[Mention, ...]] = field(default_factory=dict)

    @classmethod
    def build(cls, extraction: Extraction) -> EvidenceIndex:
        """Index the usable facts of an extraction (invalid dates are left out)."""
        by_fact: dict[Fact, list[Mention]] = {}
        by_category: dict[str, list[Mention]] = {}
        for mention in extraction.mentions:
            if mention.problem is not None:
                continue
            by_fact.setdefault(mention.fact, []).append(mention)
            by_category.setdefault(mention.fact.category, []).append(mention)
        return cls(
            extraction,
            {k: tuple(v) for k, v in by_fact.items()},
            {k: tuple(v) for k, v in by_category.items()},
        )


def find_support(claim: Mention, evidence: Sequence[tuple[str, EvidenceIndex]]) -> FactCheck:
    """The best evidence match for one claim fact across the given documents."""
    if claim.problem is not None:
        return FactCheck(claim, matched=False)
    best: tuple[tuple[bool, int], str, Mention, MatchKind] | None = None
    for doc_id, index in evidence:
        for candidate, kind in _candidates(claim, index):
            rank = (candidate.negated != claim.negated, _PREFERENCE[kind])
            if best is None or rank < best[0]:
                best = (rank, doc_id, candidate, kind)
                if rank == (False, 0):
                    break
        if best is not None and best[0] == (False, 0):
            break
    if best is None:
        return FactCheck(claim, matched=False)
    (conflict, _), doc_id, candidate, kind = best
    return FactCheck(
        claim,
        matched=True,
        match_kind=kind,
        evidence_doc_id=doc_id,
        evidence=candidate,
        negation_conflict=conflict,
    )


def _candidates(claim: Mention, index: EvidenceIndex) -> Iterator[tuple[Mention, MatchKind]]:
    for mention in index.by_fact.get(claim.fact, ()):
        yield mention, MatchKind.EXACT
    fact = claim.fact
    if isinstance(fact.value, str):
        return  # dates, months and quarters match exactly or not at all
    for mention in index.by_category.get(fact.category, ()):
        other = mention.fact
        if other == fact:
            continue
        kind = _loose_match(claim, mention, fact, other)
        if kind is not None:
            yield mention, kind


def _loose_match(claim: Mention, evidence: Mention, fact: Fact, other: Fact) -> MatchKind | None:
    if other.relation is Relation.RANGE:
        if fact.relation is Relation.EQ and _inside(fact.value, other):
            return MatchKind.WITHIN_RANGE
        if (
            fact.relation is Relation.RANGE
            and _inside(fact.value, other)
            and _inside(fact.upper, other)
        ):
            return MatchKind.WITHIN_RANGE
        return None
    if fact.relation is Relation.RANGE:
        return None
    if other.relation is not fact.relation:
        return None
    if (not claim.exact or not evidence.exact) and _agree_at_coarser_precision(claim, evidence):
        return MatchKind.CONVERTED
    if fact.relation is Relation.EQ and claim.approximate and claim.literal is not None:
        assert isinstance(other.value, Decimal)
        if claim.literal.rounds_to(other.value):
            return MatchKind.APPROXIMATE
    return None


def _inside(value: Decimal | str | None, interval: Fact) -> bool:
    assert isinstance(value, Decimal)
    assert isinstance(interval.value, Decimal)
    assert isinstance(interval.upper, Decimal)
    return interval.value <= value <= interval.upper


def _agree_at_coarser_precision(a: Mention, b: Mention) -> bool:
    """Whether two values read the same in the unit and precision of the coarser literal."""
    if a.literal is None or b.literal is None:
        return False
    coarse, fine = (a, b) if _quantum(a) >= _quantum(b) else (b, a)
    assert coarse.literal is not None
    assert isinstance(fine.fact.value, Decimal)
    return coarse.literal.rounds_to(fine.fact.value)


def _quantum(mention: Mention) -> Decimal:
    """The size of one step in the literal's last written digit, in base units."""
    literal = mention.literal
    assert literal is not None
    step = Decimal(1).scaleb(literal.exponent) * literal.scale
    return abs(step * literal.numerator / literal.denominator)
