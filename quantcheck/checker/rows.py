"""Table rows: which row and which period column of a table a claimed value is read from.

A value in a table belongs to its row and its column. A claim names the row by another
of its values ("the 2-year fixed at 85% LTV") and the column by its period ("in the third
quarter of 2024"); a candidate from another row or from a column of a wider period is no
reading of the claim, however equal the number (see docs/quantity-rules.md, "Binding").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from quantcheck.checker.anchors import number_anchors
from quantcheck.checker.index import EvidenceIndex
from quantcheck.checker.model import Binding
from quantcheck.quantities import dates
from quantcheck.quantities.facts import Mention, Relation, Span
from quantcheck.quantities.patterns import alternation
from quantcheck.quantities.phrases import HANDOVER_WORDS


def period_beside(claim: Mention, candidate: Mention, index: EvidenceIndex) -> bool:
    """Whether a data value stated for a period that only holds the claim's (or lies in
    it) has, in its own row, a column for exactly the claim's period with a value of the
    same kind: that column, not this one, is what the claim reads."""
    period = claim.period
    if period is None or candidate.record is None or candidate.period in (None, period):
        return False
    return any(
        other.period == period
        and other.key != candidate.key
        and other.row == candidate.row
        and other.fact.category == candidate.fact.category
        for other in index.groups.get(("record", candidate.record), ())
    )


def row_named_instead(
    claim: Mention,
    candidate: Mention,
    index: EvidenceIndex,
    wording: str,
    companions: Sequence[Mention],
) -> Binding | None:
    """The binding of a table value to another row, or None: when another value the claim
    states in the same clause is found only in other rows, under a column where the
    candidate's row holds a different value, and such a row gives the claimed column a
    value of its own. In "the 2-year fixed at 85% LTV has a rate of 4.19%", 4.19% is the
    rate of the row at 60%, and the row at 85% has 4.59%. A claim that also states the
    candidate row's own value in that column speaks of both rows."""
    if candidate.row is None or candidate.record is None or candidate.key is None:
        return None
    groups = index.groups
    own = groups.get(("record", candidate.record), ())
    stated = {m.fact for m in companions} | {claim.fact}
    for other in companions:
        if (
            other is claim
            or other.fact.category in dates.PERIOD_CATEGORIES
            or other.fact.relation is not Relation.EQ
            or not _one_clause(wording, claim.span, other.span)
            or any(m.fact == other.fact for m in own)
        ):
            continue
        for found in index.by_fact.get(other.fact, ()):
            if found.row is None or found.record is None or found.key is None:
                continue
            differs = [
                m for m in own if m.key == found.key and m.fact.category == found.fact.category
            ]
            if not differs or any(m.fact in stated for m in differs):
                continue
            rival = next(
                (
                    m
                    for m in groups.get(("record", found.record), ())
                    if m.key == candidate.key
                    and m.fact.category == candidate.fact.category
                    and m.fact != candidate.fact
                ),
                None,
            )
            if rival is not None:
                naming = number_anchors(other.text)
                return Binding(naming, index.anchors.of(candidate), rival, naming)
    return None


def _one_clause(wording: str, first: Span, second: Span) -> bool:
    """Whether nothing between two values of a claim starts another clause or item."""
    between = wording[min(first.end, second.end) : max(first.start, second.start)]
    return _CLAUSE_BREAK.search(between) is None


# Where the words of a claim change hands (see anchors), or a comparison sets its other
# side against it ("..., against 4.59% at 85%").
_CLAUSE_BREAK = re.compile(rf"[,;]|\b(?:{alternation([*HANDOVER_WORDS, 'against'])})\b")
