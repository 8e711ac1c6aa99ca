"""Identifiers: versions, model, part, flight and section numbers, and codes.

An identifier names something ("Kafka 3.7", "Cessna 414", "X-200", "IP68", "Section 5 A")
rather than measuring it, so it is supported only by the same identifier. Case, spaces and
hyphens do not matter ("COVID-19", "Covid 19"), nor the spelling of a version word
("version 3.1", "v3.1", "ver. 3.1").
"""

from __future__ import annotations

import re

from quantcheck.worker.quantities import units
from quantcheck.worker.quantities.counts import lemmas
from quantcheck.worker.quantities.facts import Span
from quantcheck.worker.quantities.phrases import (
    IDENTIFIER_ALIASES,
    MONTHS,
    MULTIPLIER_WORDS,
    NOT_NAMES,
    SMALL_NUMBER_WORDS,
    TENS_WORDS,
)

# Words that introduce identifiers and mean the same thing, spelled one way.
_SAME_WORD = {
    "version": "V", "versions": "V", "ver": "V", "v": "V", "number": "#", "no": "#",
    "revision": "REV", "rev": "REV", "generation": "GEN", "gen": "GEN", "fig": "FIGURE",
}  # fmt: skip
_SEPARATORS = re.compile(r"[\s\-_]+")
_DIGITS_THEN_LETTERS = re.compile(r"(\d+)([A-Za-z]+)")
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)", re.IGNORECASE)
_NOT_NAMES = (
    frozenset(NOT_NAMES)
    | frozenset(MONTHS)
    | {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
)
_NUMBER_WORDS = frozenset(SMALL_NUMBER_WORDS) | frozenset(TENS_WORDS) | frozenset(MULTIPLIER_WORDS)


def canonical(word: str | None, code: str) -> str:
    """The identifier's comparable form: ``canonical("Version", "3.1") == "V3.1"``."""
    head = ""
    if word:
        key = word.casefold().rstrip(".")
        head = _SAME_WORD.get(key, key.upper())
    return head + _SEPARATORS.sub("", code).upper()


_ALIASES = re.compile(
    r"\b(?:"
    + "|".join(
        f"(?P<{key}>{'|'.join(re.escape(a) for a in sorted(names, key=len, reverse=True))})"
        for key, names in IDENTIFIER_ALIASES.items()
    )
    + r")\b(?![-\s]?\d)",
    re.IGNORECASE,
)


def aliases_in(text: str) -> list[tuple[str, Span]]:
    """Where ``text`` names a numbered identifier without its number ("COVID" for
    COVID-19): each such identifier's canonical form and span."""
    found = []
    for match in _ALIASES.finditer(text):
        key = match.lastgroup
        assert key is not None
        found.append((key, Span(match.start(), match.end())))
    return found


def is_name(word: str, *, opens_sentence: bool = False) -> bool:
    """Whether a capitalized word before a number can name a product or a series ("Kafka",
    "Windows", "ISO"): not a function word at the start of a sentence ("In 2019"), a
    month, a unit, a number, or a word that is never a noun ("Includes 5 users"). At the
    start of a sentence, where every word is capitalized, a word that may be a verb or an
    adjective is not taken for a name either ("Keep 1,500 MB free")."""
    base = word.split("-", 1)[0]
    if (
        base in _NOT_NAMES
        or base.casefold() in _NUMBER_WORDS
        or is_unit(base)
        or base in units.CURRENCY_PREFIXES
    ):
        return False
    readings = lemmas(base.casefold())
    if not readings:
        return True
    if opens_sentence:
        return readings.keys() <= {"NOUN", "PROPN"}
    return "NOUN" in readings or "PROPN" in readings


def is_unit(letters: str) -> bool:
    """Whether letters glued to or after a number are a unit ("m", "GB"); units such as
    "K" that count only after a space are not."""
    unit = units.lookup(letters)
    return unit is not None and not unit.spaced


def ordinal_of(code: str) -> int | None:
    """The number of a digit ordinal such as "21st" (None for anything else)."""
    match = _ORDINAL.fullmatch(code)
    return None if match is None else int(match.group(1))


def measures_something(code: str) -> bool:
    """Whether a token mixing digits and letters is a number rather than an identifier: a
    number glued to its unit ("10m", "5GB"), a number, a hyphen and a unit ("60-second"),
    a scale ("50k"), an ordinal ("21st") or a plural ("90s")."""
    first, _, rest = code.partition("-")
    if first.isdigit() and rest.isalpha():
        return is_unit(rest)
    match = _DIGITS_THEN_LETTERS.fullmatch(code)
    if match is None:
        return False
    letters = match.group(2)
    return (
        is_unit(letters)
        or letters in units.SCALE_LETTERS
        or _ORDINAL.fullmatch(code) is not None
        or letters == "s"
    )
