"""Reason strings in one fixed form: a short phrase, a colon, the sorted fact labels; where
facts fail in different ways, one such group per way, joined by semicolons."""

from __future__ import annotations

from collections.abc import Iterable

from quantcheck.checker.model import FactCheck
from quantcheck.checker.policy import POLICY, Difference

NO_QUANTITY = "no recognized quantity or date"
# At most this many words say what a value is said of, in a reason.
_SHOWN = 3
ABSENT = "not in cited evidence"


def fact_label(check: FactCheck) -> str:
    """A claim fact's label, with its problem appended when it has one, and what the
    evidence holds instead when it holds the number in a differing fact:
    ``money_usd=3.69 for date_quarter=2020-Q3 (evidence: date_quarter=2021-Q3)``,
    ``percent=35 (evidence: percent<=35)``."""
    mention = check.mention
    label = mention.fact.label()
    if mention.problem is not None:
        return f"{label} ({mention.problem})"
    if check.other_period is not None and mention.period is not None:
        return f"{label} for {mention.period.label()} (evidence: {check.other_period.label()})"
    binding = check.binding
    if binding is not None and binding.rival is not None and check.evidence is not None:
        # "money_usd=18 (evidence: money_usd=18 of large; the claim's small is money_usd=12)"
        own = " ".join(_shown(binding.own))
        said = f" of {own}" if own else ""
        naming = " ".join(_shown(binding.naming))
        return (
            f"{label} (evidence: {check.evidence.fact.label()}{said};"
            f" the claim's {naming} is {binding.rival.fact.label()})"
        )
    if check.difference is not None and check.evidence is not None and not check.matched:
        return f"{label} (evidence: {check.evidence.fact.label()})"
    if check.derivation is not None:
        return f"{label} derived: {check.derivation}"
    return label


def _shown(words: tuple[str, ...]) -> list[str]:
    """Anchor words as a reason prints them: a record's number without its mark, and
    only its longest form ("45mm", not also "45")."""
    plain = [word.lstrip("#") for word in words]
    kept = [
        word
        for word, anchor in zip(plain, words, strict=True)
        if not anchor.startswith("#")
        or not any(other != word and other.startswith(word) for other in plain)
    ]
    return kept[:_SHOWN]


def labelled(phrase: str, checks: Iterable[FactCheck]) -> str:
    """``phrase: a, b`` with the distinct labels sorted, e.g. ``not in cited evidence: ...``."""
    return f"{phrase}: {', '.join(sorted({fact_label(c) for c in checks}))}"


def supported(checks: Iterable[FactCheck]) -> str:
    """Reason of a supported claim."""
    return labelled("matched cited evidence", checks)


def unsupported(checks: Iterable[FactCheck]) -> str:
    """Reason of a claim with facts its evidence does not support: the absent ones first,
    then each way the present ones differ, in the policy's order."""
    groups: dict[Difference | None, list[FactCheck]] = {}
    for check in checks:
        way = _way(check)
        groups.setdefault(way, []).append(check)
    order = [None, *POLICY]
    return "; ".join(
        labelled(ABSENT if way is None else POLICY[way].phrase, groups[way])
        for way in order
        if way in groups
    )


def _way(check: FactCheck) -> Difference | None:
    if check.mention.problem is not None:
        return None
    if check.other_period is not None and check.mention.period is not None:
        return Difference.OTHER_PERIOD
    return check.difference


def negation(checks: Iterable[FactCheck]) -> str:
    """Reason of a claim whose facts match evidence of opposite polarity."""
    return labelled("negation differs from cited evidence", checks)
