"""Time that passes between two dates, and ages: durations an answer works out from dates.

"The journey lasted 89 days, from March 2 to May 30, 1912", "five weeks after it was
issued on April 10", "104 years, from its March 1864 charter to the April 1968 merger",
"she died in 1961 at age 74" (born 14 February 1887). A claimed duration is derived when
it is the time between two dates of which the claim states at least one; an age, the
whole years between a birth the evidence states and a death the claim states. The days
between two dates are counted both ways people count them ("three nights, from 16 to 19
May", "three days, November 27 through 29"), and the result is compared at the claim's
written precision, bounds included ("just over 104 years").
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_UP, Decimal, localcontext

from quantcheck.checker.anchors import Anchors, phrase_before, says_what, words_and_names
from quantcheck.checker.index import PERIOD, EvidenceIndex
from quantcheck.quantities import dates
from quantcheck.quantities.categories import COUNT_PREFIX, NUMBER
from quantcheck.quantities.facts import CONTEXT, Mention, Relation

_DAY_SECONDS = 86400
# The year a span stated wholly without one is placed in, to count its days: a leap year,
# so that no day of it is missing.
_ANY_YEAR = 2000
_SHORTEST_YEAR = 364
_MONTHS = "time_months"
_SECONDS = "time_seconds"
_DAY_COUNTS = (f"{COUNT_PREFIX}night]", f"{COUNT_PREFIX}day]")
_DATED = frozenset({dates.DATE, dates.MONTH, dates.YEAR})
# The words that make a claimed number an age: "at the age of 82", "aged 74", "77 when
# she died".
_AGE = re.compile(r"\b(?i:age|aged|ages|old|when\s+(?:he|she|they)\s+died|died\s+at)\b")
_NEAR = 40
# Dates of data are only paired with a claim's when there are few: a record's, not a
# daily series'.
_MOST_DATA_DATES = 12


@dataclass(frozen=True, slots=True)
class _Moment:
    """A date a claim or its evidence states: its first and last day (an ordinal day; a
    month or year covers many), whether it is a whole day, and where it was stated."""

    first: int
    last: int
    mention: Mention
    claimed: bool

    @property
    def day(self) -> bool:
        return self.first == self.last

    @property
    def year(self) -> bool:
        """Whether the date is a whole year, not a month or a day of it."""
        return self.last - self.first >= _SHORTEST_YEAR


@dataclass(frozen=True, slots=True)
class Elapsed:
    """How the claimed value follows from two dates: as a reason prints it, and the
    evidence mentions used (claimed dates are not evidence)."""

    computation: str
    sources: tuple[Mention, ...]


def elapsed(
    claim: Mention, index: EvidenceIndex, wording: str, companions: Sequence[Mention]
) -> Elapsed | None:
    """The span between two dates that gives the claimed duration or age, if any."""
    fact = claim.fact
    if not isinstance(fact.value, Decimal) or fact.relation is Relation.RANGE:
        return None
    category = fact.category
    near = wording[max(0, claim.span.start - _NEAR) : claim.span.end + _NEAR]
    ages = (category in (NUMBER, _MONTHS) or category.startswith(COUNT_PREFIX)) and bool(
        _AGE.search(near)
    )
    claimed = [m for m in companions if m is not claim]
    if category == _MONTHS and not ages:
        stated = _stated_span(claim, index, wording, claimed)
        if stated is not None:
            return stated
    if not (ages or category in (_SECONDS, _MONTHS, *_DAY_COUNTS)) or not any(
        m.fact.category in _DATED for m in claimed
    ):
        return None  # cheap tests first: most claimed values are no durations
    evidence = list(_moments(index.by_family.get(PERIOD, ()), claimed=False))
    moments = list(_moments(claimed, claimed=True, known=evidence))
    if not moments:
        return None
    if sum(m.mention.key is not None for m in evidence) > _MOST_DATA_DATES:
        # A dated series has a date any number of days from any claimed one.
        evidence = [m for m in evidence if m.mention.key is None]
    if ages:
        found = _age(claim, moments, evidence)
        if found is not None:
            return found
    if category in (_SECONDS, *_DAY_COUNTS):
        return _days(claim, moments, evidence)
    if category == _MONTHS:
        return _months(claim, moments, evidence)
    return None


def _stated_span(
    claim: Mention, index: EvidenceIndex, wording: str, claimed: Sequence[Mention]
) -> Elapsed | None:
    """Time the evidence states as one span ("chancellor from 2002 to 2010", "aired from
    21 September 2009 to 14 May 2017"), for a claim of how long ("she was chancellor for
    eight years") that states nothing else and says what the span's own words say: a
    document of many spans has one of almost any length (a lifespan, another office,
    another person's), and only those words tell which one the claim measures."""
    if any(m.fact.category not in dates.PERIOD_CATEGORIES for m in claimed):
        return None  # "5% for eight years": the span must be the 5%'s, a pairing left out
    said: tuple[Anchors, Anchors] | None = None
    for mention in index.by_family.get(PERIOD, ()):
        if mention.fact.relation is not Relation.RANGE:
            continue
        ends = list(_moments((mention,), claimed=False))
        if len(ends) != 2:
            continue
        months = _months_between(*ends)
        if months <= 0 or not _agrees(claim, Decimal(months)):
            continue
        said = words_and_names(wording) if said is None else said
        if says_what(said, words_and_names(phrase_before(index.text, mention.span.start))):
            return Elapsed(f"{months} months, {mention.text}", (mention,))
    return None


def _moments(
    mentions: Sequence[Mention], *, claimed: bool, known: Sequence[_Moment] = ()
) -> Iterator[_Moment]:
    """The dates among ``mentions``, each end of a stated span on its own. A date without
    a year takes the year of the other dates, when they all have one ("issued on April
    10" beside "May 15, 2024"), else that of the ``known`` dates on its day ("pickup on
    September 10" where the evidence dates it 2024-09-10), else of its own span's other
    end; a span wholly without a year is placed in any one ("November 27 through 29")."""
    ends: list[tuple[Mention, str]] = []
    for mention in mentions:
        fact = mention.fact
        if fact.category not in _DATED or mention.problem:
            continue
        if fact.relation is Relation.EQ:
            ends.append((mention, str(fact.value)))
        elif fact.relation is Relation.RANGE and fact.upper is not None:
            ends += [(mention, str(fact.value)), (mention, str(fact.upper))]
    spans = [(mention, dates.extent(mention.fact.category, end), end) for mention, end in ends]
    years = {dates.year_of(span) for _, span, _ in spans if span.has_year}
    year = years.pop() if len(years) == 1 else None
    for mention, span, end in spans:
        placed: dates.Extent | None = span
        if not span.has_year:
            placed = _placed(mention, span, end, year, known)
        if placed is not None:
            yield _Moment(placed.first, placed.last, mention, claimed)


def _placed(
    mention: Mention, span: dates.Extent, end: str, year: int | None, known: Sequence[_Moment]
) -> dates.Extent | None:
    """A date without a year in the year it must be in, if one can be told."""
    category = mention.fact.category
    if year is None:
        same_day = {
            day.year
            for moment in known
            if moment.day
            and ((day := datetime.date.fromordinal(moment.first)).month, day.day)
            == _month_day(span)
        }
        year = same_day.pop() if len(same_day) == 1 else None
    if year is None and mention.fact.relation is Relation.RANGE:
        year = _ANY_YEAR
    return None if year is None else dates.in_year(category, end, year)


def _month_day(span: dates.Extent) -> tuple[int, int]:
    day = datetime.date.fromordinal(span.first)
    return day.month, day.day


def _pairs(
    claimed: Sequence[_Moment], evidence: Sequence[_Moment]
) -> Iterator[tuple[_Moment, _Moment]]:
    """Pairs of dates, the earlier first, with at least one the claim states."""
    for one, other in itertools.chain(
        itertools.combinations(claimed, 2), itertools.product(claimed, evidence)
    ):
        if one.mention is other.mention and one.first == other.first:
            continue
        yield (one, other) if one.first <= other.first else (other, one)


def _days(
    claim: Mention, claimed: Sequence[_Moment], evidence: Sequence[_Moment]
) -> Elapsed | None:
    """Days, weeks or hours between two whole days: counted from one to the other, or
    with both counted."""
    for start, end in _pairs(claimed, evidence):
        if not (start.day and end.day):
            continue
        between = end.first - start.first
        counted = claim.fact.category in _DAY_COUNTS  # "three nights" counts days
        for days in (between, between + 1):
            value = Decimal(days if counted else days * _DAY_SECONDS)
            if days > 0 and _agrees(claim, value):
                shown = f"{days} days {_between(start, end)}"
                return _elapsed(shown, start, end)
    return None


def _months(
    claim: Mention, claimed: Sequence[_Moment], evidence: Sequence[_Moment]
) -> Elapsed | None:
    """Months or years between two dates, months or years: between their starts."""
    for start, end in _pairs(claimed, evidence):
        months = _months_between(start, end)
        if months > 0 and _agrees(claim, Decimal(months)):
            shown = f"{months} months {_between(start, end)}"
            return _elapsed(shown, start, end)
    return None


def _months_between(start: _Moment, end: _Moment) -> int:
    """Whole months from the start of one date to the start of a later one."""
    first = datetime.date.fromordinal(start.first)
    last = datetime.date.fromordinal(end.first)
    if start.year or end.year:
        # At the precision of the coarser date: "2009 to 2011" is two years, whatever
        # day of 2011 the evidence gives.
        return (last.year - first.year) * 12
    months = (last.year - first.year) * 12 + last.month - first.month
    if last.day < first.day and start.day and end.day:
        months -= 1  # a month not yet complete
    return months


def _age(claim: Mention, claimed: Sequence[_Moment], evidence: Sequence[_Moment]) -> Elapsed | None:
    """Whole years from a birth the evidence dates to the day to a later date the claim
    states: with the later day known too, exactly; with its month or year only, either
    count it allows."""
    target = claim.fact.value
    assert isinstance(target, Decimal)
    if claim.fact.category == _MONTHS:
        target = target / 12
    for death in claimed:
        for birth in evidence:
            # A birth is a day ("born 9 May 1921"); a year alone may start anything.
            if not birth.day or birth.first >= death.first:
                continue
            born = datetime.date.fromordinal(birth.first)
            died = datetime.date.fromordinal(death.last)
            years = died.year - born.year
            candidates = {years, years - 1}
            if birth.day and death.day:
                candidates = {years - ((died.month, died.day) < (born.month, born.day))}
            if target in candidates:
                shown = f"age from {birth.mention.text} to {death.mention.text}"
                return _elapsed(shown, birth, death)
    return None


def _agrees(claim: Mention, value: Decimal) -> bool:
    """Whether a computed base value reads as the claimed one at its written precision;
    for a bound, whether the bound is that value cut there ("just over 104 years")."""
    literal, relation = claim.literal, claim.fact.relation
    if literal is None:
        return value == claim.fact.value
    if relation is Relation.EQ:
        return literal.rounds_to(value)
    step = Decimal(1).scaleb(literal.exponent)
    with localcontext(CONTEXT):
        written = literal.from_base(value)
        if relation in (Relation.GT, Relation.GE):
            return written >= literal.value and written.quantize(step, ROUND_DOWN) == literal.value
        return written <= literal.value and written.quantize(step, ROUND_UP) == literal.value


def _between(start: _Moment, end: _Moment) -> str:
    """The two dates as a reason names them: "from A to B", or the one span they end."""
    if start.mention is end.mention:
        return f"in {start.mention.text}"
    return f"from {start.mention.text} to {end.mention.text}"


def _elapsed(shown: str, *moments: _Moment) -> Elapsed:
    return Elapsed(shown, tuple(m.mention for m in moments if not m.claimed))
