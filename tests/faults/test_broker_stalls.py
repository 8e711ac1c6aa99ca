"""The broker freezes (SIGSTOP) for a few seconds, twenty times, while claims keep arriving:
each stall outlasts the worker's bound on a broker call, so it gives up calls and replaces
its producer each time, yet its thread count stays where it started and every claim is
verdicted once."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.faults.streams import (
    CommittedVerdicts,
    Trickle,
    assert_one_verdict_per_claim,
    freeze_process,
    record_figures,
    verdict_claim_ids,
)
from tests.stream.workers import WorkerProcess, load_handbook, make_topics, wait_until
from tests.support.kafka import KafkaBroker, consume_all

pytestmark = [pytest.mark.integration, pytest.mark.faults, pytest.mark.slow]

Names = Callable[[str], str]

STALLS = 20
STALL_S = 3.0
# Shorter than a stall, so that calls in flight time out and their producer is given up.
CALL_TIMEOUT_S = 2


def threads_of(pid: int) -> int:
    """The number of threads of process ``pid``."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    raise AssertionError(f"no thread count for process {pid}")


def test_broker_stalls_leave_no_threads_behind_and_lose_nothing(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
) -> None:
    assert kafka_broker.state_dir is not None, "these stalls need a broker the tests started"
    broker_pid = int((kafka_broker.state_dir / "kafka.pid").read_text())
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    worker = workers(
        kafka_broker,
        topics,
        store_url,
        group=unique_topic("group"),
        instance="stalls",
        extra=("--kafka-call-timeout-s", str(CALL_TIMEOUT_S)),
    )
    stream = Trickle(bootstrap, topics.claims, "stall", chunk=32, interval_s=0.2).start()
    recoveries: list[float] = []
    try:
        with CommittedVerdicts(bootstrap, topics.verdicts) as progress:
            wait_until(lambda: progress.count() >= 320, 60, "verdicts to flow")
            started_with = threads_of(worker.pid)
            for number in range(1, STALLS + 1):
                began = time.monotonic()
                freeze_process(broker_pid, STALL_S)
                published = stream.published()
                wait_until(
                    lambda published=published: progress.count() >= published,
                    120,
                    f"the verdicts of the claims published before stall {number} ended",
                )
                recoveries.append(time.monotonic() - began)
            ended_with = threads_of(worker.pid)
    finally:
        claim_ids = stream.finish()

    consume_all(bootstrap, topics.verdicts, expected=len(claim_ids), timeout_s=120)
    assert worker.running()
    assert worker.events("transient failure, retrying"), "no stall reached the worker"
    assert abs(ended_with - started_with) <= 1, (started_with, ended_with)
    assert worker.stop() == 0
    verdicts = consume_all(bootstrap, topics.verdicts, expected=None, timeout_s=60)
    record_figures(
        "broker stall", None, claim_ids, Counter(verdict_claim_ids(verdicts)), recoveries
    )
    print(f"threads: {started_with} before the stalls, {ended_with} after")
    assert_one_verdict_per_claim(verdicts, claim_ids)
