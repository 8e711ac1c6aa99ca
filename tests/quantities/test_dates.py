"""Dates, months and quarters: canonical text, and validation on the calendar."""

from __future__ import annotations

import pytest

from quantcheck.quantities import dates
from quantcheck.quantities.categories import Scope
from quantcheck.quantities.extract import extract


@pytest.mark.parametrize(
    ("year", "month", "day"),
    [
        ("2028", 2, "29"),  # leap year
        ("2000", 2, "29"),  # divisible by 400
        ("2026", 1, "31"),
        ("2026", 2, "28"),
        ("2026", 3, "31"),
        ("2026", 4, "30"),
        ("2026", 6, "30"),
        ("2026", 9, "30"),
        ("2026", 12, "31"),
        ("2026", 1, "1st"),
    ],
)
def test_valid_dates(year: str, month: int, day: str) -> None:
    value = dates.calendar_date(year, month, day)
    assert value.problem is None
    assert value.category == "date"
    assert value.text == f"{year}-{month:02d}-{int(day.rstrip('stndrh')):02d}"


@pytest.mark.parametrize(
    ("year", "month", "day"),
    [
        ("2027", 2, "29"),  # not a leap year
        ("2100", 2, "29"),  # divisible by 100 but not 400
        ("2026", 2, "31"),
        ("2026", 2, "30"),
        ("2026", 4, "31"),
        ("2026", 6, "31"),
        ("2026", 9, "31"),
        ("2026", 11, "31"),
        ("2026", 13, "01"),
        ("2026", 0, "10"),
        ("2026", 1, "0"),
        ("2026", 1, "32"),
    ],
)
def test_impossible_dates_keep_their_text_and_a_problem(year: str, month: int, day: str) -> None:
    value = dates.calendar_date(year, month, day)
    assert value.problem == "not a calendar date"
    assert value.text == f"{year}-{month:02d}-{int(day):02d}"


@pytest.mark.parametrize(
    ("text", "label", "problem"),
    [
        ("2028-02-29", "date=2028-02-29", None),
        ("2027-02-29", "date=2027-02-29", "not a calendar date"),
        ("2026-02-31", "date=2026-02-31", "not a calendar date"),
        ("2026-13-01", "date=2026-13-01", "not a calendar date"),
        ("February 29, 2028", "date=2028-02-29", None),
        ("29 Feb 2027", "date=2027-02-29", "not a calendar date"),
        ("April 31, 2026", "date=2026-04-31", "not a calendar date"),
        ("30th April 2026", "date=2026-04-30", None),
    ],
)
def test_extracted_dates_are_validated(text: str, label: str, problem: str | None) -> None:
    result = extract(f"Due on {text}.")
    mention = result.mentions[0]
    assert mention.fact.label() == label
    assert mention.problem == problem
    assert ("invalid_date" in result.flags) == (problem is not None)


@pytest.mark.parametrize(
    ("name", "number"),
    [("January", 1), ("Jan", 1), ("Sept.", 9), ("Sept", 9), ("Sep", 9), ("May", 5), ("Dec.", 12)],
)
def test_month_names(name: str, number: int) -> None:
    assert dates.month_number(name) == number


def test_month_of_year() -> None:
    assert dates.month_of_year("Sept.", "2026") == dates.DateValue("date_month", "2026-09")


def test_quarters() -> None:
    assert dates.quarter(3, "2026").text == "2026-Q3"
    assert dates.quarter(2, None).text == "Q2"
    assert dates.quarter(2, None).category == "date_quarter"
    assert [dates.ordinal(w) for w in ("First", "2nd", "third", "4th")] == [1, 2, 3, 4]


def test_two_digit_years_and_days_in_doubt_are_not_dates() -> None:
    assert extract("Due 30/09/26 or 3/9/2026.", scope=Scope.UNITS).mentions == ()
    found = extract("Due 30/09/26 or 3/9/2026.").mentions
    assert "date" not in {m.fact.category for m in found}  # each number read, never a date


def test_digit_dates_whose_order_is_plain_are_dates() -> None:
    found = extract("Due 30/09/2026, 9/30/2026, 30-09-2026 or 30.9.2026.").mentions
    assert [m.fact.label() for m in found] == ["date=2026-09-30"] * 4


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        ("Grants in 2023/24 were higher.", ["year=2023..2024"]),
        ("The 1999/00 season ended early.", ["year=1999..2000"]),
        ("The 2023-24 season ended early.", ["year=2023..2024"]),
        # Not a year and the next: a month, or no fiscal year at all.
        ("See the 2023/05 report.", ["number=2023", "number=5"]),
        ("Targets for 2020/25 were set.", ["number=2020", "number=25"]),
    ],
)
def test_a_year_and_the_next_after_a_slash_is_a_span_of_years(text: str, labels: list[str]) -> None:
    assert [m.fact.label() for m in extract(text).mentions] == labels


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        ("Sales in 2024-03 rose by 4%.", ["date_month=2024-03", "percent=4"]),
        ("Visits in 2024-01: 310.", ["date_month=2024-01", "number=310"]),
        # A season, and a full date, stay what they were.
        ("The 2011-12 season.", ["year=2011..2012"]),
        ("It opened on 2024-03-15.", ["date=2024-03-15"]),
    ],
)
def test_a_year_and_a_month_in_digits_is_that_month(text: str, labels: list[str]) -> None:
    assert [m.fact.label() for m in extract(text).mentions] == labels
