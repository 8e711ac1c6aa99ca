"""Cells of a table, whatever its format: a header, rows of fields, and a caption.

Each row is a record; each cell knows its column header and its row's label (the row's
first cell that is not a number). A scale or unit stated by the caption applies to every
cell, one stated by a column header to that column and before the caption's, one stated
by a row's label to the row's cells whose header states none; none
reaches a value written with "%", a row or column of percentages, ratios or rates, a
column of dates or years, nor (for the scale) a per-share amount: "in millions, except
per share data".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from quantcheck.quantities import written_units
from quantcheck.quantities.structured.cells import Cell, Records
from quantcheck.quantities.structured.statements import (
    MAX_CAPTION,
    Statement,
    caption_statement,
    stated,
)

# A number as a table writes it: "1,234", "-5.2", "(1,234)", "$12.50", "25%".
_NUMERIC = re.compile(r"[(+\-−]?[$€£¥₹]?[ ]?\d[\d,]*+(?:\.\d++)?[ ]?%?\)?")
_ALPHANUMERIC = re.compile(r"\w")
# A code: one token with a digit in it ("AQ-03", "TOM-112"), which names a row less
# plainly than a name beside it does.
_CODE = re.compile(r"\S*\d\S*")
_DIGIT = re.compile(r"\d")
# A tag, to read the text of an HTML line; it cannot run past the next "<".
_TAG = re.compile(r"<[^<>]*+>")
_WORDS = re.compile(r"[^\W\d_]+|%")
# Labels of values that no caption scales and whose unit is their own.
_NOT_AMOUNTS = frozenset({"%", "percent", "percentage", "pct", "ratio", "rate"})
# Column headers of when a row is ("Date", "Fiscal year"), never amounts.
_TIME_HEADERS = frozenset({"date", "year", "month", "quarter", "period", "day", "time"})
_TIME_QUALIFIERS = frozenset({"fiscal", "calendar", "of", "end", "ended", "ending"})
# Labels of amounts per unit: the caption's unit applies, its scale does not.
_PER_UNIT = re.compile(r"\bper[\s-]++(?:share|unit|capita|head)\b|\beps\b", re.IGNORECASE)


_PERCENT: tuple[Decimal, str | None] = (Decimal(1), None)
# How many names beside its label a row is named by, of at most how many words, and
# what no name holds.
_OTHER_NAMES = 2
_NAME_WORDS = 3
_NOT_A_NAME = re.compile(r"[;:.!?\"()]")
# A row label's last bracket: "Battery (mAh)".
_BRACKETED_UNIT = re.compile(r"\(([^()]{1,12})\)\s*$")


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a row: its text (trimmed, decoded) and its span in the document."""

    text: str
    start: int
    end: int


def is_number(text: str) -> bool:
    """Whether a field holds a number as tables write them."""
    return _NUMERIC.fullmatch(text) is not None


def table_cells(
    header: Sequence[str],
    rows: Iterable[Sequence[Field]],
    caption: Statement | None,
    records: Records,
) -> list[Cell]:
    """One cell per non-empty field of every row."""
    rows = [list(fields) for fields in rows]
    caption = caption or _corner_caption(header, rows)
    columns = [_Column(name, caption) for name in header]
    unnamed = _Column("", caption)
    found: list[Cell] = []
    named_rows = [_names(fields) for fields in rows]
    labels = {label for label, _ in named_rows if label is not None}
    for fields, (label, lettered) in zip(rows, named_rows, strict=True):
        record = next(records)
        # The row's other short names say what it is of too: a candidate's row is also
        # her party's ("| Gareth Mills | Conservative | 1,122 |"); not a description, nor
        # a name that labels a row of its own (Bob Park, manager of Alice Chen's row).
        others = [
            text
            for text in lettered
            if text != label
            and text not in labels
            and not _DIGIT.search(text)
            and not _NOT_A_NAME.search(text)
            and len(text.split()) <= _NAME_WORDS
        ]
        row = " > ".join([label, *others[:_OTHER_NAMES]]) if label is not None else None
        kind = _label_kind(label)
        # A statement table may state a row's unit in its label, as a header does a
        # column's: "Average length of stay (days)", "Revenue ($M)".
        row_said = _row_statement(label) if label else None
        for index, field in enumerate(fields):
            if field.start == field.end:
                continue
            column = columns[index] if index < len(columns) else unnamed
            # A value written as a percentage is one, whatever the table's scale.
            percent = field.text.endswith("%")
            scale, unit = _PERCENT if percent else column.stated[kind]
            own_scale = not percent and column.own_scale
            if row_said is not None and column.own is None and not percent:
                unit = row_said.unit or unit
                if row_said.scale != 1:
                    scale, own_scale = row_said.scale, True
            found.append(
                Cell(
                    column.name,
                    column.path,
                    field.start,
                    field.end,
                    record,
                    unit,
                    scale,
                    row,
                    column.name or None,
                    own_scale=own_scale,
                )
            )
    return found


def _names(fields: Sequence[Field]) -> tuple[str | None, list[str]]:
    """A row's label (None when it has none) and its fields of words.

    The label is its first field of words, else its first that is not a number: a row
    keyed by a date and a city ("2024-01-14,Oslo,...") is Oslo's, one of a name and a
    manager ("Alice Chen,Bob Park,95000") Alice Chen's, one of a code and a name
    ("AQ-03,Harbour Road,...") Harbour Road's, as answers name it."""
    texts = [f.text for f in fields if not is_number(f.text) and _ALPHANUMERIC.search(f.text)]
    lettered = [text for text in texts if any(c.isalpha() for c in text)]
    named = (text for text in lettered if not _CODE.fullmatch(text))
    label = next(named, lettered[0] if lettered else texts[0] if texts else None)
    return label, lettered


def _row_statement(label: str) -> Statement | None:
    """What a row's label states for its cells: a scale and unit as a header states them
    ("Revenue ($M)"), or a bracketed unit no table lists ("Battery (mAh)")."""
    said = stated(label)
    if said is not None and said.unit is not None:
        return said
    bracketed = _BRACKETED_UNIT.search(label)
    if bracketed is not None and written_units.as_written(bracketed[1]) is not None:
        return Statement(said.scale if said is not None else Decimal(1), bracketed[1])
    return said


def _corner_caption(header: Sequence[str], rows: Sequence[Sequence[Field]]) -> Statement | None:
    """What the header of the first column, one of labels, states for the whole table: a
    statement table has its scale in the corner, "| ($ millions, except per share) |
    Q2 2024 |"."""
    if not header or not header[0] or any(row and is_number(row[0].text) for row in rows):
        return None
    return caption_statement(header[0])


def caption_before(text: str, start: int) -> Statement | None:
    """What the line just above a table states ("(in thousands of dollars)"), tags
    removed; one blank line may stand between. Reads a bounded window only."""
    cut = max(0, start - 2 * MAX_CAPTION)
    window = text[cut:start].split("\n")
    # The last piece is the text before the table on its own line (often empty); one
    # blank line more may separate the caption from the table.
    for number in range(len(window) - 1, max(-1, len(window) - 4), -1):
        plain = _TAG.sub(" ", window[number]).strip()
        if plain:
            # A line cut by the window is longer than any caption.
            return None if number == 0 and cut > 0 else caption_statement(plain)
    return None


def _label_kind(label: str | None) -> tuple[bool, bool]:
    """Whether a row label names a per-unit amount, and whether it names no amount."""
    if label is None:
        return False, False
    folded = label.casefold()
    # Most labels hold none of the words: a substring test spares the patterns.
    per_unit = ("per" in folded or "eps" in folded) and _PER_UNIT.search(label) is not None
    not_amount = any(word in folded for word in _NOT_AMOUNTS) and not _NOT_AMOUNTS.isdisjoint(
        word.casefold() for word in _WORDS.findall(label)
    )
    return per_unit, not_amount


class _Column:
    """A column's header and what it and the caption state for its cells."""

    def __init__(self, name: str, caption: Statement | None):
        self.name = name
        self.path = (name,) if name else ()
        self.caption = caption
        self.own = stated(name) if name else None
        self.own_scale = self.own is not None and self.own.scale != 1
        # The unit the caption gives this column by name ("MSRP in US dollars").
        self.named_unit = caption.unit_of(name) if caption is not None and name else None
        words = {word.casefold() for word in _WORDS.findall(name)}
        self.not_amount = not words.isdisjoint(_NOT_AMOUNTS) or (
            not words.isdisjoint(_TIME_HEADERS) and words <= _TIME_HEADERS | _TIME_QUALIFIERS
        )
        self.per_unit = _PER_UNIT.search(name) is not None
        # The scale and unit of a cell, by the kind of its row (see _label_kind).
        self.stated = {
            (per_unit, not_amount): self._stated(per_unit, not_amount)
            for per_unit in (False, True)
            for not_amount in (False, True)
        }

    def _stated(self, per_unit_row: bool, not_amount_row: bool) -> tuple[Decimal, str | None]:
        own, caption = self.own, self.caption
        own_unit = (own.unit if own is not None else None) or self.named_unit
        caption_unit = caption.unit if caption is not None else None
        if own is not None and own.scale != 1:
            return own.scale, own_unit or caption_unit
        if self.not_amount or not_amount_row:
            return Decimal(1), own_unit
        unit = own_unit or caption_unit
        if caption is None or self.per_unit or per_unit_row:
            return Decimal(1), unit
        return caption.scale, unit
