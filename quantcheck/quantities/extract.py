"""Extraction: text in, the quantities, dates and other numbers it states out (pure, linear).

One left-to-right scan of the NFKC-normalized text with the master pattern finds every
candidate; each is read in a bounded window of its own clause for a bound ("at most"), a
hedge ("about") and a negation ("do not"). In the ``all`` scope every digit and number
word then has to be inside a fact or set aside with a reason: whatever no rule read
becomes a plain ``number`` fact, so nothing in a claim goes unchecked. Spans refer to the
original text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal, localcontext
from functools import cache

from quantcheck.quantities import (
    clock,
    counts,
    dates,
    identifiers,
    patterns,
    units,
    written_units,
)
from quantcheck.quantities.binding import bind_periods
from quantcheck.quantities.budget import FactBudget
from quantcheck.quantities.categories import (
    ANGLE,
    COUNT_PREFIX,
    IDENTIFIER,
    MEASURE_PREFIXES,
    MONEY_PREFIX,
    NUMBER,
    ORDINAL,
    PERCENT,
    SCORE,
    TIME_OF_DAY,
    Scope,
    count_category,
    in_units_scope,
)
from quantcheck.quantities.context import (
    Context,
    after_change_word,
    estimate_before,
    previous_words,
    read_context,
)
from quantcheck.quantities.date_ranges import period_ranges
from quantcheck.quantities.facts import CONTEXT, Fact, Literal, Mention, Relation, SetAside, Span
from quantcheck.quantities.lemmas import lemmas
from quantcheck.quantities.listings import Listing
from quantcheck.quantities.numbers import Number, UnreadableNumber, parse_number
from quantcheck.quantities.phrases import (
    AGE_LINK_WORDS,
    AGE_WORDS,
    ANCHOR_UNWORDS,
    APPOSITIVE_AGE_MAX,
    CHANGE_WORDS,
    CONTEXT_UNITS,
    DURATION_MODIFIERS,
    ELAPSED_CLOCK_CUES,
    ELAPSED_FRACTION_CUES,
    FRACTION_WORDS,
    FUNCTION_WORDS,
    GAP_WORDS,
    HALF_OF_PARTS,
    HEAT_CUE,
    MULTIPLE_WORDS,
    NOUN_ABBREVIATIONS,
    NUMBER_IDIOMS,
    PLURAL_QUANTIFIERS,
    RACE_TIME_WORDS,
    RATE_ADVERBS,
    RATING_SCALES,
    RATING_WORDS,
    SCORE_AFTER,
    SCORE_BEFORE,
    SHARE_DENOMINATORS,
    SHARE_NUMERATORS,
    SMALL_NUMBER_WORDS,
    UNIT_FRACTION_DENOMINATORS,
    YEAR_DETERMINERS,
    YEAR_WORDS,
)
from quantcheck.quantities.shared_units import in_inches, inches_after, shared_units
from quantcheck.quantities.text import NormalizedText, normalize

_YEAR_WORDS = frozenset(YEAR_WORDS)
_DAY_LIST_JOINERS = frozenset({"and", "or", "&"})
_YEAR_DETERMINERS = frozenset(YEAR_DETERMINERS)
_SCORE_BEFORE = frozenset(SCORE_BEFORE)
_CHANGE_WORDS = frozenset(CHANGE_WORDS)
_SCORE_AFTER = frozenset(SCORE_AFTER)
_NEXT_WORD = re.compile(r"\s*+([A-Za-z]+)")
_RANGE_DASH = re.compile(r"\s*[-–—]\s*")
# "per hour", "an hour", "/h" after a unit: the quantity is a rate. The time word must
# name a unit of the table ("hour", "h", "day"). What the amount is of may stand between:
# "2,300 mg of sodium per day", "2 litres of water a day".
_PER_TIME = re.compile(
    r"(?:\s++(?i:of)\s++[A-Za-z][A-Za-z\-]*+)?"
    r"\s*(?:(?i:per|an?|each)\s+|/)(?i:(second|sec|s|minute|min|hour|hr|h|day|week|month|year|yr))"
    r"(?![\w/])(?!\s++(?i:ago|earlier|later|before|after)\b)"  # "lost 5 kg a year ago"
)
# A unit's symbol glued to a period by a slash: "kWh/year", "GB/month".
_UNIT_PER_TIME = re.compile(
    r"[ \t]?(?P<unit>[A-Za-zµ]{1,5})"
    r"(?=/(?i:second|sec|s|minute|min|hour|hr|h|day|week|month|year|yr)(?![\w/]))"
)
# A unit's symbol glued to a measure by a slash: "t/ha", "mg/kg" (see _per_measure).
# The measure is one word of letters and ends the unit: "mg/kg/day" and "kg/m3" stay
# units as written.
_UNIT_PER_MEASURE = re.compile(r"[ \t]?(?P<unit>[A-Za-zµ]{1,5})(?=/[A-Za-z]++(?![\w/²³]))")
_SCALED = re.compile(r"\d[\d.,]*(?i:thousand|million|billion|trillion)")
# A glued "x" before a capitalized name or a number: a count of items ("2x Intel Xeon").
_COUNT_MARK = re.compile(r"[x×][ \t]++(?:\d|(?P<name>[A-Z][\w+\-]*+))")
# A count of items a list gives with a glued "x": a whole number below 100.
_FEW_ITEMS = re.compile(r"[1-9]\d?")
# Where a list item starts: a line, a key's colon, a comma or a bullet before the count.
_LIST_ITEM_START = re.compile(r"(?:^|[\n:,;•*(\-])[ \t]*$")


@cache
def _one_unit_and() -> re.Pattern[str]:
    """ "an hour and " before "a half": one of a unit, then its fraction (see
    _one_and_a_fraction). Built on first use: it holds every unit, and few texts need it."""
    return re.compile(
        rf"(?<![\w-])(?:[Aa]n?|[Oo]ne)\s++(?P<unit>{patterns.UNIT})\s++and\s++(?:an?\s++)?$"
    )


_ONE_AND_REACH = 40
_SECOND_FRACTION = re.compile(r"\.\d{1,3}(?!\d)")
_DIGIT_AHEAD = re.compile(r"\s*+(?:[A-Za-z]++\s++){0,2}\d")
_SCALE_AHEAD = re.compile(r"\s*(?i:thousand|million|billion|trillion)\b")
_TIMES_BEFORE_NUMBER = re.compile(r"[x×](?=\d)")
# The inch mark glued to a number; a word right after it makes it something else.
_INCH_MARK = re.compile(r"[\"″](?![\w\"])")
# How far back a line is read for an open quotation: bounded so dense text costs constant work.
_QUOTE_REACH = 200
_DURATIONS = frozenset({"time_seconds", "time_months"})
# Tried at every candidate, so fronted by a test of its first character.
_IDIOM = re.compile(
    "(?=[" + "".join(sorted({re.escape(idiom[0]) for idiom in NUMBER_IDIOMS})) + "])"
    rf"(?:{patterns.alternation(NUMBER_IDIOMS)})(?![\w/])"
)
# "10 business days": a unit of time after words that only say which days or how they run.
_TIME_WORDS = [
    alias
    for unit in units.UNITS
    if unit.category in _DURATIONS
    for alias in unit.aliases
    if alias.isalpha()
]
_MODIFIED_DURATION = re.compile(
    rf"(?:[ \t]++(?i:{patterns.alternation(DURATION_MODIFIERS)}))++"
    rf"[ \t]++(?i:({patterns.alternation(_TIME_WORDS)}))(?![\w/])"
)
# The plus sign of a gap to a leader, right before its clock: "+ 0:19".
_GAP_SIGN = re.compile(r"(?<![\w+])\+\s?$")
_SCORE_PAIR = re.compile(r"\d{1,3}\s*[-–—]\s*\d{1,3}(?!\d|[.,]\d)")
# What may separate two unreadable numbers that are reported as one: "one" and "and" are
# number words the sweep does not look for.
_NUMBER_WORD_GAP = re.compile(r"(?:[\s\-]++|(?i:one|and)\b)*+")


# A value as written: the number, the scale after it ("million") and its unit.
_Written = tuple[Number, Decimal, units.Unit]


@dataclass(frozen=True, slots=True)
class Extraction:
    """Everything found in one text: its facts, the numbers set aside, and flags for what
    could not be read."""

    mentions: tuple[Mention, ...]
    flags: tuple[str, ...] = ()
    set_aside: tuple[SetAside, ...] = ()
    # What the text enumerates (read for evidence only; see .listings).
    listings: tuple[Listing, ...] = ()


def extract(text: str, *, scope: Scope = Scope.ALL, budget: FactBudget | None = None) -> Extraction:
    """Find every fact in ``text`` that ``scope`` reads, each spent from ``budget``."""
    budget = budget or FactBudget(None)
    return _Reader(normalize(text, budget), scope, budget).read()


class _Reader:
    """One pass over one text; collects mentions in the order their numbers appear."""

    def __init__(self, norm: NormalizedText, scope: Scope, budget: FactBudget):
        self.norm = norm
        self.scan = norm.text
        self.scope = scope
        self.budget = budget
        self.mentions: list[Mention] = []
        self.flags: set[str] = set()
        self.set_aside: list[SetAside] = []
        # Spans of the normalized text already read, in order: what the sweep skips.
        self.covered: list[tuple[int, int]] = []
        # The unreadable number not reported yet: a run of them becomes one fact.
        self.unreadable: tuple[int, int, str] | None = None
        # Where the scan resumes when a reader took less than its candidate's match.
        self.resume: int | None = None

    def read(self) -> Extraction:
        position = 0
        scan = self.scan
        search = patterns.MASTER.search
        while (match := search(scan, position)) is not None:
            position = self._dispatch(match)
        mentions = self.mentions
        if self.scope is Scope.ALL:
            self._flush_unreadable()
            self._sweep()
            self._flush_unreadable()
            mentions.sort(key=lambda m: m.span.start)
        else:
            mentions = [m for m in mentions if in_units_scope(m.fact.category)]
        mentions = shared_units(self.scan, _compound_measures(self.scan, mentions))
        mentions = bind_periods(self.norm.original, period_ranges(self.norm.original, mentions))
        return Extraction(tuple(mentions), tuple(sorted(self.flags)), tuple(self.set_aside))

    def _dispatch(self, match: re.Match[str]) -> int:
        """Read one candidate; the offset the scan resumes from."""
        idiom = _IDIOM.match(self.scan, match.start())
        if idiom is not None:
            self._put_aside(idiom.start(), idiom.end(), "idiom")
            return idiom.end()
        reader = _READERS[match.lastgroup or ""]
        try:
            accepted = reader(self, match)
        except UnreadableNumber as exc:
            self._unreadable(match.start(), match.end(), exc.flag)
            return match.end()
        if accepted:
            resume, self.resume = self.resume, None
            return match.end() if resume is None else resume
        # A candidate that is something else: an identifier, a share or a month that is
        # not one ("10m", "In 2019", "three quarters" of a year, the season "2011-12") is
        # read again at the same offset as a quantity; anything else is stepped past by
        # one character.
        if match.lastgroup in _IDENTIFIER_READERS or match.lastgroup in _READ_AGAIN:
            again = patterns.quantities_only().match(self.scan, match.start())
            if again is not None:
                return self._dispatch(again)
        return match.start() + 1

    # --- dates and periods -------------------------------------------------------------

    def _date(self, m: re.Match[str]) -> bool:
        if m["ym_y"] is not None:
            if m["ym_d"] is not None:
                value = dates.calendar_date(m["ym_y"], dates.month_number(m["ym_m"]), m["ym_d"])
                return self._period(m, value)
            return self._period(m, dates.month_of_year(m["ym_m"], m["ym_y"]))
        if m["iso"] is None:
            year = m["dmy_y"] or (None if m["dmy_yy"] is None else dates.pivot_year(m["dmy_yy"]))
            number = dates.month_number(m["dmy_m"])
            value = dates.calendar_date(year, number, m["dmy_d"])
            if m["dmy_d0"] is None:
                return self._period(m, value)
            # "16 to 19 May 2025": the days from one to the other.
            first = dates.calendar_date(year, number, m["dmy_d0"])
            context = read_context(self.scan, m.start(), allow_bound=False)
            fact = Fact(value.category, Relation.RANGE, first.text, value.text)
            self._add(fact, context, m.end(), problem=first.problem or value.problem)
            return True
        year, month, day = m["iso"].split(m["iso_sep"])
        if m["iso_h"] is None:
            return self._period(m, dates.calendar_date(year, month, day))
        # "2023-11-30 11:00:00": the date, and the time of day as a fact of its own, so no
        # number of a date-time goes unchecked.
        self._period(m, dates.calendar_date(year, month, day), end=m.end("iso"))
        time = clock.clock_text(m["iso_h"], m["iso_m"], m["iso_s"])
        context = Context(m.start("iso_h"), Relation.EQ, approximate=False, negated=False)
        self._add(Fact(TIME_OF_DAY, Relation.EQ, time.text), context, m.end(), problem=time.problem)
        return True

    def _numeric_date(self, m: re.Match[str]) -> bool:
        day = m["nd_d"] or m["nd_d2"] or m["nd_d3"]
        month = m["nd_m"] or m["nd_m2"] or m["nd_m3"]
        return self._period(m, dates.calendar_date(m["nd_y"], month, day))

    def _month(self, m: re.Match[str]) -> bool:
        if m["mdy_m"] is None:
            return self._period(m, dates.month_of_year(m["my_m"], m["my_y"]))
        month = dates.month_number(m["mdy_m"])
        value = dates.calendar_date(m["mdy_y"], month, m["mdy_d"])
        if m["mdy_d2"] is None:
            return self._period(m, value)
        second = dates.calendar_date(m["mdy_y"], month, m["mdy_d2"])
        if m["mdy_join"] in _DAY_LIST_JOINERS:
            # "January 7th and 8th": two dates of one month.
            self._period(m, value, end=m.end("mdy_d"))
            context = read_context(self.scan, m.start("mdy_d2"), allow_bound=False)
            self._add(
                Fact(second.category, Relation.EQ, second.text),
                context,
                m.end(),
                problem=second.problem,
            )
            return True
        # "March 6–7": the days from one to the other.
        context = read_context(self.scan, m.start(), allow_bound=False)
        fact = Fact(value.category, Relation.RANGE, value.text, second.text)
        self._add(fact, context, m.end(), problem=value.problem or second.problem)
        return True

    def _quarter_letter(self, m: re.Match[str]) -> bool:
        number = int(m["pq_n"])
        year = _year_after(m, "pq")
        value = dates.quarter(number, year) if m["pq_k"] == "Q" else dates.half(number, year)
        return self._period(m, value)

    def _quarter_digit(self, m: re.Match[str]) -> bool:
        number = int(m["pn_n"])
        if m["pn_k"] == "H" and number > 2:
            return False  # "3H ago": a year has two halves
        year = m["pn_y"] or (None if m["pn_yy"] is None else dates.full_year(m["pn_yy"]))
        value = dates.quarter(number, year) if m["pn_k"] == "Q" else dates.half(number, year)
        return self._period(m, value)

    def _quarter_words(self, m: re.Match[str]) -> bool:
        number = dates.ordinal(m["pw_n"])
        year = m["pw_pre"] or _year_after(m, "pw")
        if m["pw_k"].casefold() == "quarter":
            value = dates.quarter(number, year)
        elif number <= 2:
            value = dates.half(number, year)
        else:
            return False
        return self._period(m, value)

    def _year_span(self, m: re.Match[str]) -> bool:
        first = m["ys_y"]
        if not _next_year(first, m["ys_yy"]):
            return False  # "2023/05" may be a month; "2020/25" is no fiscal year
        context = read_context(self.scan, m.start(), allow_bound=False)
        self._add(Fact(dates.YEAR, Relation.RANGE, first, str(int(first) + 1)), context, m.end())
        return True

    def _iso_month(self, m: re.Match[str]) -> bool:
        year, month = m["im_y"], m["im_m"]
        if _next_year(year, month):
            return False  # "2011-12": the season, read as a span of years
        return self._period(m, dates.DateValue(dates.MONTH, f"{year}-{month}"))

    def _fiscal_year(self, m: re.Match[str]) -> bool:
        return self._period(m, dates.year(dates.full_year(m["fy_y"])))

    def _decade(self, m: re.Match[str]) -> bool:
        part = m["dec_part"]
        return self._period(m, dates.decade(int(m["dec"]), None if part is None else part.lower()))

    def _decade_short(self, m: re.Match[str]) -> bool:
        tens = int(m["dec_yy"])
        # '00s to '20s are this century's; earlier decades the last one's.
        return self._period(m, dates.decade((2000 if tens <= 20 else 1900) + tens, None))

    def _century(self, m: re.Match[str]) -> bool:
        part = m["cen_part"]
        return self._period(m, dates.century(int(m["cen"]), None if part is None else part.lower()))

    def _year_part(self, m: re.Match[str]) -> bool:
        side = m["yr_mod"].casefold()
        relation = {"pre": Relation.LT, "post": Relation.GT}.get(side, Relation.EQ)
        return self._period(m, dates.year(m["yr"]), relation=relation)

    def _period(
        self,
        m: re.Match[str],
        value: dates.DateValue,
        *,
        relation: Relation = Relation.EQ,
        end: int | None = None,
    ) -> bool:
        context = read_context(self.scan, m.start(), allow_bound=False)
        fact = Fact(value.category, relation, value.text)
        self._add(fact, context, m.end() if end is None else end, problem=value.problem)
        if value.problem is not None:
            self.flags.add("invalid_date")
        return True

    # --- times of day --------------------------------------------------------------------

    def _clock(self, m: re.Match[str]) -> bool:
        first = clock.time_of_day(m, "c1")
        if m["c_hrs"] is not None and m["c2_h"] is None and m["c2_hh"] is None:
            duration = clock.duration(m, "c1")
            if duration is not None:
                context = read_context(self.scan, m.start(), allow_bound=True)
                fact = Fact("time_seconds", context.relation, duration)
                self._add(fact, context, m.end())
                return True
        if m["c2_h"] is None and m["c2_hh"] is None and m["c2_w"] is None and self._elapsed(m):
            return True
        context = read_context(self.scan, m.start(), allow_bound=False)
        if m["c2_h"] is None and m["c2_hh"] is None and m["c2_w"] is None:
            fact = Fact(TIME_OF_DAY, Relation.EQ, first.text)
            self._add(fact, context, m.end(), problem=first.problem)
            return True
        second = clock.time_of_day(m, "c2")
        first = clock.shared_marker(m, first, second)
        fact = Fact(TIME_OF_DAY, Relation.RANGE, first.text, second.text)
        self._add(fact, context, m.end(), problem=first.problem or second.problem)
        return True

    def _elapsed(self, m: re.Match[str]) -> bool:
        """A time taken written as a clock: "won in 2:04:37", "a lap of 1:28.293". With
        seconds, or a fraction of one, after a word that speaks of time taken; hours and
        minutes alone ("in 3:45") stay a time of day."""
        if m["c1_h"] is None or m["c1_ap"] is not None:
            return False
        fraction = _SECOND_FRACTION.match(self.scan, m.end())
        # A gap to a leader ("+ 0:19", "3:13 behind") or more hours than a day has
        # ("27:48:05" overall) is a time taken, whatever words stand before it.
        after = _NEXT_WORD.match(self.scan, m.end())
        taken = (
            _GAP_SIGN.search(self.scan, max(0, m.start() - 2), m.start()) is not None
            or (after is not None and after[1].casefold() in GAP_WORDS)
            or (m["c1_s"] is not None and int(m["c1_h"]) >= 24)
        )
        if m["c1_s"] is None and fraction is None and not taken:
            return False
        before = previous_words(self.scan, m.start(), count=2)
        cue = before[0] if before else ""
        raced = cue == "time" and len(before) > 1 and before[1] in RACE_TIME_WORDS
        if not (
            taken
            or cue in ELAPSED_CLOCK_CUES
            or raced
            or (fraction and cue in ELAPSED_FRACTION_CUES)
        ) or before[1:] == ["as"]:
            return False
        units_of = (3600, 60, 1) if m["c1_s"] is not None else (60, 1)
        parts = [m["c1_h"], m["c1_m"], m["c1_s"]][: len(units_of)]
        seconds = Decimal(sum(int(p) * u for p, u in zip(parts, units_of, strict=True)))
        end = m.end()
        if fraction is not None:
            seconds += Decimal(fraction.group()[1:]).scaleb(-len(fraction.group()) + 1)
            end = fraction.end()
        context = read_context(self.scan, m.start(), allow_bound=True)
        self._add(Fact("time_seconds", context.relation, seconds), context, end)
        return True

    # --- money ---------------------------------------------------------------------------

    def _money(self, m: re.Match[str]) -> bool:
        category = units.CURRENCY_PREFIXES[m["m1_cur"]]
        unit = units.Unit(name=category, category=category)
        first = parse_number(m["m1_num"])
        if m["m1_sign"] is not None:
            first = Number(-first.value, first.exponent)
        scale1 = _currency_scale(m["m1_scale"])
        second_text = m["m2_num"] or m["m2_bare"]
        if second_text is None:
            tail = _trailing(m["m_tail"])
            self._single(m.start(), m.end(), first, scale1, unit, tail=tail)
            return True
        second = parse_number(second_text)
        scale2 = _currency_scale(m["m2_scale"] or m["m2_bscale"])
        other = units.CURRENCY_PREFIXES.get(m["m2_cur"] or m["m1_cur"], category)
        if m["m1_scale"] is None and scale2 != 1 and first.value <= second.value:
            scale1 = scale2  # "$1.5-2 million": the scale covers both ends
        if other != category or self._is_change(m, "m1_num"):
            end1 = m.end("m1_scale") if m["m1_scale"] is not None else m.end("m1_num")
            self._single(m.start(), end1, first, scale1, unit)
            start2 = m.start("m2_cur") if m["m2_cur"] is not None else m.start("m2_bare")
            unit2 = units.Unit(name=other, category=other)
            self._single(start2, m.end(), second, scale2, unit2, allow_bound=False)
            return True
        self._range(m.start(), m.end(), (first, scale1, unit), (second, scale2, unit))
        return True

    def _is_change(self, m: re.Match[str], first_group: str) -> bool:
        """ "rose from $310 million to $388 million": two values, not an interval."""
        connector = self.scan[m.end(first_group) : m.end()]
        if " to " not in connector.casefold():
            return False
        opener = self.scan[m.start() : m.start(first_group)].strip().casefold()
        # "from $310 million": the opener holds the currency sign of a money range too.
        return after_change_word(self.scan, m.start(), from_written=opener.split()[:1] == ["from"])

    # --- fractions ---------------------------------------------------------------------------

    def _half(self, m: re.Match[str]) -> bool:
        unit = _unit(m["half_unit"])
        if m["half"] is not None:
            value = Decimal(FRACTION_WORDS[m["half"].casefold()])
        else:
            numerator = SHARE_NUMERATORS[m["half_n"].casefold()]
            denominator = UNIT_FRACTION_DENOMINATORS[m["half_d"].casefold()]
            if numerator >= denominator:
                return False  # "three halves of an hour": no fraction of one
            value = Decimal(numerator) / Decimal(denominator)
        exponent = value.as_tuple().exponent
        assert isinstance(exponent, int)
        self._single(m.start(), m.end(), Number(value, exponent), Decimal(1), unit)
        return True

    def _share(self, m: re.Match[str]) -> bool:
        """ "two-thirds of voters", "half of respondents": the share as a percentage, to
        the precision a fraction word is used with (a tenth of the fraction's step: "a
        third" reads as 31.7% to 35%, "half" as 47.5% to 52.5%)."""
        before = previous_words(self.scan, m.start(), count=1)
        if before in (["and"], ["a"], ["an"]):
            return self._one_and_a_fraction(m)
        if m["sh_half"] is not None:
            numerator, denominator = 1, 2
            if before and before[0] in HALF_OF_PARTS:
                return False
        else:
            numerator = SHARE_NUMERATORS[m["sh_n"].casefold()]
            denominator = SHARE_DENOMINATORS[m["sh_d"].casefold()]
        if m["sh_of"] is None and (m["sh_half"] is not None or m["sh_sep"] != "-"):
            return False
        if numerator >= denominator or _DIGIT_AHEAD.match(self.scan, m.end()):
            return False  # "three halves", "half of 2019": no share of a whole
        unit = units.Unit(
            name=f"/{denominator}",
            category=PERCENT,
            numerator=Decimal(100),
            denominator=Decimal(denominator),
        )
        end = m.end() if m["sh_of"] is None else m.start("sh_of")
        self._single(m.start(), end, Number(Decimal(numerator), -1), Decimal(1), unit)
        return True

    def _one_and_a_fraction(self, m: re.Match[str]) -> bool:
        """ "an hour and a half", "a day and a half", "one year and a quarter": one of a
        unit and a fraction of it (1.5 hours), not a share."""
        low = max(0, m.start() - _ONE_AND_REACH)
        one = _one_unit_and().search(self.scan, low, m.start())
        if one is None:
            return False
        word = (m["sh_d"] or m["sh_half"] or "").casefold()
        fraction = Decimal(FRACTION_WORDS.get(word.removesuffix("s"), "0"))
        if not fraction:
            return False
        if m["sh_n"] is not None:
            fraction *= SHARE_NUMERATORS[m["sh_n"].casefold()]  # "an hour and three quarters"
        value = 1 + fraction
        exponent = value.as_tuple().exponent
        assert isinstance(exponent, int)
        end = m.end() if m["sh_of"] is None else m.start("sh_of")
        self._single(one.start(), end, Number(value, exponent), Decimal(1), _unit(one["unit"]))
        return True

    def _multiple(self, m: re.Match[str]) -> bool:
        """ "sales doubled", "twice as many": a multiple written without a digit."""
        value = Decimal(MULTIPLE_WORDS[" ".join(m["mult"].split()).casefold()])
        exponent = value.as_tuple().exponent
        assert isinstance(exponent, int)
        unit = units.Unit(name="times", category="multiple")
        self._single(m.start(), m.end(), Number(value, exponent), Decimal(1), unit)
        return True

    # --- identifiers ---------------------------------------------------------------------

    def _identifier_word(self, m: re.Match[str]) -> bool:
        letter = m["idw_l"]
        if letter is None and patterns.UNIT_AHEAD.match(self.scan, m.end()):
            return False  # "level 5%": a quantity after a word that often names things
        if _SCALED.fullmatch(m["idw_n"]) or _SCALE_AHEAD.match(self.scan, m.end()):
            return False  # "# 42 million", "#200million": an amount, not a number sign
        code = m["idw_n"] + ("" if letter is None else letter)
        return self._identifier(m, identifiers.canonical(m["idw"], code))

    def _identifier_version(self, m: re.Match[str]) -> bool:
        return self._identifier(m, identifiers.canonical("v", m["idv_n"]))

    def _identifier_name(self, m: re.Match[str]) -> bool:
        opens = _opens_sentence(self.scan, m.start())
        if not identifiers.is_name(m["idn"], opens_sentence=opens):
            return False
        if patterns.UNIT_AHEAD.match(self.scan, m.end()):
            return False
        if clock.AMPM_AHEAD.match(self.scan, m.end()):
            return False
        if written_units.written_unit(self.scan, m.end()) is not None:
            return False  # "Li-Ion 3340 mAh": the number measures, the name describes
        abbreviated = _NEXT_WORD.match(self.scan, m.end())
        if abbreviated is not None and abbreviated[1].casefold() in NOUN_ABBREVIATIONS:
            return False  # "Vandenberghe 64 pts", as "3340 mAh"
        if self._score_after_name(m):
            return False  # "defeat Arsenal 5–4": a team's name before a score
        if _next_year_span(self.scan, m.start("idn_n")):
            return False  # "Charges 2025/26": a name before its fiscal year
        return self._identifier(m, identifiers.canonical(m["idn"], m["idn_n"]))

    def _score_after_name(self, m: re.Match[str]) -> bool:
        """Whether the number after a name is the first of two small whole numbers joined
        by a dash next to a word of winning or losing."""
        pair = _SCORE_PAIR.match(self.scan, m.start("idn_n"))
        if pair is None:
            return False
        before = previous_words(self.scan, m.start(), count=3)
        after = _NEXT_WORD.match(self.scan, pair.end())
        return bool(_SCORE_BEFORE.intersection(before)) or (
            after is not None and after.group(1).casefold() in _SCORE_AFTER
        )

    def _identifier_dotted(self, m: re.Match[str]) -> bool:
        return self._identifier(m, identifiers.canonical(None, m["iddot"]))

    def _identifier_multi(self, m: re.Match[str]) -> bool:
        word = m["idm"].split()[1]
        if not identifiers.is_name(word):
            return False
        return self._identifier(m, identifiers.canonical(None, m["idm"]))

    def _identifier_code(self, m: re.Match[str]) -> bool:
        code = m["idc"]
        ordinal = identifiers.ordinal_of(code)
        if ordinal is not None:
            context = read_context(self.scan, m.start(), allow_bound=False)
            self._add(Fact(ORDINAL, Relation.EQ, Decimal(ordinal)), context, m.end())
            return True
        if identifiers.measures_something(code):
            return False
        return self._identifier(m, identifiers.canonical(None, code))

    def _identifier(self, m: re.Match[str], value: str) -> bool:
        context = read_context(self.scan, m.start(), allow_bound=False)
        self._add(Fact(IDENTIFIER, Relation.EQ, value), context, m.end())
        return True

    # --- numbers with or without units ---------------------------------------------------

    def _quantity(self, m: re.Match[str]) -> bool:
        start = m.start()
        first = parse_number(m["q_num1"])
        tolerance = first.value < 0 and self.scan[max(0, m.start("q_num1") - 2) : start] == "+/"
        if tolerance:
            # "+/-5%": a tolerance of 5%, not minus five.
            first = Number(-first.value, first.exponent)
        if m["q_frac"] is not None:
            fraction = Decimal(FRACTION_WORDS[m["q_frac"].casefold()])
            exponent = fraction.as_tuple().exponent
            assert isinstance(exponent, int)
            first = Number(first.value + fraction, min(first.exponent, exponent))
        if _after_digit_group(self.scan, m.start("q_num1"), m["q_num1"]):
            # "1 000 MB": a space may group thousands, and "000 MB" alone would read as zero.
            raise UnreadableNumber("ambiguous_number")
        scale1 = _scale(m, "q_scale1")
        unit1 = _unit_of(m, "q_unit1")
        tail = _trailing(m["q_tail2"] or m["q_tail1"] or m["q_after"])
        if tolerance:
            tail = Relation.LE
        if m["q_num2"] is None:
            if unit1 is not None and (lookalike := self._scale_lookalike(m)) is not None:
                scale1, unit1 = lookalike, None
            if unit1 is not None and unit1.category == "multiple" and self._count_mark(m):
                # "2x Intel Xeon", "4x SFP+ ports": a spec sheet's count, not a multiple
                unit1 = units.Unit(name=NUMBER, category=NUMBER)
            if unit1 is None:
                self._unitless_single(m, first, scale1, tail)
            else:
                self._single(start, m.end(), first, scale1, unit1, tail=tail)
            return True
        second = parse_number(m["q_num2"])
        scale2 = _scale(m, "q_scale2")
        unit2 = _unit_of(m, "q_unit2")
        if scale1 == 1 and scale2 != 1 and first.value <= second.value:
            scale1 = scale2  # "between 5 and 10 million dollars": both ends in millions
        if unit2 is None:
            if self._year_then_value(m, scale1):
                # "from 200 in 2019 to 350 in 2021", "5.23 million in 2021 to 5.89 million":
                # a year ends one phrase and the next value is read afresh.
                self._period(m, dates.year(m["q_num1"]), end=m.end("q_num1"))
                self.resume = m.start("q_num2")
                return True
            self._unitless_range(m, first, scale1, second, scale2)
            return True
        if unit1 is None and _is_year_before(m["q_num1"], scale1, second.value * scale2):
            # "55.89 years in 1950 to 74.41 years": a year, then the next value, not a
            # range from 1950 years down to 74.41.
            self._period(m, dates.year(m["q_num1"]), end=m.end("q_num1"))
            self._single(m.start("q_num2"), m.end(), second, scale2, unit2, allow_bound=False)
            return True
        shared = unit1 is None
        if unit1 is None:
            unit1 = unit2
        if unit1.category != unit2.category or self._is_change(m, "q_num1"):
            # "5 MB to 10 seconds", "grew from 10 GB to 20 GB": two values.
            end1 = m.end("q_has_unit1") if m["q_has_unit1"] is not None else m.end("q_num1")
            self._single(start, end1, first, scale1, unit1, rated_at=m.end() if shared else None)
            self._single(m.start("q_num2"), m.end(), second, scale2, unit2, allow_bound=False)
            return True
        self._range(start, m.end(), (first, scale1, unit1), (second, scale2, unit2))
        return True

    def _year_then_value(self, m: re.Match[str], scale1: Decimal) -> bool:
        """Whether the first number of a candidate range is a year after a year word and
        the second is no year: "from 200 in 2019 to 350 in 2021", "from 1,500 in 2019 to
        3,000 in 2021" state two values, not a range from a year to a count."""
        one, two = m["q_num1"], m["q_num2"]
        if m["q_unit1"] is not None or scale1 != 1 or not _is_year_like(one):
            return False
        if not 1800 <= int(one) <= 2100 or (_is_year_like(two) and 1800 <= int(two) <= 2100):
            return False  # "in 2019 to 2021" is a span of years
        dashed = _RANGE_DASH.fullmatch(self.scan, m.end("q_num1"), m.start("q_num2"))
        if dashed and _year_continued(one, two) is not None:
            return False  # "2019-20", a season
        before = previous_words(self.scan, m.start("q_num1"), count=1)
        return bool(before) and before[0] in _YEAR_WORDS

    def _scale_lookalike(self, m: re.Match[str]) -> Decimal | None:
        """ "10m users": a glued unit symbol that is a scale because a counted noun follows."""
        symbol = m["q_unit1"]
        if symbol not in units.SCALE_LOOKALIKES or m.start("q_unit1") != m.end("q_num1"):
            return None
        noun = counts.counted_noun(self.scan, m.end())
        if noun is None or not noun.plural:
            return None
        return units.SCALE_LOOKALIKES[symbol]

    def _count_mark(self, m: re.Match[str]) -> bool:
        """Whether a glued "x" counts items of a list ("Processors: 2x Intel Xeon", "8x
        32GB"): a whole number under 100 at the start of a line or a list item, before a
        number or a name no dictionary holds, without digits ("Xeon", "NVMe"); not "3x
        Optical Zoom", "30x H100 performance", "2x Daily" nor a dimension "293.3 x 190.7"."""
        mark = _COUNT_MARK.match(self.scan, m.start("q_unit1"))
        if mark is None or not _LIST_ITEM_START.search(self.scan, max(0, m.start() - 3), m.start()):
            return False
        if not _FEW_ITEMS.fullmatch(m["q_num1"]):
            return False  # "293.3 x 190.7 x 6.9 mm", "1840 x 2944": dimensions
        name = mark["name"]
        return name is None or (not any(c.isdigit() for c in name) and not lemmas(name.casefold()))

    def _unitless_single(
        self, m: re.Match[str], number: Number, scale: Decimal, tail: Relation | None
    ) -> None:
        start, end = m.start(), m.end()
        if self._list_marker(m):
            return
        written = m["q_num1"]
        noun = counts.counted_noun(self.scan, end)
        if (
            written in _RATING_SCALES
            and tail is None
            and (noun is None or noun.lemma in _RATING_UNITS)
            and _tops_a_rating(self.scan, start)
        ):
            self._put_aside(start, end, "rating_scale")
            return
        if scale == 1 and tail is None and _is_year_like(written):
            before = (previous_words(self.scan, start, count=1) or [""])[0]
            counted = noun is not None and noun.plural and not noun.yearly
            if before in _YEAR_WORDS or (
                1800 <= int(written) <= 2100 and (not counted or before in _YEAR_DETERMINERS)
            ):
                self._period(m, dates.year(written))
                return
        times = _TIMES_BEFORE_NUMBER.match(self.scan, end)
        if times is not None:
            # "4x1.6 GHz": four of what follows, a multiple, not four of "x".
            unit = units.Unit(name="times", category="multiple")
            self._single(start, times.end(), number, scale, unit, tail=tail)
            return
        if _inch_mark(self.scan, start, end):
            # 15.6" in a spec sheet: the inch mark, not a closing quotation mark.
            self._single(start, end + 1, number, scale, _unit("inches"), tail=tail)
            return
        rate = _UNIT_PER_TIME.match(self.scan, end)
        listed = None if rate is None else units.lookup(rate["unit"])
        if rate is not None and listed is not None and _is_amount_of_matter(listed.category):
            # "219 kWh/year", "20 GB/month": a listed unit and its period, the rate that "219
            # kWh per year" is (see _single), not a unit "kwh/year" of its own.
            self._single(start, rate.end(), number, scale, listed, tail=tail)
            return
        ratio = _UNIT_PER_MEASURE.match(self.scan, end)
        listed = None if ratio is None else units.lookup(ratio["unit"])
        if (
            ratio is not None
            and listed is not None
            and _is_amount_of_matter(listed.category)
            and _per_measure(self.scan, ratio.end()) is not None
        ):
            # "8.1 t/ha": a listed unit per a measure, the rate "8.1 tonnes per hectare" is
            # (see _single).
            self._single(start, ratio.end(), number, scale, listed, tail=tail)
            return
        written_unit = written_units.written_unit(self.scan, end)
        if written_unit is not None:
            # "8MP", "196 ppi": a unit no table lists, compared as written.
            stop = written_unit.end
            if tail is None and (after := patterns.AFTER_UNIT_BOUND.match(self.scan, stop)):
                tail, stop = _trailing(after["bound"]), after.end()  # "126 mg/dL or more"
            self._single(start, stop, number, scale, written_unit.unit, tail=tail)
            return
        duration = _MODIFIED_DURATION.match(self.scan, end)
        if duration is not None:
            unit = _unit(duration.group(1))
            self._single(start, duration.end(), number, scale, unit, tail=tail)
            return
        if noun is not None and noun.lemma == "degree" and not _on_line(_HEAT, self.scan, start):
            # "pitched at 30 degrees": degrees of arc where the line speaks of no heat; on
            # a line that does, a count of degrees, which names no scale (see the
            # difference scale_unstated).
            unit = units.Unit(name="degree", category=ANGLE)
            self._single(start, noun.end, number, scale, unit, tail=tail)
            return
        if noun is not None and (noun.plural or number.value == 1):
            unit = units.Unit(name=noun.lemma, category=count_category(noun.lemma))
            stop = noun.end
            if tail is None and (after := patterns.AFTER_UNIT_BOUND.match(self.scan, stop)):
                tail, stop = _trailing(after["bound"]), after.end()  # "12 students or more"
            self._single(start, stop, number, scale, unit, tail=tail)
            return
        if noun is None and written.casefold() == "one":
            self._cover(start, end)
            return  # "the one featured in": a pronoun, not a number
        if noun is None and scale == 1 and _after_age_word(self.scan, start):
            self._single(start, end, number, scale, _unit("years"), tail=tail)
            return
        if noun is None and tail is None and _appositive_age(self.scan, start, end, written):
            self._single(start, end, number, scale, _unit("years"))
            return
        # A number before a singular noun describes it rather than counting: "a 200 million
        # sponsorship deal", "a 5 star hotel" state a plain number.
        unit = units.Unit(name=NUMBER, category=NUMBER)
        self._single(start, end, number, scale, unit, tail=tail)

    def _unitless_range(
        self, m: re.Match[str], first: Number, scale1: Decimal, second: Number, scale2: Decimal
    ) -> None:
        start, end = m.start(), m.end()
        one, two = m["q_num1"], m["q_num2"]
        if self._is_score(m):
            context = read_context(self.scan, start, allow_bound=False)
            self._add(Fact(SCORE, Relation.EQ, f"{one}-{two}"), context, end)
            return
        if scale1 == scale2 == 1 and _is_year_like(one) and int(one) <= 2100:
            # "2019-2021" from 1800 on; "1777-78" (a year and its last two digits) is a
            # season or span of years in any century.
            upper = two if _is_year_like(two) and int(one) >= 1800 else _year_continued(one, two)
            if upper is not None and int(upper) > int(one):
                context = read_context(self.scan, start, allow_bound=False)
                fact = Fact(dates.YEAR, Relation.RANGE, one, upper)
                self._add(fact, context, end)
                return
        written_unit = written_units.written_unit(self.scan, end)
        if written_unit is not None and not self._is_change(m, "q_num1"):
            # "4,000 to 9,000 cP": a range in a unit no table lists.
            unit = written_unit.unit
            self._range(start, written_unit.end, (first, scale1, unit), (second, scale2, unit))
            return
        duration = _MODIFIED_DURATION.match(self.scan, end)
        if duration is not None and not self._is_change(m, "q_num1"):
            unit = _unit(duration.group(1))
            self._range(start, duration.end(), (first, scale1, unit), (second, scale2, unit))
            return
        noun = counts.counted_noun(self.scan, end)
        if self._is_change(m, "q_num1"):
            unit = self._count_unit(noun)
            self._single(start, m.end("q_num1"), first, scale1, unit)
            self._single(m.start("q_num2"), end, second, scale2, unit, allow_bound=False)
        else:
            stop = end if noun is None else noun.end
            unit = self._count_unit(noun)
            self._range(start, stop, (first, scale1, unit), (second, scale2, unit))
        if noun is not None:
            self._cover(end, noun.end)

    @staticmethod
    def _count_unit(noun: counts.CountedNoun | None) -> units.Unit:
        if noun is None:
            return units.Unit(name=NUMBER, category=NUMBER)
        return units.Unit(name=noun.lemma, category=count_category(noun.lemma))

    def _is_score(self, m: re.Match[str]) -> bool:
        """ "won 5-3", "a 2-1 victory": two small whole numbers joined by a dash."""
        one, two = m["q_num1"], m["q_num2"]
        if not (one.isdigit() and two.isdigit() and len(one) <= 3 and len(two) <= 3):
            return False
        if not _RANGE_DASH.fullmatch(self.scan, m.end("q_num1"), m.start("q_num2")):
            return False
        before = previous_words(self.scan, m.start(), count=3)
        after = _NEXT_WORD.match(self.scan, m.end())
        return bool(_SCORE_BEFORE.intersection(before)) or (
            after is not None and after.group(1).casefold() in _SCORE_AFTER
        )

    def _marker(self, m: re.Match[str]) -> bool:
        self._put_aside(m.start(), m.end(), "citation_marker")
        return True

    def _source_reference(self, m: re.Match[str]) -> bool:
        """ "as passage 2 says" is set aside; "the source 12 km away" is a distance."""
        if self.scan.startswith("%", m.end()):
            return False
        after = _NEXT_WORD.match(self.scan, m.end())
        if after is not None and units.lookup(after.group(1)) is not None:
            return False
        self._put_aside(m.start(), m.end(), "source_reference")
        return True

    def _list_marker(self, m: re.Match[str]) -> bool:
        """A list marker at the start of a line ("2. ", "3) ") is set aside."""
        start, end = m.start(), m.end()
        scan = self.scan
        # Only the blanks right before the number are walked, so each is visited once per
        # text and the scan stays linear (searching back for the line start would not).
        line_start = start
        while line_start > 0 and scan[line_start - 1] in " \t":
            line_start -= 1
        at_line_start = line_start == 0 or scan[line_start - 1] == "\n"
        if not (at_line_start and patterns.LIST_MARKER_AFTER.match(scan, end)):
            return False
        self._put_aside(start, end, "list_marker")
        return True

    def _put_aside(self, start: int, end: int, reason: str) -> None:
        self.budget.spend()
        first, last = self.norm.original_span(start, end)
        self.set_aside.append(SetAside(Span(first, last), self.norm.original[first:last], reason))
        self.flags.add(reason)
        self._cover(start, end)

    # --- building mentions -----------------------------------------------------------------

    def _single(
        self,
        start: int,
        end: int,
        number: Number,
        scale: Decimal,
        unit: units.Unit,
        *,
        tail: Relation | None = None,
        allow_bound: bool = True,
        rated_at: int | None = None,
    ) -> None:
        context = read_context(self.scan, start, allow_bound=allow_bound)
        base, exact = units.to_base(number.value, scale, unit)
        literal = Literal(
            number.value, number.exponent, scale, unit.shift, unit.numerator, unit.denominator
        )
        relation = context.relation if tail is None else tail
        if _plural_quantifier(self.scan[start:end], number.value, unit, relation):
            # "two or more particles", "at least one dose": "several", "some".
            self._put_aside(context.start, end, "quantifier")
            return
        if rated_at is None:
            category, end = self._rated(unit.category, end)
        else:
            # The first value of "from 8.1 to 7.4 tonnes per hectare" is the same rate.
            category = self._rated(unit.category, rated_at)[0]
        if category == "multiple" and _counts_occasions(self.scan, start, end):
            # "won Wimbledon seven times", "lost only four times.": how often something
            # happened, a count, not the ratio of two amounts.
            category = NUMBER
        fact = Fact(category, relation, base)
        self._add(fact, context, end, exact=exact, literal=literal)

    def _rated(self, category: str, end: int) -> tuple[str, int]:
        """The category of an amount of ``category`` whose unit ends at ``end``, as a rate
        when a period or a measure follows, and where its phrase then ends."""
        per = _PER_TIME.match(self.scan, end) if _is_amount_of_matter(category) else None
        if per is not None:
            # "1.06 mm per hour" is a rate, not the amount "1.06 mm" (of three hours, say).
            return f"{category}/{units.lookup(per.group(1)).name}", per.end()  # type: ignore[union-attr]
        if _is_amount_of_matter(category) and (every := _RATE_ADVERB.match(self.scan, end)):
            # "3 g daily": the same rate as "3 g a day", said by an adverb.
            return f"{category}/{RATE_ADVERBS[every.group(1).casefold()]}", every.end()
        if (_is_amount_of_matter(category) or category.startswith(MONEY_PREFIX)) and (
            measure := _per_measure(self.scan, end)
        ):
            # "5 mg per kg", "$1,500 per square foot": an amount per a measure of matter is
            # its own kind, so "5 mg per lb" is no reading of it.
            return f"{category}/{measure[0]}", measure[1]
        return category, end

    def _range(self, start: int, end: int, first: _Written, second: _Written) -> None:
        """One interval from two written values, each a number, its scale and its unit."""
        low, low_exact = units.to_base(first[0].value, first[1], first[2])
        high, high_exact = units.to_base(second[0].value, second[1], second[2])
        unit1 = first[2]
        if low > high:
            low, high = high, low
        context = read_context(self.scan, start, allow_bound=False)
        # "between 6 and 8 tonnes per hectare": a range of the rate.
        category, end = self._rated(unit1.category, end)
        fact = Fact(category, Relation.RANGE, low, high)
        estimate = estimate_before(self.scan, start)
        self._add(fact, context, end, exact=low_exact and high_exact, estimate=estimate)

    def _add(
        self,
        fact: Fact,
        context: Context,
        end: int,
        *,
        exact: bool = True,
        literal: Literal | None = None,
        problem: str | None = None,
        estimate: bool = False,
    ) -> None:
        self.budget.spend()
        start, stop = self.norm.original_span(context.start, end)
        self.mentions.append(
            Mention(
                fact=fact,
                span=Span(start, stop),
                text=self.norm.original[start:stop],
                negated=context.negated,
                approximate=context.approximate,
                exact=exact,
                literal=literal,
                problem=problem,
                estimate=estimate,
            )
        )
        self._cover(context.start, end)

    def _cover(self, start: int, end: int) -> None:
        self.covered.append((start, end))

    def _unreadable(self, start: int, end: int, flag: str) -> None:
        """A number that cannot be read: a flag, and in the ``all`` scope a fact that no
        evidence supports, so the claim is never passed over it. A run of them ("one two
        three four") is one fact."""
        self.flags.add(flag)
        if self.scope is not Scope.ALL:
            return
        pending = self.unreadable
        if pending is not None and _NUMBER_WORD_GAP.fullmatch(self.scan, pending[1], start):
            self.unreadable = (pending[0], end, pending[2])
            return
        self._flush_unreadable()
        self.unreadable = (start, end, flag)

    def _flush_unreadable(self) -> None:
        if self.unreadable is None:
            return
        start, end, flag = self.unreadable
        self.unreadable = None
        written = self.scan[start:end].strip()
        context = Context(start, Relation.EQ, approximate=False, negated=False)
        self._add(Fact(NUMBER, Relation.EQ, written), context, end, problem=flag)

    def _sweep(self) -> None:
        """Every digit and number word no rule read becomes a fact: a plain number when
        its whole written token is one ("42"), else an identifier of the token ("A-1x")."""
        covered = sorted(self.covered)
        scan = self.scan
        index = 0
        done = 0  # the sweep's own facts end here; nothing before it is read again
        for token in patterns.NUMBER_TOKEN.finditer(scan):
            start, end = token.span()
            if start < done:
                continue
            while index < len(covered) and covered[index][1] <= start:
                index += 1
            if index < len(covered) and covered[index][0] <= start:
                continue
            if not scan[start].isdigit():
                if "-" in (scan[start - 1 : start], scan[end : end + 1]):
                    # "father-of-two": one number word inside a compound, a plain number.
                    self._sweep_word(start, end)
                else:
                    # A number word no rule read follows another one ("one two three").
                    self._unreadable(start, end, "ambiguous_number")
                done = end
                continue
            floor = max(done, covered[index - 1][1] if index else 0)
            ceiling = covered[index][0] if index < len(covered) else len(scan)
            first, last = _token_around(scan, start, end, floor, ceiling)
            self._sweep_fact(first, last)
            done = last

    def _sweep_word(self, start: int, end: int) -> None:
        number = parse_number(self.scan[start:end])
        unit = units.Unit(name=NUMBER, category=NUMBER)
        self._single(start, end, number, Decimal(1), unit, allow_bound=False)

    def _sweep_fact(self, start: int, end: int) -> None:
        written = self.scan[start:end]
        context = Context(start, Relation.EQ, approximate=False, negated=False)
        try:
            if not _PLAIN_NUMBER.fullmatch(written):
                raise UnreadableNumber("not_a_number")
            number = parse_number(written)
        except UnreadableNumber:
            value = identifiers.canonical(None, written)
            problem = None if len(value) <= _LONGEST_TOKEN else "unreadable_token"
            if problem is not None:
                value = value[:_LONGEST_TOKEN] + "…"
                self.flags.add(problem)
            self._add(Fact(IDENTIFIER, Relation.EQ, value), context, end, problem=problem)
            return
        unit = units.Unit(name=NUMBER, category=NUMBER)
        self._single(start, end, number, Decimal(1), unit, allow_bound=False)


# A token longer than this is no identifier anyone would cite: it is reported, not read.
_LONGEST_TOKEN = 64
_PLAIN_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


_QUANTIFIERS = {
    Relation(relation): {Decimal(SMALL_NUMBER_WORDS[w]): w for w in words}
    for relation, words in PLURAL_QUANTIFIERS.items()
}


# What joins the parts of one duration: "2 hours and 15 minutes", "1 hour 20 minutes".
_DURATION_JOIN = re.compile(r"\s*,?\s*(?:(?i:and)\s+)?")
# Lengths and masses are written in two units too, the smaller part less than one of the
# larger unit and right after it: "6 ft 2 in", "3 lb 4 oz", "1 m 80 cm".
_MEASURES_IN_TWO_UNITS = frozenset({"length_m", "mass_kg"})
_FOOT = units.FOLDED_ALIASES["foot"]


def _compound_measures(scan: str, mentions: list[Mention]) -> list[Mention]:
    """A duration, length or mass written in two units, the larger first, is one value:
    "2 hours and 15 minutes" is 8100 seconds, "3 years and 2 months" 38 months, "5 ft 10
    in" 70 inches."""
    ordered = sorted(mentions, key=lambda m: m.span.start)
    merged: list[Mention] = []
    for found in ordered:
        first = merged[-1] if merged else None
        spaced = (
            first is not None
            and _SPACES.fullmatch(scan, first.span.end, found.span.start) is not None
        )
        mention = found
        if spaced and first is not None:
            # "2h 25m": a glued "m" of whole minutes right after hours is minutes, not
            # metres. Not after a comma ("4h, 600m ascent") nor beside seconds ("100m
            # 9.58s", a sprint).
            if _in_hours(first) and _glued_minutes(found):
                mention = _as_minutes(found)
            elif _in_feet(first) and (end := inches_after(scan, found)) is not None:
                mention = in_inches(scan, found, end)
        if first is not None and _parts_of_one(scan, first, mention, spaced=spaced):
            merged[-1] = _joined_parts(scan, first, mention)
            continue
        merged.append(mention)
    return merged


def _parts_of_one(scan: str, first: Mention, second: Mention, *, spaced: bool) -> bool:
    """Whether ``first`` and ``second`` are the larger and the smaller part of one value."""
    category = first.fact.category
    if not (_is_part(first) and _is_part(second) and second.fact.category == category):
        return False
    if _unit_size(first) <= _unit_size(second):
        return False
    if category in _DURATIONS:
        return _DURATION_JOIN.fullmatch(scan, first.span.end, second.span.start) is not None
    assert second.literal is not None
    with localcontext(CONTEXT):
        under_one = second.literal.value < _unit_size(first) / _unit_size(second)
    return spaced and under_one


def _in_feet(mention: Mention) -> bool:
    literal = mention.literal
    return (
        _is_part(mention)
        and literal is not None
        and (literal.numerator, literal.denominator) == (_FOOT.numerator, _FOOT.denominator)
    )


_HOUR = Decimal(3600)
_MINUTE = Decimal(60)
_GLUED_MINUTES = re.compile(r"[0-5]?\dm")
_SPACES = re.compile(r"[ \t]+")


def _in_hours(mention: Mention) -> bool:
    """Whether ``mention`` is a duration written in hours ("2h", "2 hours")."""
    literal = mention.literal
    return (
        _is_part(mention)
        and mention.fact.category == "time_seconds"
        and literal is not None
        and literal.numerator == _HOUR
        and literal.denominator == 1
    )


def _glued_minutes(mention: Mention) -> bool:
    """Whether ``mention`` is whole minutes under 60 written with a glued "m" ("25m"),
    read as metres."""
    literal = mention.literal
    return (
        mention.fact.category == "length_m"
        and mention.fact.relation is Relation.EQ
        and literal is not None
        and literal.scale == 1
        and literal.numerator == 1
        and literal.denominator == 1
        and _GLUED_MINUTES.fullmatch(mention.text) is not None
    )


def _as_minutes(mention: Mention) -> Mention:
    assert mention.literal is not None
    literal = replace(mention.literal, numerator=_MINUTE)
    fact = Fact("time_seconds", Relation.EQ, literal.to_base())
    return replace(mention, fact=fact, literal=literal)


def _is_part(mention: Mention) -> bool:
    """Whether ``mention`` may be one part of a value written in two units."""
    return (
        (mention.fact.category in _DURATIONS or mention.fact.category in _MEASURES_IN_TWO_UNITS)
        and mention.fact.relation is Relation.EQ
        and mention.literal is not None
        and mention.literal.scale == 1
    )


def _unit_size(mention: Mention) -> Decimal:
    literal = mention.literal
    assert literal is not None
    with localcontext(CONTEXT):
        return literal.numerator / literal.denominator


def _joined_parts(scan: str, first: Mention, second: Mention) -> Mention:
    """One mention for both parts, written in the smaller part's unit and precision."""
    assert isinstance(first.fact.value, Decimal)
    assert isinstance(second.fact.value, Decimal)
    assert second.literal is not None
    with localcontext(CONTEXT):
        total = first.fact.value + second.fact.value
        written = second.literal.from_base(total)
    literal = replace(second.literal, value=written)
    return replace(
        first,
        fact=Fact(first.fact.category, Relation.EQ, total),
        span=Span(first.span.start, second.span.end),
        text=scan[first.span.start : second.span.end],
        literal=literal,
        exact=first.exact and second.exact,
    )


def _plural_quantifier(written: str, value: Decimal, unit: units.Unit, relation: Relation) -> bool:
    """Whether a count or plain number is "one" or "two" in words under the lower bound of
    a quantifier: "at least two", "one or more", "more than one"."""
    if unit.category != NUMBER and not unit.category.startswith(COUNT_PREFIX):
        return False
    if any(c.isdigit() for c in written):
        return False  # "at least 2 users" is written as a number: it is one
    words = _QUANTIFIERS.get(relation, {})
    return words.get(value) is not None and words[value] in written.casefold().split()


# An adverb of frequency right after an amount ("3 g daily"), with no noun after it ("a 5 GB
# monthly plan" is no rate). Before the amount ("a daily dose of 3 g") it may describe the
# thing rather than the amount, and an answer leaving it out would be flagged, so it is
# not read there.
_RATE_ADVERB = re.compile(
    rf"\s++(?i:({patterns.alternation(RATE_ADVERBS)}))(?![\w-])"
    rf"(?!\s++(?!(?i:{patterns.alternation(FUNCTION_WORDS)})\b)[A-Za-z])"
)


# "per kg", "/sq ft", "a pound": a unit of mass, length, area or volume after an
# amount. Two words are tried before one ("square foot" before "square").
_PER_MEASURE = re.compile(
    r"(?:\s++(?i:of)\s++[A-Za-z][A-Za-z\-]*+)?\s*(?:(?i:per|an?)\s+|/\s*)"
    r"(?P<one>[A-Za-z][A-Za-z²³]*)(?:\s+(?P<two>[A-Za-z][A-Za-z²³]*))?"
)


def _per_measure(scan: str, end: int) -> tuple[str, int] | None:
    """The unit of matter an amount at ``end`` is stated per, by name, and where that
    unit ends; None when no such unit follows."""
    per = _PER_MEASURE.match(scan, end)
    if per is None:
        return None
    tries = [(per["one"], per.end("one"))]
    if per["two"] is not None:
        tries.insert(0, (f"{per['one']} {per['two']}", per.end("two")))
    for written, stop in tries:
        unit = units.lookup(written)
        if unit is not None and unit.category.startswith(MEASURE_PREFIXES):
            return unit.name, stop
    return None


# What follows "N times" when it counts occasions: the clause ends, or a preposition or
# conjunction starts another part ("seven times in a row", "three times and"); not a
# comparison ("three times higher", "3 times the size", "twice as long").
_OCCASIONS_END = re.compile(
    r"\s*+(?:[.,;:!?)\]]|$|(?i:in|at|on|during|over|since|between|before|after|with|against"
    r"|and|or|altogether|overall)\b)"
)
# Right before "N times", a verb of being makes it a comparison: "the ratio is 7 times".
_BEING = frozenset(("is", "was", "are", "were", "be", "been", "being"))


def _counts_occasions(scan: str, start: int, end: int) -> bool:
    """Whether a multiple ending in the word "times" counts how often something happened;
    not after a verb of change ("grew 10 times" is tenfold) or right after one of being."""
    written = scan[start:end]
    if written[-5:].casefold() != "times" or _OCCASIONS_END.match(scan, end) is None:
        return False
    before = previous_words(scan, start, count=3)
    return _CHANGE_WORDS.isdisjoint(before) and (not before or before[0] not in _BEING)


def _is_amount_of_matter(category: str) -> bool:
    """Units whose "per hour" makes a rate of them: lengths (rain), volumes, masses,
    sizes, energies, and how many times ("twice a day", "3 times weekly": a frequency,
    never the ratio of two amounts); not money ("$15 an hour" is how pay is read and
    written) nor time."""
    return category.partition("_")[0] in {"length", "volume", "mass", "size", "energy", "multiple"}


def _token_around(scan: str, start: int, end: int, floor: int, ceiling: int) -> tuple[int, int]:
    """The written token holding the digits at ``[start, end)``, within ``[floor,
    ceiling)``, without trailing punctuation ("42." is "42")."""
    chars = patterns.TOKEN_CHARS
    first = start
    while first > floor and scan[first - 1] in chars:
        first -= 1
    last = end
    while last < ceiling and scan[last] in chars:
        last += 1
    while last > end and scan[last - 1] in ".,:;-/'":
        last -= 1
    while first < start and scan[first] in ".,:;-/'":
        first += 1
    return first, last


_IDENTIFIER_READERS: dict[str, Callable[[_Reader, re.Match[str]], bool]] = {
    "a_idword": _Reader._identifier_word,
    "a_idv": _Reader._identifier_version,
    "a_idname": _Reader._identifier_name,
    "a_idmulti": _Reader._identifier_multi,
    "a_iddotted": _Reader._identifier_dotted,
    "a_idcode": _Reader._identifier_code,
}
# Readers whose refused candidate is read again as a quantity (see _dispatch).
_READ_AGAIN = frozenset({"a_share", "a_iso_month"})
_READERS: dict[str, Callable[[_Reader, re.Match[str]], bool]] = {
    **_IDENTIFIER_READERS,
    "a_marker": _Reader._marker,
    "a_source": _Reader._source_reference,
    "a_year_span": _Reader._year_span,
    "a_iso_month": _Reader._iso_month,
    "a_date": _Reader._date,
    "a_numeric_date": _Reader._numeric_date,
    "a_month": _Reader._month,
    "a_qletter": _Reader._quarter_letter,
    "a_qwords": _Reader._quarter_words,
    "a_qdigit": _Reader._quarter_digit,
    "a_fiscal": _Reader._fiscal_year,
    "a_decade": _Reader._decade,
    "a_decade_short": _Reader._decade_short,
    "a_year_part": _Reader._year_part,
    "a_century": _Reader._century,
    "a_clock": _Reader._clock,
    "a_money": _Reader._money,
    "a_half": _Reader._half,
    "a_share": _Reader._share,
    "a_multiple": _Reader._multiple,
    "a_quantity": _Reader._quantity,
}


def _opens_sentence(scan: str, start: int) -> bool:
    """Whether ``start`` is the first word of a sentence, a line or a list item."""
    before = scan[max(0, start - 8) : start].rstrip(" \t\"'“‘(")
    return not before or before[-1] in ".!?:;)\n-•*–—"


def _year_after(m: re.Match[str], prefix: str) -> str | None:
    year = m[f"{prefix}_y"]
    if year is not None:
        return str(year)
    short = m[f"{prefix}_yy"] or m[f"{prefix}_fy"]
    return None if short is None else dates.full_year(short)


def _is_year_like(written: str) -> bool:
    return len(written) == 4 and written.isdigit()


def _is_year_before(written: str, scale: Decimal, next_value: Decimal) -> bool:
    """A range is written low to high: a year-like first number above the second is a year."""
    return scale == 1 and _is_year_like(written) and next_value < int(written) <= 2100


def _next_year_span(scan: str, start: int) -> bool:
    """Whether a year and the next are written at ``start`` ("2025/26")."""
    span = _YEAR_SPAN.match(scan, start)
    return span is not None and _next_year(span["ys_y"], span["ys_yy"])


def _next_year(year: str, last_two: str) -> bool:
    """Whether two digits are the last two of the year after ``year`` ("2023", "24")."""
    return (int(year) + 1) % 100 == int(last_two)


_YEAR_SPAN = re.compile(patterns.YEAR_SPAN)


def _year_continued(first: str, second: str) -> str | None:
    """ "2019-20": the second year written with its last two digits."""
    if len(second) != 2 or not second.isdigit():
        return None
    return f"{first[:2]}{second}"


def _after_digit_group(scan: str, start: int, number_text: str) -> bool:
    """True for three digits right after a group of one to three digits and a space, as
    in "1 000" or "12 500 000"; not after a longer number ("SC3 2442 400 MHz")."""
    if not (len(number_text) == 3 and number_text.isdigit() and start >= 2):
        return False
    if scan[start - 1] != " " or not scan[start - 2].isdigit():
        return False
    digits = 0
    position = start - 2
    while position >= 0 and scan[position].isdigit():
        digits += 1
        position -= 1
    # A group of three may itself follow a group ("12 500 000").
    return digits <= 3


def _trailing(text: str | None) -> Relation | None:
    if text is None:
        return None
    return patterns.TRAILING_OF[" ".join(text.split()).casefold()]


def _scale(m: re.Match[str], name: str) -> Decimal:
    word = m[name]
    if word is not None:
        return units.SCALE_WORDS[word.casefold()]
    letter = m[f"{name}_letter"]
    return Decimal(1) if letter is None else units.SCALE_LETTERS[letter]


def _currency_scale(text: str | None) -> Decimal:
    if text is None:
        return Decimal(1)
    folded = text.casefold()
    return units.SCALE_WORDS.get(folded) or units.CURRENCY_SCALES[folded]


def _unit_of(m: re.Match[str], name: str) -> units.Unit | None:
    text = m[name] or m[f"{name}_spaced"]
    if text is None:
        return None
    cue = _CONTEXT_CUES.get(text.casefold() if len(text) > 1 else text)
    glued = m.string[m.start(name) - 1 : m.start(name)] == "-"
    if cue is not None and not glued and not _on_line(cue, m.string, m.start()):
        return None  # "a grade of 3 C", "won 70 pounds": another meaning of the word
    return _unit(text)


_CONTEXT_CUES = {alias: re.compile(cue, re.IGNORECASE) for alias, cue in CONTEXT_UNITS.items()}
_HEAT = re.compile(HEAT_CUE, re.IGNORECASE)
# How far around a number its line is searched for what a unit word measures.
_CUE_REACH = 120


def _on_line(cue: re.Pattern[str], scan: str, start: int) -> bool:
    """Whether the line around a number speaks of what a unit of two meanings measures:
    "held 121 C for 60 minutes", "32 kg, roughly 70 pounds"; "a 15-pound turkey" needs
    no word, a unit joined by a hyphen is one."""
    low = max(scan.rfind("\n", 0, start) + 1, start - _CUE_REACH)
    high = scan.find("\n", start)
    high = start + _CUE_REACH if high < 0 else min(high, start + _CUE_REACH)
    return cue.search(scan, low, high) is not None


_RATING_SCALES = frozenset(RATING_SCALES)
_RATING_WORDS = frozenset(RATING_WORDS)
# What a rating scale may be of: "4 out of 5 stars" rates; "8 out of 10 free throws" counts.
_RATING_UNITS = frozenset({"star", "point"})
# The rating before "out of" or "/", perhaps with its unit: "4.6 out of ", "4 stars out of ".
_RATED = re.compile(
    r"\d++(?P<decimals>\.\d++)?(?P<unit>[ \t]++(?:stars?|points?))?"
    r"[ \t]*+(?:out[ \t]++of|/)[ \t]*+$"
)


def _tops_a_rating(scan: str, start: int) -> bool:
    """Whether the number at ``start`` is the top of the scale a rating is given on: "rated
    4.6 out of 5", "Rating: 4/5", but not "4 out of 5 dentists" (a share, said of nobody's
    rating)."""
    rated = _RATED.search(scan, max(0, start - 24), start)
    if rated is None:
        return False
    if rated["decimals"] is not None or rated["unit"] is not None:
        return True
    return not _RATING_WORDS.isdisjoint(previous_words(scan, rated.start(), count=3))


_AGE_WORDS = frozenset(AGE_WORDS)
_AGE_LINKS = FUNCTION_WORDS | frozenset(AGE_LINK_WORDS)


def _after_age_word(scan: str, start: int) -> bool:
    """Whether the number at ``start`` follows an age word ("aged 25", "the age was set at
    25") with only linking words between: an age in years, as "25 years old" is."""
    for word in previous_words(scan, start, count=4):
        if word in _AGE_WORDS:
            return True
        if word not in _AGE_LINKS:
            return False
    return False


_APPOSITIVE_OPEN = re.compile(r"(?<!\w)([^\W\d_]{2,}) ?, ?\Z")
_APPOSITIVE_CLOSE = re.compile(r" ?, ?[^\W\d_]")


def _appositive_age(scan: str, start: int, end: int, written: str) -> bool:
    """Whether the number at ``start`` is an age set off by commas after a name: "Anna
    Vogt, 52, said" (see phrases.APPOSITIVE_AGE_MAX)."""
    if not written.isdigit() or not 0 < int(written) <= APPOSITIVE_AGE_MAX:
        return False
    if _APPOSITIVE_CLOSE.match(scan, end) is None:
        return False
    opened = _APPOSITIVE_OPEN.search(scan[max(0, start - 40) : start])
    if opened is None:
        return False
    name = opened.group(1).casefold()
    return name not in FUNCTION_WORDS and name not in ANCHOR_UNWORDS


def _unit(text: str) -> units.Unit:
    unit = units.lookup(text)
    if unit is None:
        raise AssertionError(f"pattern matched unknown unit {text!r}")
    return unit


def _inch_mark(scan: str, start: int, end: int) -> bool:
    """Whether the double quote glued after a number is the inch mark: no quotation is open
    on its line before the number (an even count of double quotes), so it closes none:
    'Display: 15.6" FHD' is inches, '"size": "15.6"' and 'the "Top 10" list' are not."""
    if _INCH_MARK.match(scan, end) is None:
        return False
    floor = max(0, start - _QUOTE_REACH)
    line = scan.rfind("\n", floor, start) + 1 or floor
    return scan.count('"', line, start) % 2 == 0
