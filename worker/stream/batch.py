"""One batch of claim messages in, the verdicts and dead letters to publish out.

Pure apart from the document resolver: the cited documents of every claim in the batch
are fetched with one query per knowledge-base version, then each claim is checked in
message order. A store outage propagates as ``StoreUnavailableError`` before anything is
produced, so the caller can retry the whole batch.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from schemas import ClaimEvent, DeadLetterKind
from worker.checker import Checker, Claim, Document, Status, Verdict
from worker.store.resolve import DocumentResolver, resolve_cited
from worker.stream.dead_letters import dead_letter
from worker.stream.decode import DecodeFailure, decode_claim
from worker.stream.records import InputRecord, OutputRecord
from worker.stream.verdicts import source_of, verdict_json, verdict_record

CITATION_FAILURE_KINDS: Mapping[Status, DeadLetterKind] = {
    Status.MISSING_CITATION: "missing_citation",
    Status.UNKNOWN_CITATION: "unknown_citation",
    Status.CITATION_NOT_RETRIEVED: "citation_not_retrieved",
}
"""The dead-letter kind of each citation failure."""


@dataclass(frozen=True, slots=True)
class BatchSettings:
    """Where outputs go and what is too large to read."""

    verdicts_topic: str
    dlq_topic: str
    group: str
    max_message_bytes: int


@dataclass(frozen=True, slots=True)
class Checked:
    """A claim that got a verdict (and, for a citation failure, also a dead letter)."""

    record: InputRecord
    claim: ClaimEvent
    verdict: Verdict
    check_seconds: float

    @property
    def dead_lettered(self) -> bool:
        """Citation failures go to the dead-letter topic as well."""
        return self.verdict.status.is_citation_failure


@dataclass(frozen=True, slots=True)
class DeadLettered:
    """A message that got no verdict, only a dead letter."""

    record: InputRecord
    kind: DeadLetterKind
    message: str
    claim_id: str | None
    claim: ClaimEvent | None = None


Outcome = Checked | DeadLettered


@dataclass(frozen=True, slots=True)
class BatchResult:
    """What to publish for a batch, and what happened to each of its messages, in order.

    ``owners[i]`` is the index in ``outcomes`` of the message ``outputs[i]`` was made for;
    ``checked_at`` went into every verdict.
    """

    outputs: tuple[OutputRecord, ...]
    outcomes: tuple[Outcome, ...]
    owners: tuple[int, ...]
    checked_at: datetime


class BatchProcessor:
    """Checks batches of claim messages with one checker and one document resolver."""

    def __init__(
        self,
        checker: Checker,
        resolver: DocumentResolver,
        settings: BatchSettings,
        *,
        timer: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._checker = checker
        self._resolver = resolver
        self._settings = settings
        self._timer = timer

    def process(self, records: Sequence[InputRecord], *, checked_at: datetime) -> BatchResult:
        """Decode, resolve and check ``records``; ``checked_at`` goes into every verdict.

        Raises ``StoreUnavailableError`` (from the resolver) when the documents cannot be
        read right now; nothing is lost, as nothing has been produced yet.
        """
        decoded = [
            (record, decode_claim(record.value, max_message_bytes=self._settings.max_message_bytes))
            for record in records
        ]
        claims = [claim for _, claim in decoded if isinstance(claim, ClaimEvent)]
        documents = resolve_cited(self._resolver, ((c.kb_version, c.cited_doc_ids) for c in claims))
        outcomes: list[Outcome] = []
        for record, claim in decoded:
            if isinstance(claim, DecodeFailure):
                outcome: Outcome = DeadLettered(record, claim.kind, claim.message, claim.claim_id)
            elif claim.kb_version not in documents:
                outcome = DeadLettered(
                    record,
                    "unknown_kb_version",
                    f"knowledge-base version {claim.kb_version!r} is not in the document store",
                    claim.claim_id,
                    claim,
                )
            else:
                outcome = self._check(record, claim, documents[claim.kb_version])
            outcomes.append(outcome)
        return self._result(outcomes, checked_at)

    def refuse_outputs(
        self, result: BatchResult, refusals: Mapping[int, tuple[DeadLetterKind, str]]
    ) -> BatchResult:
        """``result`` with the message behind each refused output dead-lettered instead, as
        ``refusals[index]`` (kind, message) says: all its outputs are replaced by one dead
        letter keeping the original message."""
        replaced = {result.owners[index]: why for index, why in refusals.items()}
        outcomes = [
            self._refused(outcome, *replaced[number]) if number in replaced else outcome
            for number, outcome in enumerate(result.outcomes)
        ]
        return self._result(outcomes, result.checked_at)

    @staticmethod
    def _refused(outcome: Outcome, kind: DeadLetterKind, message: str) -> DeadLettered:
        claim_id = outcome.claim_id if isinstance(outcome, DeadLettered) else outcome.claim.claim_id
        return DeadLettered(outcome.record, kind, message, claim_id, outcome.claim)

    def _result(self, outcomes: Sequence[Outcome], checked_at: datetime) -> BatchResult:
        outputs: list[OutputRecord] = []
        owners: list[int] = []
        for number, outcome in enumerate(outcomes):
            made = self._outputs(outcome, checked_at)
            outputs.extend(made)
            owners.extend([number] * len(made))
        return BatchResult(tuple(outputs), tuple(outcomes), tuple(owners), checked_at)

    def _check(
        self,
        record: InputRecord,
        claim: ClaimEvent,
        documents: Mapping[str, Document],
    ) -> Outcome:
        started = self._timer()
        try:
            verdict = self._checker.check(
                Claim(
                    text=claim.claim_text,
                    cited_doc_ids=tuple(claim.cited_doc_ids),
                    retrieved_doc_ids=frozenset(claim.retrieved_doc_ids),
                ),
                documents,
            )
        except Exception as exc:
            return DeadLettered(
                record,
                "check_failed",
                f"the check failed: {type(exc).__name__}: {exc}",
                claim.claim_id,
                claim,
            )
        return Checked(record, claim, verdict, self._timer() - started)

    def _outputs(self, outcome: Outcome, checked_at: datetime) -> list[OutputRecord]:
        settings = self._settings
        if isinstance(outcome, DeadLettered):
            return [
                dead_letter(
                    outcome.record,
                    topic=settings.dlq_topic,
                    kind=outcome.kind,
                    message=outcome.message,
                    group=settings.group,
                    claim_id=outcome.claim_id,
                )
            ]
        value = verdict_json(
            outcome.verdict, outcome.claim, source_of(outcome.record), checked_at=checked_at
        )
        outputs = [
            verdict_record(value, claim_id=outcome.claim.claim_id, topic=settings.verdicts_topic)
        ]
        if outcome.dead_lettered:
            outputs.append(
                dead_letter(
                    outcome.record,
                    topic=settings.dlq_topic,
                    kind=CITATION_FAILURE_KINDS[outcome.verdict.status],
                    message=outcome.verdict.reason,
                    group=settings.group,
                    claim_id=outcome.claim.claim_id,
                )
            )
        return outputs
