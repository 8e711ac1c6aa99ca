"""Extraction: text in, the quantities and dates it states out (pure, linear time).

One scan of the NFKC-normalized text with the master pattern finds every candidate;
each candidate is then read in a bounded window of its own clause for a bound ("at
most"), a hedge ("about") and a negation ("do not"). Spans refer to the original text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, Inexact

from worker.quantities import dates, patterns, units
from worker.quantities.facts import (
    CONTEXT,
    Fact,
    Literal,
    Mention,
    Relation,
    Span,
)
from worker.quantities.numbers import Number, UnreadableNumber, parse_number
from worker.quantities.phrases import FRACTION_WORDS
from worker.quantities.text import NormalizedText, normalize

# How far back from a number the bound, hedge and negation cues are looked for.
_PREFIX_WINDOW = 40
_CLAUSE_WINDOW = 120
# Inexact conversions (°F -> °C, psi -> kPa, km/h -> m/s) are stored to this many
# decimal places: far finer than any written precision, and identical for equal inputs.
_INEXACT_PLACES = Decimal("1e-9")

BARE_CATEGORY = "number"


@dataclass(frozen=True, slots=True)
class Extraction:
    """Everything found in one text: its facts, and flags for what could not be read."""

    mentions: tuple[Mention, ...]
    flags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Context:
    start: int
    relation: Relation
    approximate: bool
    negated: bool


def extract(text: str, *, bare_numbers: bool = False) -> Extraction:
    """Find every quantity and date in ``text``.

    Without ``bare_numbers`` a number counts only with a unit, a currency or as part of
    a date; with it, unitless numbers become facts of category ``number`` (except
    versions, identifiers and list markers).
    """
    norm = normalize(text)
    scan = norm.text
    pattern = patterns.QUANTITY_OR_BARE if bare_numbers else patterns.QUANTITY
    mentions: list[Mention] = []
    flags: set[str] = set()
    for match in pattern.finditer(scan):
        try:
            found = _read(match, scan, norm)
        except UnreadableNumber as exc:
            flags.add(exc.flag)
            continue
        for mention in found:
            if mention.problem is not None:
                flags.add("invalid_date")
            mentions.append(mention)
    return Extraction(tuple(mentions), tuple(sorted(flags)))


def _read(match: re.Match[str], scan: str, norm: NormalizedText) -> list[Mention]:
    if match["q_num1"] is not None:
        return _quantity(match, scan, norm)
    if match["iso"] is not None:
        year, month, day = match["iso"].split("-")
        return [_date(match, scan, norm, dates.calendar_date(year, month, day))]
    if match["mdy_m"] is not None:
        value = dates.calendar_date(
            match["mdy_y"], dates.month_number(match["mdy_m"]), match["mdy_d"]
        )
        return [_date(match, scan, norm, value)]
    if match["dmy_d"] is not None:
        value = dates.calendar_date(
            match["dmy_y"], dates.month_number(match["dmy_m"]), match["dmy_d"]
        )
        return [_date(match, scan, norm, value)]
    if match["my_m"] is not None:
        return [_date(match, scan, norm, dates.month_of_year(match["my_m"], match["my_y"]))]
    if match["q_n"] is not None:
        value = dates.quarter(int(match["q_n"][1]), match["q_y"])
        return [_date(match, scan, norm, value)]
    if match["qw_n"] is not None:
        value = dates.quarter(dates.quarter_word(match["qw_n"]), match["qw_y"])
        return [_date(match, scan, norm, value)]
    if match["cur"] is not None:
        return [_money(match, scan, norm)]
    return [_half(match, scan, norm)]


def _date(match: re.Match[str], scan: str, norm: NormalizedText, value: dates.DateValue) -> Mention:
    context = _context(scan, match.start(), allow_bound=False)
    fact = Fact(value.category, Relation.EQ, value.text)
    return _mention(norm, fact, context, match.end(), problem=value.problem)


def _money(match: re.Match[str], scan: str, norm: NormalizedText) -> Mention:
    category = units.CURRENCY_PREFIXES[match["cur"]]
    number = parse_number(match["cur_num"])
    scale_text = match["cur_scale"]
    scale = Decimal(1)
    if scale_text is not None:
        folded = scale_text.casefold()
        scale = units.SCALE_WORDS.get(folded) or units.CURRENCY_SCALES[folded]
    unit = units.Unit(name=category, category=category)
    return _single(match, scan, norm, number, scale=scale, unit=unit)


def _half(match: re.Match[str], scan: str, norm: NormalizedText) -> Mention:
    unit = _unit(match["half_unit"])
    value = Decimal(FRACTION_WORDS[match["half"].casefold()])
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)
    return _single(match, scan, norm, Number(value, exponent), scale=Decimal(1), unit=unit)


def _quantity(match: re.Match[str], scan: str, norm: NormalizedText) -> list[Mention]:
    first = parse_number(match["q_num1"])
    scale1 = _scale(match["q_scale1"])
    unit1_text = match["q_unit1"] or match["q_unit1_spaced"]
    if match["q_num2"] is None:
        if unit1_text is None:
            return [_bare(match, scan, norm, first, scale1)]
        return [_single(match, scan, norm, first, scale=scale1, unit=_unit(unit1_text))]
    second = parse_number(match["q_num2"])
    scale2 = _scale(match["q_scale2"])
    unit2 = _unit(match["q_unit2"] or match["q_unit2_spaced"])
    unit1 = unit2 if unit1_text is None else _unit(unit1_text)
    if unit1.category != unit2.category:
        # "5 MB to 10 seconds" is not an interval: the second value stands alone.
        start = match.start("q_num2")
        context = _context(scan, start, allow_bound=False)
        base, exact = _to_base(second.value, scale2, unit2)
        fact = Fact(unit2.category, context.relation, base)
        return [_mention(norm, fact, context, match.end(), exact=exact)]
    low, low_exact = _to_base(first.value, scale1, unit1)
    high, high_exact = _to_base(second.value, scale2, unit2)
    if low > high:
        low, high = high, low
    context = _context(scan, match.start(), allow_bound=False)
    fact = Fact(unit1.category, Relation.RANGE, low, high)
    return [_mention(norm, fact, context, match.end(), exact=low_exact and high_exact)]


def _single(
    match: re.Match[str],
    scan: str,
    norm: NormalizedText,
    number: Number,
    *,
    scale: Decimal,
    unit: units.Unit,
) -> Mention:
    context = _context(scan, match.start(), allow_bound=True)
    base, exact = _to_base(number.value, scale, unit)
    literal = Literal(
        number.value, number.exponent, scale, unit.shift, unit.numerator, unit.denominator
    )
    fact = Fact(unit.category, context.relation, base)
    return _mention(norm, fact, context, match.end(), exact=exact, literal=literal)


def _bare(
    match: re.Match[str], scan: str, norm: NormalizedText, number: Number, scale: Decimal
) -> Mention:
    start = match.start()
    if patterns.VERSION_BEFORE.search(scan, max(0, start - 12), start):
        raise UnreadableNumber("version_or_identifier")
    line_start = scan.rfind("\n", 0, start) + 1
    if not scan[line_start:start].strip() and patterns.LIST_MARKER_AFTER.match(scan, match.end()):
        raise UnreadableNumber("list_marker")
    unit = units.Unit(name=BARE_CATEGORY, category=BARE_CATEGORY)
    return _single(match, scan, norm, number, scale=scale, unit=unit)


def _mention(
    norm: NormalizedText,
    fact: Fact,
    context: _Context,
    end: int,
    *,
    exact: bool = True,
    literal: Literal | None = None,
    problem: str | None = None,
) -> Mention:
    start, stop = norm.original_span(context.start, end)
    return Mention(
        fact=fact,
        span=Span(start, stop),
        text=norm.original[start:stop],
        negated=context.negated,
        approximate=context.approximate,
        exact=exact,
        literal=literal,
        problem=problem,
    )


def _context(scan: str, start: int, *, allow_bound: bool) -> _Context:
    """Read the bound, hedge and negation that qualify the value starting at ``start``."""
    window_start = max(0, start - _CLAUSE_WINDOW)
    clause_start = window_start
    for brk in patterns.CLAUSE_BREAK.finditer(scan, window_start, start):
        clause_start = brk.end()
    prefix = patterns.PREFIX.search(scan, max(clause_start, start - _PREFIX_WINDOW), start)
    relation = Relation.EQ
    approximate = False
    fact_start = start
    if prefix is not None and prefix.start() != start:
        bound = prefix["bound"]
        if bound is not None and allow_bound:
            relation = _bound_relation(prefix)
            fact_start = prefix.start("bound")
        if prefix["hedge"] is not None:
            approximate = True
            fact_start = min(fact_start, prefix.start("hedge"))
    negation_end = prefix.start() if prefix is not None else start
    negated = patterns.NEGATION.search(scan, clause_start, negation_end) is not None
    return _Context(fact_start, relation, approximate, negated)


def _bound_relation(prefix: re.Match[str]) -> Relation:
    for index, relation in enumerate(patterns.BOUND_RELATIONS):
        if prefix[f"b{index}"] is not None:
            return relation
    raise AssertionError("bound group without a relation")


def _scale(text: str | None) -> Decimal:
    return Decimal(1) if text is None else units.SCALE_WORDS[text.casefold()]


def _unit(text: str) -> units.Unit:
    unit = units.lookup(text)
    if unit is None:
        raise AssertionError(f"pattern matched unknown unit {text!r}")
    return unit


def _to_base(value: Decimal, scale: Decimal, unit: units.Unit) -> tuple[Decimal, bool]:
    """Convert exactly where decimal arithmetic allows; otherwise round very finely."""
    product = CONTEXT.multiply(
        CONTEXT.add(CONTEXT.multiply(value, scale), unit.shift), unit.numerator
    )
    if unit.denominator == 1:
        return product, True
    context = CONTEXT.copy()
    quotient = context.divide(product, unit.denominator)
    if not context.flags[Inexact]:
        return quotient, True
    return quotient.quantize(_INEXACT_PLACES, context=CONTEXT), False
