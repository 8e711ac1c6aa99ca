"""Delivered batches update the metrics and write one summary line, and no claim text."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import structlog
from quantcheck.worker.observability.logging import configure_logging
from quantcheck.worker.observability.metrics import Metrics
from quantcheck.worker.stream.batch import BatchProcessor, BatchResult
from quantcheck.worker.stream.records import InputRecord
from quantcheck.worker.stream.reporting import BatchReporter
from structlog.testing import capture_logs

from quantcheck.checker import Checker
from tests.answers.samples import answer
from tests.schemas.samples import claim_bytes
from tests.stream.samples import (
    EXPECTED_STATUSES,
    KB_VERSION,
    MIXED_MARKERS,
    SETTINGS,
    Versions,
    as_records,
    handbook,
    sample_claims,
)

COMMITTED_AT = datetime(2024, 6, 1, 12, 0, 3, tzinfo=UTC)
MALFORMED = InputRecord("claims", 1, 0, 0, b"bad", b"{not json")


@pytest.fixture(autouse=True)
def reset_logging() -> Iterator[None]:
    yield
    structlog.reset_defaults()


def batch(*extra: InputRecord) -> BatchResult:
    claims = [
        c.model_copy(update={"produced_at": COMMITTED_AT - timedelta(seconds=2)})
        for c in sample_claims()
    ]
    records = [*as_records(claims), *extra]
    processor = BatchProcessor(Checker(), Versions({KB_VERSION: handbook()}), SETTINGS)
    return processor.process(records, checked_at=COMMITTED_AT)


def sample(metrics: Metrics, name: str, **labels: str) -> float:
    value = metrics.registry.get_sample_value(name, labels)
    assert value is not None, (name, labels)
    return value


def test_metrics_count_every_verdict_and_dead_letter() -> None:
    metrics = Metrics()
    BatchReporter(metrics).delivered(batch(MALFORMED), seconds=0.5, committed_at=COMMITTED_AT)
    for status, count in EXPECTED_STATUSES.items():
        labels = {"model": "model-a", "retriever": "bm25", "kb_version": KB_VERSION}
        assert sample(metrics, "quantcheck_verdicts_total", status=status, **labels) == count
    for kind in ("missing_citation", "unknown_citation", "citation_not_retrieved", "invalid_json"):
        assert sample(metrics, "quantcheck_dead_letters_total", kind=kind) == 1
    assert sample(metrics, "quantcheck_batch_size_count") == 1
    assert sample(metrics, "quantcheck_batch_size_sum") == 17
    assert sample(metrics, "quantcheck_end_to_end_latency_seconds_count") == 16
    assert sample(metrics, "quantcheck_end_to_end_latency_seconds_sum") == pytest.approx(32)
    assert sample(metrics, "quantcheck_facts_total", category="time_seconds", matched="true") >= 1


def test_one_summary_line_per_batch_and_claim_lines_carry_coordinates() -> None:
    configure_logging(log_format="json", level="debug")
    result = batch(MALFORMED)
    with capture_logs() as logs:
        BatchReporter(Metrics()).delivered(result, seconds=0.25, committed_at=COMMITTED_AT)
    (summary,) = [line for line in logs if line["event"] == "batch committed"]
    assert summary["log_level"] == "info"
    assert summary["records"] == 17
    assert summary["verdicts"] == 16
    assert summary["dead_letters"] == 4
    assert summary["statuses"] == dict(sorted(EXPECTED_STATUSES.items()))
    assert summary["duration_ms"] == 250.0
    checked = [line for line in logs if line["event"] == "claim checked"]
    assert len(checked) == 16
    lettered = [line for line in logs if line["event"] == "claim dead-lettered"]
    assert len(lettered) == 4
    for line in [*checked, *lettered]:
        assert {"claim_id", "topic", "partition", "offset"} <= line.keys()
    assert {line["claim_id"] for line in lettered} == {"C12", "C13", "C14", None}


def test_claim_text_and_prompt_are_only_logged_when_asked_for() -> None:
    configure_logging(log_format="json", level="debug")
    texts = [c.claim_text for c in sample_claims()] + [c.prompt for c in sample_claims()]
    result = batch()
    with capture_logs() as quiet:
        BatchReporter(Metrics()).delivered(result, seconds=0.1, committed_at=COMMITTED_AT)
    rendered = repr(quiet)
    assert not [text for text in texts if text in rendered]
    with capture_logs() as chatty:
        BatchReporter(Metrics(), log_claim_text=True).delivered(
            result, seconds=0.1, committed_at=COMMITTED_AT
        )
    lines = {line["claim_id"]: line for line in chatty if line["event"] == "claim checked"}
    assert lines["C01"]["claim_text"] == sample_claims()[0].claim_text
    assert lines["C01"]["prompt"] == sample_claims()[0].prompt


def test_per_claim_lines_stay_below_the_default_level() -> None:
    configure_logging(log_format="json", level="info")
    with capture_logs() as logs:
        BatchReporter(Metrics()).delivered(batch(), seconds=0.1, committed_at=COMMITTED_AT)
    assert sorted({line["event"] for line in logs}) == ["batch committed", "claim dead-lettered"]


def test_a_dead_letter_kind_without_a_metric_series_does_not_stop_reporting() -> None:
    metrics = Metrics()
    newer = InputRecord("claims", 2, 0, 0, b"k", claim_bytes(schema_version=2))
    BatchReporter(metrics).delivered(batch(newer), seconds=0.1, committed_at=COMMITTED_AT)
    assert sample(metrics, "quantcheck_batch_size_count") == 1
    labels = {"model": "model-a", "retriever": "bm25", "kb_version": KB_VERSION}
    assert sample(metrics, "quantcheck_verdicts_total", status="supported", **labels) == 7


def test_answer_sentences_count_as_claims_and_the_answer_gets_one_line() -> None:
    configure_logging(log_format="json", level="debug")
    event = answer(MIXED_MARKERS, produced_at=COMMITTED_AT - timedelta(seconds=1))
    unknown = answer(MIXED_MARKERS, answer_id="A02", kb_version="v9")
    records = as_records([event, unknown])
    processor = BatchProcessor(Checker(), Versions({KB_VERSION: handbook()}), SETTINGS)
    result = processor.process(records, checked_at=COMMITTED_AT)
    metrics = Metrics()
    with capture_logs() as logs:
        BatchReporter(metrics).delivered(result, seconds=0.1, committed_at=COMMITTED_AT)
    labels = {"model": "unknown", "retriever": "unknown", "kb_version": KB_VERSION}
    for status, count in {"supported": 2, "unsupported_quantity": 1, "missing_citation": 1}.items():
        assert sample(metrics, "quantcheck_verdicts_total", status=status, **labels) == count
    for kind in ("missing_citation", "unknown_kb_version"):
        assert sample(metrics, "quantcheck_dead_letters_total", kind=kind) == 1
    assert sample(metrics, "quantcheck_batch_size_sum") == 2
    assert sample(metrics, "quantcheck_end_to_end_latency_seconds_count") == 4
    assert sample(metrics, "quantcheck_end_to_end_latency_seconds_sum") == pytest.approx(4)
    (summary,) = [line for line in logs if line["event"] == "batch committed"]
    assert (summary["records"], summary["verdicts"], summary["answers"]) == (2, 4, 1)
    assert summary["dead_letters"] == 2
    (checked,) = [line for line in logs if line["event"] == "answer checked"]
    assert (checked["answer_id"], checked["status"], checked["claims"]) == (
        "A01",
        "unsupported_quantity",
        4,
    )
    lettered = {
        (line["claim_id"], line.get("answer_id"))
        for line in logs
        if line["event"] == "claim dead-lettered"
    }
    assert lettered == {("A01:4", "A01"), (None, "A02")}
