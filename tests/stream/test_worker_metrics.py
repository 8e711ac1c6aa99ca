"""The worker's /metrics agree with what it published; /healthz, /readyz; SIGTERM exits 0."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from quantcheck.schemas import read_dead_letter_headers

from quantcheck.cli.main import main
from tests.stream.samples import CLAIMS
from tests.stream.workers import (
    WorkerProcess,
    free_port,
    http_get,
    load_handbook,
    make_topics,
    scrape,
    totals,
    wait_until,
)
from tests.support.kafka import KafkaBroker, OutgoingRecord, consume_all, produce

pytestmark = pytest.mark.integration

Names = Callable[[str], str]


def test_metrics_match_the_published_verdicts_and_sigterm_exits_promptly(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
    capsys: pytest.CaptureFixture[str],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    argv = ["publish", "--bootstrap-servers", bootstrap, "--topic", topics.claims]
    assert main([*argv, "--kb-version", "v1", str(CLAIMS)]) == 0
    capsys.readouterr()
    produce(bootstrap, topics.claims, [OutgoingRecord(value=b"not json", key=b"junk")])
    port = free_port()
    worker = workers(
        kafka_broker,
        topics,
        store_url,
        group=unique_topic("group"),
        instance="metrics-1",
        extra=("--metrics-port", str(port), "--metrics-bind", "127.0.0.1"),
    )
    verdicts = consume_all(bootstrap, topics.verdicts, expected=16, timeout_s=60)
    letters = consume_all(bootstrap, topics.dlq, expected=4, timeout_s=30)
    wait_until(lambda: "quantcheck_consumer_lag" in scrape(port), 20, "the lag gauge")

    metrics = scrape(port)
    published = Counter(json.loads(r.value or b"")["status"] for r in verdicts)
    assert totals(metrics["quantcheck_verdicts_total"], "status") == published
    assert published["supported"] == 7
    assert published["unsupported_quantity"] == 5
    dead = Counter(read_dead_letter_headers(r.headers).kind for r in letters)
    assert totals(metrics["quantcheck_dead_letters_total"], "kind") == dead
    assert dead["invalid_json"] == 1
    transactions = dict(
        (labels["outcome"], value) for labels, value in metrics["quantcheck_transactions_total"]
    )
    assert transactions["committed"] >= 1
    assert transactions["aborted"] == 0
    (batches,) = [value for _, value in metrics["quantcheck_batch_size_count"]]
    assert batches == transactions["committed"]
    (latencies,) = [value for _, value in metrics["quantcheck_end_to_end_latency_seconds_count"]]
    assert latencies == 16
    lags = {labels["partition"]: value for labels, value in metrics["quantcheck_consumer_lag"]}
    assert set(lags) == {str(p) for p in range(6)}
    assert all(lag >= 0 for lag in lags.values())
    ((build, _),) = metrics["quantcheck_build_info"]
    assert build["checker_version"]
    assert metrics["quantcheck_degraded"] == [({}, 0.0)]
    assert http_get(port, "/healthz")[0] == 200
    status, body = http_get(port, "/readyz")
    assert (status, json.loads(body)["ready"]) == (200, True)

    started = time.monotonic()
    assert worker.stop(timeout_s=20) == 0
    assert time.monotonic() - started < 10
    assert worker.events("worker stopped")
