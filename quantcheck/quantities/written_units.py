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
    WRITTEN_UNIT_SYMBOLS,
    WRITTEN_UNIT_SYNONYMS,
)

# Letters, and an optional "/letters" ("W/kg", "mg/dL"); at most a few of them.
_GLUED = re.compile(r"([A-Za-zµ]{2,5}(?:/[A-Za-z]{1,4})?)(?![\w/])")
# After a space the letters must end there: "non-contractible" is no unit "non".
_SPACED = re.compile(r"[ \t]([A-Za-zµ]{2,5}(?:/[A-Za-z]{1,4})?|[A-Za-z]/[A-Za-z]{1,4})(?![\w/\-])")
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
        return WrittenUnit(_folded(name), glued.end()) if unit_like(name) else None
    spaced = _SPACED.match(text, end)
    if spaced is None or not unit_like(spaced.group(1)):
        return None
    return WrittenUnit(_folded(spaced.group(1)), spaced.end())


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
    if folded in NOT_WRITTEN_UNITS or folded in CLOCK_MARKERS or folded in FUNCTION_WORDS:
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
