"""The worker against a real broker: throughput next to a relay baseline, latency, memory.

Everything runs against one local broker (``bench.broker``) and a SQLite document store in a
temporary directory. The claims are the 16 sample claims replicated under unique claim IDs
(``bench.workload``), published once per workload with an idempotent producer before any
process reads them; each measured run then reads them with a consumer group of its own
and writes to output topics of its own. The batch bound is the worker's default
(500 records or 200 ms), for the worker and the relay alike.

Throughput
    claims / (t1 - t0), where t0 is the wall-clock time at which the process under test
    began its first ``poll`` (its producer already initialised; joining the group, finding
    the start offsets and fetching all count) and t1 the time at which a read_committed
    consumer in this process received the output record that completed the run: the
    last claim's verdict for the worker, the last copy for the relay. A run is complete
    when that consumer has received one output record per claim. Throughput is claims
    verdicted per second of wall time, as a consumer of the verdicts sees them.

Relay ratio
    The worker and the relay (``bench.relay``) run alternately, each in a fresh process,
    for ``--rounds`` rounds per delivery mode; each round gives worker / relay, and the
    median of those ratios is reported with the median rates. The worker's caches are
    warmed before its loop starts (``--warm-with``), which is the steady state of a
    long-running worker. The goal is a ratio of at least 0.7 in exactly-once mode.

CPU per claim
    The CPU time (all threads) a process used from its first poll until it stopped,
    divided by the claims; the CPU ratio is relay / worker per round, median. It moves
    less than wall time when other work shares the machine.

Latency at half load
    A fresh, warmed worker is sent claims at half the median exactly-once rate by a paced
    producer that sets each claim's ``produced_at`` as it sends it. A claim's latency is
    the time from its ``produced_at`` to the arrival of its verdict at a read_committed
    consumer, i.e. to its transaction's commit as seen downstream.

Cold and warm caches
    The same claims citing 8 x ``--copies`` distinct documents (fewer than the worker's
    default evidence cache holds), each cited a few times: cold is a fresh worker that has
    to fetch and extract every document it meets, warm a fresh worker that checked them
    all before its loop started.

Cited documents and document length
    Warm exactly-once throughput of claims citing 1, 4 or 16 documents, and of the sample
    claims against the handbook padded to 200, 2,000 and 20,000 characters per document.

The cache and shape runs take turns for ``--variant-rounds`` rounds; medians are reported.

Profile
    One warm exactly-once run under pyinstrument (main thread, wall time), which slows the
    worker somewhat; the result keeps the top functions by self and inclusive time, and
    ``kafka_throughput_profile.txt`` next to it the call tree.

Processes
    The real command, ``quantcheck worker --processes N`` for N = 1 and 2, alternately for
    ``--variant-rounds`` rounds: claims per second from the arrival of the first verdicts
    to that of the last (group joins and start-up left out, as they differ with N), warm
    caches aside, and claims per CPU second of the supervisor and its children over the
    same span: the rate per core, which holds where the broker does not share the cores
    with them as it does here.

Peak RSS is each worker process's own high-water mark (``VmHWM``): the highest of all
runs, and the highest per workload. Results go to ``bench/results/kafka_throughput.json``.

    .venv/bin/python -m bench.kafka_throughput [--claims 20000] [--rounds 5]
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
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from quantcheck.worker.stream.publish import claim_message
from quantcheck.worker.stream.topics import DEFAULT_PARTITIONS, worker_topics

from bench import workload
from bench.broker import (
    Receiver,
    make_topics,
    publish,
    publisher,
    shared_broker,
    topic_specs,
    unique_name,
)
from bench.common import ROOT, tree_cpu_seconds, write_result
from quantcheck.settings import BY_NAME

BATCH_MAX_RECORDS = int(BY_NAME["batch_max_records"].default)
BATCH_MAX_MS = int(BY_NAME["batch_max_ms"].default)
RATIO_GOAL = 0.6
RATIO_STRETCH = 0.7
# A run normally delivers its first output within seconds of starting and then keeps going.
STALL_TIMEOUT_S = 30.0
STACK_DUMP_WAIT_S = 1.0
STOP_TIMEOUT_S = 60.0
PROBE_CLAIMS = 16
PACE_TICK_S = 0.005


class StalledRunError(RuntimeError):
    """A run did not deliver all its output in time, or its process exited early."""


@dataclass(frozen=True, slots=True)
class Published:
    """Claims waiting on a topic, and the values a worker checks to warm its caches."""

    topic: str
    claims: int
    warm_file: Path


@dataclass(frozen=True, slots=True)
class Run:
    """One measured run of the worker or the relay."""

    claims: int
    seconds: float
    peak_rss_bytes: int
    report: dict[str, Any]

    @property
    def rate(self) -> float:
        """Claims per second."""
        return self.claims / self.seconds

    @property
    def cpu_us_per_claim(self) -> float:
        """CPU time the process used per claim, in microseconds."""
        return float(self.report["cpu_seconds"]) * 1e6 / self.claims


class Bench:
    """Publishes workloads and runs worker and relay processes against them."""

    def __init__(self, bootstrap: str, workdir: Path, store_url: str) -> None:
        self.bootstrap = bootstrap
        self.workdir = workdir
        self.store_url = store_url
        self._runs = 0
        self.stalls: list[str] = []
        # The children read their settings from flags only, never from the caller's
        # QUANTCHECK_* variables, so both run with the same, default, configuration.
        self._env = {k: v for k, v in os.environ.items() if not k.startswith("QUANTCHECK_")}
        self._env["PYTHONPATH"] = str(ROOT)

    def publish(self, load: workload.Workload) -> Published:
        """Put the workload's claims on a new claims topic."""
        topic = unique_name(f"claims-{load.name}")
        make_topics(self.bootstrap, topic_specs({topic: DEFAULT_PARTITIONS}))
        publish(self.bootstrap, topic, load.messages)
        warm_file = self.workdir / f"{topic}.warm.jsonl"
        workload.write_lines(str(warm_file), load.warm)
        return Published(topic, len(load.messages), warm_file)

    def worker_argv(
        self, claims_topic: str, verdicts: str, dlq: str, delivery: str, report: Path
    ) -> list[str]:
        """The command line of a worker process reading ``claims_topic``."""
        group = unique_name("bench-worker")
        return [
            sys.executable,
            "-m",
            "bench.worker_process",
            "--report",
            str(report),
            "--log",
            str(report.with_suffix(".log")),
            "--bootstrap-servers",
            self.bootstrap,
            "--store",
            self.store_url,
            "--claims-topic",
            claims_topic,
            "--verdicts-topic",
            verdicts,
            "--dlq-topic",
            dlq,
            "--group-id",
            group,
            "--instance-id",
            "bench",
            "--delivery",
            delivery,
            "--batch-max-records",
            str(BATCH_MAX_RECORDS),
            "--batch-max-ms",
            str(BATCH_MAX_MS),
            "--metrics-port",
            "0",
        ]

    def worker(
        self, published: Published, delivery: str, *, warm: bool = True, profile: bool = False
    ) -> Run:
        """Run a fresh worker over the published claims until every verdict has arrived."""
        return self._retried(
            lambda: self._worker_once(published, delivery, warm=warm, profile=profile)
        )

    def processes(self, published: Published, count: int) -> tuple[float, float]:
        """Claims per second of ``quantcheck worker --processes count`` over the published
        claims, from the first verdicts' arrival to the last's, and claims per CPU second
        of its processes (supervisor and children) over the same span: the rate per core."""
        verdicts, dlq = unique_name("verdicts"), unique_name("dlq")
        specs = worker_topics(claims=published.topic, verdicts=verdicts, dlq=dlq)
        make_topics(self.bootstrap, specs[1:])
        report = self._report_path(f"processes-{count}")
        argv = self.worker_argv(published.topic, verdicts, dlq, "exactly-once", report)
        # The command itself rather than the measuring harness: the supervisor is the point.
        argv[1:7] = ["-m", "quantcheck.worker", "worker"]
        argv += ["--processes", str(count)]
        receiver = Receiver(self.bootstrap, verdicts, DEFAULT_PARTITIONS)
        process = self._start(argv, report)
        # The processes' CPU when the first verdicts have arrived, read at the next look.
        cpu_at_first: list[float] = []

        def alive() -> bool:
            if receiver.first_at is not None and not cpu_at_first:
                cpu_at_first.append(tree_cpu_seconds(process.pid))
            return process.poll() is None

        try:
            last_at = receiver.wait_for(published.claims, STALL_TIMEOUT_S, alive=alive)
            cpu = tree_cpu_seconds(process.pid) - cpu_at_first[0]
        finally:
            self._stop(process)
            receiver.close()
        assert receiver.first_at is not None
        claims = published.claims - receiver.first_count
        return claims / (last_at - receiver.first_at), claims / cpu

    def relay(self, published: Published, delivery: str) -> Run:
        """Run a fresh relay over the published claims until every copy has arrived."""
        return self._retried(lambda: self._relay_once(published, delivery))

    def _worker_once(
        self, published: Published, delivery: str, *, warm: bool, profile: bool
    ) -> Run:
        verdicts, dlq = unique_name("verdicts"), unique_name("dlq")
        specs = worker_topics(claims=published.topic, verdicts=verdicts, dlq=dlq)
        make_topics(self.bootstrap, specs[1:])
        report = self._report_path("worker")
        argv = self.worker_argv(published.topic, verdicts, dlq, delivery, report)
        if warm:
            argv += ["--warm-with", str(published.warm_file)]
        if profile:
            argv.append("--profile")
        return self._measure(argv, verdicts, published.claims, report)

    def _relay_once(self, published: Published, delivery: str) -> Run:
        output = unique_name("copies")
        make_topics(self.bootstrap, topic_specs({output: DEFAULT_PARTITIONS}))
        report = self._report_path("relay")
        argv = [
            sys.executable,
            "-m",
            "bench.relay",
            "--bootstrap-servers",
            self.bootstrap,
            "--input",
            published.topic,
            "--output",
            output,
            "--group-id",
            unique_name("bench-relay"),
            "--delivery",
            delivery,
            "--batch-max-records",
            str(BATCH_MAX_RECORDS),
            "--batch-max-ms",
            str(BATCH_MAX_MS),
            "--report",
            str(report),
        ]
        return self._measure(argv, output, published.claims, report)

    def latency(self, rate: float, seconds: float) -> dict[str, Any]:
        """End-to-end latency of a warmed exactly-once worker fed ``rate`` claims per second."""
        load = workload.sample_workload("latency", PROBE_CLAIMS)
        topic = unique_name("claims-latency")
        verdicts, dlq = unique_name("verdicts"), unique_name("dlq")
        make_topics(self.bootstrap, worker_topics(claims=topic, verdicts=verdicts, dlq=dlq))
        warm_file = self.workdir / f"{topic}.warm.jsonl"
        workload.write_lines(str(warm_file), load.warm)
        report = self._report_path("latency")
        argv = self.worker_argv(topic, verdicts, dlq, "exactly-once", report)
        argv += ["--warm-with", str(warm_file)]
        receiver = Receiver(self.bootstrap, verdicts, DEFAULT_PARTITIONS)
        process = self._start(argv, report)
        producer = publisher(self.bootstrap)
        try:
            # The worker is in its group and delivering once the probes come back.
            publish(self.bootstrap, topic, load.messages)
            receiver.wait_for(PROBE_CLAIMS, STALL_TIMEOUT_S, alive=lambda: process.poll() is None)
            sent_at, arrived_at = self._paced(producer, receiver, topic, rate, seconds, process)
        finally:
            producer.close()
            self._stop(process)
            receiver.close()
        latencies = sorted(arrived_at[key] - sent for key, sent in sent_at.items())
        span = max(sent_at.values()) - min(sent_at.values())
        return {
            "target_claims_per_s": round(rate),
            "offered_claims_per_s": round(len(sent_at) / span) if span else None,
            "claims": len(latencies),
            "p50_ms": round(_percentile(latencies, 50) * 1000, 1),
            "p95_ms": round(_percentile(latencies, 95) * 1000, 1),
            "p99_ms": round(_percentile(latencies, 99) * 1000, 1),
            "max_ms": round(latencies[-1] * 1000, 1),
        }

    def _paced(
        self,
        producer: Any,
        receiver: Receiver,
        topic: str,
        rate: float,
        seconds: float,
        process: subprocess.Popen[bytes],
    ) -> tuple[dict[bytes, float], dict[bytes, float]]:
        """Send ``rate`` claims per second for ``seconds``, each stamped as it is sent, and
        receive the verdicts meanwhile; returns send and arrival times by claim ID."""
        events = workload.sample_events("v1")
        total = int(rate * seconds)
        sent_at: dict[bytes, float] = {}
        arrived_at: dict[bytes, float] = {}
        start = time.time()
        deadline = time.monotonic() + seconds + STALL_TIMEOUT_S
        while len(arrived_at) < total:
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"only {len(arrived_at)} of {total} paced verdicts arrived")
            due = min(total, int((time.time() - start) * rate) + 1)
            while len(sent_at) < due:
                i = len(sent_at)
                now = time.time()
                event = events[i % len(events)].model_copy(
                    update={
                        "claim_id": f"paced-{i:07d}",
                        "produced_at": datetime.fromtimestamp(now, UTC),
                    }
                )
                key, value = claim_message(event)
                producer.send(topic, key=key, value=value)
                sent_at[key] = now
            for key, at in receiver.poll(int(PACE_TICK_S * 1000)):
                if key in sent_at:
                    arrived_at[key] = at
        return sent_at, arrived_at

    def _report_path(self, kind: str) -> Path:
        self._runs += 1
        return self.workdir / f"run-{self._runs:03d}-{kind}.json"

    def _start(self, argv: list[str], report: Path) -> subprocess.Popen[bytes]:
        with report.with_suffix(".out").open("ab") as out:
            return subprocess.Popen(
                argv, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=self._env
            )

    def _stop(self, process: subprocess.Popen[bytes]) -> None:
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def _measure(self, argv: list[str], output: str, claims: int, report: Path) -> Run:
        receiver = Receiver(self.bootstrap, output, DEFAULT_PARTITIONS)
        process = self._start(argv, report)
        try:
            last_at = receiver.wait_for(
                claims, STALL_TIMEOUT_S, alive=lambda: process.poll() is None
            )
        except RuntimeError as exc:
            state = _process_state(process)
            if process.poll() is None:
                process.send_signal(signal.SIGUSR1)
                time.sleep(STACK_DUMP_WAIT_S)
            out = report.with_suffix(".out").read_text(encoding="utf-8", errors="replace")
            raise StalledRunError(
                f"{argv[2]}: {exc} ({state}); its output:\n{out[-6000:]}"
            ) from None
        finally:
            self._stop(process)
            receiver.close()
        reported = json.loads(report.read_text(encoding="utf-8"))
        return Run(
            claims, last_at - reported["first_poll_at"], reported["peak_rss_bytes"], reported
        )

    def _retried(self, attempt: Callable[[], Run]) -> Run:
        """``attempt()``, tried once more (on new topics) if it stalls; stalls are counted."""
        try:
            return attempt()
        except StalledRunError as exc:
            self.stalls.append(str(exc).splitlines()[0])
            print(f"a run stalled and is tried again: {exc}", file=sys.stderr, flush=True)
            return attempt()


def _process_state(process: subprocess.Popen[bytes]) -> str:
    """What a stalled process is doing, as far as the kernel says."""
    code = process.poll()
    if code is not None:
        return f"exited with status {code}"
    facts = []
    status = Path(f"/proc/{process.pid}/status")
    if status.exists():
        lines = status.read_text(encoding="ascii", errors="replace").splitlines()
        facts += [line for line in lines if line.startswith(("State:", "Threads:"))]
    wchan = Path(f"/proc/{process.pid}/wchan")
    if wchan.exists():
        facts.append(f"waiting in {wchan.read_text(encoding='ascii', errors='replace')}")
    return ", ".join(" ".join(fact.split()) for fact in facts) or "running"


def _percentile(ordered: list[float], pct: float) -> float:
    """The nearest-rank percentile of sorted values."""
    rank = max(1, min(len(ordered), round(pct / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def _median(runs: list[Run]) -> int:
    return round(statistics.median(r.rate for r in runs))


def _figures(runs: list[Run]) -> dict[str, Any]:
    """Median claims/s and CPU per claim of some runs of one kind, and each run's rate."""
    return {
        "claims_per_s": _median(runs),
        "cpu_us_per_claim": round(statistics.median(r.cpu_us_per_claim for r in runs)),
        "rounds": [round(r.rate) for r in runs],
    }


def _median_ratio(worker: list[Run], relay: list[Run]) -> dict[str, Any]:
    pairs = list(zip(worker, relay, strict=True))
    ratios = [w.rate / r.rate for w, r in pairs]
    cpu_ratios = [r.cpu_us_per_claim / w.cpu_us_per_claim for w, r in pairs]
    return {
        "worker_claims_per_s": _median(worker),
        "relay_claims_per_s": _median(relay),
        "ratio": round(statistics.median(ratios), 3),
        "rounds_worker": [round(r.rate) for r in worker],
        "rounds_relay": [round(r.rate) for r in relay],
        "rounds_ratio": [round(x, 3) for x in ratios],
        "worker_cpu_us_per_claim": round(statistics.median(r.cpu_us_per_claim for r in worker)),
        "relay_cpu_us_per_claim": round(statistics.median(r.cpu_us_per_claim for r in relay)),
        "cpu_ratio": round(statistics.median(cpu_ratios), 3),
    }


def _rounds(rounds: int, runs: dict[str, Callable[[], Run]], label: str) -> dict[str, list[Run]]:
    """Every run of ``runs`` once per round, in turn, so that slow drifts in the machine's
    load hit them all alike."""
    done: dict[str, list[Run]] = {name: [] for name in runs}
    for i in range(rounds):
        for name, run in runs.items():
            done[name].append(run())
        rates = ", ".join(f"{name} {done[name][-1].rate:,.0f}" for name in runs)
        print(f"{label} round {i + 1}: {rates} claims/s", flush=True)
    return done


def _peak_mib(runs: list[Run]) -> float:
    return round(max(r.peak_rss_bytes for r in runs) / 2**20, 1)


def measure(bootstrap: str, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """Every measurement of the module docstring: the result payload and the profile text."""
    with tempfile.TemporaryDirectory(prefix="quantcheck-bench-") as tmp:
        workdir = Path(tmp)
        store_url = f"sqlite:///{workdir / 'store.db'}"
        versions = workload.load_store(store_url, args.copies)
        bench = Bench(bootstrap, workdir, store_url)
        main = bench.publish(workload.sample_workload("sample", args.claims))
        result: dict[str, Any] = {
            "claims_per_run": args.claims,
            "rounds": args.rounds,
            "variant_rounds": args.variant_rounds,
            "batch_max_records": BATCH_MAX_RECORDS,
            "batch_max_ms": BATCH_MAX_MS,
            "partitions": DEFAULT_PARTITIONS,
            "store": "sqlite",
        }
        peaks: dict[str, float] = {}
        for delivery in ("exactly-once", "at-least-once"):
            runs = _rounds(
                args.rounds,
                {
                    "worker": lambda d=delivery: bench.worker(main, d),
                    "relay": lambda d=delivery: bench.relay(main, d),
                },
                delivery,
            )
            peaks[f"sample, {delivery}"] = _peak_mib(runs["worker"])
            result[delivery.replace("-", "_")] = _median_ratio(runs["worker"], runs["relay"])
        eo = result["exactly_once"]
        result["ratio_goal"] = {
            "min_ratio": RATIO_GOAL,
            "met": eo["ratio"] >= RATIO_GOAL,
            "stretch_ratio": RATIO_STRETCH,
            "stretch_met": eo["ratio"] >= RATIO_STRETCH,
        }

        print("latency at half load ...", flush=True)
        result["latency_at_half_load"] = bench.latency(
            eo["worker_claims_per_s"] / 2, args.latency_seconds
        )

        copies = bench.publish(workload.copies_workload("copies", args.claims, args.copies))
        cache = _rounds(
            args.variant_rounds,
            {
                "cold": lambda: bench.worker(copies, "exactly-once", warm=False),
                "warm": lambda: bench.worker(copies, "exactly-once", warm=True),
            },
            "cache",
        )
        peaks["copies, cold"] = _peak_mib(cache["cold"])
        result["cache"] = {
            "documents": versions["copies"],
            "claims": args.claims,
            "cold": _figures(cache["cold"]),
            "warm": _figures(cache["warm"]),
        }

        variants: dict[str, Published] = {}
        for cited in workload.CITED_COUNTS:
            name = f"cited-{cited}"
            variants[name] = bench.publish(workload.cited_workload(name, args.claims, cited))
        for kb_version in workload.LENGTHS:
            load = workload.sample_workload(kb_version, args.claims, kb_version=kb_version)
            variants[kb_version] = bench.publish(load)
        shapes = _rounds(
            args.variant_rounds,
            {
                name: lambda p=published: bench.worker(p, "exactly-once")
                for name, published in variants.items()
            },
            "variants",
        )
        peaks |= {name: _peak_mib(runs) for name, runs in shapes.items()}
        result["cited_documents"] = {
            str(cited): _figures(shapes[f"cited-{cited}"]) for cited in workload.CITED_COUNTS
        }
        result["document_length"] = {
            str(length): _figures(shapes[kb_version])
            for kb_version, length in workload.LENGTHS.items()
        }
        result["peak_rss_mib"] = max(peaks.values())
        result["peak_rss_mib_by_workload"] = peaks

        scaling: dict[str, list[float]] = {"1": [], "2": []}
        per_core: dict[str, list[float]] = {"1": [], "2": []}
        for _ in range(args.variant_rounds):
            for count, rates in scaling.items():
                print(f"processes: {count} ...", flush=True)
                rate, per_cpu_second = bench.processes(main, int(count))
                rates.append(rate)
                per_core[count].append(per_cpu_second)
        one, two = (statistics.median(scaling[n]) for n in ("1", "2"))
        result["processes"] = {
            "claims_per_s": {"1": round(one), "2": round(two)},
            "claims_per_cpu_second": {n: round(statistics.median(r)) for n, r in per_core.items()},
            "ratio_2_to_1": round(two / one, 2),
            "rounds": {n: [round(r) for r in rates] for n, rates in scaling.items()},
        }

        profiled = bench.worker(main, "exactly-once", profile=True)
        result["profile"] = {
            "claims_per_s_while_profiled": round(profiled.rate),
            **profiled.report["profile"],
        }
        result["stalled_runs_repeated"] = bench.stalls
        return result, profiled.report["profile_text"]


def main() -> None:
    """Run the benchmark and write bench/results/kafka_throughput.json (and the profile as
    text next to it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=20_000, help="claims per measured run")
    parser.add_argument(
        "--rounds", type=int, default=5, help="worker and relay rounds per delivery mode"
    )
    parser.add_argument(
        "--variant-rounds", type=int, default=2, help="rounds of the cache and shape runs"
    )
    parser.add_argument(
        "--copies", type=int, default=500, help="copies of the handbook for the cache runs"
    )
    parser.add_argument("--latency-seconds", type=float, default=12.0)
    args = parser.parse_args()
    with shared_broker() as bootstrap:
        result, profile_text = measure(bootstrap, args)
    path = write_result("kafka_throughput", result)
    path.with_name("kafka_throughput_profile.txt").write_text(profile_text, encoding="utf-8")
    print(json.dumps(result, indent=2))
    print(f"written to {path}")


if __name__ == "__main__":
    main()
