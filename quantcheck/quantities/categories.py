"""The vocabulary of fact categories that are not units, and the scopes that read them.

Categories with a unit are in :mod:`quantcheck.quantities.units`, date-like ones in
:mod:`quantcheck.quantities.dates`.
"""

from __future__ import annotations

from enum import StrEnum

from quantcheck.quantities.dates import DECADE, PERIOD_CATEGORIES, YEAR

NUMBER = "number"
PERCENT = "percent"
IDENTIFIER = "identifier"
SCORE = "score"
ORDINAL = "ordinal"
TIME_OF_DAY = "time_of_day"
TEMPERATURE = "temperature_c"
# Degrees of arc ("pitched at 30 degrees"); never converted to or from anything.
ANGLE = "angle_deg"
COUNT_PREFIX = "count["
# Every currency is a category of its own: "money_usd", "money_eur", ...
MONEY_PREFIX = "money_"
# Categories of a measure of matter, which an amount may be stated per ("5 mg per kg").
MEASURE_PREFIXES = ("mass_", "length_", "area_", "volume_")
WRITTEN_UNIT_PREFIX = "unit["


class Scope(StrEnum):
    """Which numbers a check reads."""

    ALL = "all"  # every number: counts, years, identifiers, bare numbers too
    UNITS = "units"  # quantities with units, currency, percent, dates and times of day


def in_units_scope(category: str) -> bool:
    """Whether the ``units`` scope reads a category: not numbers without a unit (counts,
    plain numbers, identifiers, scores, ordinals), nor bare years and decades."""
    return category not in _BEYOND_UNITS and not category.startswith(COUNT_PREFIX)


def written_unit_category(name: str) -> str:
    """The category of a quantity in a unit no table lists, named as written: ``unit[mah]``."""
    return f"{WRITTEN_UNIT_PREFIX}{name}]"


def count_category(lemma: str) -> str:
    """The category of a count of ``lemma``: ``count[employee]``."""
    return f"{COUNT_PREFIX}{lemma}]"


_BEYOND_UNITS = frozenset({NUMBER, IDENTIFIER, SCORE, ORDINAL, YEAR, DECADE})


def has_unit(category: str) -> bool:
    """Whether a category's values carry a unit: not plain numbers, counts, identifiers,
    scores, ordinals or dates."""
    return (
        category not in _BEYOND_UNITS
        and not category.startswith(COUNT_PREFIX)
        and category not in PERIOD_CATEGORIES
        and category != TIME_OF_DAY
    )


def same_dimension(one: str, other: str) -> bool:
    """Whether two unit categories measure the same kind of thing in different units that
    are never converted: two currencies, or durations in seconds and in months."""
    return one.partition("_")[0] == other.partition("_")[0]
