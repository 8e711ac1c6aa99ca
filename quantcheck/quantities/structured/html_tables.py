"""HTML tables anywhere in a document: ``<table>``, ``<tr>``, ``<th>``, ``<td>``.

One pass over the table tags of the whole text. A cell runs from its start tag to its end
tag or to the next cell or row, as HTML lets end tags be left out. Its span is the text
between its tags with the surrounding whitespace and markup trimmed, so that it points at
the value as written (entities such as ``&amp;`` stay as they are in the span; the
header names are read with entities decoded). A table nested in a cell is part of that
cell's text; a table without its end tag is prose. ``colspan`` and ``rowspan`` are not
followed: a spanning cell shifts the columns after it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from quantcheck.quantities.structured.cells import Records, Region, Span
from quantcheck.quantities.structured.statements import caption_statement
from quantcheck.quantities.structured.tables import Field, caption_before, table_cells

# Tag patterns stop at the next "<", so an unclosed "<" costs one scan to the next tag.
_TABLE_TAG = re.compile(r"<(/?)(table|caption|thead|tbody|tfoot|tr|th|td)\b[^<>]*+>", re.IGNORECASE)
_ANY_TAG = re.compile(r"<[^<>]*+>")
_SPACE = re.compile(r"\s++")


@dataclass(slots=True)
class _Cell:
    field: Field
    is_head: bool


@dataclass(slots=True)
class _Table:
    """A table being read: its rows so far and what is open."""

    text: str
    start: int
    rows: list[list[_Cell]] = field(default_factory=list)
    row: list[_Cell] | None = None
    cell: tuple[int, bool] | None = None  # where the open cell's content starts; a <th>?
    in_head: bool = False
    caption: tuple[int, int] | None = None
    caption_start: int | None = None

    def tag(self, name: str, closing: bool, start: int, end: int) -> None:
        if name in ("td", "th"):
            self.close_cell(start)
            if not closing:
                if self.row is None:
                    self.row = []
                self.cell = (end, name == "th" or self.in_head)
            return
        self.close_row(start)
        if name == "tr" and not closing:
            self.row = []
        elif name == "thead":
            self.in_head = not closing
        elif name in ("tbody", "tfoot"):
            self.in_head = False
        elif name == "caption":
            if not closing:
                self.caption_start = end
            elif self.caption_start is not None:
                self.caption = (self.caption_start, start)
                self.caption_start = None

    def close_cell(self, at: int) -> None:
        if self.cell is not None and self.row is not None:
            content_start, is_head = self.cell
            self.row.append(_Cell(_content(self.text, content_start, at), is_head))
        self.cell = None

    def close_row(self, at: int) -> None:
        self.close_cell(at)
        if self.row:
            self.rows.append(self.row)
        self.row = None


def find(text: str, records: Records) -> list[Region]:
    """Every top-level HTML table of ``text`` that is closed."""
    regions: list[Region] = []
    depth = 0
    table: _Table | None = None
    for match in _TABLE_TAG.finditer(text):
        closing = match.group(1) == "/"
        name = match.group(2).casefold()
        if name == "table":
            if not closing:
                depth += 1
                if depth == 1:
                    table = _Table(text, match.start())
            elif depth > 0:
                depth -= 1
                if depth == 0 and table is not None:
                    table.close_row(match.start())
                    regions.append(_region(table, match.end(), records))
                    table = None
        elif depth == 1 and table is not None:
            table.tag(name, closing, match.start(), match.end())
    return regions


def _region(table: _Table, end: int, records: Records) -> Region:
    rows = table.rows
    prose: list[Span] = []
    header: list[str] = []
    if rows and all(cell.is_head for cell in rows[0]):
        header = [cell.field.text for cell in rows[0]]
        prose += [(c.field.start, c.field.end) for c in rows[0] if c.field.start < c.field.end]
        rows = rows[1:]
    caption = None
    if table.caption is not None:
        written = _content(table.text, *table.caption)
        if written.start < written.end:
            prose.append((written.start, written.end))
        caption = caption_statement(written.text)
    if caption is None:
        caption = caption_before(table.text, table.start)
    cells = table_cells(header, ([cell.field for cell in row] for row in rows), caption, records)
    return Region(table.start, end, tuple(cells), tuple(sorted(prose)))


def _content(text: str, start: int, end: int) -> Field:
    """A cell's text, decoded, and the span of its written value: from its first to its
    last character that is neither whitespace nor inside a tag."""
    first = last = -1
    position = start
    for tag in (*_ANY_TAG.finditer(text, start, end), None):
        stop = end if tag is None else tag.start()
        segment = text[position:stop]
        if segment.strip():
            if first < 0:
                first = position + len(segment) - len(segment.lstrip())
            last = position + len(segment.rstrip())
        if tag is not None:
            position = tag.end()
    if first < 0:
        return Field("", start, start)
    decoded = html.unescape(_SPACE.sub(" ", _ANY_TAG.sub(" ", text[first:last]))).strip()
    return Field(decoded, first, last)
