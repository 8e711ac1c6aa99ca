"""Lists of ``key: value`` lines: Wikidata entities, spec sheets, metadata blocks, and
YAML-style configuration nested by indentation.

A block is a run of non-blank free lines. It is a list when, after an optional title
line and an optional ``---`` rule, at least three of its lines (two after a rule) are
``- key: value``, ``* key: value`` or ``Key: value`` and they, with the lines that only
open a nested part (``resources:``) and the items of nested lists (``  - 256``), make up
at least four in five of its lines; ``#`` comment lines are prose and count for neither.
A key is a short phrase (at most eight words, no sentence punctuation), so a paragraph
with a colon or a bulleted list of sentences stays prose. Each value is one cell, however
many values it lists, under its key path ("resources > limits > memory"); the values
directly under one key share a record, and in a flat list each line is a record of its
own. The title and any line that is no pair are prose.
"""

from __future__ import annotations

import re
from fractions import Fraction

from quantcheck.quantities.structured.cells import Cell, Records, Region, Span
from quantcheck.quantities.structured.lines import Lines

_PAIR = re.compile(
    r"[ \t]*+(?:[-*•+][ \t]++)?(?:\*\*|__)?"
    r"(?P<key>[^\W\d_][^:\n*]{0,63}?)[ \t]*+(?:\*\*|__)?:(?:\*\*|__)?[ \t]++(?=\S)"
)
# A line that only opens a nested part: "resources:", "  - limits:" (a comment may follow).
_PARENT = re.compile(
    r"(?P<indent>[ \t]*+(?:-[ \t]++)?)(?P<key>[^\W\d_][\w .\-/]{0,63}?)[ \t]*+:[ \t]*+(?:#.*)?"
)
# An item of a nested list: "  - 256".
_ITEM = re.compile(r"(?P<indent>[ \t]*+)-[ \t]++(?=\S)")
# A comment after a value, "250m  # a quarter core"; a "#" inside a word is no comment.
_TRAILING_COMMENT = re.compile(r"[ \t]++#.*$")
_RULE = re.compile(r"[ \t]*+(?:-{3,}+|={3,}+|\*{3,}+)[ \t]*+")
_DIGIT = re.compile(r"\d")
_SENTENCE_PUNCTUATION = frozenset('.!?;,"“”')
_MAX_KEY_WORDS = 8
_MIN_PAIRS = 3
_MIN_PAIRS_AFTER_RULE = 2
_MIN_SHARE = Fraction(4, 5)


def find(lines: Lines, records: Records) -> list[Region]:
    """Every key: value list among the free lines."""
    regions: list[Region] = []
    number = 0
    count = len(lines)
    while number < count:
        if not lines.free[number] or lines.is_blank(number):
            number += 1
            continue
        last = number
        while last + 1 < count and lines.free[last + 1] and not lines.is_blank(last + 1):
            last += 1
        region = _block(lines, number, last, records)
        if region is not None:
            regions.append(region)
        number = last + 1
    return regions


def _block(lines: Lines, first: int, last: int, records: Records) -> Region | None:
    body = first
    ruled = False
    prose: list[Span] = []
    # A title line and a rule, a rule alone, or a title line alone may open the list.
    if _RULE.fullmatch(lines.bodies[body]):
        body, ruled = body + 1, True
    elif body + 1 <= last and _RULE.fullmatch(lines.bodies[body + 1]):
        prose.append((lines.starts[body], lines.end(body)))
        body, ruled = body + 2, True
    elif _pair(lines.bodies[body]) is None and not _opens(lines.bodies[body]):
        prose.append((lines.starts[body], lines.end(body)))
        body += 1
    kinds = [(number, _kind(lines.bodies[number])) for number in range(body, last + 1)]
    counted = [kind for _, kind in kinds if kind != _COMMENT]
    found = sum(kind == _PAIR_LINE for kind in counted)
    nested = _PARENT_LINE in counted
    # A dash opens an item of a nested list only under a key; alone it is a bullet.
    usable = sum(kind != _OTHER and (nested or kind != _ITEM_LINE) for kind in counted)
    needed = _MIN_PAIRS_AFTER_RULE if ruled else _MIN_PAIRS
    if found < needed or Fraction(usable, len(counted)) < _MIN_SHARE:
        return None
    cells: list[Cell] = []
    # The keys open above the current line, with their indentation and record.
    stack: list[tuple[int, str, int]] = []
    for number, kind in kinds:
        line = lines.bodies[number]
        if kind in (_COMMENT, _OTHER):
            prose.append((lines.starts[number], lines.end(number)))
            continue
        indent = _indentation(line)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if kind == _PARENT_LINE:
            match = _PARENT.fullmatch(line)
            assert match is not None
            stack.append((indent, match["key"].strip(), next(records)))
            continue
        if kind == _ITEM_LINE:
            if not nested or not stack:
                prose.append((lines.starts[number], lines.end(number)))
                continue
            key, value_start = stack[-1][1], _ITEM.match(line).end()  # type: ignore[union-attr]
        else:
            match = _PAIR.match(line)
            assert match is not None
            key, value_start = match["key"].strip(), match.end()
            if _DIGIT.search(key):
                # "Junior Suite (45 m²): from CA$479": the key states a value too.
                base = lines.starts[number]
                prose.append((base + match.start("key"), base + match.end("key")))
        start, end = _value_span(line, value_start)
        start += lines.starts[number]
        end += lines.starts[number]
        path = (
            (*(opened for _, opened, _ in stack), key)
            if kind == _PAIR_LINE
            else (tuple(opened for _, opened, _ in stack))
        )
        record = stack[-1][2] if nested and stack else next(records)
        cells.append(Cell(key, path if nested else (key,), start, end, record))
    return Region(lines.starts[first], lines.end(last), tuple(cells), tuple(prose))


_PAIR_LINE, _PARENT_LINE, _ITEM_LINE, _COMMENT, _OTHER = range(5)


def _kind(line: str) -> int:
    if line.lstrip().startswith("#"):
        return _COMMENT
    if _pair(line) is not None:
        return _PAIR_LINE
    if _opens(line):
        return _PARENT_LINE
    if _ITEM.match(line) is not None:
        return _ITEM_LINE
    return _OTHER


def _opens(line: str) -> bool:
    """Whether a line only opens a nested part: a key and a colon, nothing after."""
    match = _PARENT.fullmatch(line)
    return match is not None and _SENTENCE_PUNCTUATION.isdisjoint(match["key"])


def _indentation(line: str) -> int:
    """How deep a line sits: its leading blanks, and a list dash as two more."""
    stripped = line.lstrip(" \t")
    depth = len(line) - len(stripped)
    return depth + 2 if stripped.startswith("- ") else depth


def _value_span(line: str, start: int) -> tuple[int, int]:
    """Where a value's text lies in its line: without a trailing comment or blanks, and
    without the quotes around it ("5.12.0")."""
    comment = _TRAILING_COMMENT.search(line, start)
    end = comment.start() if comment is not None else len(line.rstrip())
    end = min(end, len(line.rstrip()))
    if end - start >= 2 and line[start] == line[end - 1] and line[start] in "\"'":
        start, end = start + 1, end - 1
    return start, end


def _pair(line: str) -> tuple[str, int] | None:
    """The key of a ``key: value`` line and where its value starts, or None."""
    match = _PAIR.match(line)
    if match is None:
        return None
    key = match["key"].strip()
    if len(key.split()) > _MAX_KEY_WORDS or not _SENTENCE_PUNCTUATION.isdisjoint(key):
        return None
    return key, match.end()
