"""Regular expressions compiled once from the unit and phrase tables.

Everything is written to run in time linear in the input: numbers use possessive
quantifiers and may only start where no digit, letter or dot precedes them, so a
megabyte of digits or of "1-1-1-" is scanned once instead of being retried at every
offset. Context (bounds, hedges, negation) is read from a bounded window before each
match, never by scanning backwards without limit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from worker.quantities import phrases, units
from worker.quantities.facts import Relation

_Trie = dict[str, "_Trie"]


def _first_chars(words: Iterable[str], *, fold: bool) -> str:
    """A lookahead that rejects a position whose character can start none of ``words``:
    one cheap test instead of walking a large alternation only to fail."""
    chars = {w[0] for w in words}
    if fold:
        chars |= {c.swapcase() for c in chars}
    return "(?=[" + "".join(re.escape(c) for c in sorted(chars)) + "])"


def _alternation(words: Iterable[str]) -> str:
    """A regex matching any of ``words``, built as a trie so a failed match costs one
    character comparison per trie level rather than one per word. Longer words are
    tried before their prefixes ("liters per minute" before "liters"); a space in a
    word matches any run of whitespace."""
    trie: _Trie = {}
    for word in set(words):
        node = trie
        for token in _tokens(word):
            node = node.setdefault(token, {})
        node[""] = {}
    return _emit(trie)


def _tokens(word: str) -> list[str]:
    parts = word.split()
    tokens: list[str] = []
    for index, part in enumerate(parts):
        if index:
            tokens.append(" ")
        tokens.extend(part)
    return tokens


def _emit(node: _Trie) -> str:
    branches = []
    for token in sorted(k for k in node if k):
        piece = r"\s+" if token == " " else re.escape(token)
        branches.append(piece + _emit(node[token]))
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if "" in node:
        # the word may end here; trying the longer continuation first keeps matches greedy
        return f"(?:{body})?" if len(branches) == 1 else body + "?"
    return body


def _unit_alternation(spaced: bool) -> str:
    folded = [a for u in units.UNITS if u.spaced == spaced for a in u.aliases]
    exact = [a for u in units.UNITS if u.spaced == spaced for a in u.exact_aliases]
    parts = []
    if folded:
        parts.append(f"(?i:{_alternation(folded)})")
    if exact:
        parts.append(f"(?:{_alternation(exact)})")
    guard = _first_chars(folded + exact, fold=True)
    # A unit ends where a word ends; "/" and "²"-style suffixes make it another unit.
    return f"{guard}(?:{'|'.join(parts)})(?![\\w/])"


UNIT = _unit_alternation(spaced=False)
SPACED_UNIT = _unit_alternation(spaced=True)

_WORD_NUMBER_WORDS = (
    list(phrases.SMALL_NUMBER_WORDS) + list(phrases.TENS_WORDS) + list(phrases.MULTIPLIER_WORDS)
)
_WORD = f"(?:{_alternation(_WORD_NUMBER_WORDS)})"
# A number in words is at most this many words after its first: enough for "nine hundred
# ninety-nine thousand nine hundred ninety-nine", and a bound that keeps a long run of
# number words ("one two three ...") from being rescanned to its end at every word.
MAX_EXTRA_NUMBER_WORDS = 12


def _not_after_number_word() -> str:
    """Lookbehinds refusing a start right after a number word and a space or hyphen.

    A run of number words is then entered only at its first word, so "one two three ..."
    costs one bounded attempt rather than one per word. Lookbehinds need a fixed width,
    so the words are grouped by length.
    """
    by_length: dict[int, list[str]] = {}
    for word in _WORD_NUMBER_WORDS:
        by_length.setdefault(len(word), []).append(word)
    return "".join(
        rf"(?<!\b(?:{'|'.join(sorted(words))})[\s-])" for _, words in sorted(by_length.items())
    )


_FRESH_NUMBER = _not_after_number_word()


def _word_number(joiner: str) -> str:
    return (
        rf"{_first_chars(_WORD_NUMBER_WORDS, fold=True)}"
        rf"(?i:{_FRESH_NUMBER}\b{_WORD}(?:{joiner}{_WORD}){{0,{MAX_EXTRA_NUMBER_WORDS}}}+\b)"
    )


WORD_NUMBER = _word_number(r"(?:\s+|-)(?:and\s+)?")
# After "between", "and" ends the first number: "between one and two seconds".
WORD_NUMBER_WITHOUT_AND = _word_number(r"(?:\s+|-)(?!and\b)")

# Digits, with any commas: whether "1,500" groups thousands or "1,5" is an ambiguous
# decimal comma is decided afterwards, so the scan never has to backtrack over digits.
DIGITS = r"\d++(?:,\d++)*+(?:\.\d++)?+(?!\.\d)"
SIGN = "[-\u2212]"
# Where a number may begin: not inside a word, an identifier like S01 or P-7, a version
# like 3.2.1, a URL escape like %20, the tail of 1,5, or the far end of a hyphenated
# pair like 3-4: that end is read with its range from the first number or not at all,
# never as -4 alone.
START = r"(?<![\w.%])(?<!\d,)(?<![\w][-\u2212])"


def _number(name: str) -> str:
    words = (
        f"(?(q_between){WORD_NUMBER_WITHOUT_AND}|{WORD_NUMBER})"
        if name == "q_num1"
        else WORD_NUMBER
    )
    return rf"(?P<{name}>(?:{SIGN}(?=\d))?{DIGITS}|{words})"


_SCALE_GUARD = _first_chars(units.SCALE_WORDS, fold=True)


def _scale(name: str) -> str:
    return rf"(?:\s*+{_SCALE_GUARD}(?P<{name}>(?i:{_alternation(units.SCALE_WORDS)}))\b)?"


def _unit(name: str) -> str:
    return rf"(?:\s*+-?\s*+(?P<{name}>{UNIT})|\s++(?P<{name}_spaced>{SPACED_UNIT}))"


_MONTH = f"(?:{_alternation(phrases.MONTHS)})\\.?"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_YEAR = r"\d{4}(?!\d)"

DATE_ALTERNATIVES = (
    r"(?<![\w.\-/])(?P<iso>\d{4}-\d{2}-\d{2})(?![\w\-/]|\.\d)",
    rf"\b(?P<mdy_m>{_MONTH})\s+(?P<mdy_d>{_DAY}),?\s+(?P<mdy_y>{_YEAR})",
    rf"(?<![\w.])(?P<dmy_d>{_DAY})\s+(?:of\s+)?(?P<dmy_m>{_MONTH}),?\s+(?P<dmy_y>{_YEAR})",
    rf"\b(?P<my_m>{_MONTH}),?\s+(?P<my_y>{_YEAR})",
    rf"\b(?P<q_n>Q[1-4])(?:\s+(?P<q_y>{_YEAR}))?\b",
    rf"\b(?P<qw_n>(?i:{_alternation(phrases.QUARTER_WORDS)}))\s+(?i:quarter)"
    rf"(?:\s+(?i:of)?\s*(?P<qw_y>{_YEAR}))?",
)

_CURRENCY = _alternation(units.CURRENCY_PREFIXES)
_CURRENCY_SCALE = _alternation(list(units.SCALE_WORDS) + list(units.CURRENCY_SCALES))
MONEY = (
    rf"(?P<cur>{_CURRENCY})\s?(?P<cur_num>{DIGITS})"
    rf"(?:\s*(?P<cur_scale>(?i:{_CURRENCY_SCALE}))(?![\w]))?"
)

# "half an hour", "half hour", "half-hour", "a quarter of an hour".
HALF = (
    rf"\b(?P<half>(?i:{_alternation(phrases.FRACTION_WORDS)}))"
    rf"(?:\s+(?i:of))?(?:\s+(?i:an?))?(?:\s+|-)(?P<half_unit>{UNIT})"
)

# One alternative reads a point ("15 seconds") and a range ("2–8 °C", "between 2 and
# 8 °C", "from 30 seconds to 2 minutes") so each number is parsed once. "and" only joins
# a range after "between"; otherwise "3 and 5 seconds" would become an interval.
_CONNECTOR = r"(?:(?(q_between)\s++(?i:and)\s++|(?!))|\s*+(?:–|—|-|(?i:to|through))\s*+)"


def _quantity(bare: bool) -> str:
    # Without a unit after the first number, a range tail must supply one; in bare-number
    # mode a unitless number stands on its own, and so does a unitless range ("3-5"),
    # which is one interval rather than 3 and -5. A tail without a unit after a first
    # number with one ("5 MB to 10") is no range: the first value then stands alone.
    if bare:
        unit2 = rf"(?P<q_has_unit2>{_unit('q_unit2')})?(?(q_has_unit2)|(?(q_has_unit1)(?!)|))"
        no_unit = ""
    else:
        unit2 = _unit("q_unit2")
        no_unit = "(?(q_has_unit1)|(?!))"
    return (
        rf"{START}(?:(?=[bBfF])(?:(?P<q_between>(?i:between))\s++|(?i:from)\s++))?"
        rf"{_number('q_num1')}{_scale('q_scale1')}(?P<q_has_unit1>{_unit('q_unit1')})?"
        rf"(?:{_CONNECTOR}{_number('q_num2')}{_scale('q_scale2')}{unit2}|{no_unit})"
    )


def _master(bare_numbers: bool) -> re.Pattern[str]:
    iso, mdy, dmy, month_year, quarter, quarter_words = DATE_ALTERNATIVES
    # Each alternative is fronted by a one-character lookahead so that, at most offsets,
    # the engine rejects it with a single test instead of entering it.
    alternatives = [
        rf"(?=\d)(?:{iso}|{dmy})",
        rf"{_first_chars(phrases.MONTHS, fold=False)}(?:{mdy}|{month_year})",
        rf"(?=Q){quarter}",
        rf"{_first_chars(phrases.QUARTER_WORDS, fold=True)}{quarter_words}",
        rf"{_first_chars(units.CURRENCY_PREFIXES, fold=False)}{MONEY}",
        rf"{_first_chars(phrases.FRACTION_WORDS, fold=True)}{HALF}",
        _quantity(bare_numbers),
    ]
    # Nothing starts right after a letter or digit. Tested once per offset, before any
    # alternative is entered, this makes the inside of every word and digit run cost one
    # step; it also keeps "A$5" (Australian dollars) from being read as US dollars.
    return re.compile(r"(?<!\w)(?:" + "|".join(f"(?:{a})" for a in alternatives) + ")")


QUANTITY = _master(bare_numbers=False)
QUANTITY_OR_BARE = _master(bare_numbers=True)


def _phrase_key(phrase: str) -> str:
    return " ".join(phrase.split()).casefold()


# The words before a number are read backwards, from the number outwards, on the reversed
# text: one anchored match per number instead of a search that restarts at every offset
# of the window. Phrases are reversed to match; one trie holds every bound so the longest
# phrase wins ("no less than" is at least, never "less than").
BOUND_OF: dict[str, Relation] = {
    _phrase_key(phrase): relation
    for relation, words in phrases.BOUND_PHRASES.items()
    for phrase in words
}
_REVERSED_BOUNDS = _alternation(phrase[::-1] for phrase in BOUND_OF)
_REVERSED_HEDGES = _alternation(phrase[::-1] for phrase in phrases.HEDGES)
# Reversed, the window just before a number reads: an optional "of", a hedge, a bound.
# A phrase must not continue a word ("handsome 5" holds no "some").
REVERSED_PREFIX = re.compile(
    r"(?:\s+fo(?![A-Za-z]))?"
    rf"(?:\s*(?P<hedge>{_REVERSED_HEDGES})(?![A-Za-z]))?"
    rf"(?:\s*(?P<bound>{_REVERSED_BOUNDS})(?![A-Za-z]))?",
    re.IGNORECASE,
)

_NEGATION_CUE = (
    rf"\b(?:{_alternation(phrases.NEGATION_WORDS)})\b"
    rf"|\B(?:{_alternation(phrases.NEGATION_SUFFIXES)})\b"
)
# Bound phrases that contain a cue ("no more than", "must not exceed"): they state a
# bound, not a negation, wherever they stand in the clause, so the scan steps over them.
_NEGATED_BOUNDS = [phrase for phrase in BOUND_OF if re.search(_NEGATION_CUE, phrase, re.IGNORECASE)]
_NEGATION_STARTS = list(phrases.NEGATION_WORDS) + list(phrases.NEGATION_SUFFIXES) + _NEGATED_BOUNDS
NEGATION = re.compile(
    rf"{_first_chars(_NEGATION_STARTS, fold=True)}"
    rf"(?:\b(?P<bound>{_alternation(_NEGATED_BOUNDS)})(?![A-Za-z])|(?P<cue>{_NEGATION_CUE}))",
    re.IGNORECASE,
)
# The end of the clause a fact belongs to, on reversed text: sentence punctuation, or a
# comma or full stop followed (in reading order) by a space, so 1,500 and 2.5 are not
# boundaries, nor is the full stop of an abbreviated hedge ("approx. 5 MB"). A search
# finds the break nearest to the number.
_ABBREVIATIONS = [p[:-1] for p in (*phrases.HEDGES, *BOUND_OF) if p.endswith(".")]
REVERSED_CLAUSE_BREAK = re.compile(
    r"[;:!?\n]|(?<=\s),"
    rf"|(?<=\s)\.(?!(?:{_alternation(p[::-1] for p in _ABBREVIATIONS)})(?![A-Za-z]))",
    re.IGNORECASE,
)
VERSION_BEFORE = re.compile(
    rf"(?:^|\W)(?:{_alternation(phrases.VERSION_WORDS)})\s*$|\bv$", re.IGNORECASE
)
LIST_MARKER_AFTER = re.compile(r"[.)]\s")
