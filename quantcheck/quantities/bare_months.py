"""Months that evidence names alone, without a day or a year.

News writes "the trek, which kicks off in August, will run through October" under a
dateline of May 22, 2007: the months are August and October 2007. A month named after a
word that places something in time ("in", "through", "since", "early", "starting"), or
before one that says something starts then ("September start"), is read here as a month
of no year, and :mod:`.datelines` then gives it the year of the nearest full date
before it, as it does for a day written without a year. A claim's months are read the same
way: "rose 0.4% in April" states April. A value no other period places is stated for
such a month of its clause ("after increasing 0.4% in March").

Only capitalized full names are read ("in May" is a month, "in may" is not), and never
one followed by a number, which the date readers have read already ("in August 2007",
"through October 5").
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator, Sequence

from quantcheck.quantities import dates
from quantcheck.quantities.binding import bind_periods
from quantcheck.quantities.budget import FactBudget
from quantcheck.quantities.facts import Fact, Mention, Relation, Span
from quantcheck.quantities.phrases import MONTHS

# Full names only: "Mar" and "Jun" stand for other things as often as for months.
_FULL_NAMES = sorted((name for name in MONTHS if len(name) > 3 or name == "May"), key=len)
_PLACING = (
    r"in|into|through|throughout|until|till|since|from|during|by|before|after|early|late|mid|of"
    r"|starting|beginning|starts|begins"
)
# After the month, a word saying something starts then: "(September start)", "a January
# intake".
_STARTING = r"start|intake|entry"
_NAMES = "|".join(reversed(_FULL_NAMES))
_BARE_MONTH = re.compile(
    rf"(?:\b(?i:{_PLACING})[\s-]+(?P<month>{_NAMES})\b"
    rf"|\b(?P<starting>{_NAMES})\s+(?i:{_STARTING})\b)"
    # not a month a day or a year follows: "in August 2007", "through October 5"
    r"(?!\s*[,.]?\s*(?:of\s+)?\d)"
)


_SINCE = re.compile(r"\bsince[\s-]+(?:(?:early|late|mid)[\s-]+)?$", re.IGNORECASE)


def bare_months(text: str, mentions: Sequence[Mention], budget: FactBudget) -> list[Mention]:
    """``mentions`` (in text order) with the months ``text`` names alone added, in text
    order; a month inside a span some mention covers is not read again. Each month read
    is spent from ``budget``."""
    found = list(_months(text, mentions, budget))
    if not found:
        return list(mentions)
    merged = sorted([*mentions, *found], key=lambda m: m.span.start)
    # A value of prose stated for no period yet is stated for a month its clause names
    # alone: "after increasing 0.4% in March" is March's 0.4%; "stable since
    # mid-February" states nothing for February itself.
    months = {
        m.fact for m in found if not _SINCE.search(text, max(0, m.span.start - 12), m.span.start)
    }
    return [
        fresh if old.period is None and old.key is None and fresh.period in months else old
        for old, fresh in zip(merged, bind_periods(text, merged), strict=True)
    ]


def _months(text: str, mentions: Sequence[Mention], budget: FactBudget) -> Iterator[Mention]:
    spans = sorted((m.span.start, m.span.end) for m in mentions)
    starts = [start for start, _ in spans]
    # The furthest any of the first n spans reaches: a month is covered when a span that
    # starts before its end reaches past its start.
    reach = list(itertools.accumulate((end for _, end in spans), max))
    for match in _BARE_MONTH.finditer(text):
        group = "month" if match["month"] is not None else "starting"
        start, end = match.span(group)
        before = bisect.bisect_left(starts, end)
        if before and reach[before - 1] > start:
            continue
        budget.spend()
        number = dates.month_number(match[group])
        fact = Fact(dates.MONTH, Relation.EQ, f"--{number:02d}")
        yield Mention(fact, Span(start, end), match[group])
