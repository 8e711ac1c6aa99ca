"""Documents that hold data rather than prose: JSON records, CSV and markdown tables.

A value in data has no unit beside it; its unit comes from its key or column header
("price (USD)", "duration_seconds") or from a units map the document states
(``"units": {"temp": "°C"}``, Open-Meteo's ``"hourly_units"``). Cells are read with their
key and their record (a JSON object, an index into parallel arrays, a table row), so that
a value can be tied to the date of its own record. Everything here only locates cells;
:mod:`quantcheck.worker.quantities.extract` turns them into facts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

# Larger documents are read as prose: data of that size is not checked cell by cell.
_MAX_CHARACTERS = 2_000_000
_JSON_TOKEN = re.compile(
    r'\s*(?:(?P<string>"(?:[^"\\]|\\.)*")|(?P<number>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)'
    r"|(?P<punct>[{}\[\]:,])|(?P<literal>true|false|null))"
)
_TABLE_RULE = re.compile(r"\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*")
_CSV_FIELD = re.compile(r'"(?:[^"]|"")*"|[^,\n]*')
_UNITS_KEY = re.compile(r"(?:^|_)units$", re.IGNORECASE)
# A column name: a few words at most, no sentence punctuation.
_COLUMN_NAME = re.compile(r"[\w%°$€£()\[\]/#&+.\-]+(?: [\w%°$€£()\[\]/#&+.\-]+){0,3}")


@dataclass(frozen=True, slots=True)
class Cell:
    """One value in a data document: the key or header it sits under, the span of its
    text, its record, and the unit the document states for its key (if any)."""

    key: str
    start: int
    end: int
    record: int
    unit: str | None = None


def cells(text: str) -> list[Cell] | None:
    """The cells of ``text`` when it is a JSON document or a CSV or markdown table;
    None when it is prose."""
    if len(text) > _MAX_CHARACTERS:
        return None
    stripped = text.lstrip()
    if stripped[:1] in "{[":
        return _json_cells(text)
    lines = text.splitlines()
    if len(lines) >= 3 and lines[0].lstrip().startswith("|") and _TABLE_RULE.fullmatch(lines[1]):
        return _markdown_cells(text)
    if len(lines) >= 2 and _looks_like_csv(lines):
        return _csv_cells(text)
    return None


def _json_cells(text: str) -> list[Cell] | None:
    try:
        document = json.loads(text)
    except ValueError:
        return None
    units = _units_maps(document)
    found: list[Cell] = []
    # The scanner walks the text itself, so each value keeps its span; a stack of frames
    # tracks the key each value is under and which record it belongs to.
    stack: list[_Frame] = []
    key = ""
    pending_key: str | None = None
    records = 0
    for token in _tokens(text):
        kind, start, end = token
        if kind == "{":
            records += 1
            stack.append(_Frame("object", key, records, 0))
            pending_key = None
        elif kind == "[":
            stack.append(_Frame("array", key, stack[-1].record if stack else 0, 0))
        elif kind in "}]":
            stack.pop()
            key = stack[-1].key if stack else ""
        elif kind == ":":
            key = pending_key or ""
        elif kind == ",":
            if stack and stack[-1].kind == "array":
                stack[-1].index += 1
        elif kind in ("string", "number", "literal"):
            frame = stack[-1] if stack else None
            if frame is not None and frame.kind == "object" and pending_key is None:
                pending_key = json.loads(text[start:end]) if kind == "string" else ""
                continue
            pending_key = None
            if kind == "literal" or frame is None:
                continue
            owner = key if frame.kind == "object" else frame.key
            # Values at one index of parallel arrays ("time", "temperature_2m") share a
            # record: the index. Values of one object share the object.
            record = frame.record if frame.kind == "object" else -1 - frame.index
            text_start, text_end = (start + 1, end - 1) if kind == "string" else (start, end)
            found.append(Cell(owner, text_start, text_end, record, units.get(owner)))
    return found


@dataclass(slots=True)
class _Frame:
    kind: str
    key: str
    record: int
    index: int


def _tokens(text: str) -> Iterator[tuple[str, int, int]]:
    position = 0
    length = len(text)
    while position < length:
        match = _JSON_TOKEN.match(text, position)
        if match is None:
            return
        position = match.end()
        group = match.lastgroup
        assert group is not None
        start, end = match.span(group)
        yield (match.group(group) if group == "punct" else group), start, end
        if not text[position:].strip():
            return


def _units_maps(document: object) -> dict[str, str]:
    """Every ``units``-style map in the document: key -> unit text."""
    found: dict[str, str] = {}
    pending = [document]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if _UNITS_KEY.search(str(key)) and isinstance(value, dict):
                    found.update({str(k): str(v) for k, v in value.items() if isinstance(v, str)})
                else:
                    pending.append(value)
        elif isinstance(node, list):
            pending.extend(node)
    return found


# The fields of one line of a table, each with its span in the document.
_Fields = list[tuple[str, int, int]]


def _markdown_cells(text: str) -> list[Cell]:
    def fields(line: str, number: int, start: int) -> _Fields | None:
        if number == 1 or not line.lstrip().startswith("|"):
            return None  # the rule under the header, and anything after the table
        return _split_row(line, start)

    return _table_cells(text, fields)


def _csv_cells(text: str) -> list[Cell]:
    def fields(line: str, number: int, start: int) -> _Fields | None:
        del number  # every line of a CSV table is a header or a row
        return list(_csv_fields(line, start)) if line.strip() else None

    return _table_cells(text, fields)


def _table_cells(text: str, fields_of: Callable[[str, int, int], _Fields | None]) -> list[Cell]:
    """Cells of a table whose first line is its header; ``fields_of`` splits a line (its
    text, its number and where it starts), or says None for a line that is no row."""
    found: list[Cell] = []
    header: list[str] = []
    offset = 0
    row = 0
    for number, line in enumerate(text.splitlines(keepends=True)):
        start = offset
        offset += len(line)
        fields = fields_of(line.rstrip("\r\n"), number, start)
        if fields is None:
            continue
        if number == 0:
            header = [value for value, _, _ in fields]
            continue
        row += 1
        found.extend(
            Cell(header[i] if i < len(header) else "", s, e, row)
            for i, (_, s, e) in enumerate(fields)
        )
    return found


def _split_row(line: str, offset: int) -> list[tuple[str, int, int]]:
    """The cells of a markdown row ("| a | b |"), trimmed, with their spans."""
    fields: list[tuple[str, int, int]] = []
    body_start = line.index("|") + 1
    body_end = line.rstrip().rfind("|")
    if body_end < body_start:
        body_end = len(line)
    position = body_start
    for piece in line[body_start:body_end].split("|"):
        value = piece.strip()
        start = offset + position + (len(piece) - len(piece.lstrip()))
        fields.append((value, start, start + len(value)))
        position += len(piece) + 1
    return fields


def _looks_like_csv(lines: list[str]) -> bool:
    """A header of short column names and rows of as many fields: prose whose lines each
    hold one comma is not a table."""
    header = lines[0]
    columns = header.count(",")
    names = [part.strip() for part in header.split(",")]
    if columns == 0 or not all(_COLUMN_NAME.fullmatch(name) for name in names):
        return False
    rows = [line for line in lines[1:] if line.strip()]
    return bool(rows) and all(_field_count(line) == columns + 1 for line in rows[:20])


def _field_count(line: str) -> int:
    return sum(1 for _ in _csv_fields(line, 0))


def _csv_fields(line: str, offset: int) -> Iterator[tuple[str, int, int]]:
    position = 0
    while position <= len(line):
        match = _CSV_FIELD.match(line, position)
        assert match is not None
        raw = match.group()
        if raw.startswith('"') and raw.endswith('"') and len(raw) >= 2:
            yield raw[1:-1].replace('""', '"'), offset + match.start() + 1, offset + match.end() - 1
        else:
            value = raw.strip()
            start = offset + match.start() + (len(raw) - len(raw.lstrip()))
            yield value, start, start + len(value)
        position = match.end() + 1
