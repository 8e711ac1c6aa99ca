"""What changed for each replayed claim, and the counts that summarize a replay.

An outcome is compared by status: a verdict's status, or for a message that got no verdict
the dead-letter kind it got instead (``unknown_kb_version``, ``invalid_json``, ...). The
citation failures have both, under the same name. Reasons are carried along for people to
read; a change of reason alone does not make a claim *changed*.

An answer event gives one row per sentence claim and one for the answer's own record,
whose status is the worst of its claims' and whose reason counts them
(:func:`answer_reason`), so a change in the counts shows in the reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from quantcheck.schemas import WORST_FIRST

from quantcheck.reports.summary import ordered_counts, summary_lines


class Transition(StrEnum):
    """How a replayed outcome relates to the recorded one."""

    UNCHANGED = "unchanged"
    CHANGED = "changed"
    RECORDED_MISSING = "recorded_missing"
    """No verdict was recorded for a message that gets one now."""
    NOT_COMPARED = "not_compared"


DIFFERENCES = frozenset({Transition.CHANGED, Transition.RECORDED_MISSING})
"""The transitions that make a replay exit with status 3."""


@dataclass(frozen=True, slots=True)
class Decision:
    """What became of one claim message.

    ``status`` is the verdict's status when ``verdict`` is True, else the dead-letter kind
    of a message that got no verdict.
    """

    status: str
    reason: str
    verdict: bool


@dataclass(frozen=True, slots=True)
class Coordinates:
    """Where a record sits: topic, partition, offset."""

    topic: str
    partition: int
    offset: int


def answer_reason(counts: Mapping[str, int]) -> str:
    """The reason of an answer's own record: how many claims got each status, worst first."""
    total = sum(counts.values())
    listed = ", ".join(f"{counts[s]} {s}" for s in WORST_FIRST if counts.get(s))
    return f"{total} claim{'' if total == 1 else 's'}" + (f": {listed}" if listed else "")


def transition_of(recorded: Decision | None, new: Decision, *, compared: bool) -> Transition:
    """Compare the recorded outcome with the new one.

    A message that gets no verdict now and had none recorded is unchanged: the worker
    records no verdict for it either.
    """
    if not compared:
        return Transition.NOT_COMPARED
    if recorded is None:
        return Transition.RECORDED_MISSING if new.verdict else Transition.UNCHANGED
    return Transition.UNCHANGED if recorded.status == new.status else Transition.CHANGED


@dataclass(frozen=True, slots=True)
class ReplayedClaim:
    """One replayed claim message: where it was read, what was recorded, what it is now.

    ``read_at`` is the record the replay read (a dead letter, for dead-letter input);
    ``source`` is where the claim message itself was first read, as in its verdict.
    ``verdict_json`` is the new verdict exactly as the worker would publish it.
    ``answer_id`` is set for the rows of an answer event: each of its claims, and the
    answer's own row, which has no claim ID.
    """

    claim_id: str | None
    read_at: Coordinates
    source: Coordinates
    source_timestamp: int
    recorded: Decision | None
    new: Decision
    transition: Transition
    verdict_json: bytes | None = None
    answer_id: str | None = None

    @property
    def is_answer(self) -> bool:
        """Whether this is an answer's own row (its record, or its dead letter as a whole)."""
        return self.claim_id is None and self.answer_id is not None

    @property
    def label(self) -> str:
        """The transition as the summary prints it: ``old -> new`` for a change."""
        if self.transition is Transition.CHANGED and self.recorded is not None:
            return f"{self.recorded.status} -> {self.new.status}"
        return self.transition.value

    @property
    def differs(self) -> bool:
        """Whether this claim counts as a difference."""
        return self.transition in DIFFERENCES


class Tally:
    """Running counts of a replay: new outcomes and transitions, in constant memory."""

    def __init__(self, *, comparing: bool) -> None:
        self.comparing = comparing
        self.statuses: Counter[str] = Counter()
        self.answer_statuses: Counter[str] = Counter()
        self.transitions: Counter[str] = Counter()
        self.differences = 0

    @property
    def claims(self) -> int:
        """Replayed claims: claim messages and the sentences of answers."""
        return self.statuses.total()

    def add(self, claim: ReplayedClaim) -> None:
        """Count one replayed claim, or an answer's own row."""
        (self.answer_statuses if claim.is_answer else self.statuses)[claim.new.status] += 1
        self.transitions[claim.label] += 1
        if claim.differs:
            self.differences += 1

    def lines(self) -> list[str]:
        """The summary: ``claims=N``, one ``status=count`` line each, then, when answers were
        replayed, ``answers=N`` and one ``answers.status=count`` line each, then the
        transitions of claims and answers together.

        Changes come first, most common first, then ``unchanged`` and ``recorded_missing``
        (both always, so scripts find them); without a comparison, ``not_compared``.
        """
        lines = summary_lines(self.statuses)
        if self.answer_statuses:
            lines.append(f"answers={self.answer_statuses.total()}")
            lines += [
                f"answers.{status}={count}"
                for status, count in ordered_counts(self.answer_statuses.elements())
            ]
        fixed = {t.value for t in Transition}
        changes = sorted(
            ((label, count) for label, count in self.transitions.items() if label not in fixed),
            key=lambda item: (-item[1], item[0]),
        )
        lines += [f"{label}: {count}" for label, count in changes]
        shown = (
            (Transition.UNCHANGED, Transition.RECORDED_MISSING)
            if self.comparing
            else (Transition.NOT_COMPARED,)
        )
        lines += [f"{t.value}: {self.transitions[t.value]}" for t in shown]
        return lines
