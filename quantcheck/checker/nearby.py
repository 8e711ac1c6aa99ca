"""A document's values of each kind in value order, so that a claimed value is compared
only with the evidence values near it.

An evidence value supports a claimed one only when it reads as it at the claim's
precision, converted or rounded: it lies within a known reach of the claimed value (see
``compare._reach``). A document may hold hundreds of values of one kind, and every fact
of every claim citing it would otherwise be compared with each. The order is built the
first time a kind is asked for and kept: the document is read once and checked often.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal

from quantcheck.quantities.facts import Mention, Relation

# Where the window around a claimed value ends, computed without rounding: a bound
# rounded inwards would leave out a value at the very edge of the reach.
_EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)

# One list of the index in value order: the single exact values, sorted; where each stands
# in the list; and where the rest stand (ranges, estimates, values that are no number),
# which no distance rules out.
Order = tuple[tuple[Decimal, ...], tuple[int, ...], tuple[int, ...]]


@dataclass(slots=True)
class ValueOrder:
    """The value order of each list of a document's index that has been asked for, by the
    list's name (a category, or a family of categories)."""

    orders: dict[str, Order] = field(default_factory=dict)

    def near(
        self, name: str, mentions: Sequence[Mention], value: Decimal, reach: Decimal | None
    ) -> Sequence[Mention]:
        """Those of ``mentions`` (the index's list called ``name``) that may lie within
        ``reach`` of ``value``, in their own order: all of them when the reach is not
        known; else those whose single exact value is within it, and every value that is
        not one exact number."""
        if reach is None:
            return mentions
        order = self.orders.get(name)
        if order is None:
            order = self.orders[name] = _order(mentions)
        values, positions, others = order
        low = bisect_left(values, _EXACT.subtract(value, reach))
        high = bisect_right(values, _EXACT.add(value, reach))
        if high - low == len(values) and not others:
            return mentions
        return [mentions[p] for p in sorted((*positions[low:high], *others))]


def _order(mentions: Sequence[Mention]) -> Order:
    ranked: list[tuple[Decimal, int]] = []
    others: list[int] = []
    for position, mention in enumerate(mentions):
        value = mention.fact.value
        if mention.exact and mention.fact.relation is not Relation.RANGE and _finite(value):
            assert isinstance(value, Decimal)
            ranked.append((value, position))
        else:
            others.append(position)
    ranked.sort()
    return tuple(v for v, _ in ranked), tuple(p for _, p in ranked), tuple(others)


def _finite(value: object) -> bool:
    return isinstance(value, Decimal) and value.is_finite()
