"""The worker's metrics: names, pre-initialised series, label capping, lag and buckets."""

from __future__ import annotations

import threading

import pytest
from prometheus_client.parser import text_string_to_metric_families
from quantcheck.worker.observability.metrics import (
    BATCH_SIZE_BUCKETS,
    DEAD_LETTER_KINDS,
    LATENCY_BUCKETS,
    OTHER,
    UNKNOWN,
    Metrics,
    SeriesCap,
)

from quantcheck.checker.model import CITATION_FAILURES, Status


def value(metrics: Metrics, name: str, **labels: str) -> float | None:
    return metrics.registry.get_sample_value(name, labels)


def verdicts(metrics: Metrics, status: str, model: str, retriever: str, kb: str) -> float | None:
    labels = {"status": status, "model": model, "retriever": retriever, "kb_version": kb}
    return value(metrics, "quantcheck_verdicts_total", **labels)


def series(metrics: Metrics, name: str) -> list[tuple[dict[str, str], float]]:
    """Every sample of ``name`` as exported: its labels and value."""
    return [
        (sample.labels, sample.value)
        for family in text_string_to_metric_families(metrics.render().decode())
        for sample in family.samples
        if sample.name == name
    ]


def test_every_status_starts_at_zero_for_unknown_labels() -> None:
    metrics = Metrics()
    for status in Status:
        assert verdicts(metrics, status.value, UNKNOWN, UNKNOWN, UNKNOWN) == 0.0


def test_first_sighting_of_a_combination_creates_every_status_at_zero() -> None:
    metrics = Metrics()
    metrics.record_verdict(Status.SUPPORTED, "m1", "bm25", "kb-7", facts=[], check_seconds=0.002)
    assert verdicts(metrics, "supported", "m1", "bm25", "kb-7") == 1.0
    for status in Status:
        if status is not Status.SUPPORTED:
            assert verdicts(metrics, status.value, "m1", "bm25", "kb-7") == 0.0


def test_status_may_be_given_as_its_string_value() -> None:
    metrics = Metrics()
    metrics.record_verdict("unsupported_quantity", "m", "r", "kb", facts=[], check_seconds=0.001)
    assert verdicts(metrics, "unsupported_quantity", "m", "r", "kb") == 1.0


def test_unknown_status_is_rejected_and_counts_nothing() -> None:
    metrics = Metrics()
    with pytest.raises(ValueError, match="unknown verdict status"):
        metrics.record_verdict(
            "bogus", "m", "r", "kb", facts=[("percent", True)], check_seconds=0.001
        )
    assert value(metrics, "quantcheck_check_duration_seconds_count") == 0.0
    assert value(metrics, "quantcheck_facts_total", category="percent", matched="true") is None


def test_empty_labels_are_reported_as_unknown() -> None:
    metrics = Metrics()
    metrics.record_verdict(Status.SUPPORTED, "", "", "", facts=[("", False)], check_seconds=0.001)
    assert verdicts(metrics, "supported", UNKNOWN, UNKNOWN, UNKNOWN) == 1.0
    assert value(metrics, "quantcheck_facts_total", category=UNKNOWN, matched="false") == 1.0


def test_label_combinations_beyond_the_limit_count_as_other() -> None:
    metrics = Metrics(label_value_limit=2)
    for model in ("a", "b", "c", "d"):
        metrics.record_verdict(Status.SUPPORTED, model, "r", "kb", facts=[], check_seconds=0.001)
    assert verdicts(metrics, "supported", "a", "r", "kb") == 1.0
    assert verdicts(metrics, "supported", "b", "r", "kb") == 1.0
    assert verdicts(metrics, "supported", OTHER, OTHER, OTHER) == 2.0
    assert verdicts(metrics, "supported", "c", "r", "kb") is None
    assert verdicts(metrics, "needs_review_negation", OTHER, OTHER, OTHER) == 0.0


def test_the_bound_is_on_combinations_not_on_each_label() -> None:
    """Four labels of 50 values each could make millions of series; combinations are capped."""
    metrics = Metrics(label_value_limit=3)
    for model in ("m1", "m2"):
        for kb in ("kb1", "kb2"):
            metrics.record_verdict(Status.SUPPORTED, model, "r", kb, facts=[], check_seconds=0.001)
    reported = {
        (labels["model"], labels["kb_version"])
        for labels, _ in series(metrics, "quantcheck_verdicts_total")
        if labels["status"] == "supported" and labels["model"] != UNKNOWN
    }
    assert reported == {("m1", "kb1"), ("m1", "kb2"), ("m2", "kb1"), (OTHER, OTHER)}


def test_a_new_kb_version_appears_once_the_old_ones_go_quiet() -> None:
    clock = [0.0]
    metrics = Metrics(label_value_limit=1, label_idle_s=60, clock=lambda: clock[0])
    metrics.record_verdict(Status.SUPPORTED, "m", "r", "v1", facts=[], check_seconds=0.001)
    clock[0] = 30
    metrics.record_verdict(Status.SUPPORTED, "m", "r", "v2", facts=[], check_seconds=0.001)
    assert verdicts(metrics, "supported", OTHER, OTHER, OTHER) == 1.0, "v1 is still in use"
    clock[0] = 100
    metrics.record_verdict(Status.SUPPORTED, "m", "r", "v2", facts=[], check_seconds=0.001)
    assert verdicts(metrics, "supported", "m", "r", "v2") == 1.0
    assert verdicts(metrics, "supported", "m", "r", "v1") is None, "v1's series was removed"


def test_a_combination_in_use_is_kept_however_old() -> None:
    clock = [0.0]
    metrics = Metrics(label_value_limit=1, label_idle_s=60, clock=lambda: clock[0])
    for minute in range(10):
        clock[0] = minute * 50.0
        metrics.record_verdict(Status.SUPPORTED, "m", "r", "v1", facts=[], check_seconds=0.001)
        metrics.record_verdict(Status.SUPPORTED, "m", "r", "v2", facts=[], check_seconds=0.001)
    assert verdicts(metrics, "supported", "m", "r", "v1") == 10.0
    assert verdicts(metrics, "supported", OTHER, OTHER, OTHER) == 10.0


def test_fact_categories_are_counted_capped_and_start_both_outcomes() -> None:
    metrics = Metrics(label_value_limit=2)
    facts = [("percent", True), ("percent", True), ("time_seconds", False), ("mass_kg", True)]
    metrics.record_verdict(
        Status.UNSUPPORTED_QUANTITY, "m", "r", "kb", facts=facts, check_seconds=0.001
    )

    def facts_total(category: str, matched: str) -> float | None:
        return value(metrics, "quantcheck_facts_total", category=category, matched=matched)

    assert facts_total("percent", "true") == 2.0
    assert facts_total("percent", "false") == 0.0
    assert facts_total("time_seconds", "false") == 1.0
    assert facts_total("time_seconds", "true") == 0.0
    assert facts_total(OTHER, "true") == 1.0
    assert facts_total("mass_kg", "true") is None


def test_series_cap_refuses_a_zero_limit_and_holds_under_concurrency() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        SeriesCap(0, on_drop=lambda key: None)
    cap = SeriesCap(10, on_drop=lambda key: None)
    start = threading.Barrier(8)
    kept: list[set[tuple[str, ...]]] = [set() for _ in range(8)]

    def worker(index: int) -> None:
        start.wait()
        for n in range(200):
            result = cap(f"value-{index}-{n}", "x")
            if result != (OTHER, OTHER):
                kept[index].add(result)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set().union(*kept)) == 10


def test_dead_letter_kinds_start_at_zero_and_count() -> None:
    metrics = Metrics()
    for kind in DEAD_LETTER_KINDS:
        assert value(metrics, "quantcheck_dead_letters_total", kind=kind) == 0.0
    metrics.record_dead_letter("invalid_json")
    metrics.record_dead_letter(Status.UNKNOWN_CITATION)
    assert value(metrics, "quantcheck_dead_letters_total", kind="invalid_json") == 1.0
    assert value(metrics, "quantcheck_dead_letters_total", kind="unknown_citation") == 1.0
    with pytest.raises(ValueError, match="unknown dead-letter kind"):
        metrics.record_dead_letter("claim-123")


def test_every_citation_failure_status_is_a_dead_letter_kind() -> None:
    assert {status.value for status in CITATION_FAILURES} <= set(DEAD_LETTER_KINDS)


def test_transactions_store_errors_and_gauges() -> None:
    metrics = Metrics(version="1.2.3", checker_version="c9")
    assert value(metrics, "quantcheck_transactions_total", outcome="committed") == 0.0
    assert value(metrics, "quantcheck_transactions_total", outcome="aborted") == 0.0
    metrics.record_transaction("committed")
    metrics.record_transaction("aborted")
    metrics.record_transaction("committed")
    assert value(metrics, "quantcheck_transactions_total", outcome="committed") == 2.0
    with pytest.raises(ValueError, match="unknown transaction outcome"):
        metrics.record_transaction("maybe")

    assert value(metrics, "quantcheck_store_errors_total") == 0.0
    metrics.record_store_error()
    assert value(metrics, "quantcheck_store_errors_total") == 1.0

    assert value(metrics, "quantcheck_build_info", version="1.2.3", checker_version="c9") == 1.0
    assert value(metrics, "quantcheck_worker_up") == 1.0
    assert value(metrics, "quantcheck_degraded") == 0.0
    metrics.set_degraded(True)
    assert value(metrics, "quantcheck_degraded") == 1.0
    metrics.set_degraded(False)
    assert value(metrics, "quantcheck_degraded") == 0.0


def test_set_lag_replaces_the_assigned_partitions() -> None:
    metrics = Metrics()
    metrics.set_lag({0: 5, 1: 7, 2: 0})
    assert value(metrics, "quantcheck_consumer_lag", partition="1") == 7.0
    metrics.set_lag({1: 3, 3: -2})
    assert value(metrics, "quantcheck_consumer_lag", partition="0") is None
    assert value(metrics, "quantcheck_consumer_lag", partition="2") is None
    assert value(metrics, "quantcheck_consumer_lag", partition="1") == 3.0
    assert value(metrics, "quantcheck_consumer_lag", partition="3") == 0.0
    metrics.set_lag({})
    assert b"quantcheck_consumer_lag{" not in metrics.render()


def test_latency_buckets_span_a_millisecond_to_minutes() -> None:
    assert LATENCY_BUCKETS[0] == 0.001
    assert LATENCY_BUCKETS[-1] >= 300
    assert list(LATENCY_BUCKETS) == sorted(set(LATENCY_BUCKETS))
    metrics = Metrics()
    metrics.observe_end_to_end(0.0004)
    metrics.observe_end_to_end(0.3)
    metrics.observe_end_to_end(400)
    metrics.observe_end_to_end(-0.5)

    def bucket(le: str) -> float | None:
        return value(metrics, "quantcheck_end_to_end_latency_seconds_bucket", le=le)

    assert bucket("0.001") == 2.0
    assert bucket("0.25") == 2.0
    assert bucket("0.5") == 3.0
    assert bucket("600.0") == 4.0
    assert bucket("+Inf") == 4.0
    assert value(metrics, "quantcheck_end_to_end_latency_seconds_sum") == pytest.approx(400.3004)

    metrics.record_verdict(Status.SUPPORTED, "m", "r", "kb", facts=[], check_seconds=0.003)
    assert value(metrics, "quantcheck_check_duration_seconds_bucket", le="0.0025") == 0.0
    assert value(metrics, "quantcheck_check_duration_seconds_bucket", le="0.005") == 1.0


def test_batch_size_histogram() -> None:
    assert BATCH_SIZE_BUCKETS[0] == 1
    assert 500 in BATCH_SIZE_BUCKETS
    metrics = Metrics()
    metrics.record_batch(1)
    metrics.record_batch(500)
    metrics.record_batch(501)
    assert value(metrics, "quantcheck_batch_size_bucket", le="1.0") == 1.0
    assert value(metrics, "quantcheck_batch_size_bucket", le="500.0") == 2.0
    assert value(metrics, "quantcheck_batch_size_count") == 3.0
    assert value(metrics, "quantcheck_batch_size_sum") == 1002.0


def test_instances_are_isolated() -> None:
    first, second = Metrics(), Metrics()
    first.record_dead_letter("oversize")
    assert value(second, "quantcheck_dead_letters_total", kind="oversize") == 0.0


def test_render_is_valid_exposition_text_without_created_series() -> None:
    metrics = Metrics()
    metrics.record_verdict(
        Status.SUPPORTED, "m", "r", "kb", facts=[("percent", True)], check_seconds=0.001
    )
    text = metrics.render().decode()
    families = {family.name: family for family in text_string_to_metric_families(text)}
    assert {
        "quantcheck_verdicts",
        "quantcheck_dead_letters",
        "quantcheck_facts",
        "quantcheck_check_duration_seconds",
        "quantcheck_end_to_end_latency_seconds",
        "quantcheck_batch_size",
        "quantcheck_transactions",
        "quantcheck_store_errors",
        "quantcheck_consumer_lag",
        "quantcheck_build_info",
        "quantcheck_worker_up",
        "quantcheck_degraded",
    } <= families.keys()
    assert families["quantcheck_verdicts"].type == "counter"
    assert families["quantcheck_end_to_end_latency_seconds"].type == "histogram"
    assert "_created" not in text
