"""How long an ended worker's partitions go unanswered, with dynamic and static membership.

Two workers (instance ids ``a`` and ``b``) share a six-partition claims topic, and a probe
publisher puts a claim on every partition every 100 ms. Worker ``a`` is then ended, by
SIGKILL (a crash) or SIGTERM (a deploy, a scale-down), and in the restart scenarios started
again under the same instance id as soon as it has exited, as an orchestrator would. The
figure is the time from the exit of ``a`` until every partition it held has answered a claim
published after that moment (a worker ended by SIGTERM first delivers what it holds); the
median time a probe took to be answered before the exit is given for scale.

    .venv/bin/python -m bench.membership [--rounds N]

writes ``bench/results/membership.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from kafka import KafkaConsumer, TopicPartition
from quantcheck.worker.stream.config import SESSION_TIMEOUT_MS
from quantcheck.worker.stream.publish import claim_message
from quantcheck.worker.stream.topics import worker_topics

from bench import workload
from bench.broker import connection, make_topics, publisher, shared_broker, unique_name
from bench.common import RESULTS, ROOT, write_result

PARTITIONS = 6
PROBE_EVERY_S = 0.1
STEADY_S = 3.0
GIVE_UP_S = 60.0
STOP_WAIT_S = 30.0


@dataclass(frozen=True, slots=True)
class Scenario:
    """How worker ``a`` is ended, and whether it comes back."""

    membership: str
    ending: str
    restarted: bool

    def describe(self) -> str:
        return f"{self.membership}, {self.ending}{', restarted' if self.restarted else ''}"


SCENARIOS = tuple(
    Scenario(membership, ending, restarted)
    for membership in ("dynamic", "static")
    for ending in ("SIGKILL", "SIGTERM")
    for restarted in (False, True)
)


class Probes:
    """Publishes a claim to every partition every :data:`PROBE_EVERY_S`, and notes when each
    claim's verdict became visible to a read_committed reader."""

    def __init__(self, bootstrap: str, claims: str, verdicts: str) -> None:
        self._bootstrap = bootstrap
        self._claims = claims
        self._event = workload.sample_events("v1")[0]
        self.sent: dict[str, tuple[int, float]] = {}
        self.answered: dict[str, float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._reader: Any = KafkaConsumer(
            **connection(bootstrap).client_config("quantcheck-bench-probes"),
            group_id=None,
            enable_auto_commit=False,
            isolation_level="read_committed",
            fetch_max_wait_ms=50,
        )
        partitions = [TopicPartition(verdicts, p) for p in range(PARTITIONS)]
        self._reader.assign(partitions)
        self._reader.seek_to_beginning(*partitions)
        self._threads = [
            threading.Thread(target=self._publish, daemon=True),
            threading.Thread(target=self._read, daemon=True),
        ]

    def start(self) -> Probes:
        for thread in self._threads:
            thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(STOP_WAIT_S)
        self._reader.close(autocommit=False)

    def unanswered_until(self, partitions: set[int], since: float) -> float | None:
        """The time by which each of ``partitions`` answered a claim sent after ``since``,
        or None while one has not."""
        with self._lock:
            first: dict[int, float] = {}
            for claim_id, (partition, sent_at) in self.sent.items():
                answered_at = self.answered.get(claim_id)
                if partition in partitions and sent_at > since and answered_at is not None:
                    first[partition] = min(first.get(partition, answered_at), answered_at)
        return max(first.values()) if first.keys() == partitions else None

    def answer_times(self, until: float) -> list[float]:
        """How long each claim sent before ``until`` took to be answered."""
        with self._lock:
            return [
                self.answered[claim_id] - sent_at
                for claim_id, (_, sent_at) in self.sent.items()
                if sent_at < until and claim_id in self.answered
            ]

    def steady(self, since: float) -> bool:
        """Whether every claim sent between ``since`` and a moment ago has been answered."""
        recent = time.time() - 1.0
        with self._lock:
            due = [c for c, (_, at) in self.sent.items() if since < at < recent]
            return bool(due) and all(c in self.answered for c in due)

    def _publish(self) -> None:
        producer = publisher(self._bootstrap)
        try:
            number = 0
            while not self._stop.wait(PROBE_EVERY_S):
                for partition in range(PARTITIONS):
                    number += 1
                    claim_id = f"probe-{number:07d}"
                    key, value = claim_message(
                        self._event.model_copy(update={"claim_id": claim_id})
                    )
                    # Noted before it is sent: a claim counted as sent after a moment was.
                    with self._lock:
                        self.sent[claim_id] = (partition, time.time())
                    producer.send(self._claims, key=key, value=value, partition=partition)
                producer.flush()
        finally:
            producer.close()

    def _read(self) -> None:
        while not self._stop.is_set():
            polled = self._reader.poll(timeout_ms=100)
            arrived = time.time()
            with self._lock:
                for records in polled.values():
                    for record in records:
                        self.answered[json.loads(record.value)["claim_id"]] = arrived


class WorkerProcess:
    """``quantcheck worker`` as a child process, its JSON log in a file."""

    def __init__(self, argv: list[str], log: Path) -> None:
        self._argv = argv
        self._log = log
        # Only the flags configure it, never the caller's QUANTCHECK_* variables.
        env = {k: v for k, v in os.environ.items() if not k.startswith("QUANTCHECK_")}
        self._env = {**env, "PYTHONPATH": str(ROOT)}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> WorkerProcess:
        with self._log.open("ab") as log:
            self.process = subprocess.Popen(
                self._argv, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=self._env
            )
        return self

    def end(self, how: signal.Signals) -> None:
        assert self.process is not None
        self.process.send_signal(how)

    def reap(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def partitions(self) -> set[int]:
        """The partitions of the latest assignment this process logged."""
        latest: set[int] = set()
        for line in self._log.read_text(errors="replace").splitlines():
            if '"assignment changed"' in line:
                latest = set(json.loads(line)["partitions"])
        return latest


def wait_for(condition: Any, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out after {timeout_s:g}s waiting for {what}")
        time.sleep(0.05)


@contextmanager
def running(*workers: WorkerProcess) -> Iterator[None]:
    try:
        yield
    finally:
        for worker in workers:
            worker.reap()


def measure(bootstrap: str, store_url: str, workdir: Path, scenario: Scenario) -> dict[str, Any]:
    """One run of ``scenario``: seconds the ended worker's partitions went unanswered."""
    claims, verdicts, dlq = (unique_name(n) for n in ("claims", "verdicts", "dlq"))
    make_topics(
        bootstrap,
        worker_topics(claims=claims, verdicts=verdicts, dlq=dlq, partitions=PARTITIONS),
    )
    group = unique_name("membership")

    def worker(instance: str, run: int) -> WorkerProcess:
        argv = [
            sys.executable,
            "-m",
            "quantcheck.worker",
            "worker",
            "--bootstrap-servers",
            bootstrap,
            "--store",
            store_url,
            "--claims-topic",
            claims,
            "--verdicts-topic",
            verdicts,
            "--dlq-topic",
            dlq,
            "--group-id",
            group,
            "--instance-id",
            instance,
            "--static-membership",
            "true" if scenario.membership == "static" else "false",
            "--metrics-port",
            "0",
            "--log-format",
            "json",
        ]
        return WorkerProcess(argv, workdir / f"{group}-{instance}-{run}.log").start()

    a, b = worker("a", 1), worker("b", 1)
    again: WorkerProcess | None = None
    with running(a, b):
        probes = Probes(bootstrap, claims, verdicts).start()
        try:
            wait_for(lambda: a.partitions() and b.partitions(), GIVE_UP_S, "both workers")
            since = time.time()
            wait_for(lambda: probes.steady(since), GIVE_UP_S, "every partition to answer")
            time.sleep(STEADY_S)
            held = a.partitions()
            a.end(signal.SIGKILL if scenario.ending == "SIGKILL" else signal.SIGTERM)
            assert a.process is not None
            a.process.wait(STOP_WAIT_S)
            ended_at = time.time()
            if scenario.restarted:
                again = worker("a", 2)
            wait_for(
                lambda: probes.unanswered_until(held, ended_at) is not None,
                GIVE_UP_S,
                "the ended worker's partitions to answer again",
            )
            resumed_at = probes.unanswered_until(held, ended_at)
            assert resumed_at is not None
            steady = probes.answer_times(ended_at)
        finally:
            probes.stop()
            if again is not None:
                again.reap()
    return {
        **asdict(scenario),
        "partitions": len(held),
        "unanswered_s": round(resumed_at - ended_at, 2),
        "steady_answer_s": round(statistics.median(steady), 2),
    }


def markdown(rows: list[dict[str, Any]], session_timeout_s: float) -> str:
    head = (
        f"Session timeout {session_timeout_s:g} s; two workers, six partitions, a claim per "
        "partition every 100 ms.\n\n"
        "| membership | worker a ended by | restarted | its partitions unanswered "
        "| a probe's usual answer time |\n| --- | --- | --- | --- | --- |\n"
    )
    body = "".join(
        f"| {r['membership']} | {r['ending']} | {'yes' if r['restarted'] else 'no'} "
        f"| {r['unanswered_s']:.1f} s | {r['steady_answer_s']:.2f} s |\n"
        for r in rows
    )
    return head + body


def median_rows(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per scenario: the median over its runs."""
    rows = []
    for scenario in SCENARIOS:
        mine = [
            r for r in runs if Scenario(r["membership"], r["ending"], r["restarted"]) == scenario
        ]
        rows.append(
            {
                **asdict(scenario),
                "runs": len(mine),
                "unanswered_s": round(statistics.median(r["unanswered_s"] for r in mine), 2),
                "steady_answer_s": round(statistics.median(r["steady_answer_s"] for r in mine), 2),
                "each_s": [r["unanswered_s"] for r in mine],
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    runs: list[dict[str, Any]] = []
    with shared_broker() as bootstrap, tempfile.TemporaryDirectory() as scratch:
        workdir = Path(scratch)
        store_url = f"sqlite:///{workdir / 'store.db'}"
        workload.load_store(store_url, copies=1)
        for _ in range(args.rounds):
            for scenario in SCENARIOS:
                result = measure(bootstrap, store_url, workdir, scenario)
                print(f"{scenario.describe()}: {result['unanswered_s']:.1f} s", flush=True)
                runs.append(result)
    rows = median_rows(runs)
    session_timeout_s = SESSION_TIMEOUT_MS / 1000
    write_result("membership", {"session_timeout_s": session_timeout_s, "rows": rows})
    (RESULTS / "membership.md").write_text(
        "# Partitions left unanswered by an ended worker\n\n"
        "Measured with `python -m bench.membership` (median of each scenario's runs).\n\n"
        + markdown(rows, session_timeout_s)
    )
    print(markdown(rows, session_timeout_s))


if __name__ == "__main__":
    main()
