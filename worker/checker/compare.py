"""Matching one claim fact against the facts of the cited evidence.

A claim fact is supported by an evidence fact of the same category when, in order of
preference: the signatures are equal (exact); the claimed value or interval lies inside
an evidence interval (within_range); the claim names a period that holds the evidence's
date, as "April 2015" holds "April 14, 2015" (period_match); one side came through an
inexact conversion and both agree at the precision of the less precise literal
(converted_match); or the claim is hedged ("about 96 percent") and the evidence rounds to
it at the claim's written precision (approximate_match). Bounds only match the same
relation and value. A plain number is supported by the same number counting anything. A
count is supported by a count of its noun; where the evidence counts no such thing, by
the same number counting something else (noun_differs), since answers name the counted
thing in their own words ("1,200 people" for "1,200 employees"). A match whose polarity
differs (one side negated) is kept, but only when no same-polarity match exists, and is
reported as a negation conflict.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from quantcheck.worker.checker.model import FactCheck, MatchKind
from quantcheck.worker.quantities import dates, identifiers
from quantcheck.worker.quantities.categories import COUNT_PREFIX, IDENTIFIER, NUMBER, TIME_OF_DAY
from quantcheck.worker.quantities.extract import Extraction
from quantcheck.worker.quantities.facts import Fact, Mention, Relation

_PREFERENCE = {
    MatchKind.EXACT: 0,
    MatchKind.WITHIN_RANGE: 1,
    MatchKind.PERIOD: 2,
    MatchKind.CONVERTED: 3,
    MatchKind.APPROXIMATE: 4,
    MatchKind.NOUN_DIFFERS: 5,
}
# The evidence facts a plain number may be found among: the same value counting anything.
_PLAIN = "plain"


def _family(category: str) -> str | None:
    """The wider group a claim fact may be matched in beyond its own category."""
    if category in dates.PERIOD_CATEGORIES:
        return "period"
    if category == NUMBER or category.startswith(COUNT_PREFIX):
        return _PLAIN
    return None


@dataclass(frozen=True, slots=True)
class EvidenceIndex:
    """One document's extracted facts, indexed for exact, per-category and per-family
    lookups."""

    extraction: Extraction
    by_fact: Mapping[Fact, tuple[Mention, ...]] = field(default_factory=dict)
    by_category: Mapping[str, tuple[Mention, ...]] = field(default_factory=dict)
    by_family: Mapping[str, tuple[Mention, ...]] = field(default_factory=dict)

    @classmethod
    def build(cls, extraction: Extraction, text: str = "") -> EvidenceIndex:
        """Index the usable facts of an extraction of ``text`` (invalid dates are left out),
        and the identifiers the text names without their number ("COVID" for COVID-19)."""
        by_fact: dict[Fact, list[Mention]] = {}
        by_category: dict[str, list[Mention]] = {}
        by_family: dict[str, list[Mention]] = {}
        named = [
            Mention(Fact(IDENTIFIER, Relation.EQ, value), span, text[span.start : span.end])
            for value, span in identifiers.aliases_in(text)
        ]
        for mention in (*extraction.mentions, *named):
            if mention.problem is not None:
                continue
            category = mention.fact.category
            by_fact.setdefault(mention.fact, []).append(mention)
            by_category.setdefault(category, []).append(mention)
            family = _family(category)
            if family is not None:
                by_family.setdefault(family, []).append(mention)
        return cls(
            extraction,
            {k: tuple(v) for k, v in by_fact.items()},
            {k: tuple(v) for k, v in by_category.items()},
            {k: tuple(v) for k, v in by_family.items()},
        )


def find_support(claim: Mention, evidence: Sequence[tuple[str, EvidenceIndex]]) -> FactCheck:
    """The best evidence match for one claim fact across the given documents."""
    if claim.problem is not None:
        return FactCheck(claim, matched=False)
    best: tuple[tuple[bool, int], str, Mention, MatchKind] | None = None
    other_period: Fact | None = None
    for doc_id, index in evidence:
        for candidate, kind in _candidates(claim, index):
            if not periods_agree(claim, candidate):
                other_period = other_period or candidate.period
                continue
            rank = (candidate.negated != claim.negated, _PREFERENCE[kind])
            if best is None or rank < best[0]:
                best = (rank, doc_id, candidate, kind)
                if rank == (False, 0):
                    break
        if best is not None and best[0] == (False, 0):
            break
    if best is None:
        return FactCheck(claim, matched=False, other_period=other_period)
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
    fact = claim.fact
    for mention in index.by_fact.get(fact, ()):
        yield mention, MatchKind.EXACT
    family = _family(fact.category)
    if family == "period":
        periods = index.by_family.get(family, ())
        for mention in periods:
            kind = _period_match(fact, mention.fact)
            if kind is not None:
                yield mention, kind
        if fact.relation is Relation.RANGE and fact.upper is not None:
            # "between 2020 and 2022": two dates, each of which the evidence may state.
            ends = [Fact(fact.category, Relation.EQ, v) for v in (fact.value, fact.upper)]
            found = [next((m for m in periods if _period_match(e, m.fact)), None) for e in ends]
            if found[0] is not None and found[1] is not None:
                yield found[0], MatchKind.PERIOD
        if fact.category == dates.YEAR and fact.relation is Relation.EQ:
            # The same four digits read otherwise in the evidence ("for 2021 remains").
            year = Decimal(str(fact.value))
            for mention in index.by_family.get(_PLAIN, ()):
                if mention.fact.relation is Relation.EQ and mention.fact.value == year:
                    yield mention, MatchKind.EXACT
        return
    if isinstance(fact.value, str):
        if fact.category == TIME_OF_DAY:
            for mention in index.by_category.get(TIME_OF_DAY, ()):
                if _clock_inside(fact, mention.fact):
                    yield mention, MatchKind.WITHIN_RANGE
        return  # identifiers and scores match exactly or not at all
    if family != _PLAIN:
        for mention in index.by_category.get(fact.category, ()):
            if mention.fact != fact:
                kind = _loose_match(claim, mention, fact, mention.fact)
                if kind is not None:
                    yield mention, kind
        return
    # Evidence that counts the claimed noun settles the count; evidence that does not may
    # still state the number, counting something else ("1,200 people" for "1,200
    # employees"): that match is reported as noun_differs.
    counts_it = fact.category != NUMBER and fact.category in index.by_category
    for mention in index.by_family.get(_PLAIN, ()):
        other = mention.fact
        if other == fact:
            continue
        same = other.category == fact.category or NUMBER in (other.category, fact.category)
        if not same and counts_it:
            continue
        kind = _loose_match(claim, mention, fact, other)
        if kind is not None:
            yield mention, kind if same else MatchKind.NOUN_DIFFERS


def periods_agree(claim: Mention, found: Mention) -> bool:
    """Whether the periods two values are stated for agree: one holds the other, or
    either value is stated for no period."""
    if claim.period is None or found.period is None:
        return True
    stated, other = claim.period, found.period
    return _period_match(stated, other) is not None or _period_match(other, stated) is not None


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
    if other.value == fact.value:
        return MatchKind.EXACT  # the same value in a comparable category
    if (not claim.exact or not evidence.exact) and _agree_at_coarser_precision(claim, evidence):
        return MatchKind.CONVERTED
    if fact.relation is Relation.EQ and claim.approximate and claim.literal is not None:
        assert isinstance(other.value, Decimal)
        if claim.literal.rounds_to(other.value):
            return MatchKind.APPROXIMATE
    return None


def _period_match(claimed: Fact, found: Fact) -> MatchKind | None:
    """Whether the evidence period supports the claimed one: it lies inside the claimed
    period ("2024" holds "March 5, 2024"; "the second quarter" holds "fiscal 2022 second
    quarter"), or inside an evidence range that holds the claimed period."""
    if claimed == found:
        return MatchKind.EXACT
    if claimed.relation is not Relation.EQ and claimed.relation is not Relation.RANGE:
        return None
    if found.relation is Relation.RANGE:
        if _period_within(claimed, found):
            return MatchKind.WITHIN_RANGE
        return None
    if found.relation is not Relation.EQ or claimed.relation is Relation.RANGE:
        return None
    claim_extent = dates.extent(claimed.category, str(claimed.value))
    found_extent = dates.extent(found.category, str(found.value))
    if not claim_extent.has_year:
        if found_extent.has_year:
            year = dates.year_of(found_extent)
            if year is None:
                return None
            placed = dates.in_year(claimed.category, str(claimed.value), year)
            if placed is None:
                return None
            claim_extent = placed
        elif found.category == claimed.category:
            return None  # year-less on both sides: equal values were matched exactly
    elif not found_extent.has_year:
        return None  # "March 5" never supports "March 5, 2024"
    if claim_extent.first <= found_extent.first and found_extent.last <= claim_extent.last:
        return MatchKind.PERIOD
    return None


def _period_within(claimed: Fact, found: Fact) -> bool:
    low = dates.extent(found.category, str(found.value))
    high = dates.extent(found.category, str(found.upper))
    if claimed.relation is Relation.RANGE:
        first = dates.extent(claimed.category, str(claimed.value))
        last = dates.extent(claimed.category, str(claimed.upper))
    else:
        first = last = dates.extent(claimed.category, str(claimed.value))
    if not (first.has_year and low.has_year):
        return False
    return low.first <= first.first and last.last <= high.last


def _clock_inside(claimed: Fact, found: Fact) -> bool:
    """A claimed time of day inside an evidence span of the clock ("from 8 a.m. to 6 p.m.";
    "10 p.m. to 6 a.m." crosses midnight)."""
    if found.relation is not Relation.RANGE or claimed.relation is not Relation.EQ:
        return False
    value, low, high = str(claimed.value), str(found.value), str(found.upper)
    if low <= high:
        return low <= value <= high
    return value >= low or value <= high


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
