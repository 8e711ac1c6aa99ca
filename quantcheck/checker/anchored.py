"""Numbers an answer works out from the other numbers it states: arithmetic anchored on the
claim's own values.

Answers compute: "$142, $47 cheaper than the nonstop" ($189 in the evidence), "At $5.49
for a box of six, each bar costs about 92 cents", "admitted 15,250 of its 21,480
applicants, an acceptance rate of roughly 71%", "2% of Coverage A, which comes to $8,400".
A claimed value is derived here when one simple operation gives it, and at least one of
the two operands is a value the claim itself states: the claim says what it computes
from, so the search never tries every pair of numbers in a document (some pair adds up to
almost anything). The other operand is a value the claim states or any value of the cited
document. Which operations are tried depends on the claim's words (a total, a difference,
a rate per something), as in :mod:`.derived`; the result is compared at the claim's
written precision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext

from quantcheck.checker.change_way import direction, left_behind, may_go
from quantcheck.checker.index import EvidenceIndex
from quantcheck.checker.periods import periods_agree
from quantcheck.quantities.categories import COUNT_PREFIX, NUMBER, PERCENT
from quantcheck.quantities.facts import CONTEXT, Mention, Relation, format_decimal

# Where a claim is compared with a computed value: is ``value`` the claimed one?
Agrees = Callable[[Decimal], bool]

# A document with more values of one kind than this is not searched: the chance that some
# value makes the claimed one grows with their number.
_MOST_EVIDENCE_VALUES = 400
# Multipliers and divisors an answer states beside what it computes: "a box of six",
# "two instalments", "a 14-hour inspection". Large counts are not multipliers.
_LARGEST_FACTOR = Decimal(1000)
_HUNDRED = Decimal(100)
_SMALLEST_COUNT = Decimal(10)
_PERCENTAGE_POINTS = "percentage_points"


@dataclass(frozen=True, slots=True)
class Operand:
    """A value an operation may use: in its category's base unit, as written (for a
    multiplier: "14-hour" is 14), and whether the claim states it."""

    value: Decimal
    written: Decimal
    mention: Mention
    claimed: bool


@dataclass(frozen=True, slots=True)
class Worked:
    """A computation that gives the claimed value: as a reason prints it, and the evidence
    mentions it used (claimed operands are not evidence)."""

    computation: str
    sources: tuple[Mention, ...]


def worked_out(
    claim: Mention,
    index: EvidenceIndex,
    companions: Sequence[Mention],
    said: frozenset[str],
    agrees: Agrees,
    *,
    wording: str,
) -> Worked | None:
    """The first operation over one of the claim's own values and another value that
    gives the claimed one, if any. ``said`` names the kinds of computation the words
    around the claimed value speak of ("total", "difference", "change", "rate"): an
    answer says what it computes next to the result ("$47 cheaper", "adds up to $47.65",
    "about $189 a month"). Counts are never multiplied, and only counts of ten or more are
    added or subtracted: some two small counts of a document make any small count."""
    fact = claim.fact
    if fact.relation is not Relation.EQ or not isinstance(fact.value, Decimal):
        return None
    others = [m for m in companions if m is not claim]
    if not others:
        return None
    category = fact.category
    if category == PERCENT:
        return _percentage(claim, index, others, said, agrees, wording=wording)
    if category == _PERCENTAGE_POINTS:
        pool = _pool(claim, index, others, PERCENT)
        return _sum_or_difference(pool, said | {"difference"}, agrees) if pool else None
    pool = _pool(claim, index, others, category)
    if category == NUMBER or category.startswith(COUNT_PREFIX):
        if fact.value < _SMALLEST_COUNT:
            return None
        pool = [o for o in pool if o.value >= _SMALLEST_COUNT]
        return _sum_or_difference(pool, said, agrees)
    factors = [found for m in others if (found := _factor(m)) is not None]
    return (
        _sum_or_difference(pool, said, agrees)
        or _scaled(pool, factors, said, agrees)
        or _share_of(claim, index, others, agrees)
    )


# --- operands ---------------------------------------------------------------------------


def _pool(
    claim: Mention, index: EvidenceIndex, others: Sequence[Mention], category: str
) -> list[Operand]:
    """The claim's values of ``category`` and the evidence's, claimed ones first."""
    loose = category == NUMBER or category.startswith(COUNT_PREFIX)
    evidence = [
        m
        for m in (
            index.by_family.get("plain", ()) if loose else index.by_category.get(category, ())
        )
        if periods_agree(claim, m)
    ]
    if len(evidence) > _MOST_EVIDENCE_VALUES:
        evidence = []
    found = [_operand(m, claimed=True) for m in others if _kind_of(m, category, loose)]
    found += [_operand(m, claimed=False) for m in evidence]
    return [o for o in found if o is not None]


def _kind_of(mention: Mention, category: str, loose: bool) -> bool:
    other = mention.fact.category
    if loose:
        return other == NUMBER or other.startswith(COUNT_PREFIX)
    return other == category


def _operand(mention: Mention, *, claimed: bool) -> Operand | None:
    fact = mention.fact
    if fact.relation is not Relation.EQ or not isinstance(fact.value, Decimal):
        return None
    literal = mention.literal
    written = fact.value if literal is None else literal.value * literal.scale
    return Operand(fact.value, written, mention, claimed)


def _factor(mention: Mention) -> Operand | None:
    """A value of the claim that may multiply or divide another: a count, a plain number
    or a duration, as written ("six", "two", "8-day"), more than one and not too large."""
    category = mention.fact.category
    if not (
        category == NUMBER
        or category.startswith(COUNT_PREFIX)
        or category in ("time_seconds", "time_months")
    ):
        return None
    found = _operand(mention, claimed=True)
    if found is None or not 1 < found.written <= _LARGEST_FACTOR:
        return None
    return found


# --- operations --------------------------------------------------------------------------


def _pairs(pool: Sequence[Operand]) -> Iterator[tuple[Operand, Operand]]:
    """Pairs of distinct values with at least one stated by the claim."""
    for one in pool:
        if not one.claimed:
            break  # claimed operands come first
        for other in pool:
            if other.mention is not one.mention:
                yield one, other


def _sum_or_difference(
    pool: Sequence[Operand], said: frozenset[str], agrees: Agrees
) -> Worked | None:
    adds, subtracts = "total" in said, bool(said & {"difference", "change"})
    if not adds and not subtracts:
        return None
    with localcontext(CONTEXT):
        for one, other in _pairs(pool):
            if adds and agrees(one.value + other.value):
                return _worked(f"{one.mention.text} + {other.mention.text}", one, other)
            gap = abs(one.value - other.value)
            # A difference is smaller than what it separates: "$9.9 million, up from $9.5
            # million" is no $385,000 change of another row taken from $9.9 million.
            if subtracts and gap < min(one.value, other.value) and agrees(gap):
                big, small = (one, other) if one.value >= other.value else (other, one)
                return _worked(f"{big.mention.text} - {small.mention.text}", big, small)
    return None


def _scaled(
    pool: Sequence[Operand], factors: Sequence[Operand], said: frozenset[str], agrees: Agrees
) -> Worked | None:
    """A value times a count the claim states ("six bars ... 1,080 calories" of 180
    each), or divided by one where the claim speaks of a rate ("$5.49 for a box of six,
    each bar costs about 92 cents")."""
    # Each only where the claim says so: a rate word ("every two weeks", "per day") beside
    # a value is no total, so it never multiplies ("10 mg/kg every two weeks" is not
    # twice "5 mg/kg every 2 weeks").
    multiplies, divides = "total" in said, "rate" in said
    if not multiplies and not divides:
        return None
    with localcontext(CONTEXT):
        for factor in factors:
            for operand in pool:
                if operand.mention is factor.mention or (
                    operand.mention.fact.category == factor.mention.fact.category
                ):
                    # A duration times or over a duration is no duration: "for 12 weeks"
                    # is not "24 weeks" over "every two weeks".
                    continue
                if multiplies and agrees(operand.value * factor.written):
                    shown = f"{format_decimal(factor.written)} × {operand.mention.text}"
                    return _worked(shown, operand, factor)
                if divides and agrees(operand.value / factor.written):
                    shown = f"{operand.mention.text} / {format_decimal(factor.written)}"
                    return _worked(shown, operand, factor)
    return None


def _share_of(
    claim: Mention, index: EvidenceIndex, others: Sequence[Mention], agrees: Agrees
) -> Worked | None:
    """A value that is a percentage the claim states of another value: "2% of Coverage
    A, which comes to $8,400"."""
    percents = [
        found
        for m in others
        if m.fact.category == PERCENT and (found := _operand(m, claimed=True)) is not None
    ]
    if not percents:
        return None
    pool = _pool(claim, index, others, claim.fact.category)
    with localcontext(CONTEXT):
        for percent in percents:
            for operand in pool:
                if agrees(operand.value * percent.value / _HUNDRED):
                    shown = f"{percent.mention.text} of {operand.mention.text}"
                    return _worked(shown, operand, percent)
    return None


def _percentage(
    claim: Mention,
    index: EvidenceIndex,
    others: Sequence[Mention],
    said: frozenset[str],
    agrees: Agrees,
    *,
    wording: str,
) -> Worked | None:
    """A percentage of two values of one kind, one of them stated by the claim: where the
    claim speaks of a share, a share ("15,250 of its 21,480 applicants, an acceptance rate
    of roughly 71%"); where it speaks of a change, a percentage change ("revenue of $5.1
    billion, up roughly 7%"), one way only (see :mod:`.change_way`)."""
    # A claim that speaks of a change means one: "an increase of about 21%" is no share.
    changes = "change" in said
    shares = "share" in said and not changes
    if not changes and not shares:
        return None
    kinds = {m.fact.category for m in others if m.fact.category != PERCENT}
    way = direction(wording, claim) if changes else 0
    with localcontext(CONTEXT):
        for kind in kinds:
            for one, other in _pairs(_pool(claim, index, others, kind)):
                if other.value == 0:
                    continue
                if one.value == 0:
                    continue
                for part, whole in ((one, other), (other, one)):
                    if shares and agrees(part.value / whole.value * _HUNDRED):
                        return _worked(f"{part.mention.text} / {whole.mention.text}", one, other)
                    gap = abs(part.value - whole.value)
                    if (
                        changes
                        and agrees(gap / whole.value * _HUNDRED)
                        and may_go(
                            whole.value,
                            part.value,
                            way,
                            old_left=_left_behind(whole, part, index, wording),
                            new_left=_left_behind(part, whole, index, wording),
                        )
                    ):
                        shown = (
                            f"({part.mention.text} - {whole.mention.text}) / {whole.mention.text}"
                        )
                        return _worked(shown, one, other)
    return None


def _left_behind(operand: Operand, other: Operand, index: EvidenceIndex, wording: str) -> bool:
    text = wording if operand.claimed else index.text
    return left_behind(operand.mention, text, other.mention)


def _worked(shown: str, *operands: Operand) -> Worked:
    return Worked(shown, tuple(o.mention for o in operands if not o.claimed))
