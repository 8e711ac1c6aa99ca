"""Which period each value is stated for: in "EPS was $3.69 for the third quarter of 2021,
improved from $3.41 in the second quarter" $3.69 is stated for 2021-Q3.

A value is bound to the nearest date-like fact in its own clause. A claim that moves a
value to another period ("$3.69 in the third quarter of 2020") then fails to match even
though the value and the period both occur in the evidence. Clauses are kept short on
purpose: a period in another clause ("sales rose to $1.65 billion, but inflation will
persist in the second quarter") says nothing about the value.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import replace

from quantcheck.quantities.dates import PERIOD_CATEGORIES
from quantcheck.quantities.facts import Mention, Relation

# A clause ends at a full stop, question or exclamation mark, semicolon, colon or comma
# before a space, at a line break, at a dash between spaces, and before a conjunction that
# starts a contrasting or subordinate clause; "3.69" and "1,500" do not end one.
_CLAUSE_END = re.compile(
    r"[.!?;,:](?=\s)|\n|\s[-–—]\s|\b(?:but|while|whereas|although|though|yet|which|because)\b"
)
_UNBOUND = frozenset({"identifier", "score", "ordinal", "time_of_day"})


def bind_periods(text: str, mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` (in text order) with each value's period set where its clause has one."""
    periods = [
        m
        for m in mentions
        if m.fact.category in PERIOD_CATEGORIES
        and m.fact.relation is Relation.EQ
        and m.problem is None
    ]
    if not periods:
        return list(mentions)
    ends = [match.end() for match in _CLAUSE_END.finditer(text)]
    in_clause: dict[int, list[Mention]] = {}
    for period in periods:
        in_clause.setdefault(bisect.bisect_right(ends, period.span.start), []).append(period)
    bound: list[Mention] = []
    for mention in mentions:
        category = mention.fact.category
        if category in PERIOD_CATEGORIES or category in _UNBOUND:
            bound.append(mention)
            continue
        clause = bisect.bisect_right(ends, mention.span.start)
        # The nearest period; of two as near, the one after ("39.54% in October 2023").
        nearest = min(
            in_clause.get(clause, ()),
            key=lambda p: (_gap(p, mention), p.span.start < mention.span.start),
            default=None,
        )
        if nearest is None:
            nearest = _leading_period(text, mention.span.start, ends, in_clause)
        bound.append(mention if nearest is None else replace(mention, period=nearest.fact))
    return bound


def _leading_period(
    text: str, position: int, ends: list[int], in_clause: dict[int, list[Mention]]
) -> Mention | None:
    """The period of the short phrase of time right before the clause holding
    ``position``: "By 2021, life expectancy had risen to 74.4 years" states 74.4 for 2021,
    as does "..., while in 2021, it was 72.97 years" for 72.97."""
    clause = bisect.bisect_right(ends, position)
    previous = clause - 1
    periods = in_clause.get(previous)
    if not periods or previous < 0:
        return None
    start = ends[previous - 1] if previous > 0 else 0
    words = text[start : ends[previous]].split()
    while words and words[0].casefold() in _CONJUNCTIONS:
        words = words[1:]
    if not words or len(words) > _LEADING_WORDS or words[0].casefold() not in _TIME_PREPOSITIONS:
        return None
    return periods[-1]


# "As of October 2023,", "In the third quarter of 2021,": short, and opened by these.
_LEADING_WORDS = 8
_CONJUNCTIONS = frozenset({"and", "but", "while", "whereas", "yet", "so", "then", "though"})
_TIME_PREPOSITIONS = frozenset(
    {
        "in",
        "on",
        "by",
        "as",
        "since",
        "during",
        "for",
        "at",
        "from",
        "after",
        "before",
        "until",
        "through",
        "throughout",
        "between",
        "over",
        "within",
    }
)


def _gap(a: Mention, b: Mention) -> int:
    return max(0, a.span.start - b.span.end, b.span.start - a.span.end)
