"""One batch of claim messages in, the verdicts and dead letters to publish out.

Pure apart from the document resolver: the cited documents of every claim in the batch
are fetched with one query per knowledge-base version, then each claim is checked in
message order. A store outage propagates as ``StoreUnavailableError`` before anything is
produced, so the caller can retry the whole batch.

An answer event is split into one claim per sentence before the lookup, so its sentences'
documents are fetched with everyone else's; each sentence is checked like a claim, its
spans moved into the answer text, and the answer gets one more record after its claims'
verdicts. Whatever stops the answer as a whole (unreadable, unknown version, a check that
raised, a refused verdict) dead-letters the whole answer message once; a sentence that
fails a citation gate gets its verdict and a dead letter of the answer message naming the
sentence's claim ID.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from quantcheck.schemas import AnswerEvent, ClaimEvent, DeadLetterKind
from quantcheck.worker.store.resolve import DocumentResolver, resolve_cited
from quantcheck.worker.stream.answer_verdicts import (
    ClaimStatus,
    answer_status,
    answer_verdict_event,
    answer_verdict_record,
)
from quantcheck.worker.stream.dead_letters import dead_letter
from quantcheck.worker.stream.decode import DecodeFailure, decode_message
from quantcheck.worker.stream.records import InputRecord, OutputRecord
from quantcheck.worker.stream.verdicts import source_of, verdict_json, verdict_record

from quantcheck.answers.claims import AnswerSentence, answer_sentences, in_answer
from quantcheck.answers.split import SentenceClaim, Uncited
from quantcheck.checker import Checker, Claim, Document, Status, Verdict

CITATION_FAILURE_KINDS: Mapping[Status, DeadLetterKind] = {
    Status.MISSING_CITATION: "missing_citation",
    Status.UNKNOWN_CITATION: "unknown_citation",
    Status.CITATION_NOT_RETRIEVED: "citation_not_retrieved",
}
"""The dead-letter kind of each citation failure."""


@dataclass(frozen=True, slots=True)
class BatchSettings:
    """Where outputs go, what is too large to read, and what an answer's sentences without
    a marker cite."""

    verdicts_topic: str
    dlq_topic: str
    group: str
    max_message_bytes: int
    uncited: Uncited = Uncited.MISSING_CITATION


@dataclass(frozen=True, slots=True)
class Checked:
    """A claim that got a verdict (and, for a citation failure, also a dead letter).

    For a sentence of an answer, ``record`` is the answer's message, ``claim`` the
    sentence's claim event and the verdict's spans are in the answer text.
    """

    record: InputRecord
    claim: ClaimEvent
    verdict: Verdict
    check_seconds: float

    @property
    def dead_lettered(self) -> bool:
        """Citation failures go to the dead-letter topic as well."""
        return self.verdict.status.is_citation_failure


@dataclass(frozen=True, slots=True)
class CheckedAnswer:
    """An answer whose every sentence got a verdict, and which gets an answer record."""

    record: InputRecord
    answer: AnswerEvent
    sentences: tuple[AnswerSentence, ...]
    checked: tuple[Checked, ...]
    """One per sentence, in sentence order."""

    @property
    def claims(self) -> tuple[ClaimStatus, ...]:
        """Each sentence's claim as the answer record lists it."""
        return tuple(
            ClaimStatus(checked.claim.claim_id, checked.verdict.status, part.sentence.span)
            for part, checked in zip(self.sentences, self.checked, strict=True)
        )

    @property
    def status(self) -> str:
        """The answer's status: the worst of its claims'."""
        return answer_status(self.claims)


@dataclass(frozen=True, slots=True)
class DeadLettered:
    """A message that got no verdict, only a dead letter.

    ``claim_id`` and ``answer_id`` are what the dead letter's headers name: a claim's ID,
    or the ID of an answer dead-lettered as a whole; ``event`` is the message as read,
    when it could be.
    """

    record: InputRecord
    kind: DeadLetterKind
    message: str
    claim_id: str | None
    event: ClaimEvent | AnswerEvent | None = None
    answer_id: str | None = None


Outcome = Checked | CheckedAnswer | DeadLettered


@dataclass(frozen=True, slots=True)
class _Split:
    """An answer read and split into its sentences, waiting for its documents."""

    answer: AnswerEvent
    sentences: tuple[AnswerSentence, ...]


_Read = ClaimEvent | _Split | DecodeFailure | DeadLettered
"""A message after decoding: a claim, a split answer, or why it gets only a dead letter."""


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
        read = [(record, self._read(record)) for record in records]
        documents = resolve_cited(self._resolver, _cited(item for _, item in read))
        outcomes = [self._outcome(record, item, documents) for record, item in read]
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
        if isinstance(outcome, DeadLettered):
            return replace(outcome, kind=kind, message=message)
        if isinstance(outcome, CheckedAnswer):
            answer = outcome.answer
            return DeadLettered(outcome.record, kind, message, None, answer, answer.answer_id)
        return DeadLettered(outcome.record, kind, message, outcome.claim.claim_id, outcome.claim)

    def _result(self, outcomes: Sequence[Outcome], checked_at: datetime) -> BatchResult:
        outputs: list[OutputRecord] = []
        owners: list[int] = []
        for number, outcome in enumerate(outcomes):
            made = self._outputs(outcome, checked_at)
            outputs.extend(made)
            owners.extend([number] * len(made))
        return BatchResult(tuple(outputs), tuple(outcomes), tuple(owners), checked_at)

    def _read(self, record: InputRecord) -> _Read:
        event = decode_message(record.value, max_message_bytes=self._settings.max_message_bytes)
        if not isinstance(event, AnswerEvent):
            return event
        try:
            sentences = answer_sentences(
                event, scope=self._checker.options.scope, uncited=self._settings.uncited
            )
            return _Split(event, sentences)
        except Exception as exc:
            # A splitter bug must cost this answer a dead letter, not the worker a poison
            # loop, exactly as a checker bug costs a claim.
            return _whole_answer(
                record, event, "check_failed", f"the split failed: {type(exc).__name__}: {exc}"
            )

    def _outcome(
        self, record: InputRecord, item: _Read, documents: Mapping[str, Mapping[str, Document]]
    ) -> Outcome:
        if isinstance(item, ClaimEvent):
            if item.kb_version not in documents:
                return DeadLettered(
                    record,
                    "unknown_kb_version",
                    _unknown_version(item.kb_version),
                    item.claim_id,
                    item,
                )
            claim = Claim(
                item.claim_text, tuple(item.cited_doc_ids), frozenset(item.retrieved_doc_ids)
            )
            return self._check(record, item, claim, documents[item.kb_version])
        if isinstance(item, _Split):
            version = item.answer.kb_version
            if version not in documents:
                return _whole_answer(
                    record, item.answer, "unknown_kb_version", _unknown_version(version)
                )
            return self._check_answer(record, item, documents[version])
        if isinstance(item, DecodeFailure):
            return DeadLettered(
                record, item.kind, item.message, item.claim_id, answer_id=item.answer_id
            )
        return item

    def _check(
        self,
        record: InputRecord,
        event: ClaimEvent,
        claim: Claim,
        documents: Mapping[str, Document],
        sentence: SentenceClaim | None = None,
    ) -> Checked | DeadLettered:
        """Check one claim, or one sentence of an answer (its spans then moved into the
        answer)."""
        started = self._timer()
        try:
            verdict = self._checker.check(claim, documents)
            if sentence is not None:
                verdict = in_answer(verdict, sentence)
        except Exception as exc:
            return DeadLettered(
                record,
                "check_failed",
                f"the check failed: {type(exc).__name__}: {exc}",
                event.claim_id,
                event,
            )
        return Checked(record, event, verdict, self._timer() - started)

    def _check_answer(
        self, record: InputRecord, split: _Split, documents: Mapping[str, Document]
    ) -> CheckedAnswer | DeadLettered:
        checked: list[Checked] = []
        for part in split.sentences:
            outcome = self._check(record, part.event, part.claim, documents, part.sentence)
            if isinstance(outcome, DeadLettered):
                # The answer record needs every sentence's status: without one, the whole
                # answer is dead-lettered, the message naming the sentence.
                return _whole_answer(
                    record,
                    split.answer,
                    "check_failed",
                    f"{part.event.claim_id}: {outcome.message}",
                )
            checked.append(outcome)
        return CheckedAnswer(record, split.answer, split.sentences, tuple(checked))

    def _outputs(self, outcome: Outcome, checked_at: datetime) -> list[OutputRecord]:
        settings = self._settings
        if isinstance(outcome, Checked):
            return self._claim_outputs(outcome, checked_at)
        if isinstance(outcome, CheckedAnswer):
            answer = outcome.answer
            outputs = [
                output
                for checked in outcome.checked
                for output in self._claim_outputs(checked, checked_at, answer.answer_id)
            ]
            event = answer_verdict_event(
                answer, outcome.claims, source_of(outcome.record), checked_at=checked_at
            )
            outputs.append(answer_verdict_record(event, topic=settings.verdicts_topic))
            return outputs
        return [
            self._dead_letter(
                outcome.record, outcome.kind, outcome.message, outcome.claim_id, outcome.answer_id
            )
        ]

    def _claim_outputs(
        self, outcome: Checked, checked_at: datetime, answer_id: str | None = None
    ) -> list[OutputRecord]:
        """A claim's verdict, then its dead letter if it failed a citation gate.

        ``answer_id`` is set for a sentence of an answer: its dead letter names the answer.
        """
        settings = self._settings
        value = verdict_json(
            outcome.verdict, outcome.claim, source_of(outcome.record), checked_at=checked_at
        )
        outputs = [verdict_record(value, key=outcome.claim.claim_id, topic=settings.verdicts_topic)]
        if outcome.dead_lettered:
            kind = CITATION_FAILURE_KINDS[outcome.verdict.status]
            outputs.append(
                self._dead_letter(
                    outcome.record, kind, outcome.verdict.reason, outcome.claim.claim_id, answer_id
                )
            )
        return outputs

    def _dead_letter(
        self,
        record: InputRecord,
        kind: DeadLetterKind,
        message: str,
        claim_id: str | None,
        answer_id: str | None,
    ) -> OutputRecord:
        settings = self._settings
        return dead_letter(
            record,
            topic=settings.dlq_topic,
            kind=kind,
            message=message,
            group=settings.group,
            claim_id=claim_id,
            answer_id=answer_id,
        )


def _cited(items: Iterable[_Read]) -> Iterator[tuple[str, Sequence[str]]]:
    """The (version, cited IDs) of every claim and of every answer, whose IDs are those of
    all its sentences (none for an answer without sentences, whose version is still
    looked up)."""
    for item in items:
        if isinstance(item, ClaimEvent):
            yield item.kb_version, item.cited_doc_ids
        elif isinstance(item, _Split):
            cited = [doc_id for part in item.sentences for doc_id in part.event.cited_doc_ids]
            yield item.answer.kb_version, cited


def _unknown_version(kb_version: str) -> str:
    return f"knowledge-base version {kb_version!r} is not in the document store"


def _whole_answer(
    record: InputRecord, answer: AnswerEvent, kind: DeadLetterKind, message: str
) -> DeadLettered:
    """The one dead letter of an answer that gets no verdicts at all."""
    return DeadLettered(record, kind, message, None, answer, answer.answer_id)
