"""Reading numbers as written: digits, separators, signs and English number words."""

from __future__ import annotations

from decimal import Decimal

import pytest

from quantcheck.quantities.facts import MAX_DIGITS
from quantcheck.quantities.numbers import Number, UnreadableNumber, parse_number
from quantcheck.quantities.phrases import SMALL_NUMBER_WORDS, TENS_WORDS


@pytest.mark.parametrize(
    ("text", "value", "exponent"),
    [
        ("0", "0", 0),
        ("15", "15", 0),
        ("2.5", "2.5", -1),
        ("2.50", "2.50", -2),
        ("007", "7", 0),
        ("1,500", "1500", 0),
        ("1,500,000", "1500000", 0),
        ("12,345.678", "12345.678", -3),
        ("-18", "-18", 0),
        ("\u221218", "-18", 0),
        ("-0.5", "-0.5", -1),
    ],
)
def test_digits(text: str, value: str, exponent: int) -> None:
    number = parse_number(text)
    assert number == Number(Decimal(value), exponent)


@pytest.mark.parametrize("text", ["1,5", "1,50", "1,5000", "12,34,567", "1,500,00", "-1,5"])
def test_comma_not_grouping_thousands_is_ambiguous(text: str) -> None:
    with pytest.raises(UnreadableNumber) as caught:
        parse_number(text)
    assert caught.value.flag == "ambiguous_number"


def test_too_many_digits() -> None:
    parse_number("9" * MAX_DIGITS)
    with pytest.raises(UnreadableNumber) as caught:
        parse_number("9" * (MAX_DIGITS + 1))
    assert caught.value.flag == "number_too_long"


def _english(n: int) -> str:
    """Independent spelling of 0..99, for checking every small number word."""
    ones = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
        "eighteen", "nineteen",
    ]  # fmt: skip
    tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    if n < 20:
        return ones[n]
    return tens[n // 10] + ("" if n % 10 == 0 else "-" + ones[n % 10])


@pytest.mark.parametrize("n", range(100))
def test_every_number_from_zero_to_ninety_nine(n: int) -> None:
    assert parse_number(_english(n)) == Number(Decimal(n), 0)


def test_word_tables_agree_with_the_independent_spelling() -> None:
    assert {_english(n): n for n in range(20)} == SMALL_NUMBER_WORDS
    assert {_english(n): n for n in range(20, 100, 10)} == TENS_WORDS


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("hundred", 100),
        ("one hundred", 100),
        ("one hundred twenty", 120),
        ("one hundred and twenty", 120),
        ("two thousand", 2000),
        ("two thousand and five", 2005),
        ("nine hundred ninety-nine thousand nine hundred ninety-nine", 999999),
        ("three million", 3000000),
        ("four billion", 4000000000),
        ("one million two hundred thousand", 1200000),
        ("Twenty Five", 25),
        ("twenty and four", 24),
    ],
)
def test_compound_number_words(text: str, value: int) -> None:
    assert parse_number(text).value == value


@pytest.mark.parametrize(
    "text",
    [
        "five six",  # two numbers, not one
        "twenty thirty",
        "twenty eleven",
        "hundred hundred",
        "thousand million",  # a smaller multiplier cannot be followed by a larger one
        "one thousand one thousand",
    ],
)
def test_ill_formed_word_sequences_are_ambiguous(text: str) -> None:
    with pytest.raises(UnreadableNumber) as caught:
        parse_number(text)
    assert caught.value.flag == "ambiguous_number"
