"""CSV and TSV at the start of a document, after optional ``#`` comment lines and a
short title line, or after a note of prose and a blank line.

Our World in Data series come as ``# title: ...``, ``# unit: years``, then ``date,value``
and rows. A ``# key: value`` line is metadata: a cell of its own (key = the metadata
key), so that the country or the series title can be found; ``# unit:`` states the unit
of the values and ``# title:`` may state a scale ("in millions"). Other comment lines
are prose. The header must be short column names; the rows follow while they have as
many fields (a quoted field may hold the delimiter, not a line break); the text after
the last row is prose. Tabs separate fields when the header holds one, else pipes (a
table written without markdown's rule), else commas, else semicolons.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from quantcheck.quantities import units
from quantcheck.quantities.structured.cells import Cell, Records, Region, Span
from quantcheck.quantities.structured.lines import Lines
from quantcheck.quantities.structured.statements import (
    Statement,
    caption_statement,
    stated,
    units_line,
)
from quantcheck.quantities.structured.tables import Field, is_number, table_cells

# A column name: a few words at most, no sentence punctuation.
_COLUMN_NAME = re.compile(r"[\w%°$€£()\[\]/#&+.'\-]++(?: [\w%°$€£()\[\]/#&+.'\-]++){0,5}")
_MAX_COLUMN_NAME = 64
# The longest line read as a table's title: a sentence of prose is no title.
_MAX_TITLE = 100
_METADATA = re.compile(r"#[ \t]*+(?P<key>[^\W\d_][\w \-]{0,39}?)[ \t]*+:[ \t]*+(?=\S)")
# A pipe before a comma: "Sodium | 135-145 | mmol/L" and "Plan | $1,200" split at pipes.
_DELIMITERS = ("\t", "|", ",", ";")
# A markdown table's rule under its header ("---|:---:"): that table is markdown's.
_RULE = re.compile(r"[\s|:\-]*-[\s|:\-]*")
_DIGIT = re.compile(r"\d")
_UNIT_KEY = "unit"
_UNITS_KEY = "units"
_TITLE_KEY = "title"
_CURRENCY_KEY = "currency"


def find(lines: Lines, records: Records) -> Region | None:
    """The table at the start of the document, or None."""
    number = 0
    count = len(lines)
    while number < count and lines.is_blank(number):
        number += 1
    comments = number
    while number < count and lines.bodies[number].lstrip().startswith("#"):
        number += 1
    found = _table_at(lines, records, comments, number)
    if found is None and number + 1 < count and len(lines.bodies[number]) <= _MAX_TITLE:
        # A title line above the header ("Carrier 5G availability, Q1 2024"), read as the
        # comment lines are: prose, and a caption that may state a scale or a unit.
        found = _table_at(lines, records, comments, number + 1)
    # A note of prose above the table, a blank line apart ("On-time performance of
    # domestic flights, March 2024. Source: ..."): the note stays prose.
    after = _after_blank(lines, number + 1)
    while found is None and after is not None:
        found = _table_at(lines, records, after, after)
        after = _after_blank(lines, after + 1)
    return found


def _after_blank(lines: Lines, start: int) -> int | None:
    """The first line from ``start`` on that follows a blank line and is not blank."""
    for number in range(max(start, 1), len(lines)):
        if lines.is_blank(number - 1) and not lines.is_blank(number):
            return number
    return None


def _table_at(lines: Lines, records: Records, comments: int, number: int) -> Region | None:
    """The table whose header is line ``number``, after comment (and title) lines from
    ``comments`` on, or None."""
    count = len(lines)
    if number >= count or not lines.free[number]:
        return None
    header_line = lines.bodies[number]
    delimiter = next((d for d in _DELIMITERS if d in header_line), None)
    if delimiter is None:
        return None
    if delimiter == "|" and number + 1 < count and _RULE.fullmatch(lines.bodies[number + 1]):
        return None
    header = list(_fields(header_line, lines.starts[number], delimiter))
    if not all(_is_column_name(f.text) for f in header):
        return None
    rows: list[list[Field]] = []
    last = number
    while last + 1 < count and lines.free[last + 1]:
        fields = list(_fields(lines.bodies[last + 1], lines.starts[last + 1], delimiter))
        if len(fields) != len(header):
            break
        rows.append(fields)
        last += 1
    # One row of two columns is too little to tell a table from two short lines of prose,
    # and one row of pipes too little to tell it from a line of navigation.
    if not rows or (len(rows) < 2 and (len(header) < 3 or delimiter == "|")):
        return None
    if not any(_DIGIT.search(f.text) for row in rows for f in row):
        return None
    metadata, prose, caption = _comments(lines, comments, number, records)
    prose.append((lines.starts[number], lines.end(number)))
    names = [f.text for f in header]
    cells = metadata + table_cells(names, rows, caption, records)
    start = lines.starts[comments]
    return Region(start, lines.end(last), tuple(cells), tuple(prose))


def _comments(
    lines: Lines, first: int, stop: int, records: Records
) -> tuple[list[Cell], list[Span], Statement | None]:
    """The metadata cells of the comment lines, the comment lines that are prose, and
    the scale and unit that the title and unit lines state."""
    cells: list[Cell] = []
    prose: list[Span] = []
    record = next(records)
    unit: str | None = None
    scale = Decimal(1)
    # Units the comments give column by column ("# units: precip mm; snow_depth cm",
    # "# median_household_income in USD").
    columns: list[tuple[frozenset[str], str]] = []
    for number in range(first, stop):
        body = lines.bodies[number]
        match = _METADATA.match(body, len(body) - len(body.lstrip()))
        if match is None:
            prose.append((lines.starts[number], lines.end(number)))
            said = caption_statement(body.lstrip().lstrip("#").strip())
            if said is not None:
                columns += said.columns
            continue
        key = match["key"]
        start = lines.starts[number] + match.end()
        value = body[match.end() :].rstrip()
        cells.append(Cell(key, (key,), start, start + len(value), record))
        folded = key.casefold()
        if folded == _UNITS_KEY:
            columns += units_line(value)
        if folded == _CURRENCY_KEY and value in units.CURRENCY_PREFIXES:
            # "# currency: EUR" beside "# unit: millions": both speak of the values.
            unit = value
        elif folded in (_UNIT_KEY, _TITLE_KEY):
            statement = stated(value)
            if statement is not None:
                scale = statement.scale if statement.scale != 1 else scale
                unit = statement.unit or unit
            if folded == _UNIT_KEY and unit is None:
                unit = value
    if unit is None and scale == 1 and not columns:
        return cells, prose, None
    return cells, prose, Statement(scale, unit, tuple(columns))


def _is_column_name(name: str) -> bool:
    # A year names a column as often as a word does ("line_item,2023,2022").
    return (
        len(name) <= _MAX_COLUMN_NAME
        and _COLUMN_NAME.fullmatch(name) is not None
        and (not is_number(name) or _YEAR.fullmatch(name) is not None)
    )


_YEAR = re.compile(r"(?:1[89]|20)\d\d")


def _fields(body: str, offset: int, delimiter: str) -> Iterator[Field]:
    """The fields of one line, trimmed, quotes removed, with their spans; a quoted field
    may hold the delimiter and doubled quotes."""
    if '"' not in body:
        # Most lines quote nothing: split them at once.
        position = offset
        for piece in body.split(delimiter):
            written = piece.strip()
            start = position + len(piece) - len(piece.lstrip())
            yield Field(written, start, start + len(written))
            position += len(piece) + 1
        return
    position = 0
    length = len(body)
    while True:
        while position < length and body[position] in " \t" and body[position] != delimiter:
            position += 1
        if position < length and body[position] == '"':
            close = _closing_quote(body, position + 1)
            if close is not None:
                after = close + 1
                while after < length and body[after] in " \t" and body[after] != delimiter:
                    after += 1
                if after == length or body[after] == delimiter:
                    written = body[position + 1 : close].replace('""', '"')
                    yield Field(written, offset + position + 1, offset + close)
                    if after == length:
                        return
                    position = after + 1
                    continue
        stop = body.find(delimiter, position)
        stop = length if stop < 0 else stop
        raw = body[position:stop].rstrip()
        yield Field(raw, offset + position, offset + position + len(raw))
        if stop == length:
            return
        position = stop + 1


def _closing_quote(body: str, position: int) -> int | None:
    """The quote that closes a field whose text starts at ``position`` ("" is a quote)."""
    while True:
        found = body.find('"', position)
        if found < 0:
            return None
        if found + 1 < len(body) and body[found + 1] == '"':
            position = found + 2
            continue
        return found
