"""Unicode normalization that keeps a way back to the original character offsets.

HTML character references ("&pound;") are read here too, as the character they name:
like an NFKC compatibility form, they are another way of writing one character.

Extraction runs on NFKC text (℃ becomes °C, full-width digits become ASCII, no-break
spaces become spaces) but spans must point into the text the user wrote. Normalizing
cluster by cluster (a base character with its combining marks) lets each normalized
character remember which original cluster it came from.

Most characters map to one character each, so only the clusters that do not are
remembered (where each starts and ends, before and after): a text of megabytes with one
accented word costs four numbers more, where a table of every character's offsets cost
about a hundred bytes a character.
"""

from __future__ import annotations

import bisect
import html
import re
import sys
import unicodedata
from array import array
from dataclasses import dataclass

from quantcheck.quantities.budget import CLUSTER_BYTES, NORMALIZED_CHAR_BYTES, FactBudget

# Text is normalized in runs of about this many characters, each ending before a base
# character: a run that is already normal is kept whole.
_RUN = 4096
# Offsets are held as unsigned 32-bit integers: documents are far shorter than 4 GiB.
_OFFSET = "I"
# Vulgar fractions with an exact decimal, written as that decimal: NFKC turns "2½" into
# "21⁄2", which reads as twenty-one. After a digit the fraction continues the number
# ("2½" is "2.5"); alone it is a number of its own ("½ cup" is "0.5 cup"). Thirds, sixths
# and other fractions without an exact decimal are left to NFKC, and so is one a space
# after digits ("1 ½"), which is not a number of its own.
VULGAR_FRACTIONS: dict[str, str] = {
    "½": ".5", "¼": ".25", "¾": ".75", "⅛": ".125", "⅜": ".375", "⅝": ".625", "⅞": ".875",
    "⅕": ".2", "⅖": ".4", "⅗": ".6", "⅘": ".8", "⅒": ".1",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class NormalizedText:
    """NFKC text plus, for each normalized offset, the original offset it came from."""

    original: str
    text: str
    # The clusters that did not become one character each, in order: where each starts
    # and ends in the normalized text and in the original. Between them, offsets move
    # one for one. None when normalization changed nothing.
    _clusters: tuple[array[int], array[int], array[int], array[int]] | None = None

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Map a normalized half-open span back onto the original text."""
        if self._clusters is None:
            return start, end
        if start >= end:
            position = self._start(start) if start < len(self.text) else len(self.original)
            return position, position
        return self._start(start), self._end(end - 1)

    def _start(self, offset: int) -> int:
        """Where the original character (cluster) of normalized ``offset`` starts."""
        assert self._clusters is not None
        starts, ends, original_starts, original_ends = self._clusters
        at = bisect.bisect_right(starts, offset) - 1
        if at < 0:
            return offset
        if offset < ends[at]:
            return original_starts[at]
        return original_ends[at] + offset - ends[at]

    def _end(self, offset: int) -> int:
        """Where the original character (cluster) of normalized ``offset`` ends."""
        assert self._clusters is not None
        starts, ends, _, original_ends = self._clusters
        at = bisect.bisect_right(starts, offset) - 1
        if at >= 0 and offset < ends[at]:
            return original_ends[at]
        return self._start(offset) + 1


def normalize(text: str, budget: FactBudget | None = None) -> NormalizedText:
    """NFKC-normalize ``text`` and remember where every normalized character came from,
    spending the memory this takes from ``budget`` as it goes."""
    # Not unicodedata.is_normalized on the whole text: for some characters it normalizes a
    # copy of all of it to find out, holding four bytes a character. Runs are asked instead.
    if text.isascii() and "&" not in text:
        return NormalizedText(text, text)
    budget = budget or FactBudget(None)
    runs: list[str] = []
    clusters: tuple[array[int], array[int], array[int], array[int]] = (
        array(_OFFSET),
        array(_OFFSET),
        array(_OFFSET),
        array(_OFFSET),
    )
    length = len(text)
    written = 0  # the normalized text's length so far
    index = 0
    while index < length:
        stop = min(length, index + _RUN)
        while stop < length and unicodedata.combining(text[stop]):
            stop += 1
        run = text[index:stop]
        if (not run.isascii() and not unicodedata.is_normalized("NFKC", run)) or (
            "&" in run and _ENTITY.search(run) is not None
        ):
            remembered = len(clusters[0])
            run = _normalized(text, index, stop, written, clusters)
            budget.spend(len(clusters[0]) - remembered, CLUSTER_BYTES)
        budget.spend(sys.getsizeof(run), NORMALIZED_CHAR_BYTES)
        runs.append(run)
        written += len(run)
        index = stop
    normalized = "".join(runs)
    if not clusters[0] and normalized == text:
        return NormalizedText(text, text)
    return NormalizedText(text, normalized, clusters)


def _normalized(
    text: str,
    index: int,
    stop: int,
    written: int,
    clusters: tuple[array[int], array[int], array[int], array[int]],
) -> str:
    """``text[index:stop]`` normalized cluster by cluster, the clusters that do not become
    one character each appended to ``clusters`` (the run starts at ``written`` in the
    normalized text)."""
    pieces: list[str] = []
    starts, ends, original_starts, original_ends = clusters
    while index < stop:
        entity = _ENTITY.match(text, index, stop) if text[index] == "&" else None
        piece = _decoded(entity[0]) if entity is not None else None
        if entity is not None and piece is not None:
            cluster_end = entity.end()
        else:
            cluster_end = index + 1
            while cluster_end < stop and unicodedata.combining(text[cluster_end]):
                cluster_end += 1
            piece = _cluster(text, index, cluster_end)
        if len(piece) != 1 or cluster_end - index != 1:
            starts.append(written)
            ends.append(written + len(piece))
            original_starts.append(index)
            original_ends.append(cluster_end)
        pieces.append(piece)
        written += len(piece)
        index = cluster_end
    return "".join(pieces)


# A character reference of HTML ("&pound;", "&#8364;", "&nbsp;"): pages and their tables
# are handed over with them, and "&pound;7.00" is read as the "£7.00" a browser shows.
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _decoded(entity: str) -> str | None:
    """The normalized character an entity stands for; None for one that names no single
    character, and for "&lt;" and "&gt;", which would make text look like markup."""
    character = html.unescape(entity)
    if len(character) != 1 or character in "<>":
        return None
    return unicodedata.normalize("NFKC", character)


def _cluster(text: str, index: int, end: int) -> str:
    """The normalized form of the cluster ``text[index:end]``."""
    cluster = text[index:end]
    decimal = VULGAR_FRACTIONS.get(cluster)
    if decimal is None or (index > 1 and text[index - 1].isspace() and text[index - 2].isdecimal()):
        # "1 ½" is one and a half, which no single decimal here can write: left to NFKC.
        return unicodedata.normalize("NFKC", cluster)
    return decimal if index and text[index - 1].isdecimal() else "0" + decimal
