"""Answer verdict events: the claim verdicts of one answer summed up, as bytes.

Shared by the worker and by replays, as :mod:`quantcheck.worker.stream.verdicts` is for claim
verdicts. Unlike a claim verdict, the record is validated before it is serialized: there
is one per answer, not one per claim, and validation proves the worst status and the
counts agree with the claims listed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from quantcheck.schemas import (
    AnswerEvent,
    AnswerVerdictEvent,
    SourceCoordinates,
    VerdictStatus,
    dump_answer_verdict,
    worst_status,
)
from quantcheck.worker.stream.records import OutputRecord
from quantcheck.worker.stream.verdicts import verdict_record

from quantcheck.answers.offsets import Span
from quantcheck.checker import CHECKER_VERSION, Status
from quantcheck.checker.model import sha256_text


@dataclass(frozen=True, slots=True)
class ClaimStatus:
    """One claim of an answer as the answer record lists it."""

    claim_id: str
    status: Status
    span: Span
    """The claim's sentence in the answer text, markers included."""


def answer_verdict_event(
    answer: AnswerEvent,
    claims: Sequence[ClaimStatus],
    source: SourceCoordinates,
    *,
    checked_at: datetime,
    checker_version: str = CHECKER_VERSION,
) -> AnswerVerdictEvent:
    """The answer record of ``answer`` whose sentences got ``claims``' statuses, in order."""
    statuses = _statuses(claims)
    return AnswerVerdictEvent.model_validate(
        {
            "answer_id": answer.answer_id,
            "status": worst_status(statuses),
            "counts": Counter(statuses),
            "claims": [
                {
                    "claim_id": claim.claim_id,
                    "status": claim.status.value,
                    "span": {"start": claim.span.start, "end": claim.span.end},
                }
                for claim in claims
            ],
            "kb_version": answer.kb_version,
            "model": answer.model,
            "retriever": answer.retriever,
            "prompt_sha256": sha256_text(answer.prompt),
            "checker_version": checker_version,
            "source": source,
            "checked_at": checked_at,
        }
    )


def answer_status(claims: Sequence[ClaimStatus]) -> VerdictStatus:
    """The answer's status: the worst of its claims' (see
    :data:`quantcheck.schemas.WORST_FIRST`)."""
    return worst_status(_statuses(claims))


def _statuses(claims: Sequence[ClaimStatus]) -> list[VerdictStatus]:
    # The checker's statuses are the contract's, value for value (a schema test holds them
    # equal), so their values are VerdictStatus literals.
    return cast(list[VerdictStatus], [claim.status.value for claim in claims])


def answer_verdict_record(event: AnswerVerdictEvent, *, topic: str) -> OutputRecord:
    """The answer record as a message keyed by the answer ID."""
    return verdict_record(dump_answer_verdict(event), key=event.answer_id, topic=topic)
