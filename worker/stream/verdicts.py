"""Verdict events: the checker's answer plus what is needed to reproduce it, as bytes.

Shared by the worker and by replays, which pass the original ``checked_at`` or their own.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from schemas import (
    ClaimEvent,
    EvidenceDocument,
    EvidenceMatch,
    FactResult,
    SourceCoordinates,
    Span,
    VerdictEvent,
    dump_verdict,
)
from worker.checker import CHECKER_VERSION, FactCheck, Verdict
from worker.checker.model import sha256_text
from worker.quantities.facts import Mention, format_decimal
from worker.stream.records import InputRecord, OutputRecord


def source_of(record: InputRecord) -> SourceCoordinates:
    """Where a claim message was read."""
    return SourceCoordinates(
        topic=record.topic,
        partition=record.partition,
        offset=record.offset,
        timestamp=max(record.timestamp, -1),
    )


def verdict_event(
    verdict: Verdict,
    claim: ClaimEvent,
    source: SourceCoordinates,
    *,
    checked_at: datetime,
    checker_version: str = CHECKER_VERSION,
) -> VerdictEvent:
    """The verdict event for ``claim``; ``checked_at`` must carry a UTC offset."""
    return VerdictEvent(
        claim_id=claim.claim_id,
        answer_id=claim.answer_id,
        status=verdict.status.value,
        reason=verdict.reason,
        facts=[fact_result(check) for check in verdict.facts],
        flags=list(verdict.flags),
        kb_version=claim.kb_version,
        cited_doc_ids=list(claim.cited_doc_ids),
        evidence_documents=[
            EvidenceDocument(doc_id=ref.doc_id, sha256=ref.sha256) for ref in verdict.evidence
        ],
        model=claim.model,
        retriever=claim.retriever,
        prompt_sha256=sha256_text(claim.prompt),
        checker_version=checker_version,
        source=source,
        checked_at=checked_at,
    )


def fact_result(check: FactCheck) -> FactResult:
    """One checked claim fact in the verdict's terms."""
    mention = check.mention
    fact = mention.fact
    evidence: EvidenceMatch | None = None
    if check.evidence is not None and check.evidence_doc_id is not None:
        evidence = EvidenceMatch(
            doc_id=check.evidence_doc_id,
            span=_span(check.evidence),
            text=check.evidence.text,
            label=check.evidence.fact.label(),
        )
    return FactResult(
        label=fact.label(),
        category=fact.category,
        relation=fact.relation.value,
        value=_value(fact.value),
        upper=None if fact.upper is None else _value(fact.upper),
        text=mention.text,
        span=_span(mention),
        negated=mention.negated,
        approximate=mention.approximate,
        matched=check.matched,
        match_kind=None if check.match_kind is None else check.match_kind.value,
        evidence=evidence,
        negation_conflict=check.negation_conflict,
        problem=mention.problem,
    )


def verdict_record(event: VerdictEvent, *, topic: str) -> OutputRecord:
    """The verdict as a record keyed by its claim ID."""
    return OutputRecord(
        topic=topic, key=event.claim_id.encode("utf-8"), value=dump_verdict(event), headers=()
    )


def _span(mention: Mention) -> Span:
    return Span(start=mention.span.start, end=mention.span.end)


def _value(value: Decimal | str) -> str:
    return value if isinstance(value, str) else format_decimal(value)
