"""Calendar dates, months and quarters as canonical strings, validated on the calendar."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from worker.quantities.phrases import MONTHS, QUARTER_WORDS


@dataclass(frozen=True, slots=True)
class DateValue:
    """A date-like value: its category, canonical text, and why it is invalid (if it is)."""

    category: str
    text: str
    problem: str | None = None


def calendar_date(year: str, month: int | str, day: str) -> DateValue:
    """``date`` as ``YYYY-MM-DD``; an impossible day or month keeps its text and a problem."""
    day_number = int(day.rstrip("stndrh"))
    month_number = int(month)
    text = f"{int(year):04d}-{month_number:02d}-{day_number:02d}"
    try:
        datetime.date(int(year), month_number, day_number)
    except ValueError:
        return DateValue("date", text, "not a calendar date")
    return DateValue("date", text)


def month_number(name: str) -> int:
    """The month a name or abbreviation ("Sept.", "September") stands for."""
    return MONTHS[name.rstrip(".")]


def month_of_year(month: str, year: str) -> DateValue:
    """``date_month`` as ``YYYY-MM``."""
    return DateValue("date_month", f"{int(year):04d}-{month_number(month):02d}")


def quarter(number: int, year: str | None) -> DateValue:
    """``date_quarter`` as ``YYYY-Qn``, or ``Qn`` when no year is given."""
    text = f"Q{number}" if year is None else f"{int(year):04d}-Q{number}"
    return DateValue("date_quarter", text)


def quarter_word(word: str) -> int:
    """The quarter an ordinal ("third", "3rd") names."""
    return QUARTER_WORDS[word.casefold()]
