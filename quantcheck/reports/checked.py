"""What ``quantcheck check`` makes of each line of a claims file, for its outputs to share.

A line is one claim, or an answer whose sentences are its claims. A claim whose check
raised is not dropped: it is a row of status :data:`CHECK_FAILED`, the exception in its
reason, so one bad claim costs its own verdict and not the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from quantcheck.answers.claims import AnswerSentence
from quantcheck.checker.model import Verdict
from quantcheck.inputs.claims import AnswerRow, ClaimRow

CHECK_FAILED: Final = "check_failed"
"""The status of a claim whose check raised; as the worker's dead-letter kind says."""


@dataclass(frozen=True, slots=True)
class CheckedRow:
    """One claim of the file and its verdict, or why it has none."""

    claim: ClaimRow
    verdict: Verdict | None
    failure: str = ""
    """``the check failed: ValueError: ...`` when the check raised."""

    @property
    def status(self) -> str:
        """The verdict's status, or ``check_failed``."""
        return CHECK_FAILED if self.verdict is None else self.verdict.status.value

    @property
    def reason(self) -> str:
        """The verdict's reason, or the exception."""
        return self.failure if self.verdict is None else self.verdict.reason


@dataclass(frozen=True, slots=True)
class CheckedLine:
    """What one line of the file gave: its claim's row, or an answer's rows in sentence
    order with the sentences they come from."""

    rows: tuple[CheckedRow, ...]
    answer: AnswerRow | None = None
    sentences: tuple[AnswerSentence, ...] = ()
