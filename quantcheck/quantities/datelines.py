"""The year of a date written without one, read from the document around it.

An article dated "May 10, 2018" that says "he died on May 7" means May 7, 2018; a page
that says "Released 15 May, 2009 ... on June 15th" means June 15, 2009. Evidence keeps
every plausible reading, so a year-less date also gets a reading in the year of the
nearest full date before it (the article's dateline at the top is one), which a claim
that names the year can match. The year-less reading stays: a claim without a year
still matches it as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from quantcheck.quantities import dates
from quantcheck.quantities.facts import Fact, Mention, Relation

# Only these categories are written as days or months of no year ("--05-07", "--05").
_PLACEABLE = frozenset({dates.DATE, dates.MONTH})
# How far before a year-less date a bare year may stand to give it its year.
_NEAR_YEAR = 60


def with_years(mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` (in text order) plus, after each date written without a year, the same
    date in the year of the nearest full date before it, or of a year written just
    before it."""
    out: list[Mention] = []
    year: str | None = None
    # A year just before ("The 2016 festival runs May 11-22"): nearer than the last full
    # date, it places the dates right after it.
    near: tuple[str, int] | None = None
    for mention in mentions:
        out.append(mention)
        fact = mention.fact
        if mention.problem is not None or fact.relation not in (Relation.EQ, Relation.RANGE):
            continue
        if fact.category == dates.YEAR and fact.relation is Relation.EQ:
            near = (str(fact.value), mention.span.end)
            continue
        if fact.category not in _PLACEABLE:
            continue
        text = str(fact.value)
        if not text.startswith("-"):
            if fact.relation is Relation.EQ:
                year, near = text[:4], None
            continue
        if near is not None and mention.span.start - near[1] <= _NEAR_YEAR:
            placed = _placed(fact, near[0])
        elif year is not None:
            placed = _placed(fact, year)
        else:
            continue
        if placed is not None:
            out.append(replace(mention, fact=placed))
    return out


def _placed(fact: Fact, year: str) -> Fact | None:
    """``fact`` (year-less) in ``year``; None when the day does not exist that year."""
    values = [fact.value] if fact.upper is None else [fact.value, fact.upper]
    placed: list[str] = []
    for value in values:
        text = str(value)
        if not text.startswith("-"):
            return None
        if dates.in_year(fact.category, text, int(year)) is None:
            return None  # February 29 of a common year
        placed.append(f"{year}-{text.lstrip('-')}")
    upper = placed[1] if len(placed) == 2 else None
    return Fact(fact.category, fact.relation, placed[0], upper)
