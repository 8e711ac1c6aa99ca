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


def with_years(mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` (in text order) plus, after each date written without a year, the same
    date in the year of the nearest full date before it."""
    out: list[Mention] = []
    year: str | None = None
    for mention in mentions:
        out.append(mention)
        fact = mention.fact
        if mention.problem is not None or fact.category not in _PLACEABLE:
            continue
        text = str(fact.value)
        if not text.startswith("-"):
            if fact.relation is Relation.EQ:
                year = text[:4]
            continue
        if year is None:
            continue
        placed = _placed(fact, year)
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
