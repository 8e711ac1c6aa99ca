"""Re-checking the records of a window exactly as the worker checks them.

Every record goes through the worker's own :class:`~worker.stream.batch.BatchProcessor`,
so a replayed verdict is the verdict the worker would publish for the same message today,
byte for byte, except for ``checked_at``: a replay takes it from the claim record's own
timestamp instead of the clock, so replaying the same input always gives the same bytes.
Records are processed in runs of equal timestamps, because the processor stamps one
``checked_at`` on a whole batch.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from schemas import ClaimEvent
from worker.checker.model import CITATION_FAILURES
from worker.replay.compare import Coordinates, Decision, ReplayedClaim, transition_of
from worker.replay.recorded import Recorded
from worker.replay.source import SourceRecord
from worker.stream.batch import BatchProcessor, Checked, Outcome
from worker.stream.decode import decode_claim
from worker.stream.publish import claim_message
from worker.stream.records import InputRecord, OutputRecord

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

RecordedLookup = Callable[[SourceRecord], Recorded | None]
"""The recorded outcome of a window record, or None when nothing was recorded."""


def checked_at_of(record: InputRecord) -> datetime:
    """When a replayed claim counts as checked: its record's timestamp, in UTC.

    A record without a timestamp (-1, only in pre-0.10 message formats) gets the Unix epoch.
    """
    return _EPOCH + timedelta(milliseconds=max(record.timestamp, 0))


@dataclass(frozen=True, slots=True)
class Filters:
    """Which records of the window to replay; an empty set lets everything through."""

    claim_ids: frozenset[str] = frozenset()
    models: frozenset[str] = frozenset()
    retrievers: frozenset[str] = frozenset()
    kb_versions: frozenset[str] = frozenset()
    statuses: frozenset[str] = frozenset()
    """Recorded statuses (dead-letter kinds for dead-letter input)."""

    @property
    def on_claim(self) -> bool:
        """Whether any filter needs the claim decoded."""
        return bool(self.claim_ids or self.models or self.retrievers or self.kb_versions)

    def accepts_claim(self, claim: ClaimEvent | None) -> bool:
        """Whether a claim passes the claim filters; a message that is no claim does not,
        unless there are none."""
        if not self.on_claim:
            return True
        if claim is None:
            return False
        return (
            _allows(self.claim_ids, claim.claim_id)
            and _allows(self.models, claim.model)
            and _allows(self.retrievers, claim.retriever)
            and _allows(self.kb_versions, claim.kb_version)
        )

    def accepts_recorded(self, recorded: Recorded | None) -> bool:
        """Whether the recorded outcome passes the status filter."""
        if not self.statuses:
            return True
        return recorded is not None and recorded.decision.status in self.statuses


def _allows(allowed: frozenset[str], value: str) -> bool:
    return not allowed or value in allowed


@dataclass(frozen=True, slots=True)
class Replayed:
    """One replayed record: the comparison, the claim as checked, and its new verdict."""

    claim: ReplayedClaim
    source: SourceRecord
    event: ClaimEvent | None
    verdict: OutputRecord | None

    @property
    def passes_gates(self) -> bool:
        """Whether the claim now decodes, resolves and passes the citation gates."""
        return self.claim.new.verdict and not _is_citation_failure(self.claim.new.status)


_CITATION_FAILURES = frozenset(status.value for status in CITATION_FAILURES)


def _is_citation_failure(status: str) -> bool:
    return status in _CITATION_FAILURES


@dataclass(frozen=True, slots=True)
class _Pending:
    source: SourceRecord
    record: InputRecord
    recorded: Recorded | None


class Replayer:
    """Replays chunks of window records with one batch processor.

    ``verdicts_topic`` must be the processor's verdicts topic: its outputs to that topic
    are the new verdicts. ``kb_version_override`` checks every readable claim as if it
    named that knowledge-base version.
    """

    def __init__(
        self,
        processor: BatchProcessor,
        *,
        verdicts_topic: str,
        max_message_bytes: int,
        comparing: bool,
        filters: Filters | None = None,
        kb_version_override: str | None = None,
    ) -> None:
        self._processor = processor
        self._verdicts_topic = verdicts_topic
        self._max_message_bytes = max_message_bytes
        self._comparing = comparing
        self._filters = filters or Filters()
        self._override = kb_version_override

    def replay(self, chunk: Iterable[SourceRecord], recorded: RecordedLookup) -> list[Replayed]:
        """Filter, re-check and compare ``chunk``; results keep the chunk's order."""
        pending = [p for p in (self._prepare(source, recorded) for source in chunk) if p]
        replayed: list[Replayed] = []
        for _, run in itertools.groupby(pending, key=lambda p: p.record.timestamp):
            replayed.extend(self._check(list(run)))
        return replayed

    def _prepare(self, source: SourceRecord, recorded: RecordedLookup) -> _Pending | None:
        found = recorded(source) if self._comparing else None
        if not self._filters.accepts_recorded(found):
            return None
        record = source.claim
        if not self._filters.on_claim and self._override is None:
            return _Pending(source, record, found)
        decoded = decode_claim(record.value, max_message_bytes=self._max_message_bytes)
        claim = decoded if isinstance(decoded, ClaimEvent) else None
        if not self._filters.accepts_claim(claim):
            return None
        if claim is not None and self._override is not None:
            # The claim is asked as if it named the override version; the verdict then says
            # which version the evidence was read at.
            _, value = claim_message(claim.model_copy(update={"kb_version": self._override}))
            record = replace(record, value=value)
        return _Pending(source, record, found)

    def _check(self, items: Sequence[_Pending]) -> list[Replayed]:
        result = self._processor.process(
            [item.record for item in items], checked_at=checked_at_of(items[0].record)
        )
        verdicts = iter([o for o in result.outputs if o.topic == self._verdicts_topic])
        return [
            self._compare(item, outcome, next(verdicts) if isinstance(outcome, Checked) else None)
            for item, outcome in zip(items, result.outcomes, strict=True)
        ]

    def _compare(self, item: _Pending, outcome: Outcome, verdict: OutputRecord | None) -> Replayed:
        if isinstance(outcome, Checked):
            new = Decision(outcome.verdict.status.value, outcome.verdict.reason, verdict=True)
            claim_id: str | None = outcome.claim.claim_id
        else:
            new = Decision(outcome.kind, outcome.message, verdict=False)
            claim_id = outcome.claim_id
        recorded = item.recorded
        if recorded is not None and None not in (recorded.claim_id, claim_id):
            # Coordinates found it, but it must also be recorded under this claim's ID.
            recorded = recorded if recorded.claim_id == claim_id else None
        compared = transition_of(
            None if recorded is None else recorded.decision, new, compared=self._comparing
        )
        source, record = item.source, item.record
        return Replayed(
            ReplayedClaim(
                claim_id=claim_id,
                read_at=Coordinates(source.topic, source.partition, source.offset),
                source=Coordinates(record.topic, record.partition, record.offset),
                source_timestamp=record.timestamp,
                recorded=None if recorded is None else recorded.decision,
                new=new,
                transition=compared,
                verdict_json=None if verdict is None else verdict.value,
            ),
            source,
            outcome.claim,
            verdict,
        )
