"""The run summary: ``claims=N matched_expected=M`` and one ``status=count`` line each.

The same lines are printed by ``quantcheck check``, the demo and replays, so scripts and
people can compare runs across all three.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from quantcheck.checker.model import Status

# Ties between equal counts are broken in this order: outcomes first, then the citation
# failures in gate order, then the review queues.
REPORT_ORDER: tuple[Status, ...] = (
    Status.SUPPORTED,
    Status.UNSUPPORTED_QUANTITY,
    Status.MISSING_CITATION,
    Status.UNKNOWN_CITATION,
    Status.CITATION_NOT_RETRIEVED,
    Status.NEEDS_REVIEW_NO_QUANTITY,
    Status.NEEDS_REVIEW_NEGATION,
)


def ordered_counts(statuses: Iterable[str]) -> list[tuple[str, int]]:
    """Counts per status present, most common first, ties in :data:`REPORT_ORDER`."""
    counts = Counter(statuses)
    rank = {status.value: index for index, status in enumerate(REPORT_ORDER)}
    return sorted(counts.items(), key=lambda item: (-item[1], rank.get(item[0], len(rank))))


def summary_lines(statuses: Counter[str], matched: int | None = None) -> list[str]:
    """The summary block of a run with ``statuses`` counted; ``matched`` (how many claims
    got the status their label expected, where any claim carries a label) adds
    ``matched_expected``."""
    head = f"claims={statuses.total()}"
    if matched is not None:
        head += f" matched_expected={matched}"
    return [head, *(f"{status}={count}" for status, count in ordered_counts(statuses.elements()))]
