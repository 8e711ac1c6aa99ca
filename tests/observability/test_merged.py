"""The container's merged /metrics: sums across processes, gauges per process, and counts
that never go down when a process dies or is replaced."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families
from quantcheck.worker.observability.merged import MergedMetrics, Scrape
from quantcheck.worker.observability.metrics import Metrics


def child(verdicts: int, *, lag: int) -> str:
    metrics = Metrics()
    for _ in range(verdicts):
        metrics.record_verdict("supported", "m", "r", "v1", facts=(), check_seconds=0.001)
    metrics.set_lag({0: lag})
    return metrics.render().decode()


def samples(text: bytes) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found = {}
    for family in text_string_to_metric_families(text.decode()):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


SUPPORTED = (
    "quantcheck_verdicts_total",
    (("kb_version", "v1"), ("model", "m"), ("retriever", "r"), ("status", "supported")),
)


def test_counters_are_summed_and_gauges_kept_per_process() -> None:
    served = [Scrape(0, 1, child(3, lag=5)), Scrape(1, 1, child(4, lag=7))]
    merged = samples(MergedMetrics(lambda: served).render())
    assert merged[SUPPORTED] == 7
    lags = {k: v for k, v in merged.items() if k[0] == "quantcheck_consumer_lag"}
    assert sorted(lags.values()) == [5, 7]
    assert {dict(k[1])["process"] for k in lags} == {"0", "1"}
    ups = [k for k in merged if k[0] == "quantcheck_worker_up"]
    assert len(ups) == 2


def test_a_dead_or_replaced_process_keeps_its_counts() -> None:
    served = [Scrape(0, 1, child(3, lag=0)), Scrape(1, 1, child(4, lag=0))]
    merged = MergedMetrics(lambda: served)
    assert samples(merged.render())[SUPPORTED] == 7
    served = [Scrape(1, 1, child(4, lag=0))]  # process 0 is down
    assert samples(merged.render())[SUPPORTED] == 7
    served = [Scrape(0, 2, child(1, lag=0)), Scrape(1, 1, child(6, lag=0))]  # 0 restarted
    assert samples(merged.render())[SUPPORTED] == 3 + 1 + 6
