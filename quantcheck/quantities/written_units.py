"""Units no table lists, read as written: "8MP", "196 ppi", "1600mAh", "0.87 W/kg".

Spec sheets and answers use many units the conversion tables do not hold. Such a number
is still a quantity of its unit, never an identifier: "8MP" in a claim is eight of the
unit "mp", supported by "8 MP" and not by "8 GB" or a bare 8. The unit is compared as
written, folded for case, spacing and a plural "s", with a few spelled-out forms mapped
to their symbol (``WRITTEN_UNIT_SYNONYMS``). Nothing is converted.

A symbol glued to its digits is a unit when it is short and no word; one after a space
only when the letters end there ("non-contractible" holds no unit).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from quantcheck.quantities import units
from quantcheck.quantities.categories import written_unit_category
from quantcheck.quantities.lemmas import lemmas
from quantcheck.quantities.phrases import (
    CLOCK_MARKERS,
    FUNCTION_WORDS,
    NOT_WRITTEN_UNITS,
    NOUN_ABBREVIATIONS,
    RATE_ADVERBS,
    WRITTEN_UNIT_SYMBOLS,
    WRITTEN_UNIT_SYNONYMS,
)

# Letters, and up to two "/letters" ("W/kg", "mg/dL", "mg/kg/day"); at most a few of them.
_GLUED = re.compile(r"([A-Za-zµ]{2,5}(?:/[A-Za-z]{1,4}){0,2})(?![\w/])")
# After a space the letters must end there: "non-contractible" is no unit "non".
_SPACED = re.compile(
    r"[ \t]([A-Za-zµ]{2,5}(?:/[A-Za-z]{1,4}){0,2}|[A-Za-z]/[A-Za-z]{1,4})(?![\w/\-])"
)
# A ratio's period said in words: "25–45 mg/kg per day" is mg/kg/day, as "mg/kg daily" is.
_PERIOD_AFTER = re.compile(
    rf"\s+(?:(?i:per|a|an|each)\s+(?P<per>(?i:{'|'.join(sorted(set(RATE_ADVERBS.values())))}))"
    rf"|(?P<adverb>(?i:{'|'.join(RATE_ADVERBS)})))\b"
)
_SYNONYMS = "|".join(sorted(map(re.escape, WRITTEN_UNIT_SYNONYMS), key=len, reverse=True))
_SPELLED = re.compile(rf"[ \t-](?i:({_SYNONYMS}))(?![\w/])")


@dataclass(frozen=True, slots=True)
class WrittenUnit:
    """A unit as written after a number: its folded name and where it ends."""

    name: str
    end: int

    @property
    def unit(self) -> units.Unit:
        """The unit, in a category of its own name."""
        return units.Unit(name=self.name, category=written_unit_category(self.name))


def written_unit(text: str, end: int) -> WrittenUnit | None:
    """The unit no table lists that follows a number ending at ``end``, if one does."""
    spelled = _SPELLED.match(text, end)
    if spelled is not None:
        key = " ".join(spelled.group(1).split()).casefold()
        return WrittenUnit(WRITTEN_UNIT_SYNONYMS[key], spelled.end())
    glued = _GLUED.match(text, end)
    if glued is not None:
        name = glued.group(1)
        return _per_period(text, _folded(name), glued.end()) if unit_like(name) else None
    spaced = _SPACED.match(text, end)
    if spaced is None or not unit_like(spaced.group(1)):
        return None
    return _per_period(text, _folded(spaced.group(1)), spaced.end())


def _per_period(text: str, name: str, end: int) -> WrittenUnit:
    """A ratio ("mg/kg") with the period words after it give: "mg/kg per day" is the
    unit "mg/kg/day"."""
    if name.count("/") != 1:
        return WrittenUnit(name, end)
    period = _PERIOD_AFTER.match(text, end)
    if period is None:
        return WrittenUnit(name, end)
    per = period["per"] or RATE_ADVERBS[period["adverb"].casefold()]
    return WrittenUnit(f"{name}/{per.casefold()}", period.end())


def as_written(text: str) -> WrittenUnit | None:
    """A unit written on its own, as a data document's units map or header gives it
    ("hPa", "ppi"): read as :func:`written_unit` would after a number."""
    stripped = text.strip()
    if not stripped:
        return None
    found = written_unit(" " + stripped, 0)
    return found if found is not None and found.end == len(stripped) + 1 else None


def names_written_unit(letters: str) -> bool:
    """Whether letters after "<number>-" spell a unit no table lists ("5-megapixel")."""
    return " ".join(letters.split()).casefold() in WRITTEN_UNIT_SYNONYMS or unit_like(letters)


@lru_cache(maxsize=4096)
def unit_like(letters: str) -> bool:
    """Short letters that name no word, scale, clock marker or listed unit."""
    head = letters.split("/", 1)[0]
    folded = letters.casefold()
    if len(head) < 2 and "/" not in letters:
        return False  # "5G", "3D", "4K": one letter makes a code
    if (
        folded in NOT_WRITTEN_UNITS
        or folded in CLOCK_MARKERS
        or folded in FUNCTION_WORDS
        or folded in NOUN_ABBREVIATIONS
    ):
        return False
    if "/" not in letters and (units.lookup(letters) is not None or letters in units.SCALE_LETTERS):
        return False  # the tables read it
    if letters in units.CURRENCY_PREFIXES or folded.upper() in units.CURRENCY_PREFIXES:
        return False
    if folded in WRITTEN_UNIT_SYMBOLS:
        return True
    if head.isupper() or head.istitle():
        return False  # "CPU", "8VC", "two Swiss teams": capitals name a thing
    return not lemmas(head.casefold())


def _folded(letters: str) -> str:
    """The comparable name of a unit: lower case, a plural "s" dropped ("nits" is "nit")."""
    name = letters.casefold()
    plural = name.endswith("s") and not name.endswith(("ss", "ps"))
    if len(name) >= 4 and plural and "/" not in name:
        name = name[:-1]
    return WRITTEN_UNIT_SYNONYMS.get(name, name)
