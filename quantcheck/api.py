"""Checking claims and answers in-process: plain strings and mappings in, verdicts out.

::

    from quantcheck import check

    verdict = check("Readings every 45 seconds.", {"S01": "Log a reading every 60 seconds."})
    verdict.status      # Status.UNSUPPORTED_QUANTITY
    verdict.to_json()   # the verdict event, as the worker publishes it to claim-verdicts

No Kafka and no document store: the sources given are the documents the check reads,
keyed by document ID (a list is keyed ``"1"``, ``"2"``, ... in order, as answers number
their markers). They are both what the claim cites and what retrieval supplied, unless
``cited=`` or ``retrieved=`` say otherwise, so the citation gates still apply when a caller
knows both. Inputs are validated by the same contracts as events on the claims topic; a
bad one raises ``pydantic.ValidationError`` (a ``ValueError``) naming the field.

A verdict's ``to_dict()`` and ``to_json()`` are the verdict event of the contract
(``verdict.v1.schema.json``, ``answer-verdict.v1.schema.json``), made by the worker's own
conversion. The claim's ID and knowledge-base version are ``claim_id=`` and
``kb_version=`` (default ``claim`` and ``local``), and ``source`` names no topic:
:data:`IN_PROCESS`.
"""

from __future__ import annotations

import functools
import threading
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, Literal

import pydantic_core

from quantcheck.answers.claims import answer_sentences, in_answer
from quantcheck.answers.offsets import Span
from quantcheck.answers.split import Uncited
from quantcheck.checker import Checker as _CoreChecker
from quantcheck.checker import (
    CheckOptions,
    CitationMode,
    Claim,
    Document,
    Status,
    Verdict,
)
from quantcheck.checker.model import EvidenceRef, FactCheck
from quantcheck.quantities.categories import Scope
from quantcheck.quantities.facts import SetAside
from quantcheck.schemas import AnswerEvent, AnswerVerdictEvent, ClaimEvent, SourceCoordinates
from quantcheck.worker.replay.compare import answer_reason
from quantcheck.worker.stream.answer_verdicts import (
    ClaimStatus,
    answer_status,
    answer_verdict_event,
)
from quantcheck.worker.stream.verdicts import verdict_payload

Sources = Mapping[str, str] | Sequence[str]
"""Documents by ID, or a list of texts whose IDs are their positions from ``"1"``."""

IN_PROCESS: Final = SourceCoordinates(topic="(in-process)", partition=0, offset=0, timestamp=-1)
"""The ``source`` of an in-process verdict: a name no Kafka topic can have."""

DEFAULT_KB_VERSION: Final = "local"
"""The knowledge-base version verdicts name when the caller gives none."""


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """The verdict on one claim, with the claim it judges."""

    verdict: Verdict
    claim: ClaimEvent
    """The claim as checked: its ID, text, cited and retrieved documents."""
    checked_at: datetime

    @property
    def status(self) -> Status:
        """The outcome (a ``str``: ``"supported"``, ``"unsupported_quantity"``, ...)."""
        return self.verdict.status

    @property
    def supported(self) -> bool:
        """True when every number of the claim is in the cited evidence."""
        return self.verdict.supported

    @property
    def reason(self) -> str:
        """The outcome in one sentence, naming the facts."""
        return self.verdict.reason

    @property
    def facts(self) -> tuple[FactCheck, ...]:
        """Every fact found in the claim, with whether and where the evidence holds it."""
        return self.verdict.facts

    @property
    def flags(self) -> tuple[str, ...]:
        """Remarks that do not change the status (``approximate_match``, ...)."""
        return self.verdict.flags

    @property
    def evidence(self) -> tuple[EvidenceRef, ...]:
        """The cited documents read, with the hash of their content."""
        return self.verdict.evidence

    @property
    def set_aside(self) -> tuple[SetAside, ...]:
        """Numbers not checked, each with its reason (a list marker, a citation marker)."""
        return self.verdict.set_aside

    def to_dict(self) -> dict[str, Any]:
        """The verdict event as JSON-ready data (``json.dumps`` takes it as it is)."""
        data: dict[str, Any] = pydantic_core.to_jsonable_python(self._payload())
        return data

    def to_json(self) -> str:
        """The verdict event's JSON: the bytes the worker would publish, as text."""
        return pydantic_core.to_json(self._payload()).decode("utf-8")

    def _payload(self) -> dict[str, Any]:
        return verdict_payload(self.verdict, self.claim, IN_PROCESS, checked_at=self.checked_at)


@dataclass(frozen=True, slots=True)
class AnswerVerdict:
    """The verdicts on the sentences of one answer, and the answer's own record."""

    answer: AnswerEvent
    claims: tuple[ClaimVerdict, ...]
    """One per sentence, in order; their spans point into the answer text."""
    spans: tuple[tuple[int, int], ...]
    """Where each sentence sits in the answer, its markers included: ``(start, end)``."""
    checked_at: datetime

    @property
    def status(self) -> Status:
        """The worst of the sentences' statuses."""
        return Status(answer_status(self._claim_statuses()))

    @property
    def supported(self) -> bool:
        """True when every sentence is supported (and there is at least one)."""
        return self.status is Status.SUPPORTED

    @property
    def reason(self) -> str:
        """How many sentences got each status, worst first."""
        return answer_reason(Counter(claim.status.value for claim in self.claims))

    def to_dict(self) -> dict[str, Any]:
        """The answer verdict event as JSON-ready data; each sentence's own verdict event is
        ``claims[i].to_dict()``."""
        data: dict[str, Any] = self._event().model_dump(mode="json")
        return data

    def to_json(self) -> str:
        """The answer verdict event's JSON, as the worker publishes it."""
        return self._event().model_dump_json()

    def _event(self) -> AnswerVerdictEvent:
        return answer_verdict_event(
            self.answer, self._claim_statuses(), IN_PROCESS, checked_at=self.checked_at
        )

    def _claim_statuses(self) -> list[ClaimStatus]:
        return [
            ClaimStatus(claim.claim.claim_id, claim.status, Span(start, end))
            for claim, (start, end) in zip(self.claims, self.spans, strict=True)
        ]


class Checker:
    """A reusable checker: the facts of each document are extracted once per content and
    recent verdicts are cached, so checking many claims against the same sources is cheap.

    ``scope`` and ``citation_mode`` are the command line's ``--scope`` and
    ``--citation-mode``. Safe to share between threads.
    """

    def __init__(
        self,
        *,
        scope: Literal["all", "units"] = "all",
        citation_mode: Literal["combined", "single"] = "combined",
        evidence_cache_size: int = 4096,
    ) -> None:
        self._core = _CoreChecker(
            CheckOptions(
                scope=Scope(scope),
                citation_mode=CitationMode(citation_mode),
                evidence_cache_size=evidence_cache_size,
            )
        )
        # The caches are least-recently-used orderings that every check updates.
        self._lock = threading.Lock()

    def check(
        self,
        claim: str,
        sources: Sources,
        *,
        cited: Iterable[str] | None = None,
        retrieved: Iterable[str] | None = None,
        claim_id: str = "claim",
        kb_version: str = DEFAULT_KB_VERSION,
    ) -> ClaimVerdict:
        """Check ``claim`` against ``sources``; ``cited`` and ``retrieved`` default to all
        of the sources' IDs."""
        documents = _documents(sources)
        now = datetime.now(UTC)
        event = ClaimEvent.model_validate(
            {
                "schema_version": 1,
                "claim_id": claim_id,
                "claim_text": claim,
                "cited_doc_ids": list(documents if cited is None else cited),
                "retrieved_doc_ids": list(documents if retrieved is None else retrieved),
                "kb_version": kb_version,
                "produced_at": now,
            }
        )
        core_claim = Claim(
            event.claim_text, tuple(event.cited_doc_ids), frozenset(event.retrieved_doc_ids)
        )
        with self._lock:
            verdict = self._core.check(core_claim, documents)
        return ClaimVerdict(verdict, event, now)

    def check_answer(
        self,
        answer: str,
        sources: Sources,
        citations: Mapping[str, str] | None = None,
        *,
        retrieved: Iterable[str] | None = None,
        uncited: Literal["missing_citation", "retrieved"] = "missing_citation",
        answer_id: str = "answer",
        kb_version: str = DEFAULT_KB_VERSION,
    ) -> AnswerVerdict:
        """Check each sentence of ``answer`` against the documents its citation markers
        name (``[1]``, ``[S01]``, ...; ``citations`` maps a marker's label to a document ID
        where they differ); ``retrieved`` defaults to all of the sources' IDs.

        A sentence with a number and no marker is ``missing_citation``; with
        ``uncited="retrieved"`` it is checked against every retrieved source instead, for
        answers whose sources come beside the text rather than as markers. The check then
        cannot tell which source a sentence rests on: a number found in any of them
        supports it (the verdict is flagged ``cites_retrieved``).
        """
        documents = _documents(sources)
        now = datetime.now(UTC)
        event = AnswerEvent.model_validate(
            {
                "schema_version": 1,
                "event_type": "answer",
                "answer_id": answer_id,
                "answer_text": answer,
                "citations": dict(citations or {}),
                "retrieved_doc_ids": list(documents if retrieved is None else retrieved),
                "kb_version": kb_version,
                "produced_at": now,
            }
        )
        sentences = answer_sentences(
            event, scope=self._core.options.scope, uncited=Uncited(uncited)
        )
        claims: list[ClaimVerdict] = []
        with self._lock:
            for part in sentences:
                verdict = in_answer(self._core.check(part.claim, documents), part.sentence)
                claims.append(ClaimVerdict(verdict, part.event, now))
        spans = tuple((part.sentence.span.start, part.sentence.span.end) for part in sentences)
        return AnswerVerdict(event, tuple(claims), spans, now)


def _documents(sources: Sources) -> dict[str, Document]:
    if isinstance(sources, str):
        raise TypeError("sources: give documents as a mapping of ID to text, or a list of texts")
    items = sources.items() if isinstance(sources, Mapping) else _numbered(sources)
    documents: dict[str, Document] = {}
    for doc_id, text in items:
        if not isinstance(text, str):
            raise TypeError(
                f"sources[{doc_id!r}]: the text must be a str, not {type(text).__name__}"
            )
        documents[doc_id] = Document(doc_id, text)
    return documents


def _numbered(texts: Sequence[str]) -> Iterable[tuple[str, str]]:
    return ((str(number), text) for number, text in enumerate(texts, start=1))


@functools.cache
def default_checker() -> Checker:
    """The checker :func:`check` and :func:`check_answer` share, created on first use."""
    return Checker()


def check(
    claim: str,
    sources: Sources,
    *,
    cited: Iterable[str] | None = None,
    retrieved: Iterable[str] | None = None,
    claim_id: str = "claim",
    kb_version: str = DEFAULT_KB_VERSION,
) -> ClaimVerdict:
    """Check the numbers and dates of ``claim`` against ``sources``; see :class:`Checker`."""
    return default_checker().check(
        claim, sources, cited=cited, retrieved=retrieved, claim_id=claim_id, kb_version=kb_version
    )


def check_answer(
    answer: str,
    sources: Sources,
    citations: Mapping[str, str] | None = None,
    *,
    retrieved: Iterable[str] | None = None,
    uncited: Literal["missing_citation", "retrieved"] = "missing_citation",
    answer_id: str = "answer",
    kb_version: str = DEFAULT_KB_VERSION,
) -> AnswerVerdict:
    """Check each sentence of ``answer`` against the sources its markers cite; see
    :meth:`Checker.check_answer`."""
    return default_checker().check_answer(
        answer,
        sources,
        citations,
        retrieved=retrieved,
        uncited=uncited,
        answer_id=answer_id,
        kb_version=kb_version,
    )
