"""Inline citation markers in an answer: ``[1]``, ``[1, 3]``, ``[1][2]``, ``[S01]``,
``【2】``, ``^[3]`` and footnote-style ``[^2]``.

Brackets hold labels separated by commas or semicolons; a numeric range such as ``1-3``
stands for each number in it (one wider than ``MAX_RANGE_LABELS`` is no citation). Not
every bracket is a citation (``[sic]``, ``[2.5, 3.0]``), so a label counts only when it is
a known marker or document ID, or else looks like one: it contains a digit, no white
space, and is not a decimal number. A bracket with any label that does not count is left
as text.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from quantcheck.schemas.limits import MAX_ID_CHARS

_MARKER = re.compile(
    rf"\^?\[\^?(?P<square>[^\[\]\n]{{1,{MAX_ID_CHARS}}})\]"
    rf"|【(?P<lenticular>[^【】\n]{{1,{MAX_ID_CHARS}}})】"
)
_SEPARATOR = re.compile(r"[,;，、；]")
_DIGIT = re.compile(r"\d")
_DECIMAL = re.compile(r"\d+[.,]\d+")
_RANGE = re.compile(r"(\d{1,4})\s*[-–—]\s*(\d{1,4})")
# Wider ranges are more likely a span of years or pages than a run of citations.
MAX_RANGE_LABELS = 20


@dataclass(frozen=True, slots=True)
class Marker:
    """One citation marker: where its text is in the answer and the labels it holds."""

    start: int
    end: int
    labels: tuple[str, ...]


def find_markers(text: str, known: Collection[str] = ()) -> tuple[Marker, ...]:
    """Every citation marker of ``text``, in order. ``known`` holds labels that count
    whatever they look like (the answer's marker labels and retrieved document IDs)."""
    found: list[Marker] = []
    for match in _MARKER.finditer(text):
        body = match["square"] if match["square"] is not None else match["lenticular"]
        labels = _labels(body, known)
        if labels:
            found.append(Marker(match.start(), match.end(), labels))
    return tuple(found)


def _labels(body: str, known: Collection[str]) -> tuple[str, ...]:
    """The labels of one bracket's content; empty when any part is not a label."""
    labels: list[str] = []
    for part in _SEPARATOR.split(body):
        label = part.strip()
        if not label:
            return ()
        if label in known:
            labels.append(label)
            continue
        numeric_range = _RANGE.fullmatch(label)
        if numeric_range is not None:
            numbers = _expand(numeric_range)
            if not numbers:
                return ()
            labels.extend(numbers)
        elif _looks_like_label(label):
            labels.append(label)
        else:
            return ()
    return tuple(labels)


def _expand(numeric_range: re.Match[str]) -> tuple[str, ...]:
    low, high = int(numeric_range[1]), int(numeric_range[2])
    if not 0 < high - low < MAX_RANGE_LABELS:
        return ()
    return tuple(str(number) for number in range(low, high + 1))


def _looks_like_label(label: str) -> bool:
    return (
        _DIGIT.search(label) is not None
        and not any(ch.isspace() for ch in label)
        and _DECIMAL.fullmatch(label) is None
    )
