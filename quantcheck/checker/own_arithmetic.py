"""Numbers a claim works out from its own supported numbers.

Answers show their working: "days on market rose from 14 to 19, an increase of five", "the
stand adds 1.7 kg, taking the weight from 22.4 kg to 24.1 kg", "31 of the 36 lifts ran,
leaving five closed". The evidence states the operands; the difference or the total is
the claim's own arithmetic, and is checked against the operands the evidence supports.

Only a difference or a sum of two supported values of one kind counts, read at the
claimed number's written precision (or within its hedge), and never of two small whole
numbers ("a 1:2:3 mix" is no sum). A wrong figure is then not accounted for by two right
ones, and a wrong operand is unsupported itself, so the claim still fails on it.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from decimal import Decimal, localcontext

from quantcheck.checker.model import FactCheck, MatchKind
from quantcheck.quantities.categories import COUNT_PREFIX, IDENTIFIER, NUMBER, TIME_OF_DAY
from quantcheck.quantities.dates import PERIOD_CATEGORIES
from quantcheck.quantities.facts import CONTEXT, Relation

# What no arithmetic of two values of one kind gives: a date from two dates, a time of
# day from two times of day (elapsed time has its own rule), a code from two codes.
_NOT_WORKED_OUT = PERIOD_CATEGORIES | {TIME_OF_DAY, IDENTIFIER}
# Below this, two whole numbers add up to a third of the claim too often to mean it.
_SMALL = Decimal(10)


def with_own_arithmetic(checks: tuple[FactCheck, ...]) -> tuple[FactCheck, ...]:
    """``checks`` with each unsupported value that is the difference or the sum of two
    supported values of the same claim marked as derived from them."""
    operands = [c for c in checks if _operand(c)]
    if len(operands) < 2 or all(c.matched for c in checks):
        return checks
    return tuple(
        check if check.matched else _worked_out(check, operands) or check for check in checks
    )


def _operand(check: FactCheck) -> bool:
    fact = check.mention.fact
    return (
        check.matched
        and not check.negation_conflict
        and fact.relation is Relation.EQ
        and isinstance(fact.value, Decimal)
        and fact.category not in _NOT_WORKED_OUT
    )


def _kind(category: str) -> str:
    """Counts of anything and plain numbers are one kind: "31 of the 36 lifts, five
    closed"; any other category is a kind of its own."""
    return NUMBER if category.startswith(COUNT_PREFIX) else category


def _worked_out(check: FactCheck, operands: list[FactCheck]) -> FactCheck | None:
    mention = check.mention
    fact, literal = mention.fact, mention.literal
    # Only a value the claim states exactly: "over 1,000" is met by too many sums.
    if (
        literal is None
        or fact.relation is not Relation.EQ
        or not isinstance(fact.value, Decimal)
        or fact.category in _NOT_WORKED_OUT
    ):
        return None
    kind = _kind(fact.category)
    for one, two in itertools.combinations(operands, 2):
        if _kind(one.mention.fact.category) != kind or _kind(two.mention.fact.category) != kind:
            continue
        big, small = sorted((one, two), key=lambda c: c.mention.fact.value, reverse=True)
        high, low = big.mention.fact.value, small.mention.fact.value
        assert isinstance(high, Decimal)
        assert isinstance(low, Decimal)
        if high == low:
            continue  # a value twice is a multiple, not two values
        if high < _SMALL and high == high.to_integral_value():
            continue  # small whole numbers ("a 1:2:3 mix") add up to other small ones by chance
        with localcontext(CONTEXT):
            results = ((high - low, "-"), (high + low, "+"))
        fits = literal.rounds_near if mention.approximate else literal.rounds_to
        for worked, sign in results:
            if fits(worked):
                return replace(
                    check,
                    matched=True,
                    match_kind=MatchKind.DERIVED,
                    evidence_doc_id=big.evidence_doc_id,
                    evidence=big.evidence,
                    difference=None,
                    binding=None,
                    derivation=f"{big.mention.text} {sign} {small.mention.text}",
                )
    return None
