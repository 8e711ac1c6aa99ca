"""Markdown tables anywhere in a document: a header row, a rule, rows.

A table is a line with a pipe followed by a rule of as many columns (``|---|:--:|``,
which must hold a pipe: a lone ``---`` is a heading's underline), then every following
line with a pipe. Pipes escaped as ``\\|`` are text. Emphasis around a value
(``**25**``) is trimmed from its span.
"""

from __future__ import annotations

import itertools
import re

from quantcheck.quantities.structured.cells import Records, Region
from quantcheck.quantities.structured.lines import Lines
from quantcheck.quantities.structured.tables import Field, caption_before, table_cells

_PIPE_OR_ESCAPE = re.compile(r"\\.|\|")
_RULE_CELL = re.compile(r"[ \t]*+:?-++:?[ \t]*+")
_EMPHASIS = "*_`"
_RULE_CHARACTERS = "|-: \t"


def find(lines: Lines, records: Records) -> list[Region]:
    """Every markdown table among the free lines."""
    regions: list[Region] = []
    number = 0
    count = len(lines)
    while number + 1 < count:
        header = _header(lines, number)
        if header is None:
            number += 1
            continue
        last = number + 1
        rows: list[list[Field]] = []
        while last + 1 < count and lines.free[last + 1] and "|" in lines.bodies[last + 1]:
            last += 1
            rows.append(_fields(lines.bodies[last], lines.starts[last]))
        if rows:
            start = lines.starts[number]
            caption = caption_before(lines.text, start)
            names = [f.text for f in header]
            cells = table_cells(names, rows, caption, records)
            header_span = (start, lines.end(number))
            regions.append(Region(start, lines.end(last), tuple(cells), (header_span,)))
        number = last + 1
    return regions


def _header(lines: Lines, number: int) -> list[Field] | None:
    """The header fields when line ``number`` opens a table."""
    body, rule = lines.bodies[number], lines.bodies[number + 1]
    if not (lines.free[number] and lines.free[number + 1] and "|" in body and "|" in rule):
        return None
    # Most lines are no rule, which one look at their characters tells.
    if "-" not in rule or rule.strip(_RULE_CHARACTERS):
        return None
    pieces = _fields(rule, 0)
    if not all(_RULE_CELL.fullmatch(lines.bodies[number + 1], f.start, f.end) for f in pieces):
        return None
    header = _fields(body, lines.starts[number])
    return header if len(header) == len(pieces) else None


def _fields(body: str, offset: int) -> list[Field]:
    """The fields of a row ("| a | b |" or "a | b"), trimmed, with their spans."""
    if "\\" in body:
        pipes = [m.start() for m in _PIPE_OR_ESCAPE.finditer(body) if m.group() == "|"]
    else:
        pipes = []
        found = body.find("|")
        while found >= 0:
            pipes.append(found)
            found = body.find("|", found + 1)
    left = len(body) - len(body.lstrip())
    right = len(body.rstrip())
    bounds = [left - 1, *pipes, right]
    if pipes and pipes[0] == left:
        bounds = bounds[1:]  # the row's leading pipe
    if pipes and pipes[-1] == right - 1 and len(bounds) > 2:
        bounds = bounds[:-1]  # its trailing pipe
    fields: list[Field] = []
    for before, after in itertools.pairwise(bounds):
        piece = body[before + 1 : after]
        rest = piece.lstrip().lstrip(_EMPHASIS).lstrip()
        written = rest.rstrip().rstrip(_EMPHASIS).rstrip()
        start = offset + before + 1 + len(piece) - len(rest)
        fields.append(Field(written.replace("\\|", "|"), start, start + len(written)))
    return fields
