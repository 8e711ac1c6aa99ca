"""The words around a number that change what it claims: bounds, hedges, negation, versions.

Tables only; :mod:`worker.quantities.patterns` turns them into regular expressions. A
phrase that starts earlier wins over one nested inside it, so "no more than" (at most)
is never read as "more than" (above), nor "not exceed" as a negation.
"""

from __future__ import annotations

from worker.quantities.facts import Relation

# fmt: off

BOUND_PHRASES: dict[Relation, tuple[str, ...]] = {
    Relation.LT: ("below", "under", "less than", "fewer than", "lower than", "<"),
    Relation.LE: (
        "at most", "no more than", "not more than", "up to", "a maximum of", "maximum of",
        "maximum", "max", "not exceed", "not exceeding", "never exceed", "never exceeds",
        "not to exceed", "cannot exceed", "can't exceed", "can’t exceed", "at or below", "≤", "<=",
    ),
    Relation.GT: (
        "above", "over", "more than", "greater than", "higher than", "larger than",
        "exceeds", "exceeding", "exceed", ">",
    ),
    Relation.GE: (
        "at least", "no less than", "not less than", "no fewer than", "a minimum of",
        "minimum of", "minimum", "at or above", "≥", ">=",
    ),
}

# Words that make a value approximate: "about 96 percent" may stand for 96.4 percent.
HEDGES: tuple[str, ...] = (
    "about", "approximately", "approx.", "approx", "around", "roughly", "nearly", "almost",
    "some", "close to", "circa", "~",
)

# Cues that negate a fact later in the same clause. Bound phrases containing "not" or
# "no" are matched first and removed from the clause, so they never count here.
NEGATION_WORDS: tuple[str, ...] = ("not", "no", "never", "cannot")
# Contractions negate the word they end: "don't", "isn't", "mustn’t".
NEGATION_SUFFIXES: tuple[str, ...] = ("n't", "n’t")

# A number right after one of these words is a version or identifier, never a quantity.
VERSION_WORDS: tuple[str, ...] = (
    "version", "versions", "ver.", "ver", "v.", "release", "releases", "build", "revision",
    "rev.", "rev", "firmware", "model", "step", "section", "chapter", "page", "item", "no.",
    "number", "#",
)

# Number words: values of single words and the multipliers that scale what precedes them.
SMALL_NUMBER_WORDS: dict[str, int] = {
    word: value
    for value, word in enumerate(
        [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
            "seventeen", "eighteen", "nineteen",
        ]
    )
}
TENS_WORDS: dict[str, int] = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}
MULTIPLIER_WORDS: dict[str, int] = {
    "hundred": 100, "thousand": 1000, "million": 1000000, "billion": 1000000000,
}

# "half an hour", "half a day", "a quarter of an hour": a fraction word before a unit.
FRACTION_WORDS: dict[str, str] = {"half": "0.5", "quarter": "0.25"}

# Month names and the abbreviations accepted in dates.
MONTHS: dict[str, int] = {
    "January": 1, "Jan": 1, "February": 2, "Feb": 2, "March": 3, "Mar": 3, "April": 4,
    "Apr": 4, "May": 5, "June": 6, "Jun": 6, "July": 7, "Jul": 7, "August": 8, "Aug": 8,
    "September": 9, "Sept": 9, "Sep": 9, "October": 10, "Oct": 10, "November": 11,
    "Nov": 11, "December": 12, "Dec": 12,
}

QUARTER_WORDS: dict[str, int] = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
}
# fmt: on
