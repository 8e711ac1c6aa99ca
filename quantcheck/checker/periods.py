"""Periods against periods: whether one holds another, and whether two values are stated
for periods that agree."""

from __future__ import annotations

from datetime import date
from functools import lru_cache

from quantcheck.checker.model import MatchKind
from quantcheck.quantities import dates
from quantcheck.quantities.facts import Fact, Mention, Relation


def periods_agree(claim: Mention, found: Mention) -> bool:
    """Whether the periods two values are stated for agree: one holds the other, or
    either value is stated for no period."""
    if claim.period is None or found.period is None:
        return True
    return _agree(claim.period, found.period)


@lru_cache(maxsize=65536)
def _agree(stated: Fact, other: Fact) -> bool:
    # Pure in two facts, and asked of the same pairs for every value of a document.
    return (
        period_match(stated, other) is not None
        or period_match(other, stated) is not None
        or _within(other, stated)
        or _within(stated, other)
    )


def _within(inner: Fact, outer: Fact) -> bool:
    """Whether a period lies inside a stated span of periods: "from September 2020 to
    February 2021" holds 2020-12-22."""
    if outer.relation is not Relation.RANGE:
        return False
    span, part = _extent(outer), _extent(inner)
    if span is None or part is None or not span.has_year or not part.has_year:
        return False
    return span.first <= part.first and part.last <= span.last


@lru_cache(maxsize=65536)
def period_match(claimed: Fact, found: Fact) -> MatchKind | None:
    """Whether the evidence period supports the claimed one: it lies inside the claimed
    period ("2024" holds "March 5, 2024"; "the second quarter" holds "fiscal 2022 second
    quarter"; "2016" holds "May 11-22, 2016"), or the claim names one end of an evidence
    range, or holds one ("2017" of "from 2017 to 2019", "1867" of "7 November 1867 – 4
    July 1934"). A claim more specific than the evidence is not supported by it: "May 19,
    2016" is not in "May 11-22, 2016", nor "12 March 2004" in "the 2003-04 season"."""
    if claimed == found:
        return MatchKind.EXACT
    # A claimed range states both its ends: it is supported by the same range, or by each
    # end found on its own (see _candidates), never by a period that lies between them.
    if claimed.relation is not Relation.EQ:
        return None
    if found.relation is not Relation.EQ and found.relation is not Relation.RANGE:
        return None
    if claimed.category == dates.CENTURY and found.category != dates.CENTURY:
        # Any date of a hundred years is too weak a sign: "a 13th-century nobleman" is
        # supported by the evidence naming that century, not by a year that falls in it.
        return None
    claim_extent = _extent(claimed)
    found_extent = _extent(found)
    if claim_extent is None or found_extent is None:
        return None
    if not claim_extent.has_year and found_extent.has_year:
        year = dates.year_of(found_extent)
        if year is None:
            return None
        claim_extent = _extent(claimed, year)
        if claim_extent is None:
            return None
    elif claim_extent.has_year and not found_extent.has_year:
        return None  # "March 5" never supports "March 5, 2024"
    # Year-less on both sides, both lie in the one leap year dates.extent places such
    # dates in, where every day exists: "the end of March" holds "March 31".
    if claim_extent.first <= found_extent.first and found_extent.last <= claim_extent.last:
        return MatchKind.PERIOD
    if found.relation is Relation.RANGE and found.upper is not None:
        # One end is enough, at the claim's own precision: "born in 1867" of a life
        # written "7 November 1867 – 4 July 1934".
        ends = (_extent(Fact(found.category, Relation.EQ, v)) for v in (found.value, found.upper))
        if any(
            end is not None and claim_extent.first <= end.first and end.last <= claim_extent.last
            for end in ends
        ):
            return MatchKind.WITHIN_RANGE
    return None


def ends_before(one: Fact, other: Fact) -> bool:
    """Whether the period ``one`` ends before ``other`` begins ("2023" before "2024");
    False where either names no year."""
    first, second = _extent(one), _extent(other)
    if first is None or second is None or not first.has_year or not second.has_year:
        return False
    return first.last < second.first


def years_of(fact: Fact) -> range | None:
    """The years a period fact covers, first to last; None when it names no year (or no
    day that exists). A period supports or holds another only where their years meet."""
    extent = _extent(fact)
    if extent is None or not extent.has_year:
        return None
    return range(date.fromordinal(extent.first).year, date.fromordinal(extent.last).year + 1)


@lru_cache(maxsize=65536)
def _extent(fact: Fact, year: int | None = None) -> dates.Extent | None:
    """The days a period fact covers (both ends of a range), placed in ``year`` when it
    names none; None when the day does not exist that year."""
    ends = [str(fact.value)] if fact.upper is None else [str(fact.value), str(fact.upper)]
    covered: list[dates.Extent] = []
    for end in ends:
        if year is not None and not dates.extent(fact.category, end).has_year:
            placed = dates.in_year(fact.category, end, year)
            if placed is None:
                return None
            covered.append(placed)
        else:
            covered.append(dates.extent(fact.category, end))
    return dates.Extent(covered[0].first, covered[-1].last, covered[0].has_year)
