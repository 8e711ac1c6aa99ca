"""Valid sample events that the tests vary one field at a time."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from quantcheck.schemas import (
    EvidenceDocument,
    EvidenceMatch,
    FactResult,
    SourceCoordinates,
    Span,
    VerdictEvent,
)

DROP = object()
"""An override value that removes the field."""

EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def claim_payload(**overrides: Any) -> dict[str, Any]:
    """A valid claim as a JSON-ready dict, with ``overrides`` applied."""
    payload: dict[str, Any] = {
        "schema_version": 1,
        "claim_id": "C01",
        "answer_id": "A01",
        "claim_text": "During normal operation, the logger records a reading every 15 seconds.",
        "cited_doc_ids": ["S01"],
        "retrieved_doc_ids": ["S01", "S03"],
        "kb_version": "handbook-2024-06",
        "prompt": "How often should the logger record readings normally?",
        "model": "example-model",
        "retriever": "bm25",
        "produced_at": "2024-06-01T12:00:00Z",
        "attributes": {"tenant": "field-ops", "attempt": 1, "score": 0.5, "cached": False},
    }
    for name, value in overrides.items():
        if value is DROP:
            payload.pop(name, None)
        else:
            payload[name] = value
    return payload


def answer_payload(**overrides: Any) -> dict[str, Any]:
    """A valid answer as a JSON-ready dict, with ``overrides`` applied."""
    payload: dict[str, Any] = {
        "schema_version": 1,
        "event_type": "answer",
        "answer_id": "A01",
        "answer_text": "The logger records a reading every 15 seconds [1]. Calibrate at"
        " 2.5 L/min【2】.",
        "citations": {"1": "S01", "2": "S02"},
        "retrieved_doc_ids": ["S01", "S02"],
        "kb_version": "handbook-2024-06",
        "prompt": "How often does the logger record readings?",
        "model": "example-model",
        "retriever": "bm25",
        "produced_at": "2024-06-01T12:00:00Z",
        "attributes": {"tenant": "field-ops"},
    }
    for name, value in overrides.items():
        if value is DROP:
            payload.pop(name, None)
        else:
            payload[name] = value
    return payload


def claim_bytes(**overrides: Any) -> bytes:
    """A claim message value: the sample claim as UTF-8 JSON."""
    return json.dumps(claim_payload(**overrides), ensure_ascii=False).encode("utf-8")


def fact(**overrides: Any) -> FactResult:
    """A matched fact of the sample claim."""
    values: dict[str, Any] = {
        "label": "time_seconds=15",
        "category": "time_seconds",
        "relation": "=",
        "value": "15",
        "text": "15 seconds",
        "span": Span(start=60, end=70),
        "negated": False,
        "approximate": False,
        "matched": True,
        "match_kind": "exact",
        "evidence": EvidenceMatch(
            doc_id="S01", span=Span(start=27, end=37), text="15 seconds", label="time_seconds=15"
        ),
    }
    values.update(overrides)
    return FactResult(**values)


def verdict(**overrides: Any) -> VerdictEvent:
    """The verdict on the sample claim."""
    values: dict[str, Any] = {
        "claim_id": "C01",
        "answer_id": "A01",
        "status": "supported",
        "reason": "every fact is supported by a cited document",
        "facts": [fact()],
        "flags": [],
        "kb_version": "handbook-2024-06",
        "cited_doc_ids": ["S01"],
        "evidence_documents": [EvidenceDocument(doc_id="S01", sha256="ab" * 32)],
        "model": "example-model",
        "retriever": "bm25",
        "prompt_sha256": EMPTY_SHA256,
        "checker_version": "1",
        "source": SourceCoordinates(
            topic="claims", partition=0, offset=42, timestamp=1717243200000
        ),
        "checked_at": datetime(2024, 6, 1, 12, 0, 1, 250000, tzinfo=UTC),
    }
    values.update(overrides)
    return VerdictEvent(**values)
