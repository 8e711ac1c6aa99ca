"""Metrics and log lines for a delivered batch: one line per dead letter, one summary per batch.

Only committed work is reported, so a batch that is aborted and read again is counted once.
Each sentence of an answer is reported as the claim it is. Claim text and prompt appear in
log lines only when ``log_claim_text`` is set.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime
from typing import Any

import structlog
from quantcheck.worker.observability.metrics import Metrics
from quantcheck.worker.stream.batch import BatchResult, Checked, CheckedAnswer, DeadLettered
from quantcheck.worker.stream.records import InputRecord
from structlog.typing import FilteringBoundLogger

log = structlog.get_logger("quantcheck.worker")


def coordinates(record: InputRecord) -> dict[str, Any]:
    """The fields that place a log line about a message: topic, partition and offset."""
    return {"topic": record.topic, "partition": record.partition, "offset": record.offset}


class BatchReporter:
    """Feeds delivered batches into the metrics and the log."""

    def __init__(self, metrics: Metrics, *, log_claim_text: bool = False) -> None:
        self._metrics = metrics
        self._log_claim_text = log_claim_text

    def delivered(self, result: BatchResult, *, seconds: float, committed_at: datetime) -> None:
        """Report a batch whose outputs and offsets were committed at ``committed_at``."""
        # The module's logger is a proxy that binds a new logger on every call; one per
        # batch is enough. Per-claim lines are built only when their level is written.
        logger: FilteringBoundLogger = log.bind()
        claim_lines = logger.is_enabled_for(logging.DEBUG)
        statuses: Counter[str] = Counter()
        dead_letters: Counter[str] = Counter()
        answers = 0
        for outcome in result.outcomes:
            if isinstance(outcome, DeadLettered):
                dead_letters[outcome.kind] += 1
                self._dead_lettered(outcome, logger)
                continue
            if isinstance(outcome, CheckedAnswer):
                answers += 1
                checked: tuple[Checked, ...] = outcome.checked
                if claim_lines:
                    logger.debug(
                        "answer checked",
                        answer_id=outcome.answer.answer_id,
                        **coordinates(outcome.record),
                        status=outcome.status,
                        claims=len(checked),
                    )
            else:
                checked = (outcome,)
            for claim in checked:
                statuses[claim.verdict.status.value] += 1
                self._checked(claim, committed_at, logger, claim_lines=claim_lines)
                if claim.dead_lettered:
                    dead_letters[claim.verdict.status.value] += 1
        self._metrics.record_batch(len(result.outcomes))
        first = result.outcomes[0].record if result.outcomes else None
        logger.info(
            "batch committed",
            records=len(result.outcomes),
            verdicts=sum(statuses.values()),
            answers=answers,
            dead_letters=sum(dead_letters.values()),
            statuses=dict(sorted(statuses.items())),
            dead_letter_kinds=dict(sorted(dead_letters.items())),
            duration_ms=round(seconds * 1000, 1),
            topic=None if first is None else first.topic,
        )

    def _checked(
        self,
        outcome: Checked,
        committed_at: datetime,
        logger: FilteringBoundLogger,
        *,
        claim_lines: bool,
    ) -> None:
        claim, verdict = outcome.claim, outcome.verdict
        self._metrics.record_verdict(
            verdict.status.value,
            claim.model,
            claim.retriever,
            claim.kb_version,
            facts=[(check.mention.fact.category, check.matched) for check in verdict.facts],
            check_seconds=outcome.check_seconds,
        )
        self._metrics.observe_end_to_end((committed_at - claim.produced_at).total_seconds())
        if claim_lines:
            fields: dict[str, Any] = {
                "claim_id": claim.claim_id,
                **coordinates(outcome.record),
                "status": verdict.status.value,
                "kb_version": claim.kb_version,
                "facts": len(verdict.facts),
            }
            if self._log_claim_text:
                fields["claim_text"] = claim.claim_text
                fields["prompt"] = claim.prompt
            logger.debug("claim checked", **fields)
        if outcome.dead_lettered:
            self._count_dead_letter(verdict.status.value)
            logger.warning(
                "claim dead-lettered",
                **_ids(claim.claim_id, claim.answer_id),
                **coordinates(outcome.record),
                kind=verdict.status.value,
                reason=verdict.reason,
            )

    def _dead_lettered(self, outcome: DeadLettered, logger: FilteringBoundLogger) -> None:
        self._count_dead_letter(outcome.kind)
        logger.warning(
            "claim dead-lettered",
            **_ids(outcome.claim_id, outcome.answer_id),
            **coordinates(outcome.record),
            kind=outcome.kind,
            reason=outcome.message,
        )

    def _count_dead_letter(self, kind: str) -> None:
        try:
            self._metrics.record_dead_letter(kind)
        except ValueError:
            # A kind the metrics module has no series for must not stop the worker: the
            # dead letter itself is already committed.
            log.error("dead-letter kind has no metric series", kind=kind)


def _ids(claim_id: str | None, answer_id: str | None) -> dict[str, Any]:
    """The IDs a line about a dead letter carries: the claim's, and the answer's if any."""
    if answer_id is None:
        return {"claim_id": claim_id}
    return {"claim_id": claim_id, "answer_id": answer_id}
