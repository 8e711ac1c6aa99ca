"""Unicode normalization that keeps a way back to the original character offsets.

Extraction runs on NFKC text (℃ becomes °C, full-width digits become ASCII, no-break
spaces become spaces) but spans must point into the text the user wrote. Normalizing
cluster by cluster (a base character with its combining marks) lets each normalized
character remember which original cluster it came from.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NormalizedText:
    """NFKC text plus, for each normalized offset, the original offset it came from."""

    original: str
    text: str
    # None when normalization changed nothing: offsets are then the identity.
    _starts: tuple[int, ...] | None
    _ends: tuple[int, ...] | None

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Map a normalized half-open span back onto the original text."""
        if self._starts is None or self._ends is None:
            return start, end
        if start >= end:
            position = self._starts[start] if start < len(self._starts) else len(self.original)
            return position, position
        return self._starts[start], self._ends[end - 1]


def normalize(text: str) -> NormalizedText:
    """NFKC-normalize ``text`` and remember where every normalized character came from."""
    if text.isascii() or unicodedata.is_normalized("NFKC", text):
        return NormalizedText(text, text, None, None)
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    index = 0
    length = len(text)
    while index < length:
        cluster_end = index + 1
        while cluster_end < length and unicodedata.combining(text[cluster_end]):
            cluster_end += 1
        piece = unicodedata.normalize("NFKC", text[index:cluster_end])
        pieces.append(piece)
        starts.extend([index] * len(piece))
        ends.extend([cluster_end] * len(piece))
        index = cluster_end
    return NormalizedText(text, "".join(pieces), tuple(starts), tuple(ends))
