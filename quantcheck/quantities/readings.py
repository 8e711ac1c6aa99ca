"""Every number a text writes, read as a plain value: the lookup keys of value-first matching.

Extraction commits each number to one reading (a quantity, part of a date, part of a
code). Matching first looks a claimed number up under every reading the evidence could
have, so this module reads numbers without any commitment: each run of digits ("1,500",
"2.5", "-18" as 18) and each number in words ("twenty-five", and on the evidence side
also "a pair", "twice", "both"), with its span. Whether an occurrence supports the claim
is decided afterwards, from the fact that covers it.
"""

from __future__ import annotations

import heapq
import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum

from quantcheck.quantities import patterns
from quantcheck.quantities.budget import FactBudget
from quantcheck.quantities.facts import Span
from quantcheck.quantities.numbers import UnreadableNumber, parse_number
from quantcheck.quantities.phrases import EVIDENCE_NUMBER_WORDS, ORDINAL_NUMBER_WORDS
from quantcheck.quantities.text import NormalizedText, normalize

# Digits not inside a longer run: thousands groups and a decimal part belong to the number.
# A comma right before may be a field separator ("2021-04-15,0.01") or a thousands group
# ("1,500"): only three digits after one are the tail of a group.
_DIGITS = re.compile(
    r"(?<![\d.])(?:(?<!\d,)|(?!\d{3}(?![\d])))"
    r"(?:\d{1,3}(?:,\d{3})++(?![\d])|\d++)(?:\.\d++)?+(?![\d])"
)
_WORDS = re.compile(patterns.WORD_NUMBER)


class Writing(StrEnum):
    """How a number is written: its kind of word decides which claims it can stand for."""

    DIGITS = "digits"
    WORDS = "words"  # "twenty-five"
    LOOSE = "loose"  # "a pair", "both", "twice": evidence only
    ORDINAL = "ordinal"  # "fourth": evidence only


@dataclass(frozen=True, slots=True)
class Written:
    """One number as a text writes it: its plain value, where it stands and how."""

    value: Decimal
    span: Span
    writing: Writing = Writing.DIGITS


_EVIDENCE_READINGS = tuple(
    (words, re.compile(rf"\b(?i:{patterns.alternation(words)})\b"), writing)
    for words, writing in (
        (EVIDENCE_NUMBER_WORDS, Writing.LOOSE),
        (ORDINAL_NUMBER_WORDS, Writing.ORDINAL),
    )
)


def written_numbers(text: str, *, evidence: bool = False) -> Iterator[Written]:
    """Every number of ``text`` with its span in the original text, in text order within
    each kind. ``evidence`` adds the words that name a number only loosely ("a pair",
    "both", "twice"): evidence keeps every plausible reading, a claim commits to one."""
    return itertools.chain.from_iterable(_kinds(text, evidence=evidence))


def in_text_order(
    text: str, *, evidence: bool = False, budget: FactBudget | None = None
) -> Iterator[Written]:
    """The numbers :func:`written_numbers` gives, all in text order (at one offset, in
    digits before in words), one at a time: a text of megabytes is never read whole into
    a list of them. Normalizing the text is spent from ``budget``."""
    kinds = _kinds(text, evidence=evidence, budget=budget)
    return heapq.merge(*kinds, key=lambda written: written.span.start)


def _kinds(
    text: str, *, evidence: bool, budget: FactBudget | None = None
) -> list[Iterator[Written]]:
    """The numbers of each kind of writing, each kind in text order."""
    norm = normalize(text, budget)
    kinds = [_in_digits(norm), _in_words(norm)]
    if evidence:
        kinds += [_in_loose_words(norm, *reading) for reading in _EVIDENCE_READINGS]
    return kinds


def _in_digits(norm: NormalizedText) -> Iterator[Written]:
    for match in _DIGITS.finditer(norm.text):
        try:
            value = Decimal(match.group().replace(",", ""))
        except InvalidOperation:  # pragma: no cover - the pattern only matches digits
            continue
        yield Written(value, Span(*norm.original_span(*match.span())))


def _in_words(norm: NormalizedText) -> Iterator[Written]:
    for match in _WORDS.finditer(norm.text):
        try:
            number = parse_number(match.group())
        except UnreadableNumber:
            continue
        yield Written(number.value, Span(*norm.original_span(*match.span())), Writing.WORDS)


def _in_loose_words(
    norm: NormalizedText, words: Mapping[str, str], pattern: re.Pattern[str], writing: Writing
) -> Iterator[Written]:
    for match in pattern.finditer(norm.text):
        value = Decimal(words[" ".join(match.group().split()).casefold()])
        yield Written(value, Span(*norm.original_span(*match.span())), writing)


def values_of(text: str) -> tuple[Decimal, ...]:
    """The distinct plain values a claim mention writes, in order: "between 3 °C and 4 °C"
    gives 3 and 4, "$4 billion" gives 4, "April 14, 2015" gives 14 and 2015."""
    return tuple(dict.fromkeys(w.value for w in written_numbers(text)))
