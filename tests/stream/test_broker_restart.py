"""The broker restarts under a working worker: verdicts are delayed, never lost or doubled, and
the outage produces no dead letters."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from quantcheck.schemas import read_dead_letter_headers
from quantcheck.worker.stream.publish import claim_message

from tests.stream.samples import CITATION_FAILURES, EXPECTED_STATUSES, sample_claims
from tests.stream.workers import WorkerProcess, load_handbook, make_topics, wait_until
from tests.support.kafka import KafkaBroker, OutgoingRecord, consume_all, produce

pytestmark = [pytest.mark.integration, pytest.mark.faults, pytest.mark.slow]

Names = Callable[[str], str]
CLAIM_COUNT = 4_000
CHUNK = 100


def test_a_broker_restart_mid_stream_loses_and_duplicates_nothing(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
) -> None:
    if kafka_broker.external:
        pytest.skip("the broker comes from KAFKA_BOOTSTRAP_SERVERS and cannot be restarted")
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    worker = workers(
        kafka_broker,
        topics,
        store_url,
        group=unique_topic("group"),
        instance="restart-1",
        extra=("--batch-max-records", str(CHUNK)),
    )
    wait_until(lambda: len(worker.partitions()) == 6, 60, "the worker to join")
    samples = sample_claims()
    messages = [
        OutgoingRecord(value=value, key=key)
        for key, value in (
            claim_message(
                samples[n % len(samples)].model_copy(
                    update={"claim_id": f"{samples[n % len(samples)].claim_id}-{n:05d}"}
                )
            )
            for n in range(CLAIM_COUNT)
        )
    ]
    half = CLAIM_COUNT * 3 // 4
    produce(bootstrap, topics.claims, messages[:half])
    wait_until(lambda: bool(worker.events("batch committed")), 60, "a first batch")
    # The worker is still working through the first part when the broker goes away.
    kafka_broker.stop()
    kafka_broker.start()
    produce(bootstrap, topics.claims, messages[half:])

    consume_all(bootstrap, topics.verdicts, expected=CLAIM_COUNT, timeout_s=180)
    assert worker.stop() == 0
    verdicts = consume_all(bootstrap, topics.verdicts, expected=None)
    keys = Counter(record.key for record in verdicts)
    assert len(keys) == CLAIM_COUNT
    assert max(keys.values()) == 1
    letters = consume_all(bootstrap, topics.dlq, expected=None)
    kinds = Counter(read_dead_letter_headers(record.headers).kind for record in letters)
    rounds = CLAIM_COUNT // len(samples)
    assert kinds == Counter({kind: EXPECTED_STATUSES[kind] * rounds for kind in CITATION_FAILURES})
