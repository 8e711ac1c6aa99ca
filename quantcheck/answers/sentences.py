"""Sentence boundaries of plain text: sentencex, plus three rules for measured text.

sentencex (Wikimedia's rule-based segmenter, maintained, linear time) keeps
abbreviations, decimals and initials together ("e.g.", "U.S.", "2.5 L/min", "J. Smith")
and splits list items. It takes a single letter before a period for an initial, so a
sentence ending in a unit symbol ("every 15 s. Then") is not split; on the labelled
cases in tests/data/sentence_cases.yaml every splitter measured misses those.
The rules below add what quantities need:

* a number, an optional space and a unit of one to three letters (or two such joined by
  a slash), then a period, ends a sentence when the next word is capitalized
  (``every 15 s. Then``, ``at 2.5 L/min. Upload``);
* a line that ends with a colon ends its sentence (``as follows:`` before a list);
* ``approx.`` and ``ca.`` before a number or a lowercase word end nothing.
"""

from __future__ import annotations

import re

import sentencex

from quantcheck.answers.offsets import Span

LANGUAGE = "en"

_UNIT_PERIOD = re.compile(r"\d ?[^\W\d_]{1,3}(?:/[^\W\d_]{1,3})?\.(?=\s+[A-Z])")
_COLON_LINE = re.compile(r":[ \t]*(?:\r\n|\n|\r)")
_NO_BREAK_AFTER = re.compile(r"\b(?:approx|ca)\.\s*$", re.IGNORECASE)
_CONTINUES = re.compile(r"\s*[\da-z]")
_WORD = re.compile(r"\w")
# Enough characters before a boundary to see "approx." and the white space after it.
_LOOKBACK = 16


def sentence_spans(text: str) -> tuple[Span, ...]:
    """The sentences of ``text`` in order, trimmed of surrounding white space; pieces
    without a letter or digit (stray punctuation, blank lines) are left out."""
    boundaries = _segmenter_boundaries(text)
    boundaries.update(match.end() for match in _UNIT_PERIOD.finditer(text))
    boundaries.update(match.end() for match in _COLON_LINE.finditer(text))
    kept = sorted(b for b in boundaries if not _continues_after_abbreviation(text, b))
    spans: list[Span] = []
    start = 0
    for end in [*kept, len(text)]:
        span = _trimmed(text, start, end)
        if span is not None:
            spans.append(span)
        start = max(start, end)
    return tuple(spans)


def _continues_after_abbreviation(text: str, boundary: int) -> bool:
    return (
        _NO_BREAK_AFTER.search(text, max(0, boundary - _LOOKBACK), boundary) is not None
        and _CONTINUES.match(text, boundary) is not None
    )


def _segmenter_boundaries(text: str) -> set[int]:
    """Offsets at which sentencex ends a segment."""
    return {
        int(segment["end_index"])
        for segment in sentencex.get_sentence_boundaries(LANGUAGE, text)
        if 0 < int(segment["end_index"]) < len(text)
    }


def _trimmed(text: str, start: int, end: int) -> Span | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if _WORD.search(text, start, end) is None:
        return None
    return Span(start, end)
