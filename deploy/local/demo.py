"""The quick start: the whole pipeline on one machine, with the sample data.

Starts a local single-node Kafka broker (unless ``KAFKA_BOOTSTRAP_SERVERS`` names a
cluster), loads the sample handbook into an embedded SQLite store as a knowledge-base
version, creates the topics, starts one worker, publishes the 16 sample claims, waits
until every verdict is committed, and prints what came back from the verdicts and
dead-letter topics. Then it stops the worker and the broker, unless ``--keep``.

Run it with ``make demo`` (or ``make demo KEEP=1``). Everything it writes lives in
``.demo/`` at the top of the repository; a second run starts from a fresh broker.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from kafka import KafkaConsumer, TopicPartition
from quantcheck.schemas import read_dead_letter_headers

from quantcheck.checker import Status
from quantcheck.reports.chart import write_chart
from quantcheck.reports.summary import ordered_counts, summary_lines

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
HANDBOOK = EXAMPLES / "field_sensor_handbook.csv"
CLAIMS = EXAMPLES / "rag_numeric_claims.csv"
KAFKA_SCRIPT = ROOT / "deploy" / "local" / "kafka"
KB_VERSION = "handbook-v1"
GROUP = "quantcheck-demo"
TOPICS = ("claims", "claim-verdicts", "claims-dlq")
WAIT_S = 120


class DemoError(Exception):
    """A step of the demo failed; the message says which and where to look."""


@dataclass(frozen=True)
class Layout:
    """Where the demo keeps its files."""

    home: Path

    @property
    def kafka(self) -> Path:
        return self.home / "kafka"

    @property
    def store_url(self) -> str:
        return f"sqlite:///{self.home / 'quantcheck.db'}"

    @property
    def chart(self) -> Path:
        return self.home / "status-chart.png"

    @property
    def worker_log(self) -> Path:
        return self.home / "worker.log"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the demo; exit status 0 when every claim got its expected outcome."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="leave the broker and worker running")
    parser.add_argument("--home", type=Path, default=ROOT / ".demo", help="working directory")
    args = parser.parse_args(argv)
    layout = Layout(args.home)
    layout.home.mkdir(parents=True, exist_ok=True)
    try:
        return run(layout, keep=args.keep)
    except DemoError as exc:
        print(f"demo: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("demo: interrupted; everything it started is stopped", file=sys.stderr)
        return 130


def run(layout: Layout, *, keep: bool) -> int:
    """The demo's steps, cleaning up after itself unless ``keep``."""
    with ExitStack() as cleanup:
        bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS")
        if bootstrap:
            step(f"using the Kafka cluster at {bootstrap}")
        else:
            bootstrap = start_broker(layout)
            if not keep:
                cleanup.callback(stop_broker, layout)
        step(f"loading the sample handbook as knowledge-base version {KB_VERSION}")
        quantcheck(
            "docs", "load", "--store", layout.store_url, "--kb-version", KB_VERSION, str(HANDBOOK)
        )
        step("creating the topics")
        quantcheck("topics", "create", "--bootstrap-servers", bootstrap)
        starts = end_offsets(bootstrap, TOPICS[1:])
        port = free_port()
        worker = start_worker(layout, bootstrap, port)
        if not keep:
            cleanup.callback(stop_worker, worker)
        step(f"publishing the {count_claims()} sample claims")
        quantcheck(
            "publish",
            "--bootstrap-servers",
            bootstrap,
            "--topic",
            TOPICS[0],
            "--kb-version",
            KB_VERSION,
            "--model",
            "demo-model",
            "--retriever",
            "demo-retriever",
            str(CLAIMS),
        )
        expected = expected_statuses()
        verdicts, letters = read_back(bootstrap, starts, len(expected), worker, layout)
        ok = report(verdicts, letters, expected, layout, port)
        if keep:
            print()
            print("Left running (--keep):")
            print(f"  worker  pid {worker.pid}, metrics http://127.0.0.1:{port}/metrics")
            print(f"          stop it with: kill {worker.pid}")
            if not os.environ.get("KAFKA_BOOTSTRAP_SERVERS"):
                print(f"  broker  {bootstrap}")
                print(
                    f"          stop it with: {KAFKA_SCRIPT.relative_to(ROOT)} stop "
                    f"--state-dir {layout.kafka}"
                )
        return 0 if ok else 1


def step(message: str) -> None:
    """Say what happens next."""
    print(f"==> {message}", flush=True)


def quantcheck(*args: str) -> str:
    """Run a ``quantcheck`` command as a user would; its output is returned."""
    command = [sys.executable, "-m", "quantcheck.worker", *args]
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
    if result.returncode != 0:
        raise DemoError(f"quantcheck {args[0]} failed: {result.stderr.strip() or result.stdout}")
    for line in result.stdout.splitlines():
        print(f"    {line}")
    return result.stdout


def start_broker(layout: Layout) -> str:
    """Start the local broker, on a fresh data directory unless one is still running."""
    status = subprocess.run(
        [str(KAFKA_SCRIPT), "status", "--state-dir", str(layout.kafka)],
        capture_output=True,
        text=True,
        check=False,
    )
    if status.returncode != 0:
        # Not running: start clean so earlier runs cannot change the counts.
        shutil.rmtree(layout.kafka, ignore_errors=True)
        step("starting a local Kafka broker (the first run downloads it with Maven)")
    result = subprocess.run(
        [str(KAFKA_SCRIPT), "start", "--state-dir", str(layout.kafka)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise DemoError(result.stderr.strip() or "the Kafka broker did not start")
    address = result.stdout.strip().splitlines()[-1]
    print(f"    broker at {address}")
    return address


def stop_broker(layout: Layout) -> None:
    """Stop the local broker."""
    subprocess.run(
        [str(KAFKA_SCRIPT), "stop", "--state-dir", str(layout.kafka)],
        capture_output=True,
        check=False,
    )


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_worker(layout: Layout, bootstrap: str, port: int) -> subprocess.Popen[bytes]:
    """Start one worker process, logging to a file in the demo directory."""
    step("starting a worker")
    log = layout.worker_log.open("wb")
    environment = {**os.environ, "QUANTCHECK_LOG_FORMAT": "json"}
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "quantcheck.worker",
            "worker",
            "--bootstrap-servers",
            bootstrap,
            "--store",
            layout.store_url,
            "--group-id",
            GROUP,
            "--instance-id",
            "demo-1",
            "--metrics-port",
            str(port),
            "--metrics-bind",
            "127.0.0.1",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=ROOT,
        env=environment,
    )
    log.close()
    print(f"    worker pid {worker.pid}, log {layout.worker_log}")
    return worker


def stop_worker(worker: subprocess.Popen[bytes]) -> None:
    """Ask the worker to finish and leave the group; kill it if it does not."""
    if worker.poll() is not None:
        return
    worker.send_signal(signal.SIGTERM)
    try:
        worker.wait(timeout=30)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


def end_offsets(bootstrap: str, topics: Sequence[str]) -> dict[TopicPartition, int]:
    """Where the output topics end now, so only this run's records are read back."""
    with consumer(bootstrap) as reader:
        partitions = [
            TopicPartition(topic, p)
            for topic in topics
            for p in sorted(reader.partitions_for_topic(topic) or ())
        ]
        return dict(reader.end_offsets(partitions))


@contextmanager
def consumer(bootstrap: str) -> Iterator[KafkaConsumer]:
    """A read_committed consumer outside any group."""
    reader = KafkaConsumer(
        bootstrap_servers=bootstrap,
        group_id=None,
        enable_auto_commit=False,
        isolation_level="read_committed",
        auto_offset_reset="earliest",
    )
    try:
        yield reader
    finally:
        reader.close()


def read_back(
    bootstrap: str,
    starts: dict[TopicPartition, int],
    expected: int,
    worker: subprocess.Popen[bytes],
    layout: Layout,
) -> tuple[list[dict[str, object]], list[tuple[str, str, str]]]:
    """Committed verdicts and dead letters written since ``starts``, once all arrived."""
    step("waiting for every verdict to be committed")
    verdicts: list[dict[str, object]] = []
    letters: list[tuple[str, str, str]] = []
    deadline = time.monotonic() + WAIT_S
    with consumer(bootstrap) as reader:
        reader.assign(list(starts))
        for partition, offset in starts.items():
            reader.seek(partition, offset)
        while len(verdicts) < expected:
            if worker.poll() is not None:
                raise DemoError(
                    f"the worker exited with {worker.returncode}; see {layout.worker_log}"
                )
            if time.monotonic() > deadline:
                raise DemoError(
                    f"only {len(verdicts)} of {expected} verdicts after {WAIT_S}s; "
                    f"see {layout.worker_log}"
                )
            for partition, records in reader.poll(timeout_ms=500).items():
                for record in records:
                    if partition.topic == TOPICS[1]:
                        verdicts.append(json.loads(record.value))
                    else:
                        info = read_dead_letter_headers(record.headers)
                        letters.append((info.claim_id or "", info.kind, info.message))
        # Dead letters share the verdicts' transactions, so they are committed by now.
        for partition, records in reader.poll(timeout_ms=1000).items():
            for record in records:
                if partition.topic == TOPICS[2]:
                    info = read_dead_letter_headers(record.headers)
                    letters.append((info.claim_id or "", info.kind, info.message))
    return verdicts, letters


def expected_statuses() -> dict[str, str]:
    """The reviewed label of each sample claim."""
    with CLAIMS.open(encoding="utf-8", newline="") as handle:
        return {row["claim_id"]: row["expected_status"] for row in csv.DictReader(handle)}


def count_claims() -> int:
    """How many claims the sample file holds."""
    return len(expected_statuses())


def report(
    verdicts: list[dict[str, object]],
    letters: list[tuple[str, str, str]],
    expected: dict[str, str],
    layout: Layout,
    port: int,
) -> bool:
    """Print the summary and tables, write the chart; True when all matched."""
    verdicts.sort(key=lambda v: str(v["claim_id"]))
    statuses = [str(v["status"]) for v in verdicts]
    labels: list[str | None] = [expected.get(str(v["claim_id"])) for v in verdicts]
    matched = sum(1 for s, want in zip(statuses, labels, strict=True) if s == want)
    print()
    labelled = any(label is not None for label in labels)
    for line in summary_lines(Counter(statuses), matched if labelled else None):
        print(line)
    print()
    print(f"Verdicts read back from {TOPICS[1]} (read_committed):")
    width = max(len(s) for s in statuses)
    for verdict in verdicts:
        print(f"  {verdict['claim_id']}  {verdict['status']!s:{width}}  {verdict['reason']}")
    print()
    print(f"Dead letters read back from {TOPICS[2]}:")
    for claim_id, kind, message in sorted(letters):
        print(f"  {claim_id}  {kind:22}  {message}")
    write_chart(ordered_counts(statuses), layout.chart, f"quantcheck demo: {len(statuses)} claims")
    print()
    print(f"Status chart: {layout.chart}")
    print(f"Metrics: http://127.0.0.1:{port}/metrics (while the worker runs); now:")
    for line in scrape(port):
        print(f"  {line}")
    wanted_letters = Counter(s for s in expected.values() if Status(s).is_citation_failure)
    return (
        matched == len(expected) == len(verdicts)
        and Counter(kind for _, kind, _ in letters) == wanted_letters
    )


def scrape(port: int) -> list[str]:
    """The non-zero verdict counters from the worker's /metrics."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        text = response.read().decode("utf-8")
    return [
        line
        for line in text.splitlines()
        if line.startswith("quantcheck_verdicts_total{") and not line.endswith(" 0.0")
    ]


if __name__ == "__main__":
    sys.exit(main())
