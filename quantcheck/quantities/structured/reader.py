"""Splitting a document into its structured regions and its prose."""

from __future__ import annotations

import itertools
import re

from quantcheck.quantities.structured import (
    delimited,
    fixed_width,
    html_tables,
    keyvalue,
    literals,
    markdown,
)
from quantcheck.quantities.structured.cells import Layout, Region, Span
from quantcheck.quantities.structured.lines import Lines

# Larger documents are read as prose: data of that size is not checked cell by cell.
MAX_CHARACTERS = 2_000_000
_NOT_SPACE = re.compile(r"\S")
_GAP = re.compile(r"  +")
# What ends a cell of each reader: a field separator, a line end, the close of a JSON or
# Python container, an HTML tag.
_CELL_ENDS = (",", "\t", ";", "|", "\n", "]", "}", ")", "<")


def read(text: str) -> Layout:
    """The cells of every structured region of ``text`` and the spans of its prose.

    A document that is one JSON or Python literal is read whole; otherwise HTML tables,
    a literal on lines of its own after a title or note, a CSV or TSV table at the start,
    markdown tables, tables aligned by spaces and key: value lists are found in that
    order, each among the lines the ones before left free. A document without a single
    cell is all prose. Never raises.
    """
    everything = Layout((), ((0, len(text)),))
    if len(text) > MAX_CHARACTERS:
        return everything
    records = itertools.count()
    literal = literals.read(text, records)
    if literal is not None:
        return Layout(literal.cells, ()) if literal.cells else everything
    regions = html_tables.find(text, records)
    pasted = literals.embedded(text, records)
    if pasted is not None and not any(
        r.start < pasted.end and pasted.start < r.end for r in regions
    ):
        regions.append(pasted)
    lines = Lines(text)
    lines.take((r.start, r.end) for r in regions)
    table = delimited.find(lines, records)
    if table is not None:
        regions.append(table)
        lines.take([(table.start, table.end)])
    found = markdown.find(lines, records)
    regions += found
    lines.take((r.start, r.end) for r in found)
    found = fixed_width.find(lines, records)
    regions += found
    lines.take((r.start, r.end) for r in found)
    regions += keyvalue.find(lines, records)
    # A document without a single value (an empty table) is read as prose.
    if not any(region.cells for region in regions):
        return everything
    regions.sort(key=lambda r: r.start)
    return Layout(tuple(cell for region in regions for cell in region.cells), _prose(text, regions))


def most_cells(text: str) -> int:
    """At most how many cells :func:`read` finds in ``text``, known without reading it:
    between two cells there is always something that ends the first (see _CELL_ENDS), so
    a document with few of those cannot hold many cells, whatever its length."""
    if len(text) > MAX_CHARACTERS:
        return 0
    # Columns aligned by spaces end a cell at a gap of two spaces or more.
    gaps = sum(1 for _ in _GAP.finditer(text))
    return 1 + gaps + sum(text.count(end) for end in _CELL_ENDS)


def _prose(text: str, regions: list[Region]) -> tuple[Span, ...]:
    """The gaps between regions and the prose inside them, in order; spans of nothing
    but whitespace are left out."""
    spans: list[Span] = []
    position = 0
    for region in regions:
        spans.append((position, region.start))
        spans += region.prose
        position = region.end
    spans.append((position, len(text)))
    return tuple(
        (start, end)
        for start, end in spans
        if start < end and _NOT_SPACE.search(text, start, end) is not None
    )
