"""Two workers share a topic; one is killed mid-stream and restarted: every claim still gets
exactly one verdict, and every citation failure exactly one dead letter."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaConsumer, TopicPartition
from quantcheck.worker.stream.publish import claim_message

from tests.stream.samples import CITATION_FAILURES, EXPECTED_STATUSES, sample_claims
from tests.stream.workers import WorkerProcess, load_handbook, make_topics, wait_until
from tests.support.kafka import KafkaBroker, OutgoingRecord, consume_all, produce

pytestmark = [pytest.mark.integration, pytest.mark.faults, pytest.mark.slow]

Names = Callable[[str], str]
CLAIM_COUNT = 10_000


class Progress:
    """Counts verdict records as they are written, committed or not."""

    def __init__(self, bootstrap: str, topic: str, partitions: int) -> None:
        self.consumer: Any = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
        parts = [TopicPartition(topic, p) for p in range(partitions)]
        self.consumer.assign(parts)
        self.consumer.seek_to_beginning(*parts)
        self.seen = 0

    def count(self) -> int:
        for batch in self.consumer.poll(timeout_ms=200).values():
            self.seen += len(batch)
        return self.seen

    def close(self) -> None:
        self.consumer.close(autocommit=False)


def test_killing_a_worker_mid_stream_loses_and_duplicates_nothing(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic, partitions=6)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    group = unique_topic("group")

    def start(instance: str, run: int) -> WorkerProcess:
        return workers(
            kafka_broker,
            topics,
            store_url,
            group=group,
            instance=instance,
            log_path=tmp_path / f"{instance}-{run}.log",
        )

    first, other = start("a", 1), start("b", 1)

    def shared() -> bool:
        mine, theirs = first.partitions(), other.partitions()
        return bool(mine) and bool(theirs) and not mine & theirs and len(mine | theirs) == 6

    wait_until(shared, 60, "both workers to share the six partitions")

    samples = sample_claims()
    claims = [
        samples[n % len(samples)].model_copy(
            update={"claim_id": f"{samples[n % len(samples)].claim_id}-{n:05d}"}
        )
        for n in range(CLAIM_COUNT)
    ]
    produce(
        bootstrap,
        topics.claims,
        [OutgoingRecord(value=value, key=key) for key, value in map(claim_message, claims)],
    )

    progress = Progress(bootstrap, topics.verdicts, 6)
    try:
        wait_until(lambda: progress.count() >= CLAIM_COUNT // 4, 90, "a quarter of the verdicts")
        assert first.events("batch committed"), "the first worker never committed a batch"
        first.kill()
        killed_at = progress.count()
        assert killed_at < CLAIM_COUNT, "the stream was over before the kill"
        restarted = start("a", 2)
    finally:
        progress.close()

    consume_all(bootstrap, topics.verdicts, expected=CLAIM_COUNT, timeout_s=150)
    # With both workers stopped nothing more can be committed: a duplicate would be here now.
    wait_until(lambda: bool(restarted.events("worker started")), 60, "the restart to be up")
    assert restarted.stop() == 0
    assert other.stop() == 0
    verdicts = consume_all(bootstrap, topics.verdicts, expected=None)
    letters = consume_all(bootstrap, topics.dlq, expected=None)

    keys = Counter(record.key for record in verdicts)
    assert len(verdicts) == CLAIM_COUNT
    assert set(keys) == {claim.claim_id.encode() for claim in claims}
    assert max(keys.values()) == 1
    failures = sum(EXPECTED_STATUSES[status] for status in CITATION_FAILURES)
    assert len(letters) == CLAIM_COUNT // len(samples) * failures
    assert max(Counter(record.key for record in letters).values()) == 1
