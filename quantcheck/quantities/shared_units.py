"""Numbers that take a unit written once for several of them (pure).

A unit written after the last of several values may belong to each of them: the items of
a list ("38.8, 45.7 and 54.5 years"), the measures of a product or a room ("24 x 16 x 30
in", "12 by 14 feet"), a value said again without its unit ("2 hours instead of 3.5").
Extraction reads each number where it stands; these passes then give the bare ones the
unit they share.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

from quantcheck.quantities import units
from quantcheck.quantities.categories import NUMBER, has_unit
from quantcheck.quantities.facts import Fact, Literal, Mention, Relation, Span
from quantcheck.quantities.patterns import FROM_VALUE, alternation
from quantcheck.quantities.phrases import (
    UNIT_CARRIED_DETERMINERS,
    UNIT_CARRIED_QUALIFIERS,
    UNIT_CARRYING_WORDS,
)

# What joins the items of a list of values: "38.8, 45.7, and 54.5 years", "4 or 8 GB",
# "4/8GB" (options), "4,287 / 1,789 / 1,463 mm" (a spec sheet's measures), and a part
# and its whole ("112 of the 128 km").
# A hyphen may hang on the first member: "the 24- and 60-month CDs" are both terms in months.
_LIST_JOIN = re.compile(
    r"-?\s*(?:,\s*(?:(?:and|or)\s+)?|(?:and|or|&)\s+)|\s*/\s*|\s+(?i:of)\s+(?:(?i:the)\s+)?"
)
# A value said again in other terms, not a list's next item: "229, or about 92%".
_RESTATED = re.compile(r"\s*,?\s*(?i:or)\s+")
# A part of something measured before it: "371 days ..., 232 of them".
_PART_OF_BEFORE = re.compile(r"\s+(?i:of)\s+(?i:them|these|those|which)\b")
# How far back the measure a part is of may be, and what may not stand between them.
_PART_REACH = 80
_SENTENCE_BREAK = re.compile(r"[.!?;]\s")

# What carries a unit over to a bare number after it: "2 hours instead of 3.5", "every 7
# minutes instead of every 10", "40 minutes instead of the usual 20".
_UNIT_CARRIED = re.compile(
    rf"\s*,?\s*(?i:{alternation(UNIT_CARRYING_WORDS)})\s+"
    rf"(?:(?i:{alternation(UNIT_CARRIED_DETERMINERS)})\s+)?"
    rf"(?:(?i:{alternation(UNIT_CARRIED_QUALIFIERS)})\s+)?"
)

# A change's first value after its last: "41.7 years, up from 40.2", "rose to 12 weeks
# from 8" (plain "from" only after "to": "5 km from 3 stations" names no change).
_CHANGED_FROM = re.compile(
    r"\s*,?\s*(?P<way>(?i:up|down)\s+)?(?i:from)\s+(?:(?i:about|around|roughly|nearly)\s+)?"
)
# How far before a value "to" is looked for.
_REACH_BEFORE = 24
_TO_BEFORE = re.compile(r"\b(?i:to)\s+(?:(?i:about|around|roughly|nearly)\s+)?$")

# The measures of one object, each along its own side: "24 x 16 x 30 in", "12 by 14 feet".
# The first members are read as multiples ("24 x", as in "4x faster") or as bare numbers
# before "by"; a chain of them ending in a length is lengths throughout.
_BY = re.compile(r"\s*(?:[x×]|(?i:by))\s*")
_TIMES_MARK = re.compile(r"([\d.,]+)\s*[x×]")
_LENGTH = "length_m"
_INCH = units.FOLDED_ALIASES["inch"]
# "30 in" after other measures, or after feet: the unit, not the preposition, when no word
# follows it in the clause ("24 x 16 x 30 in", "5 ft 10 in (1.78 m)").
_INCHES_AFTER = re.compile(
    r"\s*in\b\.?(?=\s*(?:$|[^\w\s]|(?:and|or|tall|wide|long|deep|high|thick)\b))", re.M
)


def shared_units(scan: str, mentions: list[Mention]) -> list[Mention]:
    """Every bare number that shares a unit written once: the measures of one object first,
    then lists and values said again."""
    return _lists(scan, _dimensions(scan, mentions))


def _lists(scan: str, mentions: list[Mention]) -> list[Mention]:
    """A list of plain numbers ending in a value with a unit shares that unit: in "38.8,
    45.7 and 54.5 years" each is a number of years, in "4 or 8 GB" both are sizes."""
    ordered = sorted(mentions, key=lambda m: m.span.start)
    shared = list(ordered)
    run: list[int] = []
    for index, mention in enumerate(ordered):
        joined = bool(run) and _LIST_JOIN.fullmatch(
            scan, ordered[index - 1].span.end, mention.span.start
        )
        if not joined:
            run = []
        if _is_bare(mention):
            before = ordered[index - 1] if index else None
            if before is not None and _has_own_unit(before) and _carried(scan, before, mention):
                # "two hours instead of three and a half": the unit is left unsaid.
                shared[index] = _with_unit_of(mention, before)
                run = []
                continue
            whole = _whole_of(scan, shared[:index], mention)
            if whole is not None:
                shared[index] = _with_unit_of(mention, whole)
                run = []
                continue
            run.append(index)
            continue
        last = mention.literal
        restated = mention.approximate and _RESTATED.fullmatch(
            scan, ordered[index - 1].span.end, mention.span.start
        )
        if run and last is not None and _has_own_unit(mention) and not restated:
            for member in run:
                shared[member] = _with_unit_of(ordered[member], mention)
        run = []
    return shared


def _whole_of(scan: str, before: list[Mention], bare: Mention) -> Mention | None:
    """The measure a bare number is a part of ("232 of them" after "371 days"): the
    nearest value with a unit before it in its sentence, when "of them", "of which" and
    their like follow it."""
    if _PART_OF_BEFORE.match(scan, bare.span.end) is None:
        return None
    for candidate in reversed(before):
        if bare.span.start - candidate.span.end > _PART_REACH or _SENTENCE_BREAK.search(
            scan, candidate.span.end, bare.span.start
        ):
            return None
        if _has_own_unit(candidate):
            return candidate
    return None


def _carried(scan: str, before: Mention, bare: Mention) -> bool:
    """Whether the words between a value with a unit and a bare number after it give the
    bare number that unit."""
    if _UNIT_CARRIED.fullmatch(scan, before.span.end, bare.span.start):
        return True
    # A change's first value is spanned with its "from" ("from 40.2"): read it with the
    # words before it.
    opening = FROM_VALUE.match(bare.text)
    reach = bare.span.start + (opening.end() if opening is not None else 0)
    changed = _CHANGED_FROM.fullmatch(scan, before.span.end, reach)
    if changed is None:
        return False
    low = max(0, before.span.start - _REACH_BEFORE)
    return bool(changed["way"]) or _TO_BEFORE.search(scan, low, before.span.start) is not None


def _dimensions(scan: str, mentions: list[Mention]) -> list[Mention]:
    """The measures of one object written with one unit after the last share it: in "24 x
    16 x 30 in" each is a length in inches, in "12 by 14 feet" both are lengths in feet.
    Each member keeps its own number; none is a multiple."""
    ordered = sorted(mentions, key=lambda m: m.span.start)
    shared = list(ordered)
    chain: list[int] = []
    for index, mention in enumerate(ordered):
        if chain and _links(scan, ordered[chain[-1]], mention):
            chain.append(index)
        else:
            _share_length(scan, ordered, shared, chain)
            chain = [index]
    _share_length(scan, ordered, shared, chain)
    return shared


def _links(scan: str, before: Mention, after: Mention) -> bool:
    """Whether ``after`` is the next measure of the object ``before`` measures."""
    if before.fact.category == "multiple" and _TIMES_MARK.fullmatch(before.text):
        return not scan[before.span.end : after.span.start].strip()
    return _is_bare(before) and _BY.fullmatch(scan, before.span.end, after.span.start) is not None


def _share_length(
    scan: str, ordered: list[Mention], shared: list[Mention], chain: list[int]
) -> None:
    if len(chain) < 2:
        return
    last = ordered[chain[-1]]
    if (end := inches_after(scan, last)) is not None:
        last = shared[chain[-1]] = in_inches(scan, last, end)
    if not (_has_own_unit(last) and last.fact.category == _LENGTH):
        return
    for member in chain[:-1]:
        mention = ordered[member]
        if mention.fact.category == "multiple":
            mark = _TIMES_MARK.fullmatch(mention.text)
            assert mark is not None
            end = mention.span.start + mark.end(1)
            mention = replace(mention, span=Span(mention.span.start, end), text=mark[1])
        elif not _is_bare(mention):
            return
        shared[member] = _with_unit_of(mention, last)


def inches_after(scan: str, mention: Mention) -> int | None:
    """Where "in" written as the unit of the bare number ``mention`` ends, if it is."""
    found = _INCHES_AFTER.match(scan, mention.span.end) if _is_bare(mention) else None
    return None if found is None else found.end()


def in_inches(scan: str, bare: Mention, end: int) -> Mention:
    """``bare`` as a length in inches, its span reaching to ``end`` past the unit."""
    written = bare.literal
    assert written is not None
    literal = Literal(
        written.value, written.exponent, Decimal(1), _INCH.shift, _INCH.numerator, _INCH.denominator
    )
    fact = Fact(_INCH.category, Relation.EQ, literal.to_base())
    span = Span(bare.span.start, end)
    return replace(bare, fact=fact, literal=literal, span=span, text=scan[span.start : end])


def _has_own_unit(mention: Mention) -> bool:
    return (
        mention.literal is not None
        and mention.fact.relation is Relation.EQ
        and has_unit(mention.fact.category)
    )


def _is_bare(mention: Mention) -> bool:
    literal = mention.literal
    return (
        mention.fact.category == NUMBER
        and mention.fact.relation is Relation.EQ
        and literal is not None
        and literal.scale == 1
    )


def _with_unit_of(bare: Mention, unit_of: Mention) -> Mention:
    unit = unit_of.literal
    written = bare.literal
    assert unit is not None
    assert written is not None
    literal = replace(
        written,
        scale=unit.scale,
        shift=unit.shift,
        numerator=unit.numerator,
        denominator=unit.denominator,
    )
    fact = Fact(unit_of.fact.category, Relation.EQ, literal.to_base())
    return replace(bare, fact=fact, literal=literal, exact=unit_of.exact)
