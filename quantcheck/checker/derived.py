"""Numbers the evidence implies without writing them, with the arithmetic shown.

People and models state what the evidence implies: the lowest and highest of a forecast
series as a range, a final score from the two teams' goals, the length of the period a
series covers, a total, a difference, "three nights at €90" as €270, "roughly double"
for two figures, a percentage change, a share written as a fraction. A claimed value is
*derived* when it equals such a computation over values of the claim's own category
that sit together in the evidence: one sentence, one data record, or one data series
(a key's values across records). It is compared at the claim's written precision, and
the reason shows the computation (``money_eur=270 derived: 3 × 90``).

Computations stay within one sentence, record or series on purpose: across a whole
document some pair of numbers will add up to almost anything, and a wrong number would
pass as derived.
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from functools import lru_cache

from quantcheck.checker.anchored import worked_out
from quantcheck.checker.anchors import (
    anchor_words,
    is_share_word,
    phrase_before,
    says_what,
    text_words,
    words_and_names,
)
from quantcheck.checker.change_way import around, direction, left_behind, may_go
from quantcheck.checker.elapsed import elapsed
from quantcheck.checker.index import EvidenceIndex
from quantcheck.checker.periods import periods_agree
from quantcheck.quantities import dates
from quantcheck.quantities.categories import (
    COUNT_PREFIX,
    NUMBER,
    PERCENT,
    SCORE,
    TIME_OF_DAY,
)
from quantcheck.quantities.facts import CONTEXT, Fact, Mention, Relation, format_decimal
from quantcheck.quantities.phrases import (
    CHANGE_NOUNS,
    CHANGE_WORDS,
    DIFFERENCE_WORDS,
    FRACTION_KEY_WORDS,
    NEAR_DIFFERENCE_WORDS,
    RATE_WORDS,
    SHARE_WORDS,
    TOTAL_WORDS,
)
from quantcheck.quantities.readings import values_of

# Groups larger than this are not searched for sums of three: the combinations grow as
# the cube of the group, and so does the chance of a coincidence.
_TRIPLES_UP_TO = 12
# Multipliers a claim may state beside a total: "three nights", "4 tickets".
_MULTIPLIERS_UP_TO = Decimal(100)
_DAY = 86400
_RATIO = Decimal("0.05")
_HEDGED_RATIO = Decimal("0.17")
_KEY_WORDS = re.compile(r"[a-z]+")
# Claimed categories that a difference of two percentages gives.
_POINTS = frozenset({"percentage_points", f"{COUNT_PREFIX}point]"})


@dataclass(frozen=True, slots=True)
class Derivation:
    """How a claimed value follows from evidence values: the computation as reasons print
    it, and the mentions it used: the evidence's (the first is the one a verdict points
    at), and for a product the claim's own count it multiplied by."""

    computation: str
    sources: tuple[Mention, ...]


# Where a claim is compared with a computed value: is ``value`` the claimed one?
_Agrees = Callable[[Decimal], bool]


def derive(
    claim: Mention, index: EvidenceIndex, wording: str = "", companions: Sequence[Mention] = ()
) -> Derivation | None:
    """The first computation over the evidence that gives the claimed value, if any.

    ``wording`` is the claim's text: a sum is derived only for a claim that says it
    states a total, a difference only for one that says so, a percentage change only for
    one that speaks of a change. ``companions`` are the claim's other facts, of which a
    count may multiply an evidence value."""
    fact = claim.fact
    if fact.category == SCORE:
        return _score(fact, index)
    if not isinstance(fact.value, Decimal) or fact.category == TIME_OF_DAY:
        return None
    if fact.relation is Relation.RANGE:
        return _extremes(claim, index)
    between = elapsed(claim, index, wording, companions)
    if between is not None:
        return Derivation(between.computation, between.sources)
    if fact.relation is not Relation.EQ:
        return None
    agrees = _agreement(claim)
    said = _cues(wording)
    if fact.category in _POINTS:
        found = _points(claim, index, agrees, said, wording)
        if found is not None:
            return found
    if fact.category == "time_seconds":
        found = _span(index, agrees) or _clock_gap(index, agrees, said, companions)
        if found is not None:
            return found
    if fact.category.startswith(_FREQUENCY):
        return _frequency(claim, index, wording, companions)
    if fact.category == "multiple":
        return _ratio(claim, index, agrees)
    if fact.category == PERCENT:
        return (
            (_change(claim, index, agrees, wording) if "change" in said else None)
            or _share(claim, index, agrees)
            or _part_of_whole(claim, index, agrees, wording)
            or _anchored(
                claim, index, companions, _near_cues(wording, claim), agrees, wording=wording
            )
        )
    return (
        _enumeration(claim, index)
        or (_total(claim, index, agrees) if "total" in said else None)
        or (
            _pairwise(claim, index, agrees, said, companions)
            if said & {"total", "difference", "change"}
            else None
        )
        or _product(claim, index, companions, agrees, said=said, wording=wording)
        or _anchored(claim, index, companions, _near_cues(wording, claim), agrees, wording=wording)
    )


def _anchored(
    claim: Mention,
    index: EvidenceIndex,
    companions: Sequence[Mention],
    said: frozenset[str],
    agrees: _Agrees,
    *,
    wording: str,
) -> Derivation | None:
    """A value the claim works out from another value it states (see :mod:`.anchored`)."""
    worked = worked_out(claim, index, companions, said, agrees, wording=wording)
    return None if worked is None else Derivation(worked.computation, worked.sources)


_CUES = {
    "total": re.compile(rf"\b(?i:{'|'.join(map(re.escape, TOTAL_WORDS))})\b"),
    "rate": re.compile(rf"\b(?i:{'|'.join(map(re.escape, RATE_WORDS))})\b"),
    "share": re.compile(rf"(?<!\w)(?i:{'|'.join(map(re.escape, SHARE_WORDS))})\b"),
    "difference": re.compile(rf"\b(?i:{'|'.join(map(re.escape, DIFFERENCE_WORDS))})\b"),
    "change": re.compile(rf"\b(?i:{'|'.join(map(re.escape, (*CHANGE_WORDS, *CHANGE_NOUNS)))})\b"),
}


def _near_cues(wording: str, claim: Mention) -> frozenset[str]:
    """The kinds of computation the words next to a claimed value speak of, within its
    sentence: where an answer says what it computed ("$47 cheaper", "adds up to $47.65",
    "about $189 a month", "up 582 students")."""
    before, after = around(wording, claim)
    near = f"{before} {claim.text} {after}"
    said = _cues(near)
    return said | {"difference"} if _NEAR_DIFFERENCE.search(near) else said


_NEAR_DIFFERENCE = re.compile(rf"\b(?i:{'|'.join(map(re.escape, NEAR_DIFFERENCE_WORDS))})\b")


@lru_cache(maxsize=1024)
def _cues(wording: str) -> frozenset[str]:
    """Which kinds of computation the claim's words speak of. Kept for recent claims: it
    is asked again for each of a claim's values and each document it cites, and each
    question is five case-blind searches of the whole claim."""
    return frozenset(kind for kind, pattern in _CUES.items() if pattern.search(wording))


# --- comparing at the claim's precision -----------------------------------------------------


def _agreement(claim: Mention) -> _Agrees:
    """Whether a computed base value reads as the claimed one at the claim's precision. A
    multiple in words ("doubled", "roughly tripled") means the ratio, near enough: within
    a twentieth of it, or a sixth when hedged; rounding 1.5 up to "doubled" would not do."""
    literal = claim.literal
    target = claim.fact.value
    assert isinstance(target, Decimal)
    if claim.fact.category == "multiple" and target:
        share = _HEDGED_RATIO if claim.approximate else _RATIO
        return lambda value: abs(value - target) <= share * target
    if literal is None:
        return lambda value: value == target
    # A hedged claim rounds as it does against a stated value ("rose by about $530" for
    # 2,543 - 2,014), as near as among many values: arithmetic gives many.
    if claim.approximate:
        return lambda value: literal.rounds_near(value, among_many=True)
    return literal.rounds_to


def _rounds_to(written: Decimal, value: Decimal) -> bool:
    """``value`` written with the decimals of ``written`` reads as it."""
    exponent = written.as_tuple().exponent
    assert isinstance(exponent, int)
    with localcontext(CONTEXT):
        try:
            return value.quantize(Decimal(1).scaleb(exponent), ROUND_HALF_UP) == written
        except InvalidOperation:
            return False


# --- the evidence values a computation may use -----------------------------------------------


def _values(
    mentions: Iterable[Mention], claim: Mention, category: str | None = None
) -> list[tuple[Decimal, Mention]]:
    """Single values of ``category`` (by default the claim's) among ``mentions`` (or, for
    a count or plain number, of any count or plain number), stated for a period the
    claim's agrees with."""
    category = category or claim.fact.category
    loose = category == NUMBER or category.startswith(COUNT_PREFIX)
    found = []
    for mention in mentions:
        other = mention.fact
        same = other.category == category or (
            loose and (other.category == NUMBER or other.category.startswith(COUNT_PREFIX))
        )
        if (
            same
            and other.relation is Relation.EQ
            and isinstance(other.value, Decimal)
            and mention.negated == claim.negated
            and periods_agree(claim, mention)
        ):
            found.append((other.value, mention))
    return found


def _groups(index: EvidenceIndex) -> Iterable[tuple[Mention, ...]]:
    """The evidence's mentions by sentence (prose) and by record (data)."""
    return index.groups.values()


def _comparable(index: EvidenceIndex) -> Iterable[tuple[tuple[Mention, ...], bool]]:
    """Values that may be added or subtracted, each group with whether it is a table's
    row: those of one sentence; in data those of one record under the same key in
    different places ("homeScore > display" and "awayScore > display"), never one
    record's unlike fields (a team's "display" and its "normaltime" say the same goals
    twice); and a table's row, one measure of several things, a column each ("Starting
    price | $1,299 | $1,799 | $2,899"), whose values differ as the things do but whose
    sum is seldom anything's."""
    for (kind, _), group in index.groups.items():
        if kind == "sentence":
            yield group, False
            continue
        if all(mention.row is not None for mention in group):
            yield group, True
            continue
        by_leaf: dict[str, list[Mention]] = {}
        for mention in group:
            if mention.key is not None:
                by_leaf.setdefault(mention.key.rpartition(" > ")[2], []).append(mention)
        yield from ((tuple(alike), False) for alike in by_leaf.values() if len(alike) > 1)


def _show(value: Decimal, claim: Mention | None = None) -> str:
    """A value as a reason prints it: in the claim's own unit where it has one ("1,085
    miles", not 1746138.24 metres)."""
    literal = None if claim is None else claim.literal
    if literal is not None and literal.numerator / literal.denominator != 1:
        with localcontext(CONTEXT):
            value = (value * literal.denominator / literal.numerator - literal.shift).normalize()
    return format_decimal(value)


# --- the computations ----------------------------------------------------------------------------


def _extremes(claim: Mention, index: EvidenceIndex) -> Derivation | None:
    """A claimed range that is the lowest and highest value of one data series
    ("temperatures from 22.96 °C to 25.34 °C" over a day's forecast), or of all the data's
    values of the claim's category; else one whose two ends are values of one series."""
    fact = claim.fact
    assert isinstance(fact.value, Decimal)
    assert isinstance(fact.upper, Decimal)
    written = sorted(values_of(claim.text))
    low_written, high_written = (written[0], written[-1]) if len(written) >= 2 else (None, None)

    def reads_as(value: Decimal, end: Decimal, as_written: Decimal | None) -> bool:
        if value == end:
            return True
        # Written in the base unit, an end may round the evidence at its own decimals.
        return as_written is not None and as_written == end and _rounds_to(end, value)

    # Series of data only: in prose, two values of a category are not the ends of a range
    # ("2 °C and 8 °C" is no "2-8 °C").
    in_data = tuple(m for m in index.by_category.get(fact.category, ()) if m.key is not None)
    pools = [*index.series.values(), in_data]
    if claim.period is None:
        # A claim split from its answer may have lost the day it speaks of ("The wind
        # speed will be between 3.23 m/s and 6.1 m/s."): a day's own values, too.
        by_period: dict[tuple[str | None, Fact], list[Mention]] = {}
        for mention in in_data:
            if mention.period is not None:
                by_period.setdefault((mention.key, mention.period), []).append(mention)
        pools += [tuple(day) for day in by_period.values()]
    ends: list[list[tuple[Decimal, Mention]]] = []
    for pool in pools:
        values = _values(pool, claim)
        if len(values) < 2:
            continue
        low = min(values, key=lambda item: item[0])
        high = max(values, key=lambda item: item[0])
        if reads_as(low[0], fact.value, low_written) and reads_as(
            high[0], fact.upper, high_written
        ):
            where = low[1].key or "the evidence"
            computation = f"lowest and highest of {len(values)} values of {where}"
            return Derivation(computation, (low[1], high[1]))
        ends.append(values)
    # Short of the extremes, a range whose ends are both values of one series: answers
    # sum a forecast up by values it takes ("from 22.88 °C to 24.34 °C" of a day that
    # also reaches 24.4 °C). A number the series does not take is still caught.
    for values in ends:
        lows = [m for v, m in values if reads_as(v, fact.value, low_written)]
        highs = [m for v, m in values if reads_as(v, fact.upper, high_written)]
        if lows and highs:
            where = lows[0].key or "the evidence"
            computation = f"{lows[0].text} and {highs[0].text} are values of {where}"
            return Derivation(computation, (lows[0], highs[0]))
    return None


def _enumeration(claim: Mention, index: EvidenceIndex) -> Derivation | None:
    """A count that is the number of items the evidence lists under the counted noun:
    "two parts" against two values of "has part" (see quantities.listings)."""
    fact = claim.fact
    category = fact.category
    if not category.startswith(COUNT_PREFIX) or not isinstance(fact.value, Decimal):
        return None
    noun = category[len(COUNT_PREFIX) : -1]
    for listing in index.extraction.listings:
        if listing.count == fact.value and noun in listing.nouns:
            source = index.mention_at(listing.span, Fact(category, Relation.EQ, fact.value))
            return Derivation(f"{listing.count} items listed under {listing.where}", (source,))
    return None


def pair(fact: Fact, index: EvidenceIndex) -> Derivation | None:
    """Two small whole numbers written as a pair ("the first period ending 1-1"), which
    two sibling data values make (``homeScore > period1``, ``awayScore > period1``)."""
    assert isinstance(fact.value, Decimal)
    assert isinstance(fact.upper, Decimal)
    low, high = int(fact.value), int(fact.upper)
    for ordered in ((low, high), (high, low)):
        found = _score(Fact(SCORE, Relation.EQ, f"{ordered[0]}-{ordered[1]}"), index)
        if found is not None:
            return found
    return None


def _score(fact: Fact, index: EvidenceIndex) -> Derivation | None:
    """A claimed score that two sibling data values make: the same key under two parents
    of one record ("homeScore > display": 4, "awayScore > display": 1 for "4-1")."""
    first, _, second = str(fact.value).partition("-")
    wanted = (Decimal(first), Decimal(second))
    for group in index.groups.values():
        by_leaf: dict[str, list[Mention]] = {}
        for mention in group:
            if mention.key is None or " > " not in mention.key:
                continue
            by_leaf.setdefault(mention.key.rpartition(" > ")[2], []).append(mention)
        for siblings in by_leaf.values():
            for one, other in itertools.permutations(siblings, 2):
                if one.key == other.key:
                    continue
                if (one.fact.value, other.fact.value) == wanted:
                    computation = f"{one.key} and {other.key}"
                    return Derivation(computation, (one, other))
    return None


_FREQUENCY = "multiple/"
# The period of a frequency, in the category and units of a duration the evidence states.
_PERIOD_LENGTHS: dict[str, tuple[str, int]] = {
    "hour": ("time_seconds", 3600),
    "day": ("time_seconds", _DAY),
    "week": ("time_seconds", 7 * _DAY),
    "month": ("time_months", 1),
    "year": ("time_months", 12),
}
_EVERY = re.compile(r"(?i:every)\s++$")


def _frequency(
    claim: Mention, index: EvidenceIndex, wording: str, companions: Sequence[Mention]
) -> Derivation | None:
    """How often, from the interval the evidence states: "three times a day" for "every 8
    hours", "four times a year" for "every 3 months". Where the claim states what is
    done that often ("250 mg twice a day"), the interval must follow that value in its
    own phrase: "500 mg every 12 hours or 250 mg every 8 hours" gives 250 mg three times."""
    category = claim.fact.category
    stated = [m.fact for m in companions if m is not claim and m.fact.category != category]
    period = category.removeprefix(_FREQUENCY)
    length = _PERIOD_LENGTHS.get(period)
    if length is None:
        return None
    if index.by_category.get(category):
        return None  # the evidence says how often itself ("up to 4 times a day")
    unit_category, size = length
    said = words_and_names(wording)
    for mention in index.by_category.get(unit_category, ()):
        value = mention.fact.value
        if mention.fact.relation is not Relation.EQ or not isinstance(value, Decimal) or value <= 0:
            continue
        start = mention.span.start
        every = _EVERY.search(index.text, max(0, start - 12), start)
        if every is None:
            continue
        with localcontext(CONTEXT):
            times = Decimal(size) / value
        # Exactly: "every 14 hours" is no "twice a day". What is done that often is said
        # before the interval, of what the claim speaks of ("Acetaminophen is taken every
        # 6 hours", not the ibuprofen of the sentence before).
        if times != claim.fact.value or not says_what(
            said, words_and_names(phrase_before(index.text, every.start())), by_name=True
        ):
            continue
        if not stated or _said_with(index, mention, stated):
            shown = f"{format_decimal(times)} a {period}: every {mention.text}"
            return Derivation(shown, (mention,))
    return None


def _said_with(index: EvidenceIndex, mention: Mention, facts: Sequence[Fact]) -> bool:
    """Whether one of ``facts`` is stated just before ``mention``, in its own phrase."""
    for fact in facts:
        for other in index.by_fact.get(fact, ()):
            if not 0 <= mention.span.start - other.span.end <= _PHRASE_GAP:
                continue
            if not _PHRASE_BREAK.search(index.text, other.span.end, mention.span.start):
                return True
    return False


_PHRASE_GAP = 40
_PHRASE_BREAK = re.compile(r"[,;.]|\b(?:or|and)\b")


def _span(index: EvidenceIndex, agrees: _Agrees) -> Derivation | None:
    """A claimed duration that is the length of time a dated series covers: "over the
    next five days" for twenty readings six hours apart."""
    moments = index.moments
    if len(moments) < 2:
        return None
    steps = {b - a for a, b in itertools.pairwise(moments)}
    regular = len(steps) == 1
    covered = moments[-1] - moments[0] + (steps.pop() if regular else 0)
    if not regular and covered % _DAY == 0:
        covered += _DAY  # whole days from the first to the last, both counted
    if agrees(Decimal(covered)):
        first = datetime.datetime.fromtimestamp(moments[0], datetime.UTC)
        last = datetime.datetime.fromtimestamp(moments[-1], datetime.UTC)
        computation = (
            f"{len(moments)} dated values from {first:%Y-%m-%d %H:%M} to {last:%Y-%m-%d %H:%M}"
        )
        return Derivation(computation, ())
    return None


def _clock_gap(
    index: EvidenceIndex, agrees: _Agrees, said: frozenset[str], companions: Sequence[Mention]
) -> Derivation | None:
    """A claimed duration between two times of the clock: a span "from 09:20 to 10:05";
    a departure and an arrival in one row or sentence ("leaves at 6:05 a.m. and reaches
    Lakeside at 7:08 a.m., a 63-minute trip"); the first and last time of one column (a
    train's column of a timetable); and, for a claim that speaks of a difference ("37
    seconds ahead"), any two times of one column. Pairs with a time the claim itself
    states are tried first."""
    stated = {m.fact.value for m in companions if m.fact.category == TIME_OF_DAY}
    for mention, (start, end) in _clocks(companions):
        # A span of the clock the claim states itself: "27 minutes, from 8:14 to 8:41".
        if end is not None and agrees(Decimal((end - start) % _DAY)):
            return Derivation(f"{mention.text} spans {(end - start) % _DAY} s", ())
    groups = [_clocks(group) for group in index.groups.values()]
    series = [_clocks(values) for values in index.series.values()]
    for clocks in groups:
        for mention, (start, end) in clocks:
            if end is not None and agrees(Decimal((end - start) % _DAY)):
                return Derivation(f"{mention.text} spans {end - start} s", (mention,))
    pairs = [pair for clocks in groups for pair in itertools.combinations(_singles(clocks), 2)]
    for clocks in series:
        singles = _singles(clocks)
        if len(singles) >= 2:
            pairs.append((singles[0], singles[-1]))
    if "difference" in said:
        pairs += [pair for clocks in series for pair in itertools.combinations(_singles(clocks), 2)]
    pairs.sort(key=lambda pair: not stated & {pair[0][0].fact.value, pair[1][0].fact.value})
    for (one, a), (other, b) in pairs:
        # Times of one column may be finishing times, compared either way; times in one
        # row or sentence run forward, past midnight if need be.
        gap = abs(b - a) if one.key is not None and one.key == other.key else (b - a) % _DAY
        if agrees(Decimal(gap)):
            return Derivation(f"{other.text} - {one.text}", (other, one))
    return None


_Clock = tuple[Mention, tuple[int, int | None]]


def _clocks(mentions: Iterable[Mention]) -> list[_Clock]:
    return [(m, _seconds(m.fact)) for m in mentions if m.fact.category == TIME_OF_DAY]


def _singles(clocks: list[_Clock]) -> list[tuple[Mention, int]]:
    return [(m, start) for m, (start, end) in clocks if end is None]


def _seconds(fact: Fact) -> tuple[int, int | None]:
    """A time of day (or span of the clock) in seconds after midnight."""

    def of(written: object) -> int:
        parts = [int(part) for part in str(written).split(":")]
        hours, minutes, seconds = [*parts, 0, 0][:3]
        return hours * 3600 + minutes * 60 + seconds

    upper = None if fact.upper is None else of(fact.upper)
    return of(fact.value), upper


def _total(claim: Mention, index: EvidenceIndex, agrees: _Agrees) -> Derivation | None:
    """A claimed total of one data series ("a total of 10.2 mm of rain" over a forecast)."""
    for key, series in index.series.items():
        values = _values(series, claim)
        if len(values) < 2:
            continue
        with localcontext(CONTEXT):
            total = sum((value for value, _ in values), Decimal(0))
        if agrees(total):
            return Derivation(f"sum of {len(values)} values of {key}", tuple(m for _, m in values))
    return None


def _pairwise(
    claim: Mention,
    index: EvidenceIndex,
    agrees: _Agrees,
    said: frozenset[str],
    companions: Sequence[Mention] = (),
) -> Derivation | None:
    """A claimed total that is the sum of two or three values in one sentence or record,
    or a claimed difference of two. Values the claim itself states are tried first:
    "income of £6.8 million and spending of £6.3 million, a surplus of about £0.5
    million" is 6.8 - 6.3, not some other pair half a million apart."""
    # A change the claim states as an amount ("fell by 30,000") is a difference too.
    adds, subtracts = "total" in said, bool(said & {"difference", "change"})
    stated = {m.fact.value for m in companions if m is not claim}

    for group, row in _comparable(index):
        values = sorted(_values(group, claim), key=lambda item: item[0] not in stated)
        if len(values) < 2 or (row and not subtracts):
            continue
        with localcontext(CONTEXT):
            for (a, one), (b, other) in itertools.combinations(values, 2):
                if adds and not row and agrees(a + b):
                    return Derivation(f"{_show(a, claim)} + {_show(b, claim)}", (one, other))
                if subtracts and _worth_subtracting(claim, a, b) and agrees(abs(a - b)):
                    big, small = (one, other) if a >= b else (other, one)
                    shown = f"{_show(max(a, b), claim)} - {_show(min(a, b), claim)}"
                    return Derivation(shown, (big, small))
            if adds and not row and len(values) <= _TRIPLES_UP_TO:
                for trio in itertools.combinations(values, 3):
                    total = sum((value for value, _ in trio), Decimal(0))
                    if agrees(total):
                        shown = " + ".join(_show(value, claim) for value, _ in trio)
                        return Derivation(shown, tuple(m for _, m in trio))
    return None


def _points(
    claim: Mention, index: EvidenceIndex, agrees: _Agrees, said: frozenset[str], wording: str
) -> Derivation | None:
    """Points said of percentages: their difference, whatever word says so ("planting
    advanced 4 percentage points", "trailed its average by 8 points"), or a total the
    claim calls one. A sentence of four percentages differs by many amounts, so the
    values must be those the claim speaks of: of the sentences and records whose
    percentages share the most words with the claim, the pairs whose two values share
    the most ("3 points below the regional average" is 75% - 72% where enrolment was 72%
    and the average 75%, not 79% - 72% with last year's 79%)."""
    claimed = text_words(wording)
    best: tuple[int, int] = (-1, -1)
    pairs: list[tuple[tuple[Decimal, Mention], tuple[Decimal, Mention]]] = []
    for group, _ in _comparable(index):
        values = _values(group, claim, PERCENT)
        if len(values) < 2:
            continue
        words = {id(m): claimed & index.anchors.of(m) for _, m in values}
        spoken = len(frozenset().union(*words.values()))
        for first, second in itertools.combinations(values, 2):
            score = (spoken, len(words[id(first[1])]) + len(words[id(second[1])]))
            if score > best:
                best, pairs = score, []
            if score == best:
                pairs.append((first, second))
    adds = "total" in said
    with localcontext(CONTEXT):
        for (a, one), (b, other) in pairs:
            if agrees(abs(a - b)):
                big, small = (one, other) if a >= b else (other, one)
                shown = f"{format_decimal(max(a, b))}% - {format_decimal(min(a, b))}%"
                return Derivation(shown, (big, small))
            if adds and agrees(a + b):
                return Derivation(f"{format_decimal(a)}% + {format_decimal(b)}%", (one, other))
    return None


def _worth_subtracting(claim: Mention, a: Decimal, b: Decimal) -> bool:
    """Small counts are not subtracted: some two of them differ by any small number
    ("15 - 8" is no count of seven brothers)."""
    category = claim.fact.category
    if category != NUMBER and not category.startswith(COUNT_PREFIX):
        return True
    return min(a, b) >= _SMALLEST_SUBTRAHEND


_SMALLEST_SUBTRAHEND = Decimal(10)


def _product(
    claim: Mention,
    index: EvidenceIndex,
    companions: Sequence[Mention],
    agrees: _Agrees,
    *,
    said: frozenset[str],
    wording: str,
) -> Derivation | None:
    """A claimed total that is a small count the claim states times an evidence value:
    "€270 for three nights" against "€90 a night". Where the evidence states the same
    count and the claim gives its value as the count's ("2 bags of 46 kg" against "2 bags
    of 23 kg each"), the value is one for each, as in the evidence, unless the claim says
    it gives a total ("46 kg in total")."""
    counts = [
        m
        for m in companions
        if m is not claim
        and m.fact.category.startswith(COUNT_PREFIX)
        and m.fact.relation is Relation.EQ
        and isinstance(m.fact.value, Decimal)
        and 1 < m.fact.value <= _MULTIPLIERS_UP_TO
        and m.fact.value == m.fact.value.to_integral_value()
        and ("total" in said or not (_states(index, m.fact) and _of_each(wording, m, claim)))
    ]
    for value, mention in _values(index.by_category.get(claim.fact.category, ()), claim):
        for count in counts:
            assert isinstance(count.fact.value, Decimal)
            if not _is_rate_of(mention, count.fact.category[len(COUNT_PREFIX) : -1], index):
                continue
            with localcontext(CONTEXT):
                product = count.fact.value * value
            if agrees(product):
                computation = f"{_show(count.fact.value)} × {_show(value, claim)}"
                return Derivation(computation, (mention, count))
    return None


def _of_each(wording: str, count: Mention, claim: Mention) -> bool:
    """Whether the claim gives its value right after its count ("2 bags of 46 kg", "12
    bottles at $5"): a value of each of what it counts."""
    return _EACH_VALUE.fullmatch(wording, count.span.end, claim.span.start) is not None


_EACH_VALUE = re.compile(r"\s+(?i:of|at|weighing|costing)\s+")


def _states(index: EvidenceIndex, fact: Fact) -> bool:
    """Whether the evidence states ``fact`` as it is."""
    return any(m.fact == fact for m in index.by_category.get(fact.category, ()))


def _is_rate_of(mention: Mention, noun: str, index: EvidenceIndex) -> bool:
    """Whether an evidence value is stated per one of what the claim counts: "€90 a
    night", "$30 per seat", "€25 each", a key "nightly_rate" or "unit_price". Any other
    value times the claim's count is a coincidence ("20 customers" times "$30")."""
    if mention.key is not None:
        words = {word.casefold() for word in _KEY_WORDS.findall(mention.key.casefold())}
        return bool(words & {noun, f"{noun}ly", *_PER_ONE_KEY_WORDS}) or (
            _PERIODIC_KEY_WORDS.get(noun, "") in words
        )
    after = _PER_ONE.match(index.text, mention.span.end)
    if after is None:
        return False
    word = after.group(1)
    return word is None or word.casefold() in (noun, f"{noun}s", f"{noun}es")


# "€90 a night", "$30 per seat", "€25 each", "£8/hour".
_PER_ONE = re.compile(r"\s*(?:(?i:each)\b|(?:(?i:per|an?|every)\s+|/)([A-Za-z]+))")
_PER_ONE_KEY_WORDS = frozenset({"unit", "each", "per"})
_PERIODIC_KEY_WORDS = {"day": "daily", "year": "annual"}


def _ratio(claim: Mention, index: EvidenceIndex, agrees: _Agrees) -> Derivation | None:
    """A claimed multiple ("roughly double", "three times") of two values of one
    category in one sentence or record."""
    for group in _groups(index):
        by_category: dict[str, list[tuple[Decimal, Mention]]] = {}
        for mention in group:
            value = mention.fact.value
            if mention.fact.relation is Relation.EQ and isinstance(value, Decimal) and value > 0:
                by_category.setdefault(mention.fact.category, []).append((value, mention))
        for values in by_category.values():
            for (a, one), (b, other) in itertools.permutations(values, 2):
                if a > b:
                    with localcontext(CONTEXT):
                        ratio = a / b
                    if agrees(ratio):
                        return Derivation(f"{_show(a)} / {_show(b)}", (one, other))
    return None


def _change(
    claim: Mention, index: EvidenceIndex, agrees: _Agrees, wording: str
) -> Derivation | None:
    """A claimed percentage change between two values of one category in one sentence or
    record, one way only (see :mod:`.change_way`)."""
    way = direction(wording, claim)
    pairs: list[tuple[tuple[Decimal, Mention], tuple[Decimal, Mention]]] = []
    for key, group in index.groups.items():
        if key[0] != "sentence":
            continue  # a data record holds values of different things in one category
        by_category: dict[str, list[tuple[Decimal, Mention]]] = {}
        for mention in group:
            value = mention.fact.value
            category = mention.fact.category
            if (
                category != PERCENT
                and category not in dates.PERIOD_CATEGORIES
                and mention.fact.relation is Relation.EQ
                and isinstance(value, Decimal)
                and value != 0
            ):
                by_category.setdefault(category, []).append((value, mention))
        for values in by_category.values():
            pairs += itertools.permutations(values, 2)
    for (old, first), (new, second) in pairs:
        with localcontext(CONTEXT):
            change = abs(new - old) / abs(old) * 100
        if agrees(change) and may_go(
            old,
            new,
            way,
            old_left=left_behind(first, index.text, second),
            new_left=left_behind(second, index.text, first),
        ):
            computation = f"({_show(new)} - {_show(old)}) / {_show(old)}"
            return Derivation(computation, (second, first))
    return None


def _part_of_whole(
    claim: Mention, index: EvidenceIndex, agrees: _Agrees, wording: str
) -> Derivation | None:
    """A share the claim writes as a fraction ("a third of his goals") that prose states as
    a part of a whole ("10 of his 30 goals"): two numbers joined by "of" and at most two
    words, the second a count of a noun the claim names. A percentage written in digits
    is what the evidence must state: any document has some "3 of the 12" for it."""
    if not is_share_word(claim):
        return None
    said = text_words(wording)
    for group in index.groups.values():
        counted = [
            m
            for m in group
            if (m.fact.category == NUMBER or m.fact.category.startswith(COUNT_PREFIX))
            and m.fact.relation is Relation.EQ
            and m.key is None
        ]
        for part, whole in itertools.pairwise(counted):
            low, high = part.fact.value, whole.fact.value
            assert isinstance(low, Decimal)
            assert isinstance(high, Decimal)
            noun = whole.fact.category.removeprefix(COUNT_PREFIX).removesuffix("]")
            if (
                not 0 < low < high
                or not whole.fact.category.startswith(COUNT_PREFIX)
                or said.isdisjoint(anchor_words(noun))
                or _PART_OF.fullmatch(index.text, part.span.end, whole.span.start) is None
            ):
                continue
            with localcontext(CONTEXT):
                percent = low * 100 / high
            if agrees(percent):
                return Derivation(f"{_show(low)} / {_show(high)} × 100", (part, whole))
    return None


_PART_OF = re.compile(r"\s+(?:out\s+)?of\s+(?:[\w'’]+\s+){0,2}")


def _share(claim: Mention, index: EvidenceIndex, agrees: _Agrees) -> Derivation | None:
    """A claimed percentage that data states as a fraction ("pop": 0.2 for a 20% chance)."""
    for mention in index.by_category.get(NUMBER, ()):
        value = mention.fact.value
        if mention.key is None or not isinstance(value, Decimal) or not 0 < value <= 1:
            continue
        if not set(_KEY_WORDS.findall(mention.key.casefold())) & FRACTION_KEY_WORDS:
            continue
        if not periods_agree(claim, mention):
            continue
        with localcontext(CONTEXT):
            percent = value * 100
        if agrees(percent):
            return Derivation(f"{_show(value)} × 100", (mention,))
    return None
