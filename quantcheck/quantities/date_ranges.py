"""Two dates of one kind written as a range, joined into one interval.

"from March 5 to March 9, 2024", "2019–2021" and "between Q1 and Q3 2024" state one
period, not two dates; after a verb of change ("postponed from March 5 to March 9") they
stay two dates.
"""

from __future__ import annotations

import re

from quantcheck.quantities.context import after_change_word
from quantcheck.quantities.dates import PERIOD_CATEGORIES
from quantcheck.quantities.facts import Fact, Mention, Relation, Span

_PERIOD_JOINER = re.compile(r"\s*(?:[-–—]|to|through|until|till|and)\s*", re.IGNORECASE)
_RANGE_OPENER = re.compile(r"(?:from|between)\s+$", re.IGNORECASE)


def period_ranges(text: str, mentions: list[Mention]) -> list[Mention]:
    """Join two dates of one kind written as a range ("from March 5 to March 9, 2024",
    "2019–2021", "between Q1 and Q3 2024") into one interval. After a verb of change
    ("postponed from March 5 to March 9") they stay two dates."""
    joined: list[Mention] = []
    for mention in mentions:
        previous = joined[-1] if joined else None
        if previous is None or not _joins(text, previous, mention):
            joined.append(mention)
            continue
        low, high = str(previous.fact.value), str(mention.fact.value)
        if low.startswith(("-", "Q", "H")) and not high.startswith(("-", "Q", "H")):
            low = high[:4] + "-" + low.lstrip("-")  # "March to May 2024": May's year
        start = previous.span.start
        opener = _RANGE_OPENER.search(text, max(0, start - 9), start)
        if opener is not None:
            start = opener.start()
        fact = Fact(mention.fact.category, Relation.RANGE, low, high)
        joined[-1] = Mention(fact, Span(start, mention.span.end), text[start : mention.span.end])
    return joined


def _joins(text: str, first: Mention, second: Mention) -> bool:
    category = first.fact.category
    if (
        category != second.fact.category
        or category not in PERIOD_CATEGORIES
        or first.fact.relation is not Relation.EQ
        or second.fact.relation is not Relation.EQ
        or first.problem is not None
        or second.problem is not None
    ):
        return False
    joiner = _PERIOD_JOINER.fullmatch(text, first.span.end, second.span.start)
    if joiner is None:
        return False
    opener = _RANGE_OPENER.search(text, max(0, first.span.start - 9), first.span.start)
    if joiner.group().strip().casefold() == "and" and (
        opener is None or not opener.group().casefold().startswith("between")
    ):
        return False
    return not (opener is not None and after_change_word(text, opener.start()))
