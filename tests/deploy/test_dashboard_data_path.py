"""The dashboard's data path on a real Prometheus: the server from Debian's ``prometheus``
package, run with the project's scrape configuration and rule files, scrapes a real worker
while it checks claims of known outcome, and every Grafana panel's expression, queried
through the HTTP API, comes to what the run produced.

The configuration is the real one with only what a test must change: 1-second scrape and
evaluation intervals, and the worker's address where the compose file's DNS name was.
The worker's verdict series of a model and retriever appear with the first verdict that
carries them, already counted, so ``rate()`` cannot see that first increase; the run
begins, as in a deployment that has been up for a while, with series that exist: one
claim of another status (needs_review_negation) goes first, and Prometheus sees it before
the measured claims are published.

Rates are read at the timestamp of the last scrape, where ``rate()`` does not extrapolate:
every counter starts at zero in the window, so rate times the window is the exact count.
Recorded series are evaluated by Prometheus at times of its own; their shares are exact.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from quantcheck.cli.main import main
from tests.stream.samples import CLAIMS, EXPECTED_STATUSES
from tests.stream.workers import (
    Samples,
    Topics,
    WorkerProcess,
    free_port,
    http_get,
    load_handbook,
    make_topics,
    scrape,
    wait_until,
)
from tests.support.kafka import ROOT, KafkaBroker, consume_all

pytestmark = pytest.mark.integration

PROMETHEUS_DIR = ROOT / "deploy" / "prometheus"
DASHBOARD = ROOT / "deploy" / "grafana" / "dashboards" / "quantcheck.json"
WINDOW = "5m"
WINDOW_S = 300.0
MODEL, RETRIEVER = "model-a", "bm25"
RUN_CLAIMS = sum(EXPECTED_STATUSES.values())
DEAD_LETTERS = {"missing_citation": 1, "unknown_citation": 1, "citation_not_retrieved": 1}
# Generous deadlines for a shared machine; each wait returns as soon as its condition holds.
DEADLINE_S = 60.0
WARM_UP = (
    "claim_id,claim_text,cited_doc_id,retrieved_doc_ids\n"
    "W01,Do not raise the high-temperature alarm at 45 degrees Celsius.,S04,S04\n"
)
# Grafana's variables as the dashboard opens: the job that scrapes the workers (the first
# its job variable lists), every model and retriever, a rate interval that covers the run.
VARIABLES = {"$job": "quantcheck", "$model": ".*", "$retriever": ".*", "$__rate_interval": WINDOW}

Names = Callable[[str], str]


class Prometheus:
    """The Prometheus server, queried through its HTTP API."""

    def __init__(self, port: int) -> None:
        self.port = port

    def get(self, path: str, **params: str) -> Any:
        status, body = http_get(self.port, f"{path}?{urllib.parse.urlencode(params)}")
        assert status == 200, body[:500]
        document = json.loads(body)
        assert document["status"] == "success", document
        return document["data"]

    def query(self, expr: str, at: float | None = None) -> list[dict[str, Any]]:
        params = {"query": expr} if at is None else {"query": expr, "time": f"{at:.3f}"}
        data = self.get("/api/v1/query", **params)
        assert data["resultType"] == "vector", data
        result: list[dict[str, Any]] = data["result"]
        return result

    def values(self, expr: str, label: str, at: float | None = None) -> dict[str, float]:
        return {r["metric"].get(label, ""): float(r["value"][1]) for r in self.query(expr, at)}

    def value(self, expr: str, at: float | None = None) -> float | None:
        result = self.query(expr, at)
        return float(result[0]["value"][1]) if len(result) == 1 else None


def derived_config(worker_port: int, prometheus_port: int) -> dict[str, Any]:
    """The project's configuration with test intervals and local targets."""
    config: dict[str, Any] = yaml.safe_load((PROMETHEUS_DIR / "prometheus.yml").read_text())
    config["global"] = {"scrape_interval": "1s", "evaluation_interval": "1s"}
    config["rule_files"] = [str(PROMETHEUS_DIR / name) for name in config["rule_files"]]
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    worker_job = jobs["quantcheck"]
    (dns,) = worker_job.pop("dns_sd_configs")
    assert dns["port"] == 9464, "the worker's metrics port in the compose stack"
    worker_job["static_configs"] = [{"targets": [f"127.0.0.1:{worker_port}"]}]
    jobs["prometheus"]["static_configs"] = [{"targets": [f"127.0.0.1:{prometheus_port}"]}]
    return config


@pytest.fixture
def prometheus_binary() -> str:
    path = shutil.which("prometheus")
    if path is None:
        pytest.fail("the Prometheus server is not installed: run `make system-deps`", pytrace=False)
    return path


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def worker_port() -> int:
    return free_port()


@pytest.fixture
def prometheus(prometheus_binary: str, run_dir: Path, worker_port: int) -> Iterator[Prometheus]:
    port = free_port()
    config_file = run_dir / "prometheus.yml"
    config_file.write_text(yaml.safe_dump(derived_config(worker_port, port)))
    log = run_dir / "prometheus.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                prometheus_binary,
                f"--config.file={config_file}",
                f"--storage.tsdb.path={run_dir / 'tsdb'}",
                f"--web.listen-address=127.0.0.1:{port}",
                "--log.level=warn",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    server = Prometheus(port)
    try:
        wait_until(
            lambda: process.poll() is not None or http_get(port, "/-/ready")[0] == 200,
            DEADLINE_S,
            "Prometheus to be ready",
        )
        assert process.poll() is None, log.read_text(errors="replace")
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def committed_transactions(samples: Samples) -> float:
    (value,) = [
        v
        for labels, v in samples["quantcheck_transactions_total"]
        if labels["outcome"] == "committed"
    ]
    return value


def histogram_quantile(q: float, buckets: list[tuple[dict[str, str], float]]) -> float:
    """Prometheus's histogram_quantile over cumulative bucket counts (all observations)."""
    ordered = sorted((float(labels["le"]), count) for labels, count in buckets)
    assert ordered[-1][0] == math.inf
    rank = q * ordered[-1][1]
    index = next(i for i, (_, count) in enumerate(ordered) if count >= rank)
    if index == len(ordered) - 1:
        return ordered[-2][0]
    start, below = (0.0, 0.0) if index == 0 else ordered[index - 1]
    end, count = ordered[index]
    return start + (end - start) * (rank - below) / (count - below)


def dashboard_targets() -> list[tuple[str, str, str]]:
    """(panel title, legend, expression with the variables filled in) of every target."""
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    targets = []
    for panel in dashboard["panels"]:
        for target in panel["targets"]:
            expr = target["expr"]
            for name, value in VARIABLES.items():
                expr = expr.replace(name, value)
            targets.append((panel["title"], target.get("legendFormat", ""), expr))
    return targets


def publish(bootstrap: str, topic: str, path: Path) -> None:
    argv = ["publish", "--bootstrap-servers", bootstrap, "--topic", topic, "--kb-version", "v1"]
    assert main([*argv, "--model", MODEL, "--retriever", RETRIEVER, str(path)]) == 0


def test_every_panel_shows_what_the_run_produced(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    run_dir: Path,
    worker_port: int,
    prometheus: Prometheus,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics: Topics = make_topics(bootstrap, unique_topic)
    store_url = load_handbook(f"sqlite:///{run_dir / 'store.db'}")
    worker = WorkerProcess(
        kafka_broker,
        topics,
        store_url,
        run_dir / "worker.log",
        group=unique_topic("group"),
        instance="dashboard-1",
        extra=("--metrics-port", str(worker_port), "--metrics-bind", "127.0.0.1"),
    ).start()
    try:
        run_and_check(bootstrap, topics, run_dir, worker_port, prometheus)
    finally:
        assert worker.stop() == 0
    capsys.readouterr()


def run_and_check(
    bootstrap: str, topics: Topics, run_dir: Path, worker_port: int, prometheus: Prometheus
) -> None:
    # Prometheus has scraped the worker before anything happens: every series that exists
    # from the start has a first sample of zero.
    wait_until(
        lambda: (
            prometheus.value('sum(up{job="quantcheck"})') == 1
            and prometheus.value("count(quantcheck_worker_up)") == 1
        ),
        DEADLINE_S,
        "a first scrape of the worker",
    )
    warm_up = run_dir / "warm-up.csv"
    warm_up.write_text(WARM_UP)
    publish(bootstrap, topics.claims, warm_up)
    selector = f'quantcheck_verdicts_total{{model="{MODEL}", retriever="{RETRIEVER}"}}'
    wait_until(lambda: prometheus.value(f"sum({selector})") == 1, DEADLINE_S, "the warm-up verdict")

    publish(bootstrap, topics.claims, CLAIMS)
    verdicts = consume_all(
        bootstrap, topics.verdicts, expected=RUN_CLAIMS + 1, timeout_s=DEADLINE_S
    )
    statuses = Counter(json.loads(r.value or b"")["status"] for r in verdicts)
    assert statuses == Counter(EXPECTED_STATUSES) + Counter({"needs_review_negation": 1})
    # The worker has reported no lag on any of its partitions, and Prometheus has the
    # last of its counters.
    wait_until(
        lambda: (
            len(scrape(worker_port).get("quantcheck_consumer_lag", [])) == 6
            and all(v == 0 for _, v in scrape(worker_port)["quantcheck_consumer_lag"])
        ),
        DEADLINE_S,
        "the worker to report no lag",
    )
    final = scrape(worker_port)
    committed = committed_transactions(final)

    def caught_up() -> bool:
        scraped = prometheus.value(f"sum({selector})")
        transactions = prometheus.value('quantcheck_transactions_total{outcome="committed"}')
        lag = prometheus.value("sum(quantcheck_consumer_lag)")
        return scraped == RUN_CLAIMS + 1 and transactions == committed and lag == 0

    wait_until(caught_up, DEADLINE_S, "Prometheus to scrape the final counters")
    last_scrape = prometheus.value("timestamp(quantcheck_worker_up)")
    assert last_scrape is not None
    # Recorded series are evaluated on their own clock: wait for a round of rules that
    # has seen the final scrape before looking at every panel.
    recorded: list[float] = []

    def rules_ran() -> bool:
        stamp = prometheus.value("timestamp(quantcheck:consumer_lag:sum)")
        recorded[:] = [] if stamp is None or stamp <= last_scrape else [stamp]
        return bool(recorded)

    wait_until(rules_ran, DEADLINE_S, "the rules to run on the final scrape")

    check_every_panel_shows_data(prometheus, recorded[0])
    check_exact_panels(prometheus, last_scrape, final)
    check_recorded(prometheus, final)
    check_variables(prometheus)


def check_every_panel_shows_data(prometheus: Prometheus, at: float) -> None:
    """No panel is empty, and none draws a NaN line."""
    for title, legend, expr in dashboard_targets():
        result = prometheus.query(expr, at)
        assert result, f"panel {title!r} ({legend}) shows nothing: {expr}"
        # A NaN series is drawn as an empty line with a legend entry of its own.
        nan = [r["metric"] for r in result if math.isnan(float(r["value"][1]))]
        assert not nan, f"panel {title!r} ({legend}) shows NaN for {nan}: {expr}"


def check_exact_panels(prometheus: Prometheus, at: float, final: Samples) -> None:
    """The panels computed from raw series, at the last scrape, where rates are exact."""
    results = {
        (title, legend): prometheus.query(expr, at) for title, legend, expr in dashboard_targets()
    }

    def single(title: str, legend: str) -> float:
        (sample,) = results[(title, legend)]
        return float(sample["value"][1])

    def by(title: str, legend: str, label: str) -> dict[str, float]:
        return {r["metric"][label]: float(r["value"][1]) for r in results[(title, legend)]}

    ratio = EXPECTED_STATUSES["unsupported_quantity"] / RUN_CLAIMS
    assert single("Unsupported-quantity ratio (5m)", "ratio") == pytest.approx(ratio)
    assert single("Workers", "workers") == 1
    assert single("Degraded workers", "degraded") == 0
    assert by("Consumer lag by partition", "partition {{partition}}", "partition") == {
        str(p): 0.0 for p in range(6)
    }
    assert single("Worker count", "reporting") == 1
    assert single("Worker count", "scrapes up") == 1
    transactions = by("Transactions and store errors", "{{outcome}}", "outcome")
    committed = committed_transactions(final)
    assert {k: v * WINDOW_S for k, v in transactions.items()} == pytest.approx(
        {"committed": committed, "aborted": 0.0}
    )
    assert single("Transactions and store errors", "store errors") == 0
    check_p99 = histogram_quantile(0.99, final["quantcheck_check_duration_seconds_bucket"])
    assert single("Check duration and batch size", "check p99") == pytest.approx(check_p99)
    ((_, batch_sum),) = final["quantcheck_batch_size_sum"]
    ((_, batch_count),) = final["quantcheck_batch_size_count"]
    mean = single("Check duration and batch size", "mean batch size")
    assert mean == pytest.approx(batch_sum / batch_count)


def check_recorded(prometheus: Prometheus, final: Samples) -> None:
    """The panels that read recorded series, once the rules have run on the final scrape:
    shares of the run are exact whatever the moment of evaluation."""
    counts = Counter(EXPECTED_STATUSES)
    latency = final["quantcheck_end_to_end_latency_seconds_bucket"]
    expected_latency = {f"p{q}": histogram_quantile(q / 100, latency) for q in (50, 95, 99)}
    panels: dict[str, list[tuple[str, str]]] = {}
    for title, legend, expr in dashboard_targets():
        panels.setdefault(title, []).append((legend, expr))

    def panel(title: str, label: str) -> dict[str, float]:
        ((_, expr),) = panels[title]
        return prometheus.values(expr, label)

    def shares(values: dict[str, float]) -> dict[str, float]:
        total = sum(values.values())
        return {k: v / total for k, v in values.items() if v} if total else {}

    def observed() -> dict[str, float | None]:
        values: dict[str, float | None] = {
            **{
                f"ratio {k}": v
                for k, v in panel("Unsupported-quantity ratio by model", "model").items()
            },
            **{
                f"verdicts {k}": v
                for k, v in shares(panel("Verdict rate by status", "status")).items()
            },
            **{
                f"dead letters {k}": v
                for k, v in shares(panel("Dead letters by kind", "kind")).items()
            },
            **{f"lag{k}": v for k, v in panel("Consumer lag", "").items()},
        }
        for legend, expr in panels["End-to-end latency"]:
            values[f"latency {legend}"] = prometheus.value(expr)
        return values

    expected: dict[str, float | None] = {
        f"ratio {MODEL}": counts["unsupported_quantity"] / RUN_CLAIMS,
        **{f"verdicts {s}": n / RUN_CLAIMS for s, n in counts.items()},
        **{f"dead letters {k}": n / 3 for k, n in DEAD_LETTERS.items()},
        "lag": 0.0,
        **{f"latency {legend}": value for legend, value in expected_latency.items()},
    }
    poll_until_equal(observed, expected, "the recorded series to show the run")


def poll_until_equal(
    observe: Callable[[], dict[str, float | None]], expected: dict[str, float | None], what: str
) -> None:
    """Observe until the values equal ``expected`` (approximately); past the deadline,
    fail showing the last values observed."""
    seen: list[dict[str, float | None]] = []

    def matches() -> bool:
        seen.append(observe())
        return seen[-1] == pytest.approx(expected)

    try:
        wait_until(matches, DEADLINE_S, what)
    except AssertionError:
        assert seen[-1] == pytest.approx(expected), f"{what}: saw {seen[-1]}, not {expected}"


def check_variables(prometheus: Prometheus) -> None:
    """The dashboard's job, model and retriever choices list what the run used."""
    jobs = prometheus.get("/api/v1/label/job/values", **{"match[]": "quantcheck_worker_up"})
    assert jobs == [VARIABLES["$job"]]
    models = prometheus.get(
        "/api/v1/label/model/values", **{"match[]": "quantcheck_verdicts_total"}
    )
    retrievers = prometheus.get(
        "/api/v1/label/retriever/values", **{"match[]": 'quantcheck_verdicts_total{model=~".*"}'}
    )
    assert MODEL in models
    assert RETRIEVER in retrievers
