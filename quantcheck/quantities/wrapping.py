"""Hard-wrapped prose read as the sentences it holds.

Plain-text documents (mail, exported notes, fixed-width manuals) break their lines at a
width, in the middle of sentences: "respond within\\n15 minutes", "opened in June\\n2021".
Everywhere else a line break ends what a value is said of (a list's items, a table's
rows, a spec sheet's lines), so read as written such a break cuts a bound from its
number, a month from its year and a subject from its value. A break is taken for a wrap,
and read as a space, only inside prose and only where the line before runs on: it is
long, holds several words and ends mid-sentence, and the line after starts no item of
its own. Each break becomes as many spaces as it has characters, so every offset into
the text stays an offset into the original.
"""

from __future__ import annotations

import itertools
import re
import sys
from dataclasses import dataclass

from quantcheck.quantities import structured
from quantcheck.quantities.budget import FactBudget

# A wrapped line is near its text's width; lines of lists and spec sheets are shorter.
MIN_WRAPPED_LINE = 40
# Text is wrapped at a width of this many characters or more and this many or fewer, and
# each line of a wrapped paragraph but its last ends within WIDTH_SLACK of that width.
MIN_WRAP_WIDTH = 60
MAX_WRAP_WIDTH = 100
WIDTH_SLACK = 20
# Prose has a space between every two words; a row of comma-separated data has few.
MIN_WRAPPED_SPACES = 4
# What a line that runs on cannot end with: the end of a sentence or clause, a lead-in.
# (An item's own line may run on: "- parts are covered for\n  24 months" is one item.)
_ENDS_STATEMENT = frozenset(".!?:;")
# A line of structure: a table's cell separator, a tab-separated row.
_STRUCTURE = re.compile(r"[|\t]")
# A key and its colon at the start of a line ("Weight: 2 kg", "Q: ...", "Sodium hydroxide
# (CAS 1310-73-2): 0.5–1%"): the line of a spec sheet, which ends with its value.
_KEY = r"[^\s:][^:.!?]{0,40}:(?=\s)"
# How a line that starts an item of its own begins: a bullet, a number or letter of a
# numbered list, a heading, a quote, or a key.
_ITEM_START = re.compile(
    rf"[ \t]*+(?:[-*•+▪◦‣–—>#](?=\s)|#|\(?(?:\d{{1,3}}|[A-Za-z])[.)](?=\s)|{_KEY})"
)
_KEY_START = re.compile(rf"[ \t]*+{_KEY}")
# A line break mid-sentence before a line with something on it.
_MID_SENTENCE_BREAK = re.compile(r"[^\s.!?:;]\r?\n[ \t]*+\S")


def unwrapped(text: str, budget: FactBudget | None = None) -> str:
    """``text`` with each line break of its hard-wrapped prose (and a carriage return
    before it) written as spaces; the text itself when it has none. The copy is spent
    from ``budget``."""
    if not _may_wrap(text):
        return text
    layout = structured.read(text)
    regions = layout.prose if layout.cells else ((0, len(text)),)
    breaks = [b for start, end in regions for b in _soft_breaks(text, start, end)]
    if not breaks:
        return text
    pieces: list[str] = []
    position = 0
    for start, end in breaks:
        pieces += (text[position:start], " " * (end - start))
        position = end
    pieces.append(text[position:])
    result = "".join(pieces)
    if budget is not None:
        budget.spend_bytes(sys.getsizeof(result))
    return result


def _may_wrap(text: str) -> bool:
    """Whether some line long enough to wrap breaks mid-sentence: the cheap test that
    spares most documents reading their structure (each line is looked at once)."""
    for found in _MID_SENTENCE_BREAK.finditer(text):
        end = found.start() + 1
        if end - (text.rfind("\n", 0, end) + 1) >= MIN_WRAPPED_LINE:
            return True
    return False


def _soft_breaks(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the wrapping line breaks of ``text[start:end]``, "\\r\\n" as one: those
    of each paragraph that is wrapped at a width."""
    found: list[tuple[int, int]] = []
    offset = start
    paragraph: list[_Line] = []
    for line in text[start:end].split("\n"):
        body = line.rstrip("\r")
        if body.strip():
            paragraph.append(_Line(offset, body, offset + len(line) + 1))
        else:
            found += _wrapped(paragraph)
            paragraph = []
        offset += len(line) + 1
    found += _wrapped(paragraph)
    return found


@dataclass(frozen=True, slots=True)
class _Line:
    """A line of a paragraph: where it starts, its text without a carriage return, and
    where the next line starts."""

    start: int
    body: str
    next_start: int


def _wrapped(paragraph: list[_Line]) -> list[tuple[int, int]]:
    """The wrapping breaks of one paragraph: none unless every line but its last fills
    the paragraph's width, the width it is wrapped at, to within :data:`WIDTH_SLACK`.
    Lines of sentences one to a line ("pictured: the bridge at dusk") vary far more, and
    run longer."""
    if len(paragraph) < 2:
        return []
    width = max(len(line.body) for line in paragraph)
    if not MIN_WRAP_WIDTH <= width <= MAX_WRAP_WIDTH or any(
        len(line.body) < width - WIDTH_SLACK for line in paragraph[:-1]
    ):
        return []
    return [
        (line.start + len(line.body), line.next_start)
        for line, following in itertools.pairwise(paragraph)
        if _runs_on(line.body) and _continues(following.body)
    ]


def _runs_on(line: str) -> bool:
    words = line.strip()
    return (
        len(words) >= MIN_WRAPPED_LINE
        and words.count(" ") >= MIN_WRAPPED_SPACES
        and words[-1] not in _ENDS_STATEMENT
        and _STRUCTURE.search(words) is None
        and not words.startswith("#")
        and _KEY_START.match(line) is None
    )


def _continues(line: str) -> bool:
    return bool(line.strip()) and _STRUCTURE.search(line) is None and not _ITEM_START.match(line)
