"""Reason strings in one fixed form: a short phrase, a colon, the sorted fact labels."""

from __future__ import annotations

from collections.abc import Iterable

from quantcheck.worker.checker.model import FactCheck

NO_QUANTITY = "no recognized quantity or date"


def fact_label(check: FactCheck) -> str:
    """A claim fact's label, with its problem appended when it has one, and the periods
    when the evidence states the value for another one:
    ``money_usd=3.69 for date_quarter=2020-Q3 (evidence: date_quarter=2021-Q3)``."""
    mention = check.mention
    label = mention.fact.label()
    if mention.problem is not None:
        return f"{label} ({mention.problem})"
    if check.other_period is not None and mention.period is not None:
        return f"{label} for {mention.period.label()} (evidence: {check.other_period.label()})"
    return label


def labelled(phrase: str, checks: Iterable[FactCheck]) -> str:
    """``phrase: a, b`` with the distinct labels sorted, e.g. ``not in cited evidence: ...``."""
    return f"{phrase}: {', '.join(sorted({fact_label(c) for c in checks}))}"


def supported(checks: Iterable[FactCheck]) -> str:
    """Reason of a supported claim."""
    return labelled("matched cited evidence", checks)


def unsupported(checks: Iterable[FactCheck]) -> str:
    """Reason of a claim with facts its evidence does not hold."""
    return labelled("not in cited evidence", checks)


def negation(checks: Iterable[FactCheck]) -> str:
    """Reason of a claim whose facts match evidence of opposite polarity."""
    return labelled("negation differs from cited evidence", checks)
