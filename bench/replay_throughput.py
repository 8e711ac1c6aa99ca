"""Replay throughput and peak memory on 100,000 claims, against a real broker and store.

Publishes the sample claims replicated with unique IDs to a fresh 6-partition claims topic
(one idempotent producer, large batches), loads the handbook as ``v1`` into a SQLite store,
then runs ``quantcheck replay`` twice, each in a child process of its own:

1. ``--no-compare --publish-to SCRATCH``: re-check every claim and publish the verdicts to
   a scratch topic;
2. ``--compare-topic SCRATCH --out FILE.csv``: re-check every claim again, compare it with
   those verdicts (all must be unchanged) and write one row per claim.

Publishing and each replay run in a child process of their own. For each replay it reports
claims per second (timed around the command inside the child, so interpreter start-up is
left out) and the child's peak RSS (``ru_maxrss`` from ``wait4``), and the load average,
since other work on the machine slows the figures down.
The broker is ``KAFKA_BOOTSTRAP_SERVERS`` when set; otherwise one is started with
``deploy/local/kafka`` in a temporary directory and stopped at the end. Results go to
``bench/results/replay_throughput.json``.

    .venv/bin/python -m bench.replay_throughput [--claims 100000]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kafka import KafkaAdminClient, KafkaProducer
from quantcheck.worker.store import open_store
from quantcheck.worker.stream.config import KafkaConnection, admin_config
from quantcheck.worker.stream.publish import claim_message
from quantcheck.worker.stream.topics import create_topics, worker_topics

from bench.common import EXAMPLES, ROOT, write_result
from quantcheck.inputs.claims import ClaimDefaults, iter_claims
from quantcheck.inputs.documents import iter_documents

KAFKA_SCRIPT = ROOT / "deploy" / "local" / "kafka"
BOOTSTRAP_ENV = "KAFKA_BOOTSTRAP_SERVERS"
PARTITIONS = 6
MIB = 1024 * 1024
CHILD_ROLES = ("publish", "replay")


@contextmanager
def broker(state_dir: Path) -> Iterator[str]:
    """The bootstrap address of a broker that lives as long as the block."""
    external = os.environ.get(BOOTSTRAP_ENV, "").strip()
    if external:
        yield external
        return
    env = {**os.environ, "QUANTCHECK_PYTHON": sys.executable}
    started = subprocess.run(
        [str(KAFKA_SCRIPT), "start", "--state-dir", str(state_dir)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=600,
    )
    try:
        yield started.stdout.strip()
    finally:
        subprocess.run(
            [str(KAFKA_SCRIPT), "stop", "--state-dir", str(state_dir)],
            capture_output=True,
            env=env,
            check=False,
            timeout=120,
        )


def claim_messages(count: int) -> list[tuple[bytes, bytes]]:
    """``count`` claim messages: the 16 sample claims over and over, each with its own ID."""
    defaults = ClaimDefaults(kb_version="v1", model="bench-model", retriever="bm25")
    samples = [
        row.event for row in iter_claims(EXAMPLES / "rag_numeric_claims.csv", defaults=defaults)
    ]
    return [
        claim_message(
            samples[i % len(samples)].model_copy(
                update={"claim_id": f"{samples[i % len(samples)].claim_id}-{i:07d}"}
            )
        )
        for i in range(count)
    ]


def publish(bootstrap: str, topic: str, count: int) -> float:
    """Publish ``count`` claims with one idempotent producer; returns the seconds it took."""
    messages = claim_messages(count)
    producer = KafkaProducer(
        bootstrap_servers=bootstrap,
        acks="all",
        enable_idempotence=True,
        linger_ms=50,
        batch_size=MIB,
        max_request_size=8 * MIB,
    )
    started = time.perf_counter()
    try:
        futures = [producer.send(topic, key=key, value=value) for key, value in messages]
        producer.flush(timeout=300)
        failed = [f for f in futures if not f.is_done or f.failed()]
        if failed:
            raise RuntimeError(f"{len(failed)} claims were not acknowledged")
    finally:
        producer.close()
    return time.perf_counter() - started


def run_child(role: list[str], work: Path, name: str) -> dict[str, Any]:
    """Run one step in a child process; its timing, exit status, output and peak RSS.

    Every step that holds many records runs in a child: a child's ``ru_maxrss`` starts
    from its parent's peak (Linux carries it across fork and exec), so the parent must
    stay small for the figure to be the replay's own.
    """
    timing, out, err = (work / f"{name}.{ext}" for ext in ("json", "out", "err"))
    with out.open("wb") as stdout, err.open("wb") as stderr:
        child = subprocess.Popen(
            [sys.executable, "-m", "bench.replay_throughput", *role, str(timing)],
            stdout=stdout,
            stderr=stderr,
            cwd=ROOT,
        )
        # wait4 reports this child's own usage, not the benchmark's or the broker's.
        _, wait_status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(wait_status)
    if child.returncode not in (0, 3):
        raise RuntimeError(f"{name} failed: {err.read_text(encoding='utf-8')[-2000:]}")
    return {
        "exit_status": child.returncode,
        "seconds": round(json.loads(timing.read_text(encoding="utf-8"))["seconds"], 2),
        # ru_maxrss is in KiB on Linux.
        "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),
        "summary": out.read_text(encoding="utf-8").splitlines(),
        "notes": err.read_text(encoding="utf-8", errors="replace").splitlines()[-3:],
    }


def child_main(argv: list[str]) -> int:
    """The child side: ``publish BOOTSTRAP TOPIC COUNT TIMING`` or ``replay ARGS... TIMING``;
    writes how long the step took to TIMING."""
    role, *rest, timing = argv
    if role == "publish":
        bootstrap, topic, count = rest
        seconds, status = publish(bootstrap, topic, int(count)), 0
    else:
        from quantcheck.cli.main import main as quantcheck  # noqa: PLC0415 - before the clock

        started = time.perf_counter()
        status = quantcheck([role, *rest])
        seconds = time.perf_counter() - started
    Path(timing).write_text(json.dumps({"seconds": seconds}), encoding="utf-8")
    return status


def main() -> None:
    """Run the benchmark and write bench/results/replay_throughput.json."""
    if len(sys.argv) > 1 and sys.argv[1] in CHILD_ROLES:
        sys.exit(child_main(sys.argv[1:]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--claims", type=int, default=100_000)
    args = parser.parse_args()
    suffix = uuid.uuid4().hex[:8]
    claims_topic, scratch = f"bench-claims-{suffix}", f"bench-verdicts-{suffix}"
    with tempfile.TemporaryDirectory(prefix="quantcheck-bench-") as tmp:
        work = Path(tmp)
        store_url = f"sqlite:///{work / 'store.db'}"
        with open_store(store_url) as store:
            store.load_version("v1", iter_documents(EXAMPLES / "field_sensor_handbook.csv"))
        with broker(work / "kafka") as bootstrap:
            admin = KafkaAdminClient(
                **admin_config(KafkaConnection((bootstrap,)), client_id="bench")
            )
            try:
                create_topics(
                    admin,
                    worker_topics(
                        claims=claims_topic,
                        verdicts=scratch,
                        dlq=f"bench-dlq-{suffix}",
                        partitions=PARTITIONS,
                    ),
                )
            finally:
                admin.close()
            published = run_child(
                ["publish", bootstrap, claims_topic, str(args.claims)], work, "publish"
            )
            common = [
                "replay",
                "--bootstrap-servers",
                bootstrap,
                "--store",
                store_url,
                "--topic",
                claims_topic,
                "--verdicts-topic",
                f"bench-production-verdicts-{suffix}",
                "--dlq-topic",
                f"bench-dlq-{suffix}",
                "--progress",
                "never",
            ]
            runs = {
                "no_compare_publish": run_child(
                    [*common, "--no-compare", "--publish-to", scratch], work, "replay-publish"
                ),
                "compare_out_csv": run_child(
                    [*common, "--compare-topic", scratch, "--out", str(work / "rows.csv")],
                    work,
                    "replay-compare",
                ),
            }
    for run in runs.values():
        run["claims_per_second"] = round(args.claims / run["seconds"])
    own_peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    expected_tail = [f"unchanged: {args.claims}", "recorded_missing: 0"]
    result = {
        "claims": args.claims,
        "partitions": PARTITIONS,
        "publish_claims_per_second": round(args.claims / published["seconds"]),
        "runs": runs,
        "all_unchanged": runs["compare_out_csv"]["summary"][-2:] == expected_tail
        and runs["compare_out_csv"]["exit_status"] == 0,
        # The floor under every child's peak RSS (see run_child).
        "benchmark_peak_rss_mib": round(own_peak_kib / 1024, 1),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }
    path = write_result("replay_throughput", result)
    print(json.dumps(result, indent=2))
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
