"""Scales and units that a caption, a title or a column header states for a table.

"(in thousands of dollars)", "$ in millions", "in millions, except per share data" above
a table, "Revenue ($M)" or "Amount (in thousands)" as a header. Each is read from a
short text only (a caption line, a header), so the patterns never meet a long input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from quantcheck.quantities import units

# A caption longer than this is a sentence, not a caption.
MAX_CAPTION = 200

_SCALE_WORD = r"(?:thousand|million|billion|trillion)s?"
# Currency symbols ("$", "US$") and codes ("USD"); a code must not run into a word ("USDA").
_CURRENCY = "|".join(
    re.escape(symbol) + ("(?![A-Za-z])" if symbol[-1].isalpha() else "")
    for symbol in sorted(units.CURRENCY_PREFIXES, key=len, reverse=True)
)
# "in thousands", "in $ millions", "Dollars in thousands", "$ in millions",
# "in millions of U.S. dollars".
_IN_SCALE = re.compile(
    rf"(?:(?P<before>{_CURRENCY}|\b[A-Za-z]{{2,12}})\s+)?"
    rf"\b[Ii]n\s+(?:(?P<currency>{_CURRENCY})\s*)?(?P<scale>(?i:{_SCALE_WORD}))\b"
    r"(?:\s+of\s+(?P<unit>[A-Za-z.]+(?:\s+[A-Za-z]+){0,2}))?"
)
# A bracketed part of a header or caption: "($M)", "(000s)", "[USD millions]".
_MAX_COMPACT = 40
_BRACKETED = re.compile(rf"[(\[]([^()\[\]]{{1,{_MAX_COMPACT}}})[)\]]")
_PIECE = re.compile(
    rf"(?P<currency>{_CURRENCY})|(?P<thousands>'?000'?s?)|(?P<word>[A-Za-z]+)|(?P<filler>,)|\S"
)
_SCALE_WORD_ONLY = re.compile(_SCALE_WORD, re.IGNORECASE)
_THOUSANDS = Decimal(1000)
_FILLER_WORDS = frozenset({"in", "of", "amounts"})


@dataclass(frozen=True, slots=True)
class Statement:
    """What a caption or header states: a multiplier and the unit text (None if none)."""

    scale: Decimal = Decimal(1)
    unit: str | None = None


@lru_cache(maxsize=4096)
def stated(text: str) -> Statement | None:
    """The scale and unit ``text`` (a caption or a header) states, or None. Headers
    repeat from table to table, so each is read once."""
    if len(text) > MAX_CAPTION:
        return None
    for bracketed in _BRACKETED.finditer(text):
        found = _compact(bracketed.group(1))
        if found is not None:
            return found
    match = _IN_SCALE.search(text)
    if match is None:
        # A text that is nothing but a scale or a currency ("thousands of tonnes", "USD");
        # a bare unit word ("Year", "hours") is a key, read as such by evidence.
        found = _compact(text) if len(text) <= _MAX_COMPACT else None
        if found is None or (found.scale == 1 and found.unit not in units.CURRENCY_PREFIXES):
            return None
        return found
    unit = match["currency"] or _unit_after_of(match["unit"]) or _unit_before(match["before"])
    return Statement(_scale_word(match["scale"]), unit)


def _compact(body: str) -> Statement | None:
    """A bracketed statement: currencies, scale words and letters, "000", unit words,
    and nothing else ("$M", "USD millions", "in € thousands", "000s", "$'000")."""
    body = body.split("except", 1)[0]
    scale: Decimal | None = None
    unit: str | None = None
    letters: list[str] = []
    for piece in _PIECE.finditer(body):
        kind = piece.lastgroup
        written = piece.group()
        if kind == "currency":
            unit = unit or written
        elif kind == "thousands":
            scale = _THOUSANDS
        elif kind == "word":
            folded = written.casefold()
            if folded in _FILLER_WORDS:
                continue
            if _SCALE_WORD_ONLY.fullmatch(written):
                scale = _scale_word(written)
            elif written in units.SCALE_LETTERS or folded in units.CURRENCY_SCALES:
                letters.append(written)
            elif units.lookup(written) is not None:
                unit = unit or written
            else:
                return None
        elif kind != "filler":
            return None
    if letters:
        # A scale letter needs a currency beside it: "(m)" alone may be metres.
        if len(letters) > 1 or unit is None or units.CURRENCY_PREFIXES.get(unit) is None:
            return None
        letter = letters[0]
        scale = units.SCALE_LETTERS.get(letter) or units.CURRENCY_SCALES[letter.casefold()]
    if scale is None and unit is None:
        return None
    return Statement(scale or Decimal(1), unit)


def _scale_word(word: str) -> Decimal:
    return units.SCALE_WORDS[word.casefold().removesuffix("s")]


def _unit_after_of(words: str | None) -> str | None:
    """The longest run of the words after "of" that names a unit ("U.S. dollars")."""
    if words is None:
        return None
    parts = words.replace(".", "").split()
    for size in range(len(parts), 0, -1):
        candidate = " ".join(parts[:size])
        if units.lookup(candidate) is not None:
            return candidate
    return None


def _unit_before(word: str | None) -> str | None:
    """The currency or unit word before "in millions" ("$", "Dollars"), not any word."""
    if word is None:
        return None
    if word in units.CURRENCY_PREFIXES or units.lookup(word) is not None:
        return word
    return None
