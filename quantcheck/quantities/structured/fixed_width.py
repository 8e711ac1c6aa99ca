"""Tables laid out in columns of spaces: text reports, statements and invoices, and what a
PDF's text extraction makes of its tables.

A line's fields are the runs of text between gaps of two or more spaces. A table is a
header line of at least two fields of words (no field a number, a date or a time of
day, none ending in a colon as a ``key:`` does), an optional rule of dashes under it, an
optional line of units under that (``£  £  £``, whose fields join the headers they stand
under), then at least two rows. A field of a row belongs to the header field its span
overlaps most, or to one at most two characters away; a field left of every header
field is the row's label. A line of one field of words inside the table ("INCOME",
"Charitable activities:") is a heading, read as prose, and so is a blank line; the table
ends at a new header, at two blank lines, and at a line that is neither a row nor a
heading (prose after the table). Lines with tabs are left to the delimited reader.
"""

from __future__ import annotations

import re

from quantcheck.quantities.structured.cells import Records, Region, Span
from quantcheck.quantities.structured.lines import Lines
from quantcheck.quantities.structured.tables import Field, caption_before, is_number, table_cells

_FIELD = re.compile(r"\S+(?: \S+)*")
_RULE = re.compile(r"[ ]*[-=_]{3,}(?:[ ]+[-=_]{3,})*[ ]*")
_DIGIT = re.compile(r"\d")
# A date or a time of day: the line of a log or a timetable, which names no column.
_WHEN = re.compile(r"\d:\d\d|\d[/.\-]\d{1,2}[/.\-]\d")
# A field of a units line: a currency sign or a short unit, no digits.
_UNIT_FIELD = re.compile(r"\(?[^\d\s()]{1,6}\)?")
# How far a field may stand from the header field it is placed under.
_SLACK = 2
# Header fields longer than this are prose, not the name of a column.
_LONGEST_HEADER = 40
_FEWEST_ROWS = 2
# A header of more fields is no table's: placing a row costs its fields times these.
_MOST_COLUMNS = 30


def find(lines: Lines, records: Records) -> list[Region]:
    """Every table of space-aligned columns among the free lines."""
    regions: list[Region] = []
    number = 0
    count = len(lines)
    while number < count:
        header = _header(lines, number)
        if header is None:
            number += 1
            continue
        region, last = _table(lines, number, header, records)
        if region is not None:
            regions.append(region)
            number = last + 1
        else:
            number += 1
    return regions


def _fields(body: str) -> list[Field]:
    """The fields of a line, with their spans on the line."""
    return [Field(m.group(), m.start(), m.end()) for m in _FIELD.finditer(body)]


def _header(lines: Lines, number: int) -> list[Field] | None:
    """The header fields when line ``number`` can open a table: two fields or more, of
    words, each a column's name."""
    body = lines.bodies[number]
    if not lines.free[number] or "  " not in body or "\t" in body:
        return None
    fields = _fields(body)
    if not 2 <= len(fields) <= _MOST_COLUMNS or any(
        is_number(f.text)
        or f.text.endswith(":")
        or len(f.text) > _LONGEST_HEADER
        or _WHEN.search(f.text)
        for f in fields
    ):
        return None
    return fields


def _table(
    lines: Lines, number: int, header: list[Field], records: Records
) -> tuple[Region | None, int]:
    """The table a header opens, and the number of its last line."""
    count = len(lines)
    names = [f.text for f in header]
    at = number + 1
    if at < count and lines.free[at] and _RULE.fullmatch(lines.bodies[at]):
        at += 1
    units = _units(lines, at, header)
    if units is not None:
        names = [
            f"{name} ({unit})" if unit else name for name, unit in zip(names, units, strict=True)
        ]
        at += 1
    rows: list[list[Field]] = []
    # Each line of the header is prose of its own, never a paragraph wrapped across them.
    prose: list[Span] = [(lines.starts[n], lines.end(n)) for n in range(number, at)]
    labelled = False
    last = at - 1
    blanks = 0
    while at < count and lines.free[at] and blanks < 2:
        body = lines.bodies[at]
        if not body.strip():
            blanks += 1
            at += 1
            continue
        if "\t" in body or _header(lines, at) is not None:
            break
        fields = _fields(body)
        placed = _placed(fields, header) if len(fields) >= 2 else None
        if placed is None:
            if len(fields) != 1 or _DIGIT.search(fields[0].text):
                break
            # A heading inside the table: prose of its own.
            prose.append((lines.starts[at], lines.end(at)))
        else:
            start = lines.starts[at]
            label, under = placed
            labelled = labelled or label is not None
            row = [_moved(label, start)] + [_moved(field, start) for field in under]
            rows.append(row)
        blanks = 0
        last = at
        at += 1
    if len(rows) < _FEWEST_ROWS or not any(_DIGIT.search(f.text) for row in rows for f in row[1:]):
        return None, number
    if not labelled:
        rows = [row[1:] for row in rows]
    else:
        names = ["", *names]
    start = lines.starts[number]
    cells = table_cells(names, rows, caption_before(lines.text, start), records)
    return Region(start, lines.end(last), tuple(cells), tuple(prose)), last


def _units(lines: Lines, at: int, header: list[Field]) -> list[str] | None:
    """The units a line under the header states for its columns, one field under each of
    some headers; None when the line is not such a line."""
    if at >= len(lines) or not lines.free[at]:
        return None
    fields = _fields(lines.bodies[at])
    if not fields or not all(_UNIT_FIELD.fullmatch(f.text) for f in fields):
        return None
    placed = _placed(fields, header)
    if placed is None or placed[0] is not None:
        return None
    return [f.text.strip("()") for f in placed[1]]


def _placed(fields: list[Field], header: list[Field]) -> tuple[Field | None, list[Field]] | None:
    """A row's label (its one field left of every header field, if any) and its fields
    under each header field (empty where it has none); None when a field cannot be
    placed, two fall under one header, or more than one stands left of them all."""
    first = header[0].start
    leading = [f for f in fields if f.end <= first - _SLACK]
    if len(leading) > 1:
        return None  # a label holds its words in one field
    label = leading[0] if leading else None
    under: list[Field | None] = [None] * len(header)
    for field in fields[len(leading) :]:
        column = _column(field, header)
        if column is None or under[column] is not None:
            return None
        under[column] = field
    cells = [
        f if f is not None else Field("", h.start, h.start)
        for f, h in zip(under, header, strict=True)
    ]
    return label, cells


def _column(field: Field, header: list[Field]) -> int | None:
    """The header field ``field`` stands under: the one it overlaps most, else the
    nearest within the slack."""
    best, most = None, 0
    for index, name in enumerate(header):
        overlap = min(field.end, name.end) - max(field.start, name.start)
        if overlap > most:
            best, most = index, overlap
    if best is not None:
        return best
    for index, name in enumerate(header):
        gap = max(name.start - field.end, field.start - name.end)
        if gap <= _SLACK:
            return index
    return None


def _moved(field: Field | None, offset: int) -> Field:
    """A field placed on its line, as a span of the document."""
    if field is None:
        return Field("", offset, offset)
    return Field(field.text, field.start + offset, field.end + offset)
