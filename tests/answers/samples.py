"""Answer events for the answer tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from quantcheck.schemas import AnswerEvent

from quantcheck.quantities.extract import extract

FOUR_SENTENCES = (
    "Here is what the handbook says. The logger records a reading every 15 seconds [1]."
    " On low battery it logs every 45 seconds [1]. Calibrate the flow meter at"
    " 2.5 L/min, e.g. before each deployment【2】."
)
"""Four sentences: no marker and no quantity, then supported, unsupported and supported
against the sample handbook."""


def answer(text: str = FOUR_SENTENCES, **overrides: Any) -> AnswerEvent:
    """A valid answer event with ``text``, ``overrides`` applied."""
    values: dict[str, Any] = {
        "schema_version": 1,
        "event_type": "answer",
        "answer_id": "A01",
        "answer_text": text,
        "citations": {"1": "S01", "2": "S02"},
        "retrieved_doc_ids": ["S01", "S02"],
        "kb_version": "v1",
        "produced_at": datetime(2024, 6, 1, 12, tzinfo=UTC),
    }
    values.update(overrides)
    return AnswerEvent(**values)


def has_quantity(text: str) -> bool:
    """The worker's test: the extractor finds a quantity or date."""
    return bool(extract(text).mentions)
