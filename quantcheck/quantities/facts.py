"""The values the extractor produces: normalized fact signatures and their mentions in text."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal, localcontext
from enum import StrEnum
from functools import lru_cache

# A hedged round number reads as any value within half a step of its last digit that is
# not zero ("about 150" for 145 to 155), and never further than this share of it ("about
# 2,000" for 1,900 to 2,100, not 1,500 to 2,500); among many values (a data series, the
# results of arithmetic) one would lie that near by chance, so there only a hundredth.
_ROUND = Decimal(10)
_NEAR_ROUND = Decimal("0.05")
_NEAR_ROUND_AMONG_MANY = Decimal("0.01")
# Arithmetic precision for conversions: wide enough that every accepted literal
# (at most MAX_DIGITS significant digits) times any unit factor is computed exactly.
MAX_DIGITS = 30
CONTEXT = Context(prec=80)


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
    """Plain positional notation without trailing zeros: 90, never 9E+1 or 90.0."""
    if value == 0:
        return "0"
    return format(value.normalize(CONTEXT), "f")


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
        """The fact as reasons print it: ``time_seconds=60``, ``percent>3``, ``size_mb=2..8``."""
        return _label(self)


@lru_cache(maxsize=65536)
def _label(fact: Fact) -> str:
    # Facts recur across claims and documents; equal facts print alike (60 and 60.0 are
    # both "60"), so the label may be computed once per distinct fact.
    low = _show(fact.value)
    if fact.relation is Relation.RANGE:
        assert fact.upper is not None
        return f"{fact.category}={low}..{_show(fact.upper)}"
    return f"{fact.category}{fact.relation.value}{low}"


def _show(value: Decimal | str) -> str:
    return value if isinstance(value, str) else format_decimal(value)


@dataclass(frozen=True, slots=True)
class Literal:
    """A single value as written, kept so rounding can happen in the writer's own unit.

    The written ``value`` becomes ``(value * scale + shift) * numerator / denominator``
    in the category's base unit. ``exponent`` is the place of the last written digit
    (``96.4`` -> -1, ``2`` -> 0): the precision of approximate and converted matches.
    """

    value: Decimal
    exponent: int
    scale: Decimal
    shift: Decimal
    numerator: Decimal
    denominator: Decimal

    def to_base(self) -> Decimal:
        """The written value in the category's base unit."""
        with localcontext(CONTEXT):
            return (self.value * self.scale + self.shift) * self.numerator / self.denominator

    def from_base(self, base: Decimal) -> Decimal:
        """Express a base-unit value in this literal's unit."""
        with localcontext(CONTEXT):
            return (base * self.denominator / self.numerator - self.shift) / self.scale

    def rounds_to(self, base: Decimal) -> bool:
        """True when ``base``, written in this literal's unit and precision, reads as it."""
        with localcontext(CONTEXT):
            written = self.from_base(base).quantize(Decimal(1).scaleb(self.exponent), ROUND_HALF_UP)
        return written == self.value

    @property
    def round_place(self) -> int:
        """The place of the last digit that is not zero of a whole number written without
        decimals (3 for 16,000, 2 for 2,300); the place of the last written digit of any
        other number."""
        value = self.value
        if self.exponent != 0 or value == 0 or value != value.to_integral_value():
            return self.exponent
        whole, places = int(abs(value)), 0
        while whole % 10 == 0:
            whole //= 10
            places += 1
        return places

    def rounds_near(self, base: Decimal, *, among_many: bool = False) -> bool:
        """For a hedged round number ("roughly 70 pounds", "nearly 1,500 mm"): True when
        ``base`` reads as it, within half a step of its last digit that is not zero and
        at most a twentieth of it (a hundredth ``among_many`` values). Such a number
        means a rounded one, not its last digit; it also rounds as written ("about 10
        pounds" for 10.3 lb, though a hundredth of 10 is less); a number that is not round
        ("about 1,486") rounds as written only."""
        if self.rounds_to(base):
            return True
        if self.value < _ROUND or self.value % 10 or self.exponent < 0:
            return False
        step = Decimal(1).scaleb(self.round_place)
        share = _NEAR_ROUND_AMONG_MANY if among_many else _NEAR_ROUND
        with localcontext(CONTEXT):
            reach = min(step / 2, self.value * share)
            return abs(self.from_base(base) - self.value) <= reach


@dataclass(frozen=True, slots=True)
class SetAside:
    """A number in a text deliberately not read as a fact, with the reason why
    (``list_marker``, ``citation_marker``): the verdict reports it instead of hiding it."""

    span: Span
    text: str
    reason: str


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
    # The period the value is stated for ("$3.69 for the third quarter of 2021"): the
    # nearest date-like fact in the same sentence.
    period: Fact | None = None
    # A range stated as a forecast or estimate ("expects $45 million to $50 million"):
    # a value inside it is not what the text states.
    estimate: bool = False
    # For a value read from data: the key path it sits under ("main > temp_max",
    # "detailSpec > Memory > Internal") and the record it belongs to (one object, one
    # table row); None in prose.
    key: str | None = None
    record: int | None = None
    # For a value read from a table: the label of its row ("Oats"), which says what the
    # value is of as much as its column does.
    row: str | None = None
