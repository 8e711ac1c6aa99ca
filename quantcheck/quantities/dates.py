"""Calendar values as canonical strings, validated on the calendar, and the days they cover.

Every date-like fact is a period of days: ``2024-03-05`` one day, ``2024-03`` a month,
``2024-Q1`` a quarter, ``2024-H1`` a half, ``2024`` a year, ``1990s`` ten years. A period
written without a year (``--03-05``, ``--03``, ``Q1``, ``H1``) recurs every year. Comparing
extents, rather than strings, lets a claim about a month be supported by a day inside it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import lru_cache

from quantcheck.quantities.phrases import CENTURY_PARTS, DECADE_PARTS, MONTHS, ORDINAL_WORDS

# The categories whose values are periods of days. Their facts match by containment.
DATE = "date"
MONTH = "date_month"
QUARTER = "date_quarter"
HALF = "date_half"
YEAR = "year"
DECADE = "decade"
CENTURY = "century"
PERIOD_CATEGORIES = frozenset({DATE, MONTH, QUARTER, HALF, YEAR, DECADE, CENTURY})

# A year-less period is compared inside this year: a leap year, so that --02-29 exists.
_ANY_YEAR = 2000


@dataclass(frozen=True, slots=True)
class DateValue:
    """A date-like value: its category, canonical text, and why it is invalid (if it is)."""

    category: str
    text: str
    problem: str | None = None


def calendar_date(year: str | None, month: int | str, day: str) -> DateValue:
    """``date`` as ``YYYY-MM-DD`` (``--MM-DD`` without a year); an impossible day keeps its
    text and a problem."""
    day_number = int(day.rstrip("stndrh"))
    month_number = int(month)
    if year is None:
        text = f"--{month_number:02d}-{day_number:02d}"
        check_year = _ANY_YEAR
    else:
        text = f"{int(year):04d}-{month_number:02d}-{day_number:02d}"
        check_year = int(year)
    try:
        datetime.date(check_year, month_number, day_number)
    except ValueError:
        return DateValue(DATE, text, "not a calendar date")
    return DateValue(DATE, text)


def month_number(name: str) -> int:
    """The month a name or abbreviation ("Sept.", "September") stands for."""
    return MONTHS[name.rstrip(".").capitalize()]


def month_of_year(month: str, year: str | None) -> DateValue:
    """``date_month`` as ``YYYY-MM``, or ``--MM`` without a year."""
    number = month_number(month)
    return DateValue(MONTH, f"--{number:02d}" if year is None else f"{int(year):04d}-{number:02d}")


def quarter(number: int, year: str | None) -> DateValue:
    """``date_quarter`` as ``YYYY-Qn``, or ``Qn`` when no year is given."""
    text = f"Q{number}" if year is None else f"{int(year):04d}-Q{number}"
    return DateValue(QUARTER, text)


def half(number: int, year: str | None) -> DateValue:
    """``date_half`` as ``YYYY-Hn``, or ``Hn`` when no year is given."""
    text = f"H{number}" if year is None else f"{int(year):04d}-H{number}"
    return DateValue(HALF, text)


def year(text: str) -> DateValue:
    """``year`` as four digits."""
    return DateValue(YEAR, f"{int(text):04d}")


def decade(start: int, part: str | None) -> DateValue:
    """``decade`` as ``1990s``, or ``late 1970s`` for a part of one."""
    name = f"{start}s"
    return DateValue(DECADE, name if part is None else f"{part} {name}")


def century(number: int, part: str | None) -> DateValue:
    """``century`` as ``19th century``, or ``late 19th century`` for a part of one; the 19th
    century is read as people write it, the 1800s."""
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    name = f"{number}{suffix} century"
    return DateValue(CENTURY, name if part is None else f"{part} {name}")


def ordinal(word: str) -> int:
    """The number an ordinal ("third", "3rd") names."""
    return ORDINAL_WORDS[word.casefold()]


def full_year(digits: str) -> str:
    """A year as four digits: two-digit years ("'20", "4Q20") are taken as 20xx."""
    return digits if len(digits) == 4 else f"20{digits}"


def pivot_year(digits: str) -> str:
    """A two-digit year of a written date as four digits: up to '49 this century, from
    '50 the last ("17 Jul 19" is 2019, "3 Mar 89" 1989)."""
    return f"{20 if int(digits) < 50 else 19}{digits}"


@dataclass(frozen=True, slots=True)
class Extent:
    """The days a period covers, as proleptic ordinals, and whether it named its year."""

    first: int
    last: int
    has_year: bool


@lru_cache(maxsize=4096)
def extent(category: str, text: str) -> Extent:
    """The days a canonical date value covers (in a leap year when it names none)."""
    if category == DECADE:
        part, _, name = text.rpartition(" ")
        start = int(name[:-1])
        low, high = DECADE_PARTS[part] if part else (0, 9)
        return _span((start + low, 1, 1), (start + high, 12, 31), has_year=True)
    if category == CENTURY:
        words = text.split()
        part = words[0] if len(words) == 3 else ""
        start = (int(words[-2][:-2]) - 1) * 100
        low, high = CENTURY_PARTS[part] if part else (0, 99)
        return _span((max(start + low, 1), 1, 1), (start + high, 12, 31), has_year=True)
    if category == YEAR:
        value = int(text)
        return _span((value, 1, 1), (value, 12, 31), has_year=True)
    has_year = not text.startswith(("-", "Q", "H"))
    year_number = int(text[:4]) if has_year else _ANY_YEAR
    tail = text[5:] if has_year else text.lstrip("-")
    if category == QUARTER:
        number = int(tail[1])
        first, last = (year_number, 3 * number - 2, 1), (year_number, 3 * number, 0)
        return _span(first, last, has_year=has_year)
    if category == HALF:
        number = int(tail[1])
        first, last = (year_number, 6 * number - 5, 1), (year_number, 6 * number, 0)
        return _span(first, last, has_year=has_year)
    if category == MONTH:
        month = int(tail)
        return _span((year_number, month, 1), (year_number, month, 0), has_year=has_year)
    month, day = (int(part) for part in tail.split("-"))
    return _span((year_number, month, day), (year_number, month, day), has_year=has_year)


def _span(first: tuple[int, int, int], last: tuple[int, int, int], *, has_year: bool) -> Extent:
    """Days from ``first`` to ``last`` (year, month, day); a day of 0 is the month's last."""
    year, month, day = last
    if day == 0:
        end = datetime.date(year + month // 12, month % 12 + 1, 1).toordinal() - 1
    else:
        end = datetime.date(year, month, day).toordinal()
    return Extent(datetime.date(*first).toordinal(), end, has_year)


def in_year(category: str, text: str, year_number: int) -> Extent | None:
    """A year-less value placed in ``year_number`` (None when it does not exist there)."""
    if category == DATE and text == "--02-29" and not _is_leap(year_number):
        return None
    tail = text.lstrip("-")
    placed = f"{year_number:04d}-{tail}"
    return extent(category, placed)


def _is_leap(year_number: int) -> bool:
    return year_number % 4 == 0 and (year_number % 100 != 0 or year_number % 400 == 0)


def year_of(value: Extent) -> int | None:
    """The one year an extent lies in, or None when it spans several."""
    first = datetime.date.fromordinal(value.first).year
    last = datetime.date.fromordinal(value.last).year
    return first if first == last else None
