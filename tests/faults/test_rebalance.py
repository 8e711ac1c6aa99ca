"""A member joins while the first worker still holds a batch it has not delivered: the
batch is dropped for the rebalance and every claim of it is still verdicted, once.

Eager rebalancing revokes every partition, also those that the same worker gets straight
back; the worker must read its dropped records again rather than carry on after them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.faults.streams import (
    assert_one_verdict_per_claim,
    assert_only_citation_failures_dead_lettered,
    numbered_claims,
    publish,
)
from tests.stream.workers import WorkerProcess, load_handbook, make_topics, wait_until
from tests.support.kafka import KafkaBroker, consume_all

pytestmark = [pytest.mark.integration, pytest.mark.faults, pytest.mark.slow]

Names = Callable[[str], str]

CLAIM_COUNT = 1_600
# The first worker collects for this long before it delivers: long enough for the second
# worker to join the group in the meantime.
HOLD_MS = 8_000


def test_a_rebalance_during_a_pending_batch_loses_no_claim(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    group = unique_topic("group")
    claim_ids = publish(bootstrap, topics.claims, numbered_claims(CLAIM_COUNT, "pending"))

    def start(instance: str) -> WorkerProcess:
        return workers(
            kafka_broker,
            topics,
            store_url,
            group=group,
            instance=instance,
            extra=("--batch-max-records", str(CLAIM_COUNT * 2), "--batch-max-ms", str(HOLD_MS)),
        )

    first = start("first")
    wait_until(lambda: len(first.partitions()) == 6, 60, "the first worker to join")
    second = start("second")
    wait_until(
        lambda: bool(first.events("dropped pending records of revoked partitions")),
        HOLD_MS / 1000,
        "the rebalance to catch the first worker's pending batch",
    )
    assert not first.events("batch committed"), "the batch was delivered before the rebalance"

    consume_all(bootstrap, topics.verdicts, expected=CLAIM_COUNT, timeout_s=60)
    assert first.stop() == 0
    assert second.stop() == 0
    assert first.partitions(), "the first worker kept no partition to read again"

    verdicts = consume_all(bootstrap, topics.verdicts, expected=None, timeout_s=60)
    assert_one_verdict_per_claim(verdicts, claim_ids)
    letters = consume_all(bootstrap, topics.dlq, expected=None, timeout_s=60)
    assert_only_citation_failures_dead_lettered(letters, claim_ids)
