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

# A clause ends at a full stop (not one before a lower-case word: "6:05 a.m. and"),
# question or exclamation mark, semicolon, colon or comma before a space, at a line
# break, at a dash between spaces, and before a conjunction that starts a contrasting or
# subordinate clause; "3.69" and "1,500" do not end one.
_CLAUSE_END = re.compile(
    r"[!?;,:](?=\s)|\.(?=\s++(?![a-z]))|\n|\s[-–—]\s"
    r"|\b(?:but|while|whereas|although|though|yet|which|because)\b"
)
_UNBOUND = frozenset({"identifier", "score", "ordinal", "time_of_day"})


def bind_periods(text: str, mentions: Sequence[Mention]) -> list[Mention]:
    """``mentions`` (in text order) with each value's period set where its clause has one."""
    periods = _periods_of(mentions)
    if not periods:
        return list(mentions)
    ends = _clause_ends(text, mentions)
    in_clause: dict[int, list[Mention]] = {}
    for period in periods:
        in_clause.setdefault(bisect.bisect_right(ends, period.span.start), []).append(period)
    paired = _paired(text, ends, in_clause, mentions)
    bound: list[Mention] = []
    for index, mention in enumerate(mentions):
        category = mention.fact.category
        if category in PERIOD_CATEGORIES or category in _UNBOUND:
            bound.append(mention)
            continue
        if index in paired:
            bound.append(replace(mention, period=paired[index].fact))
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
        if nearest is None:
            nearest = _continued_period(text, mention.span.start, ends, in_clause)
        bound.append(mention if nearest is None else replace(mention, period=nearest.fact))
    return bound


def _periods_of(mentions: Sequence[Mention]) -> list[Mention]:
    """The mentions a value may be stated for: dates, months, years, quarters, and spans
    of them ("from September 2020 to February 2021")."""
    return [
        m
        for m in mentions
        if m.fact.category in PERIOD_CATEGORIES
        and m.fact.relation in _PERIOD_RELATIONS
        and m.problem is None
    ]


_PERIOD_RELATIONS = frozenset({Relation.EQ, Relation.RANGE})


def _clause_ends(text: str, mentions: Sequence[Mention]) -> list[int]:
    """Where clauses end, except inside a fact: "March 19, 2022" is one date."""
    spans = sorted((m.span.start, m.span.end) for m in mentions)
    starts = [start for start, _ in spans]
    ends = []
    for match in _CLAUSE_END.finditer(text):
        at = bisect.bisect_left(starts, match.end()) - 1
        if at >= 0 and spans[at][0] < match.start() and match.end() < spans[at][1]:
            continue
        ends.append(match.end())
    return ends


def _paired(
    text: str, ends: list[int], in_clause: dict[int, list[Mention]], mentions: Sequence[Mention]
) -> dict[int, Mention]:
    """Values paired with periods by their order: in a clause that alternates as many of
    each ("from 55.89 years in 1950 to 74.41 years in 2021"), and in a sentence that says
    "respectively" ("38.8, 45.7 and 54.5 years in 1921, 1931 and 1946, respectively").
    Nearness alone would give 74.41 the year 1950 in the first."""
    values: dict[int, list[int]] = {}
    for index, mention in enumerate(mentions):
        if _is_value(mention):
            values.setdefault(bisect.bisect_right(ends, mention.span.start), []).append(index)
    paired: dict[int, Mention] = {}
    # A list is many clauses, so "respectively" pairs across its whole sentence...
    for match in _RESPECTIVELY.finditer(text):
        start = max(text.rfind(stop, 0, match.start()) for stop in _SENTENCE_STOPS) + 1
        inside = [i for i, m in enumerate(mentions) if start <= m.span.start < match.start()]
        in_sentence = [i for i in inside if _is_value(mentions[i])]
        sentence_periods = _periods_of([mentions[i] for i in inside])
        if len(in_sentence) >= 2 and len(in_sentence) == len(sentence_periods):
            paired.update(zip(in_sentence, sentence_periods, strict=True))
    # ... or across the clause before it, when the sentence has other periods ("since
    # June 21, reaching 0.0244% and 0.0247% on June 21 and 22, respectively").
    for clause, indices in values.items():
        periods = in_clause.get(clause, [])
        if len(indices) < 2 or len(indices) != len(periods):
            continue
        order = sorted(
            [(mentions[i].span.start, "v") for i in indices]
            + [(p.span.start, "p") for p in periods]
        )
        kinds = "".join(kind for _, kind in order)
        start = ends[clause - 1] if clause > 0 else 0
        # ", respectively" stands in a clause of its own, right after.
        stop = ends[clause + 1] if clause + 1 < len(ends) else len(text)
        alternating = kinds in ("vp" * len(indices), "pv" * len(indices))
        if alternating or _RESPECTIVELY.search(text, start, stop):
            paired.update(zip(indices, periods, strict=True))
    return paired


def _is_value(mention: Mention) -> bool:
    category = mention.fact.category
    return category not in PERIOD_CATEGORIES and category not in _UNBOUND


_RESPECTIVELY = re.compile(r"\brespectively\b", re.IGNORECASE)
_SENTENCE_STOPS = (". ", "\n", "? ", "! ")


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


def _continued_period(
    text: str, position: int, ends: list[int], in_clause: dict[int, list[Mention]]
) -> Mention | None:
    """The last period of the clause before, for a clause that only continues it: "Q2
    was the weakest quarter, with sales of €79.9 million" states €79.9 million for Q2."""
    clause = bisect.bisect_right(ends, position)
    if clause == 0 or not (periods := in_clause.get(clause - 1)):
        return None
    opening = _FIRST_WORD.match(text, ends[clause - 1])
    if opening is None or opening.group(1).casefold() not in _CONTINUATIONS:
        return None
    return periods[-1]


_FIRST_WORD = re.compile(r"\s*([A-Za-z]+)")
# Words that open a phrase adding to the clause before rather than a clause of its own.
_CONTINUATIONS = frozenset({"with", "at", "reaching", "totaling", "totalling", "making"})

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
