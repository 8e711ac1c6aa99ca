"""Re-checking the records of a window exactly as the worker checks them.

Every record goes through the worker's own :class:`~quantcheck.worker.stream.batch.BatchProcessor`,
so a replayed verdict is the verdict the worker would publish for the same message today,
byte for byte, except for ``checked_at``: a replay takes it from the claim record's own
timestamp instead of the clock, so replaying the same input always gives the same bytes.
Records are processed in runs of equal timestamps, because the processor stamps one
``checked_at`` on a whole batch.

An answer gives one replayed row per sentence claim and one for the answer's own record,
each compared with what was recorded under its ID. A dead letter of one sentence of an
answer carries the whole answer: it is re-checked whole, and only that sentence's row is
reported, as the dead letter recorded nothing about the others.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from quantcheck.schemas import AnswerEvent, ClaimEvent
from quantcheck.worker.client.messages import event_message
from quantcheck.worker.replay.compare import (
    Coordinates,
    Decision,
    ReplayedClaim,
    answer_reason,
    transition_of,
)
from quantcheck.worker.replay.recorded import Recorded, recorded_for
from quantcheck.worker.replay.source import SourceRecord
from quantcheck.worker.stream.batch import BatchProcessor, Checked, CheckedAnswer, Outcome
from quantcheck.worker.stream.decode import decode_message
from quantcheck.worker.stream.records import InputRecord, OutputRecord

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

RecordedLookup = Callable[[SourceRecord], tuple[Recorded, ...]]
"""The recorded outcomes of a window record: one per claim (and one for an answer's own
record), none when nothing was recorded."""


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

    def accepts_claim(self, event: ClaimEvent | AnswerEvent | None) -> bool:
        """Whether a claim or answer passes the claim filters; a message that is neither
        does not, unless there are none. An answer passes the claim IDs filter when it
        names the answer ID or one of its claims (``<answer_id>:<n>``)."""
        if not self.on_claim:
            return True
        if event is None:
            return False
        if isinstance(event, AnswerEvent):
            prefix = f"{event.answer_id}:"
            named = _allows(self.claim_ids, event.answer_id) or any(
                claim_id.startswith(prefix) for claim_id in self.claim_ids
            )
        else:
            named = _allows(self.claim_ids, event.claim_id)
        return (
            named
            and _allows(self.models, event.model)
            and _allows(self.retrievers, event.retriever)
            and _allows(self.kb_versions, event.kb_version)
        )

    def accepts_recorded(self, recorded: tuple[Recorded, ...]) -> bool:
        """Whether an outcome recorded for the message passes the status filter."""
        if not self.statuses:
            return True
        return any(entry.decision.status in self.statuses for entry in recorded)

    def accepts_answer_row(self, row: ReplayedClaim) -> bool:
        """Whether a row of an answer passes the claim ID and status filters, which select
        among an answer's rows as they select among claim messages."""
        if self.claim_ids and not {row.claim_id, row.answer_id} & self.claim_ids:
            return False
        return not self.statuses or (
            row.recorded is not None and row.recorded.status in self.statuses
        )


def _allows(allowed: frozenset[str], value: str) -> bool:
    return not allowed or value in allowed


@dataclass(frozen=True, slots=True)
class Replayed:
    """One replayed claim (or answer's own row): the comparison, the message as read (the
    whole answer for each of its claims, whose verdict spans point into it), and the new
    verdict."""

    claim: ReplayedClaim
    source: SourceRecord
    event: ClaimEvent | AnswerEvent | None
    verdict: OutputRecord | None
    passes_gates: bool
    """Whether the message now decodes, resolves and passes the citation gates: for an
    answer, whether every sentence does."""


@dataclass(frozen=True, slots=True)
class _Pending:
    source: SourceRecord
    record: InputRecord
    recorded: tuple[Recorded, ...]


@dataclass(frozen=True, slots=True)
class _Row:
    """One new outcome of a message, before it is compared."""

    claim_id: str | None
    answer_id: str | None
    new: Decision
    verdict: OutputRecord | None
    event: ClaimEvent | AnswerEvent | None


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
        found = recorded(source) if self._comparing else ()
        if not self._filters.accepts_recorded(found):
            return None
        record = source.claim
        if not self._filters.on_claim and self._override is None:
            return _Pending(source, record, found)
        decoded = decode_message(record.value, max_message_bytes=self._max_message_bytes)
        event = decoded if isinstance(decoded, ClaimEvent | AnswerEvent) else None
        if not self._filters.accepts_claim(event):
            return None
        if event is not None and self._override is not None:
            # The event is asked as if it named the override version; the verdict then says
            # which version the evidence was read at.
            _, value = event_message(event.model_copy(update={"kb_version": self._override}))
            record = replace(record, value=value)
        return _Pending(source, record, found)

    def _check(self, items: Sequence[_Pending]) -> list[Replayed]:
        result = self._processor.process(
            [item.record for item in items], checked_at=checked_at_of(items[0].record)
        )
        verdicts: list[list[OutputRecord]] = [[] for _ in items]
        for output, owner in zip(result.outputs, result.owners, strict=True):
            if output.topic == self._verdicts_topic:
                verdicts[owner].append(output)
        return [
            replayed
            for item, outcome, published in zip(items, result.outcomes, verdicts, strict=True)
            for replayed in self._compare(item, outcome, published)
        ]

    def _compare(
        self, item: _Pending, outcome: Outcome, verdicts: list[OutputRecord]
    ) -> list[Replayed]:
        rows = _rows(outcome, verdicts)
        dead_letter = item.source.dead_letter
        if dead_letter is not None and dead_letter.answer_id and dead_letter.claim_id:
            named = [row for row in rows if row.claim_id == dead_letter.claim_id]
            # Unless the answer can no longer be split, its only row stands for it.
            rows = named or rows
        passes = _passes_gates(outcome)
        replayed = [self._replayed(item, row, passes) for row in rows]
        return [
            r
            for r in replayed
            if r.claim.answer_id is None or self._filters.accepts_answer_row(r.claim)
        ]

    def _replayed(self, item: _Pending, row: _Row, passes: bool) -> Replayed:
        recorded = recorded_for(item.recorded, row.claim_id)
        compared = transition_of(
            None if recorded is None else recorded.decision, row.new, compared=self._comparing
        )
        source, record = item.source, item.record
        return Replayed(
            ReplayedClaim(
                claim_id=row.claim_id,
                read_at=Coordinates(source.topic, source.partition, source.offset),
                source=Coordinates(record.topic, record.partition, record.offset),
                source_timestamp=record.timestamp,
                recorded=None if recorded is None else recorded.decision,
                new=row.new,
                transition=compared,
                verdict_json=None if row.verdict is None else row.verdict.value,
                answer_id=row.answer_id,
            ),
            source,
            row.event,
            row.verdict,
            passes,
        )


def _rows(outcome: Outcome, verdicts: list[OutputRecord]) -> list[_Row]:
    """The new outcomes of one message: a claim's, or an answer's claims then its own
    record (``verdicts`` are the message's outputs to the verdicts topic, in order).
    """
    if isinstance(outcome, Checked):
        return [
            _Row(
                outcome.claim.claim_id, None, _verdict_decision(outcome), verdicts[0], outcome.claim
            )
        ]
    if isinstance(outcome, CheckedAnswer):
        answer = outcome.answer
        rows = [
            _Row(
                checked.claim.claim_id,
                answer.answer_id,
                _verdict_decision(checked),
                verdict,
                answer,
            )
            for checked, verdict in zip(outcome.checked, verdicts[:-1], strict=True)
        ]
        counts = Counter(checked.verdict.status.value for checked in outcome.checked)
        new = Decision(outcome.status, answer_reason(counts), verdict=True)
        rows.append(_Row(None, answer.answer_id, new, verdicts[-1], answer))
        return rows
    new = Decision(outcome.kind, outcome.message, verdict=False)
    return [_Row(outcome.claim_id, outcome.answer_id, new, None, outcome.event)]


def _verdict_decision(checked: Checked) -> Decision:
    return Decision(checked.verdict.status.value, checked.verdict.reason, verdict=True)


def _passes_gates(outcome: Outcome) -> bool:
    """Whether a message would now get only verdicts: no dead letter of any kind."""
    if isinstance(outcome, Checked):
        return not outcome.dead_lettered
    if isinstance(outcome, CheckedAnswer):
        return not any(checked.dead_lettered for checked in outcome.checked)
    return False
