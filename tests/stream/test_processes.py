"""``quantcheck worker --processes 2``: two workers in one container under a supervisor.

Against the real broker: every claim gets exactly one verdict for a read_committed reader,
the container's one /metrics sums the children's counts (and keeps a killed child's), a
child killed with SIGKILL is started again, and SIGTERM drains them all.
"""

from __future__ import annotations

import os
import signal
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.faults.streams import (
    CommittedVerdicts,
    expected_status,
    numbered_claims,
    publish,
    verdict_claim_ids,
)
from tests.stream.workers import (
    WorkerProcess,
    http_get,
    load_handbook,
    make_topics,
    wait_until,
)
from tests.support.kafka import KafkaBroker, consume_all

pytestmark = pytest.mark.integration

Names = Callable[[str], str]
FIRST = 480
SECOND = 320


def verdict_totals(port: int) -> dict[str, float]:
    """The container's verdicts per status, and how many worker_up series it serves."""
    status, body = http_get(port, "/metrics")
    assert status == 200
    totals: Counter[str] = Counter()
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            if sample.name == "quantcheck_verdicts_total":
                totals[sample.labels["status"]] += int(sample.value)
            elif sample.name == "quantcheck_worker_up":
                totals["worker_up series"] += 1
    return dict(+totals)


def children(supervisor: WorkerProcess) -> dict[int, int]:
    """Slot -> pid of the latest life of each child, from the supervisor's log."""
    return {line["slot"]: line["pid"] for line in supervisor.events("worker process started")}


def test_two_processes_verdict_every_claim_once_and_survive_a_killed_child(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    supervisor = workers(
        kafka_broker,
        topics,
        store_url,
        group=unique_topic("group"),
        instance="box",
        extra=("--processes", "2"),
        metrics=True,
    )
    port = supervisor.metrics_port
    supervisor.wait_ready(90, "both children ready")
    assert sorted(children(supervisor)) == [0, 1]

    first = publish(bootstrap, topics.claims, numbered_claims(FIRST, "procs"))
    with CommittedVerdicts(bootstrap, topics.verdicts) as committed:
        wait_until(lambda: committed.count() >= FIRST, 120, "the first verdicts")
    wait_until(
        lambda: sum(v for k, v in verdict_totals(port).items() if k != "worker_up series") == FIRST,
        30,
        "the merged metrics to count the first verdicts",
    )
    assert verdict_totals(port)["worker_up series"] == 2

    killed_slot, killed_pid = sorted(children(supervisor).items())[0]
    os.kill(killed_pid, signal.SIGKILL)
    wait_until(
        lambda: children(supervisor)[killed_slot] != killed_pid, 60, "the killed child restarted"
    )
    supervisor.wait_ready(90, "both children ready again")

    second = publish(bootstrap, topics.claims, numbered_claims(SECOND, "procs", start=FIRST))
    with CommittedVerdicts(bootstrap, topics.verdicts) as committed:
        wait_until(lambda: committed.count() >= FIRST + SECOND, 120, "every verdict")
    verdicts = consume_all(bootstrap, topics.verdicts, expected=None)
    ids = verdict_claim_ids(verdicts)
    duplicated = [claim_id for claim_id, n in Counter(ids).items() if n > 1]
    lost = set(first + second) - set(ids)
    assert (len(ids), lost, duplicated) == (FIRST + SECOND, set(), [])

    expected = Counter(expected_status(claim_id) for claim_id in first + second)
    wait_until(
        lambda: (
            {k: v for k, v in verdict_totals(port).items() if k != "worker_up series"}
            == dict(expected)
        ),
        30,
        "the merged metrics to count every verdict, the killed child's included",
    )

    assert supervisor.stop() == 0
    assert not any(_alive(pid) for pid in children(supervisor).values())


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
