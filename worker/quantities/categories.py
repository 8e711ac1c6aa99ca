"""The vocabulary of fact categories that are not units, and the scopes that read them.

Categories with a unit are in :mod:`quantcheck.worker.quantities.units`, date-like ones in
:mod:`quantcheck.worker.quantities.dates`.
"""

from __future__ import annotations

from enum import StrEnum

from quantcheck.worker.quantities.dates import DECADE, YEAR

NUMBER = "number"
IDENTIFIER = "identifier"
SCORE = "score"
ORDINAL = "ordinal"
TIME_OF_DAY = "time_of_day"
COUNT_PREFIX = "count["


class Scope(StrEnum):
    """Which numbers a check reads."""

    ALL = "all"  # every number: counts, years, identifiers, bare numbers too
    UNITS = "units"  # quantities with units, currency, percent, dates and times of day


def in_units_scope(category: str) -> bool:
    """Whether the ``units`` scope reads a category: not numbers without a unit (counts,
    plain numbers, identifiers, scores, ordinals), nor bare years and decades."""
    return category not in _BEYOND_UNITS and not category.startswith(COUNT_PREFIX)


def count_category(lemma: str) -> str:
    """The category of a count of ``lemma``: ``count[employee]``."""
    return f"{COUNT_PREFIX}{lemma}]"


_BEYOND_UNITS = frozenset({NUMBER, IDENTIFIER, SCORE, ORDINAL, YEAR, DECADE})
