"""The broker goes down mid-stream and comes back on the same address with the same data: the
same worker process notices, carries on once it is back, and no verdict is lost or doubled.

A worker checks thousands of claims a second, so between seeing its first verdicts and the
broker's socket closing it could finish the whole backlog and meet the outage idle, which
tests nothing. It is therefore frozen (SIGSTOP) while the broker stops, and thawed into the
outage with most of the backlog still to do; the broker comes back once the worker has
reported the failure.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.faults.streams import (
    CommittedVerdicts,
    assert_one_verdict_per_claim,
    assert_only_citation_failures_dead_lettered,
    checked_at,
    frozen,
    numbered_claims,
    publish,
)
from tests.stream.workers import WorkerProcess, load_handbook, make_topics, wait_until
from tests.support.kafka import KafkaBroker, consume_all

pytestmark = [pytest.mark.integration, pytest.mark.faults, pytest.mark.slow]

Names = Callable[[str], str]

BEFORE = 10_000
AFTER = 2_000
# Smaller transactions than the default keep the worker busy with the first claims for
# several seconds.
BATCH_RECORDS = 100
STOP_AFTER = 1_000
# A batch in flight when the broker goes away fails within this bound, so the worker
# reports the outage while it lasts.
CALL_TIMEOUT_S = 3
NOTICE_TIMEOUT_S = 60


def test_the_worker_rides_out_a_broker_outage_without_a_restart(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    worker = workers(
        kafka_broker,
        topics,
        store_url,
        group=unique_topic("group"),
        instance="outage-1",
        extra=(
            "--batch-max-records",
            str(BATCH_RECORDS),
            "--kafka-call-timeout-s",
            str(CALL_TIMEOUT_S),
        ),
    )
    wait_until(lambda: len(worker.partitions()) == 6, 60, "the worker to join")
    claim_ids = publish(bootstrap, topics.claims, numbered_claims(BEFORE, "before"))

    with CommittedVerdicts(bootstrap, topics.verdicts) as progress:
        wait_until(lambda: progress.count() >= STOP_AFTER, 60, f"{STOP_AFTER} verdicts")
        with frozen(worker.pid):
            at_stop = progress.count()
            assert at_stop < BEFORE, "the worker was done before the broker went away"
            stopped_at = datetime.now(UTC)
            kafka_broker.stop()
    try:

        def noticed() -> bool:
            assert worker.running(), "the worker exited while the broker was down"
            return any(
                datetime.fromisoformat(line["timestamp"]) > stopped_at
                for line in worker.events("transient failure, retrying")
            )

        wait_until(noticed, NOTICE_TIMEOUT_S, "the worker to report the outage")
    finally:
        kafka_broker.start()
    restarted_at = datetime.now(UTC)
    claim_ids += publish(bootstrap, topics.claims, numbered_claims(AFTER, "after"))

    consume_all(bootstrap, topics.verdicts, expected=BEFORE + AFTER, timeout_s=180)
    assert worker.running(), "the worker exited after the broker came back"
    assert len(worker.events("worker started")) == 1
    failures = worker.events("transient failure, retrying")
    recoveries = worker.events("recovered")
    assert recoveries
    assert recoveries[-1]["timestamp"] > failures[-1]["timestamp"]
    assert worker.stop() == 0

    verdicts = consume_all(bootstrap, topics.verdicts, expected=None, timeout_s=60)
    assert_one_verdict_per_claim(verdicts, claim_ids)
    # The claims published before the outage were checked partly before, partly after it.
    first_lot = [at for claim_id, at in checked_at(verdicts).items() if "-before-" in claim_id]
    assert min(first_lot) < stopped_at < restarted_at < max(first_lot)
    letters = consume_all(bootstrap, topics.dlq, expected=None, timeout_s=60)
    assert_only_citation_failures_dead_lettered(letters, claim_ids)
