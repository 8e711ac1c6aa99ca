"""Reading evidence documents: prose as claims are read, data cell by cell.

A cited document that is JSON, a CSV table or a markdown table is read cell by cell (see
:mod:`.structured`): each number takes its unit from the document's units map or its
key, each text cell is read as prose, and each number is stated for the date of its own
record. Claims are always read as prose.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

from quantcheck.worker.quantities import counts, datelines, dates, structured, units
from quantcheck.worker.quantities.categories import NUMBER, Scope, count_category, in_units_scope
from quantcheck.worker.quantities.extract import Extraction, extract
from quantcheck.worker.quantities.facts import Fact, Literal, Mention, Relation, Span
from quantcheck.worker.quantities.numbers import parse_number


def extract_document(text: str, *, scope: Scope = Scope.ALL) -> Extraction:
    """Like :func:`extract`, but a JSON document or a CSV or markdown table is read cell
    by cell (see :mod:`quantcheck.worker.quantities.structured`): how evidence is read."""
    table = structured.cells(text)
    read = _read_cells(text, table, scope) if table is not None else extract(text, scope=scope)
    return replace(read, mentions=tuple(datelines.with_years(read.mentions)))


_DATA_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_KEY_UNIT = re.compile(r"[(\[]\s*([^()\[\]]+?)\s*[)\]]")
_KEY_WORDS = re.compile(r"[A-Za-z%°$€£]+")


def _read_cells(text: str, table: list[structured.Cell], scope: Scope) -> Extraction:
    """Facts of a data document: each number takes its unit from the document's units
    map or its key, each text cell is read as prose, and each number is stated for the
    date of its own record."""
    flags: set[str] = set()
    read: list[tuple[structured.Cell, list[Mention], bool]] = []
    dated: dict[int, Fact] = {}
    for cell in table:
        written = text[cell.start : cell.end]
        if _DATA_NUMBER.fullmatch(written):
            read.append((cell, [_data_value(cell, written)], True))
            continue
        found = extract(written, scope=scope)
        flags.update(found.flags)
        moved = [
            replace(
                m,
                span=Span(m.span.start + cell.start, m.span.end + cell.start),
                period=None,
            )
            for m in found.mentions
        ]
        for mention in moved:
            if mention.fact.category in dates.PERIOD_CATEGORIES:
                dated.setdefault(cell.record, mention.fact)
        read.append((cell, moved, False))
    mentions: list[Mention] = []
    for cell, found_here, is_value in read:
        period = dated.get(cell.record) if is_value else None
        mentions.extend(m if period is None else replace(m, period=period) for m in found_here)
    if scope is Scope.UNITS:
        mentions = [m for m in mentions if in_units_scope(m.fact.category)]
    return Extraction(tuple(mentions), tuple(sorted(flags)))


def _data_value(cell: structured.Cell, written: str) -> Mention:
    """A number in data, in the unit its document states for its key."""
    number = parse_number(written)
    unit = _unit_of_key(cell)
    base, exact = units.to_base(number.value, Decimal(1), unit)
    literal = Literal(
        number.value, number.exponent, Decimal(1), unit.shift, unit.numerator, unit.denominator
    )
    fact = Fact(unit.category, Relation.EQ, base)
    return Mention(fact, Span(cell.start, cell.end), written, exact=exact, literal=literal)


def _unit_of_key(cell: structured.Cell) -> units.Unit:
    """The unit of a data value: from the units map, else from its key ("price (USD)",
    "duration_seconds"), else a count of the key's noun ("employees"), else none."""
    candidates = [] if cell.unit is None else [cell.unit]
    candidates += _KEY_UNIT.findall(cell.key)
    words = _KEY_WORDS.findall(cell.key)
    candidates += words[-1:]
    for candidate in candidates:
        unit = units.lookup(candidate.strip())
        if unit is not None:
            return unit
    if words:
        noun = counts.counted_noun(words[-1], 0)
        if noun is not None and noun.plural:
            return units.Unit(name=noun.lemma, category=count_category(noun.lemma))
    return units.Unit(name=NUMBER, category=NUMBER)
