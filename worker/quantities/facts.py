"""The values the extractor produces: normalized fact signatures and their mentions in text."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum


class Relation(StrEnum):
    """How a fact relates its category to its value."""

    EQ = "="
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    RANGE = ".."


@dataclass(frozen=True, slots=True)
class Span:
    """Half-open character offsets ``[start, end)`` into the original, unnormalized text."""

    start: int
    end: int


def format_decimal(value: Decimal) -> str:
    """Print a Decimal in plain positional notation without trailing zeros (90, not 9E+1 or 90.0)."""
    if value == 0:
        return "0"
    text = format(value.normalize(), "f")
    return text


@dataclass(frozen=True, slots=True)
class Fact:
    """A normalized signature: category plus an exact value (or interval, or ISO date string).

    Two mentions support each other exactly when their facts are equal, so equality must
    only depend on meaning: ``Decimal`` compares numerically (60 == 60.0) and dates are
    canonical ISO strings.
    """

    category: str
    relation: Relation
    value: Decimal | str
    upper: Decimal | str | None = None

    def label(self) -> str:
        """The fact as the reasons print it: ``time_seconds=60``, ``percent>3``, ``temperature_c=2..8``."""
        low = _show(self.value)
        if self.relation is Relation.RANGE:
            assert self.upper is not None
            return f"{self.category}={low}..{_show(self.upper)}"
        return f"{self.category}{self.relation.value}{low}"


def _show(value: Decimal | str) -> str:
    return value if isinstance(value, str) else format_decimal(value)


@dataclass(frozen=True, slots=True)
class Literal:
    """A point value as written: number and unit, kept so rounding can happen in the writer's unit.

    ``exponent`` is the place of the last written digit (``96.4`` -> -1, ``2`` -> 0); it
    defines the precision used by approximate and converted matches.
    """

    value: Decimal
    exponent: int
    unit: str


@dataclass(frozen=True, slots=True)
class Mention:
    """One fact found in a text, with where it was found and how it was qualified."""

    fact: Fact
    span: Span
    text: str
    negated: bool = False
    approximate: bool = False
    exact: bool = True
    literal: Literal | None = None
    problem: str | None = None
