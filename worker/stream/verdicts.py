"""Verdict events: the checker's answer plus what is needed to reproduce it, as bytes.

Shared by the worker and by replays, which pass the original ``checked_at`` or their own.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

import pydantic_core
from quantcheck.schemas import ClaimEvent, SourceCoordinates, VerdictEvent
from quantcheck.worker.stream.records import InputRecord, OutputRecord

from quantcheck.checker import CHECKER_VERSION, FactCheck, Verdict
from quantcheck.checker.model import Binding, sha256_text
from quantcheck.quantities.facts import Mention, format_decimal


def source_of(record: InputRecord) -> SourceCoordinates:
    """Where a claim message was read."""
    return SourceCoordinates(
        topic=record.topic,
        partition=record.partition,
        offset=record.offset,
        timestamp=max(record.timestamp, -1),
    )


def verdict_payload(
    verdict: Verdict,
    claim: ClaimEvent,
    source: SourceCoordinates,
    *,
    checked_at: datetime,
    checker_version: str = CHECKER_VERSION,
) -> dict[str, Any]:
    """The verdict event for ``claim`` as plain data, keys in the contract's field order."""
    return {
        "schema_version": 1,
        "claim_id": claim.claim_id,
        "answer_id": claim.answer_id,
        "status": verdict.status.value,
        "reason": verdict.reason,
        "facts": [fact_payload(check) for check in verdict.facts],
        "flags": list(verdict.flags),
        "set_aside": [
            {
                "text": number.text,
                "span": {"start": number.span.start, "end": number.span.end},
                "reason": number.reason,
            }
            for number in verdict.set_aside
        ],
        "kb_version": claim.kb_version,
        "cited_doc_ids": list(claim.cited_doc_ids),
        "evidence_documents": [
            {"doc_id": ref.doc_id, "sha256": ref.sha256} for ref in verdict.evidence
        ],
        "model": claim.model,
        "retriever": claim.retriever,
        "prompt_sha256": sha256_text(claim.prompt),
        "checker_version": checker_version,
        "source": {
            "topic": source.topic,
            "partition": source.partition,
            "offset": source.offset,
            "timestamp": source.timestamp,
        },
        "checked_at": checked_at,
    }


def verdict_event(
    verdict: Verdict,
    claim: ClaimEvent,
    source: SourceCoordinates,
    *,
    checked_at: datetime,
    checker_version: str = CHECKER_VERSION,
) -> VerdictEvent:
    """The verdict event for ``claim``, validated against the contract."""
    payload = verdict_payload(
        verdict, claim, source, checked_at=checked_at, checker_version=checker_version
    )
    return VerdictEvent.model_validate(payload)


def verdict_json(
    verdict: Verdict,
    claim: ClaimEvent,
    source: SourceCoordinates,
    *,
    checked_at: datetime,
    checker_version: str = CHECKER_VERSION,
) -> bytes:
    """The verdict event's JSON, the bytes ``dump_verdict(verdict_event(...))`` gives.

    The worker's path: validating the event only to serialize it again cost about a
    third of the time spent per claim, and every value here comes from the checker's
    typed model or from a claim event validated when it was read. The tests hold the
    two paths to the same bytes.
    """
    payload = verdict_payload(
        verdict, claim, source, checked_at=checked_at, checker_version=checker_version
    )
    return pydantic_core.to_json(payload)


def fact_payload(check: FactCheck) -> dict[str, Any]:
    """One checked claim fact in the verdict's terms, as plain data."""
    mention = check.mention
    fact = mention.fact
    evidence: dict[str, Any] | None = None
    if check.evidence is not None and check.evidence_doc_id is not None:
        evidence = {
            "doc_id": check.evidence_doc_id,
            "span": _span(check.evidence),
            "text": check.evidence.text,
            "label": check.evidence.fact.label(),
        }
    return {
        "label": fact.label(),
        "category": fact.category,
        "relation": fact.relation.value,
        "value": _value(fact.value),
        "upper": None if fact.upper is None else _value(fact.upper),
        "text": mention.text,
        "span": _span(mention),
        "negated": mention.negated,
        "approximate": mention.approximate,
        "matched": check.matched,
        "match_kind": None if check.match_kind is None else check.match_kind.value,
        "evidence": evidence,
        "derivation": check.derivation,
        "difference": None if check.difference is None else check.difference.value,
        "negation_conflict": check.negation_conflict,
        "problem": mention.problem,
        "period": None if mention.period is None else mention.period.label(),
        "binding": _binding(check.binding),
    }


def _binding(binding: Binding | None) -> dict[str, Any] | None:
    if binding is None:
        return None
    rival = binding.rival
    return {
        "claim": sorted(binding.claimed),
        "evidence": sorted(binding.found),
        "rival": None if rival is None else rival.fact.label(),
        "rival_words": list(binding.naming) if rival is not None else [],
    }


def verdict_record(value: bytes, *, key: str, topic: str) -> OutputRecord:
    """A verdict's JSON as a record keyed by ``key``: the claim ID (the answer ID for an
    answer record)."""
    return OutputRecord(topic=topic, key=key.encode("utf-8"), value=value, headers=())


def _span(mention: Mention) -> dict[str, int]:
    return {"start": mention.span.start, "end": mention.span.end}


def _value(value: Decimal | str) -> str:
    return value if isinstance(value, str) else format_decimal(value)
