"""A text with some ranges of an original removed, and the way back to the original."""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """Half-open character offsets ``[start, end)``, in Unicode code points."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class OffsetMap:
    """``text`` is ``original`` less some ranges; offsets in ``text`` map back to it.

    ``text`` is made of the kept pieces of ``original`` in order: piece ``i`` starts at
    ``text_starts[i]`` in ``text`` and at ``original_starts[i]`` in ``original``.
    """

    original: str
    text: str
    text_starts: tuple[int, ...]
    original_starts: tuple[int, ...]

    @classmethod
    def removing(cls, original: str, removed: Iterable[Span]) -> OffsetMap:
        """``original`` without the ``removed`` ranges (sorted, not overlapping)."""
        pieces: list[str] = []
        text_starts: list[int] = []
        original_starts: list[int] = []
        position = 0
        length = 0
        for span in [*removed, Span(len(original), len(original))]:
            if span.start < position:
                raise ValueError(f"removed ranges overlap or are unsorted at {span.start}")
            if span.start > position:
                pieces.append(original[position : span.start])
                text_starts.append(length)
                original_starts.append(position)
                length += span.start - position
            position = span.end
        return cls(original, "".join(pieces), tuple(text_starts), tuple(original_starts))

    def to_original(self, offset: int) -> int:
        """Where the character at ``offset`` of ``text`` sits in ``original``; the end of
        ``text`` maps to the end of ``original``."""
        if not 0 <= offset <= len(self.text):
            raise ValueError(f"offset {offset} is outside the text of {len(self.text)} characters")
        if offset == len(self.text):
            return len(self.original)
        piece = bisect.bisect_right(self.text_starts, offset) - 1
        return self.original_starts[piece] + offset - self.text_starts[piece]

    def span_to_original(self, start: int, end: int) -> Span:
        """The span of ``original`` that ``text[start:end]`` came from: it starts at the
        first character's place and ends just after the last one's, so removed text
        around the span is left out (removed text inside it is kept)."""
        if end <= start:
            at = self.to_original(start)
            return Span(at, at)
        return Span(self.to_original(start), self.to_original(end - 1) + 1)

    def to_text(self, original_offset: int) -> int:
        """Where ``original_offset`` falls in ``text``: a removed character maps to the
        place its removal left, between the kept characters around it."""
        piece = bisect.bisect_right(self.original_starts, original_offset) - 1
        if piece < 0:
            return 0
        inside = original_offset - self.original_starts[piece]
        piece_end = (
            self.text_starts[piece + 1] if piece + 1 < len(self.text_starts) else len(self.text)
        )
        return min(self.text_starts[piece] + inside, piece_end)
