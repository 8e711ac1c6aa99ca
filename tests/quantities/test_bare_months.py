"""Months evidence names alone are read as months of no year, and only those."""

from __future__ import annotations

import pytest

from quantcheck.quantities.bare_months import bare_months
from quantcheck.quantities.budget import FactBudget, TooManyFacts
from quantcheck.quantities.dates import PERIOD_CATEGORIES
from quantcheck.quantities.extract import extract


def added(text: str) -> list[tuple[str, str]]:
    """The months bare_months adds to what extraction reads of ``text``."""
    read = extract(text).mentions
    found = bare_months(text, read, FactBudget(None))
    assert [m for m in found if m in read] == list(read)  # nothing read is lost
    return [(m.text, str(m.fact.value)) for m in found if m not in read]


def test_a_month_after_a_word_of_time_is_a_month_of_no_year() -> None:
    text = "The trek kicks off in August and will run through October."
    assert added(text) == [("August", "--08"), ("October", "--10")]


@pytest.mark.parametrize(
    "text",
    [
        "Protesters march in the capital; they may vote later.",  # verbs, not months
        "The trek runs in august.",  # lower case
        "He met April and June at the party.",  # names: no word of time before them
        "The mall opens in Mar.",  # an abbreviation
        "It opened in August 2007 and closed through October 5.",  # the date readers' own
    ],
)
def test_words_that_are_not_months_named_alone_are_left(text: str) -> None:
    assert added(text) == []


def test_each_month_read_is_spent_from_the_budget() -> None:
    with pytest.raises(TooManyFacts):
        bare_months("in May " * 20, (), FactBudget(1280 * 10))


def periods(text: str) -> dict[str, object]:
    """The period each value of ``text`` is stated for once its bare months are read."""
    found = bare_months(text, extract(text).mentions, FactBudget(None))
    return {
        m.text: None if m.period is None else m.period.value
        for m in found
        if m.fact.category not in PERIOD_CATEGORIES
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Store sales rose 3% in May, after falling 2% in April.", {"3%": "--05", "2%": "--04"}),
        ("In May, store sales rose 3%.", {"3%": "--05"}),
        # a span from the month on states nothing for the month itself
        ("Testing has held at 0.021 tests per person since mid-February.", {"0.021 tests": None}),
    ],
)
def test_a_value_is_stated_for_the_month_its_clause_names_alone(
    text: str, expected: dict[str, object]
) -> None:
    assert periods(text) == expected
