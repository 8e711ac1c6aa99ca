"""Reading numbers as written: digits with thousands separators, and English number words."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from quantcheck.quantities.facts import MAX_DIGITS
from quantcheck.quantities.phrases import MULTIPLIER_WORDS, SMALL_NUMBER_WORDS, TENS_WORDS

_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
# A power of ten after digits, as papers write small and large values: "1e-3", "2.5E6".
EXPONENT = r"[eE][-+\u2212]?\d{1,3}"
_MANTISSA_END = re.compile("[eE]")
_MINUS = "minus"
_DIGIT_START = frozenset("0123456789.")
_WORD_SPLIT = re.compile(r"[\s-]+")


@dataclass(frozen=True, slots=True)
class Number:
    """A parsed number and the place of its last written digit."""

    value: Decimal
    exponent: int


class UnreadableNumber(ValueError):
    """A number that must not become a fact; ``flag`` says why (reported on the verdict)."""

    def __init__(self, flag: str):
        super().__init__(flag)
        self.flag = flag


def parse_number(text: str) -> Number:
    """Parse digits ("1,500", "-18", "minus 18", "2.50", "1e-3") or number words ("one
    hundred twenty").

    Raises :class:`UnreadableNumber` for a comma that does not group thousands ("1,5"
    could be 1.5 or a list), for ill-formed word sequences, and for more significant
    digits than the checker compares exactly.
    """
    first = text[0]
    if first.isdigit() or first in "-\u2212.":
        return _parse_digits(text)
    words = text.split(maxsplit=1)
    if len(words) == 2 and words[0].casefold() == _MINUS and words[1][0] in _DIGIT_START:
        return _parse_digits("-" + words[1])
    spelled, _, restated = text.partition("(")
    if restated:
        # "three (3)": the digits restate the words; a pair that disagrees ("three (4)")
        # says two things and is read as neither.
        number = _parse_words(spelled.strip())
        digits = _parse_digits(restated.rstrip(") \t\n").strip())
        if digits.value != number.value:
            raise UnreadableNumber("ambiguous_number")
        return digits
    return _parse_words(text)


def _parse_digits(text: str) -> Number:
    negative = text[0] in "-\u2212"
    body = text[1:] if negative else text
    if "," in body:
        if not _THOUSANDS.fullmatch(body):
            raise UnreadableNumber("ambiguous_number")
        body = body.replace(",", "")
    digits = _MANTISSA_END.split(body, maxsplit=1)[0].replace(".", "").lstrip("0")
    if len(digits) > MAX_DIGITS:
        raise UnreadableNumber("number_too_long")
    value = Decimal(body.replace("\u2212", "-"))
    if abs(value.adjusted()) > MAX_DIGITS:
        raise UnreadableNumber("number_too_long")  # "1e85": beyond exact comparison
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)
    return Number(-value if negative else value, exponent)


def _parse_words(text: str) -> Number:
    total = 0
    group = 0
    previous: str | None = None  # "small", "tens", "hundred" or "big"
    last_big = 0
    for word in _WORD_SPLIT.split(text.casefold()):
        if word == "and" or not word:
            continue
        if word in SMALL_NUMBER_WORDS:
            # "twenty five" and "hundred five" continue a group; "five six" does not.
            if previous == "small" or (previous == "tens" and SMALL_NUMBER_WORDS[word] >= 10):
                raise UnreadableNumber("ambiguous_number")
            group += SMALL_NUMBER_WORDS[word]
            previous = "small"
        elif word in TENS_WORDS:
            if previous in {"small", "tens"}:
                raise UnreadableNumber("ambiguous_number")
            group += TENS_WORDS[word]
            previous = "tens"
        elif word == "hundred":
            if previous == "hundred" or group % 100 != group:
                raise UnreadableNumber("ambiguous_number")
            group = (group or 1) * 100
            previous = "hundred"
        else:
            multiplier = MULTIPLIER_WORDS[word]
            if last_big and multiplier >= last_big:
                raise UnreadableNumber("ambiguous_number")
            total += (group or 1) * multiplier
            group = 0
            last_big = multiplier
            previous = "big"
    return Number(Decimal(total + group), 0)
