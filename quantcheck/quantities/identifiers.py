"""Identifiers: versions, model, part, flight and section numbers, and codes.

An identifier names something ("Kafka 3.7", "Cessna 414", "X-200", "IP68", "Section 5 A")
rather than measuring it, so it is supported only by the same identifier. Case, spaces and
hyphens do not matter ("COVID-19", "Covid 19"), nor the spelling of a version word
("version 3.1", "v3.1", "ver. 3.1").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from quantcheck.quantities import units
from quantcheck.quantities.budget import CODE_BYTES, FactBudget
from quantcheck.quantities.facts import Span
from quantcheck.quantities.lemmas import lemmas
from quantcheck.quantities.numbers import EXPONENT
from quantcheck.quantities.phrases import (
    AGE_GROUP_PLURALS,
    IDENTIFIER_ALIASES,
    INTERVAL_WORDS,
    MONTHS,
    MULTIPLIER_WORDS,
    NOT_NAMES,
    SMALL_NUMBER_WORDS,
    TENS_WORDS,
)
from quantcheck.quantities.text import normalize
from quantcheck.quantities.written_units import names_written_unit
from quantcheck.quantities.written_units import unit_like as written_unit_like

# Words that introduce identifiers and mean the same thing, spelled one way.
_SAME_WORD = {
    "version": "V", "versions": "V", "ver": "V", "v": "V", "number": "#", "no": "#",
    "revision": "REV", "rev": "REV", "generation": "GEN", "gen": "GEN", "fig": "FIGURE",
}  # fmt: skip
_SEPARATORS = re.compile(r"[\s\-_]+")
# A word glued after a number by a hyphen that bounds it: "800-plus islands".
_TRAILING_WORDS = frozenset({"plus"})
_DIGITS_THEN_LETTERS = re.compile(r"(\d+)([A-Za-z]+)")
# "1e-3" is a number, read with its exponent by the quantity scan.
SCIENTIFIC = re.compile(rf"\d+{EXPONENT}")
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)", re.IGNORECASE)
_ORDINAL_BEFORE_NOUN = re.compile(r"(\d+)(?:st|nd|rd|th)-[A-Za-z]+", re.IGNORECASE)
_NOT_NAMES = (
    frozenset(NOT_NAMES)
    | frozenset(MONTHS)
    | {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
    # "95% CI 1.2-2.7": the name of an interval, whose numbers are its bounds
    | {word for word in INTERVAL_WORDS if " " not in word}
)
_NUMBER_WORDS = frozenset(SMALL_NUMBER_WORDS) | frozenset(TENS_WORDS) | frozenset(MULTIPLIER_WORDS)


def canonical(word: str | None, code: str) -> str:
    """The identifier's comparable form: ``canonical("Version", "3.1") == "V3.1"``."""
    head = ""
    if word:
        key = word.casefold().rstrip(".")
        head = _SAME_WORD.get(key, key.upper())
    return head + _SEPARATORS.sub("", code).upper()


# Each name an identifier goes by without its number, folded, and the identifier.
_ALIAS_OF = {
    " ".join(name.casefold().split()): key
    for key, names in IDENTIFIER_ALIASES.items()
    for name in names
}
# The longest name first, so that "carbon dioxide equivalent" is read whole.
_ALIASES = re.compile(
    r"\b(?:"
    + "|".join(
        re.escape(name).replace(r"\ ", r"\s+") for name in sorted(_ALIAS_OF, key=len, reverse=True)
    )
    + r")\b(?![-\s]?\d)",
    re.IGNORECASE,
)


def aliases_in(text: str) -> Iterator[tuple[str, Span]]:
    """Where ``text`` names a numbered identifier without its number ("COVID" for
    COVID-19, "carbon dioxide" for CO2): each such identifier's canonical form and span.
    A name that starts with another names both ("carbon dioxide equivalent": CO2E, CO2)."""
    for match in _ALIASES.finditer(text):
        said = " ".join(match.group().casefold().split())
        span = Span(match.start(), match.end())
        yield _ALIAS_OF[said], span
        for name, key in _ALIAS_OF.items():
            if said.startswith(name) and said[len(name) : len(name) + 1] in (" ", "-"):
                yield key, span


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
    folded = base.casefold()
    if folded in AGE_GROUP_PLURALS:
        return False  # "Adults 65 and older" is an age, not the code ADULTS65
    readings = lemmas(folded)
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
    """The number of a digit ordinal such as "21st", alone or before the noun it ranks
    ("9th-grade", "3rd-place"); None for anything else."""
    match = _ORDINAL.fullmatch(code) or _ORDINAL_BEFORE_NOUN.fullmatch(code)
    return None if match is None else int(match.group(1))


def measures_something(code: str) -> bool:
    """Whether a token mixing digits and letters is a number rather than an identifier: a
    number in scientific notation ("1e-3"), a number glued to its unit ("10m", "5GB"), a
    number, a hyphen and a unit ("60-second"), a scale ("50k"), an ordinal ("21st"), a
    plural ("90s"), or a number after a describing word ("top-8")."""
    if SCIENTIFIC.fullmatch(code):
        return True
    first, _, rest = code.partition("-")
    if first.isdigit() and rest.replace("-", "").isalpha():
        return (
            is_unit(rest)
            or rest.casefold() in _TRAILING_WORDS
            or names_written_unit(rest)
            or _counts_noun(rest)
        )
    if rest.isdigit() and first.isalpha() and first.islower():
        # "the top-8 nations", "under-21 players": a word that names nothing (no noun)
        # before the number describes it; "covid-19" or "tier-2" names something.
        readings = lemmas(first)
        return bool(readings) and "NOUN" not in readings
    match = _DIGITS_THEN_LETTERS.fullmatch(code)
    if match is None:
        return False
    letters = match.group(2)
    return (
        is_unit(letters)
        or letters in units.SCALE_LETTERS
        or _ORDINAL.fullmatch(code) is not None
        or letters == "s"
        or letters.casefold() in units.SCALE_WORDS
        or written_unit_like(letters)
    )


def _counts_noun(word: str) -> bool:
    """Whether the word after "3-" is a lower-case noun the number counts, as in "a
    3-bedroom house" or "a 10-story hotel", read as "three-bedroom" is."""
    return word.islower() and "NOUN" in lemmas(word)


# A written token ("13", "MIL-STD-810H", "IP68", "1.4µm"), the word before it ("Android
# 13", "Rule 19") and a short word after it ("8 MP", "1550 mAh"). Only tokens holding a
# digit are codes; the word before is read backwards from the token on the reversed text.
_TOKEN = re.compile(r"[A-Za-z0-9#&+_.\-]++")
_WORD_BEFORE = re.compile(r"[ \t\-]([A-Za-z][A-Za-z\-]{0,30})(?![A-Za-z])")
_WORD_AFTER = re.compile(r"[ \t]([A-Za-z]{1,5})(?![\w])")
_LETTERS = re.compile(r"[A-Z]+")


# A capitalized word and a number word: "Part Two", "Season Three", "Apollo Eleven".
_WORDED_CODE = re.compile(
    r"\b([A-Z][A-Za-z\-]*+)[ \t\-]((?i:"
    + "|".join(sorted((w for w in SMALL_NUMBER_WORDS if w != "zero"), key=len, reverse=True))
    + r"))\b"
)


def codes_in(text: str, budget: FactBudget | None = None) -> dict[str, Span]:
    """Every code ``text`` can be read as naming, canonical, with the span of its first
    mention: each token holding a digit alone, with the word before it and with a short
    word after it. Evidence keeps all these readings, so a claim's "Android 13" or "8MP"
    is found however the evidence's own extraction read the number. Each code found is
    spent from ``budget``."""
    budget = budget or FactBudget(None)
    norm = normalize(text, budget)
    scan = norm.text
    reversed_scan = scan[::-1]
    length = len(scan)
    found: dict[str, Span] = {}
    for match in _TOKEN.finditer(scan):
        start, end = match.span()
        while end > start and scan[end - 1] in ".-":
            end -= 1
        while start < end and scan[start] in ".-":
            start += 1
        token = scan[start:end]
        if not any(c.isdigit() for c in token):
            continue
        span = Span(*norm.original_span(start, end))
        readings = [canonical(None, token)]
        before = _WORD_BEFORE.match(reversed_scan, length - start)
        if before is not None:
            readings.append(canonical(before.group(1)[::-1], token))
        after = _WORD_AFTER.match(scan, end)
        if after is not None:
            readings.append(canonical(None, token + after.group(1)))
        readings.extend(_version_forms(token))
        for reading in readings:
            if reading not in found:
                budget.spend(1, CODE_BYTES)
                found[reading] = span
    for match in _WORDED_CODE.finditer(scan):
        code = canonical(match.group(1), str(SMALL_NUMBER_WORDS[match.group(2).casefold()]))
        if code not in found:
            budget.spend(1, CODE_BYTES)
            found[code] = Span(*norm.original_span(*match.span(2)))
    return found


# A version of three or more parts ("2.4.0", "v3.1.0"): no decimal has two points, so it
# is a version whether or not a version word stands before it.
_VERSION = re.compile(r"[vV]?(\d+(?:\.\d+)+\.\d+)")
_TRAILING_ZEROS = re.compile(r"(?:\.0)+$")


def _version_forms(token: str) -> list[str]:
    """The version a dotted token names, as a claim writes it: "2.4.0" is version 2.4.0
    and, its trailing zero parts dropped, version 2.4."""
    match = _VERSION.fullmatch(token)
    if match is None:
        return []
    number = match.group(1)
    short = _TRAILING_ZEROS.sub("", number)
    forms = [canonical("v", number)]
    if "." in short:
        forms.append(canonical("v", short))
    return forms


def names_of(code: str) -> list[str]:
    """The letter parts of a canonical code: "TIER" of "TIER2", "MAX" of "737MAX8"."""
    return _LETTERS.findall(code)


_PLURAL_CODE = re.compile(r"(?<=\d)S$")


def readings_of(code: str) -> tuple[str, ...]:
    """A claimed code and, for a plural of one ("Su-25s", "2-spheres"), its singular."""
    singular = _PLURAL_CODE.sub("", code) if not code.endswith("SS") else code
    if singular == code and code.endswith("S") and len(code) > 3:
        singular = code[:-1]
    return (code,) if singular == code else (code, singular)
