"""Extraction: text in, the quantities and dates it states out (pure, linear time).

One scan of the NFKC-normalized text with the master pattern finds every candidate;
each candidate is then read in a bounded window of its own clause for a bound ("at
most"), a hedge ("about") and a negation ("do not"). Spans refer to the original text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Context, Decimal, Inexact

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
    if _after_digit_group(scan, match.start("q_num1"), match["q_num1"]):
        # "1 000 MB": a space may group thousands, and "000 MB" alone would read as zero.
        raise UnreadableNumber("ambiguous_number")
    scale1 = _scale(match["q_scale1"])
    unit1_text = match["q_unit1"] or match["q_unit1_spaced"]
    unit1 = None if unit1_text is None else _unit(unit1_text)
    if match["q_num2"] is None:
        if unit1 is None:
            return [_bare(match, scan, norm, first, scale1)]
        return [_single(match, scan, norm, first, scale=scale1, unit=unit1)]
    second = parse_number(match["q_num2"])
    scale2 = _scale(match["q_scale2"])
    unit2_text = match["q_unit2"] or match["q_unit2_spaced"]
    if unit2_text is None:
        # Only bare-number mode lets a range go without any unit: "3-5" is one interval.
        unit2 = units.Unit(name=BARE_CATEGORY, category=BARE_CATEGORY)
        _reject_identifier(scan, match)
    else:
        unit2 = _unit(unit2_text)
    if unit1 is None:
        unit1 = unit2
    if unit1.category != unit2.category:
        # "5 MB to 10 seconds" is not an interval: each value stands alone.
        head = _single(
            match, scan, norm, first, scale=scale1, unit=unit1, end=match.end("q_has_unit1")
        )
        start = match.start("q_num2")
        context = _context(scan, start, allow_bound=False)
        base, exact = _to_base(second.value, scale2, unit2)
        fact = Fact(unit2.category, context.relation, base)
        return [head, _mention(norm, fact, context, match.end(), exact=exact)]
    low, low_exact = _to_base(first.value, scale1, unit1)
    high, high_exact = _to_base(second.value, scale2, unit2)
    if low > high:
        low, high = high, low
    context = _context(scan, match.start(), allow_bound=False)
    fact = Fact(unit1.category, Relation.RANGE, low, high)
    return [_mention(norm, fact, context, match.end(), exact=low_exact and high_exact)]


def _after_digit_group(scan: str, start: int, number_text: str) -> bool:
    """True for three digits right after "<digit><space>", as in "1 000"."""
    return (
        len(number_text) == 3
        and number_text.isdigit()
        and start >= 2
        and scan[start - 1] == " "
        and scan[start - 2].isdigit()
    )


def _single(
    match: re.Match[str],
    scan: str,
    norm: NormalizedText,
    number: Number,
    *,
    scale: Decimal,
    unit: units.Unit,
    end: int | None = None,
) -> Mention:
    context = _context(scan, match.start(), allow_bound=True)
    base, exact = _to_base(number.value, scale, unit)
    literal = Literal(
        number.value, number.exponent, scale, unit.shift, unit.numerator, unit.denominator
    )
    fact = Fact(unit.category, context.relation, base)
    stop = match.end() if end is None else end
    return _mention(norm, fact, context, stop, exact=exact, literal=literal)


def _bare(
    match: re.Match[str], scan: str, norm: NormalizedText, number: Number, scale: Decimal
) -> Mention:
    _reject_identifier(scan, match)
    unit = units.Unit(name=BARE_CATEGORY, category=BARE_CATEGORY)
    return _single(match, scan, norm, number, scale=scale, unit=unit)


def _reject_identifier(scan: str, match: re.Match[str]) -> None:
    """Refuse a unitless number that is a version ("version 3"), or a list marker ("2. ")."""
    start = match.start()
    if patterns.VERSION_BEFORE.search(scan, max(0, start - 12), start):
        raise UnreadableNumber("version_or_identifier")
    # Only the blanks right before the number are walked, so each is visited once per
    # text and the scan stays linear (searching back for the line start would not).
    line_start = start
    while line_start > 0 and scan[line_start - 1] in " \t":
        line_start -= 1
    at_line_start = line_start == 0 or scan[line_start - 1] == "\n"
    if at_line_start and patterns.LIST_MARKER_AFTER.match(scan, match.end()):
        raise UnreadableNumber("list_marker")


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
    # The clause window reversed, with one more character so that a phrase at its far
    # edge can be told apart from the tail of a longer word.
    window_start = max(0, start - _CLAUSE_WINDOW)
    behind = scan[max(0, window_start - 1) : start][::-1]
    clause_length = start - window_start
    brk = patterns.REVERSED_CLAUSE_BREAK.search(behind, 0, clause_length)
    if brk is not None:
        clause_length = brk.start()
    prefix_length = min(clause_length, _PREFIX_WINDOW)
    prefix = patterns.REVERSED_PREFIX.match(behind, 0, prefix_length + 1)
    assert prefix is not None  # every part is optional
    relation = Relation.EQ
    approximate = False
    fact_start = start
    bound = prefix["bound"]
    if bound is not None and allow_bound:
        relation = patterns.BOUND_OF[" ".join(bound[::-1].split()).casefold()]
        fact_start = start - prefix.end("bound")
    if prefix["hedge"] is not None:
        approximate = True
        fact_start = min(fact_start, start - prefix.end("hedge"))
    negation_end = start - prefix.end()
    clause_start = start - clause_length
    negated = any(
        cue["cue"] is not None
        for cue in patterns.NEGATION.finditer(scan, clause_start, negation_end)
    )
    return _Context(fact_start, relation, approximate, negated)


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
    # A fresh context: a copy of the shared one would inherit whatever flags earlier
    # conversions raised, and every later division would then look inexact.
    context = Context(prec=CONTEXT.prec)
    quotient = context.divide(product, unit.denominator)
    if not context.flags[Inexact]:
        return quotient, True
    return quotient.quantize(_INEXACT_PLACES, context=CONTEXT), False
