"""The shipped handbook and sample claims as the stream tests use them."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path

from quantcheck.schemas import AnswerEvent, ClaimEvent
from quantcheck.worker.client.messages import event_message
from quantcheck.worker.stream.batch import BatchSettings
from quantcheck.worker.stream.records import Header, InputRecord

from quantcheck.checker import Document
from quantcheck.errors import StoreUnavailableError
from quantcheck.inputs.claims import ClaimDefaults, ClaimRow, iter_claims
from quantcheck.inputs.documents import iter_documents
from tests.conftest import EXAMPLES

HANDBOOK = EXAMPLES / "field_sensor_handbook.csv"
CLAIMS = EXAMPLES / "rag_numeric_claims.csv"
KB_VERSION = "v1"

EXPECTED_STATUSES = {
    "supported": 7,
    "unsupported_quantity": 5,
    "needs_review_no_quantity": 1,
    "missing_citation": 1,
    "unknown_citation": 1,
    "citation_not_retrieved": 1,
}
"""What the 16 sample claims come to against the handbook."""

CITATION_FAILURES = ("missing_citation", "unknown_citation", "citation_not_retrieved")

MIXED_MARKERS = (
    "The logger records a reading every 15 seconds [1]. On low battery it logs every"
    " 45 seconds [S01]. Calibrate the flow meter at 2.5 L/min, e.g. before each"
    " deployment【2】. Failed uploads are retried after 5 minutes."
)
"""An answer of four sentences citing with ``[1]``, ``[S01]``, ``【2】`` and nothing:
against the handbook (citations 1 = S01, 2 = S02) they are supported,
unsupported_quantity (the handbook says 60 seconds), supported (an abbreviation and a
decimal inside) and missing_citation (a number without a marker)."""

MIXED_MARKERS_STATUSES = (
    "supported",
    "unsupported_quantity",
    "supported",
    "missing_citation",
)

SETTINGS = BatchSettings(
    verdicts_topic="verdicts", dlq_topic="dlq", group="workers", max_message_bytes=10_000
)
"""Batch settings for tests that process batches without a broker."""


def handbook() -> dict[str, Document]:
    """The sample handbook's documents by ID."""
    return {doc.doc_id: doc for doc in iter_documents(HANDBOOK)}


def sample_rows(path: Path = CLAIMS, kb_version: str = KB_VERSION) -> list[ClaimRow]:
    """The sample claims with their expected statuses."""
    defaults = ClaimDefaults(kb_version=kb_version, model="model-a", retriever="bm25")
    return list(iter_claims(path, defaults=defaults))


def sample_claims() -> list[ClaimEvent]:
    """The 16 sample claim events."""
    return [row.event for row in sample_rows()]


def as_records(
    events: Iterable[ClaimEvent | AnswerEvent],
    *,
    topic: str = "claims",
    partition: int = 0,
    headers: tuple[Header, ...] = (),
) -> list[InputRecord]:
    """The events as consecutive messages of one partition, as the worker would read them."""
    records = []
    for offset, event in enumerate(events):
        key, value = event_message(event)
        records.append(
            InputRecord(topic, partition, offset, 1_700_000_000_000 + offset, key, value, headers)
        )
    return records


class Versions:
    """Documents per knowledge-base version, with a log of the lookups made."""

    def __init__(self, versions: dict[str, dict[str, Document]]) -> None:
        self.versions = versions
        self.lookups: list[tuple[str, tuple[str, ...]]] = []
        self.available = True

    def has_version(self, kb_version: str) -> bool:
        self._check()
        return kb_version in self.versions

    def get_documents(self, kb_version: str, doc_ids: Collection[str]) -> dict[str, Document]:
        self._check()
        self.lookups.append((kb_version, tuple(doc_ids)))
        held = self.versions.get(kb_version, {})
        return {doc_id: held[doc_id] for doc_id in doc_ids if doc_id in held}

    def _check(self) -> None:
        if not self.available:
            raise StoreUnavailableError("store is restarting")
