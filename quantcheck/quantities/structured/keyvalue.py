"""Lists of ``key: value`` lines: Wikidata entities, spec sheets, metadata blocks.

A block is a run of non-blank free lines. It is a list when, after an optional title
line and an optional ``---`` rule, at least three of its lines (two after a rule) are
``- key: value``, ``* key: value`` or ``Key: value`` and they make up at least four in
five of its lines. A key is a short phrase (at most eight words, no sentence
punctuation), so a paragraph with a colon or a bulleted list of sentences stays prose.
Each line is a record of its own; its value is one cell, however many values it lists.
The title and any line that is no pair are prose.
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
_RULE = re.compile(r"[ \t]*+(?:-{3,}+|={3,}+|\*{3,}+)[ \t]*+")
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
    elif _pair(lines.bodies[body]) is None:
        prose.append((lines.starts[body], lines.end(body)))
        body += 1
    pairs = [(number, _pair(lines.bodies[number])) for number in range(body, last + 1)]
    found = sum(pair is not None for _, pair in pairs)
    needed = _MIN_PAIRS_AFTER_RULE if ruled else _MIN_PAIRS
    if found < needed or Fraction(found, len(pairs)) < _MIN_SHARE:
        return None
    cells: list[Cell] = []
    for number, pair in pairs:
        if pair is None:
            prose.append((lines.starts[number], lines.end(number)))
            continue
        key, value_start = pair
        start = lines.starts[number] + value_start
        end = lines.end(number) - (len(lines.bodies[number]) - len(lines.bodies[number].rstrip()))
        cells.append(Cell(key, (key,), start, end, next(records)))
    return Region(lines.starts[first], lines.end(last), tuple(cells), tuple(prose))


def _pair(line: str) -> tuple[str, int] | None:
    """The key of a ``key: value`` line and where its value starts, or None."""
    match = _PAIR.match(line)
    if match is None:
        return None
    key = match["key"].strip()
    if len(key.split()) > _MAX_KEY_WORDS or not _SENTENCE_PUNCTUATION.isdisjoint(key):
        return None
    return key, match.end()
