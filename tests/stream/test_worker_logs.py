"""What a worker logs while it works: coordinates on claim lines, one summary per batch, and
never the claim text at the default level."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import structlog
from quantcheck.worker.observability.logging import configure_logging
from quantcheck.worker.observability.metrics import Metrics
from quantcheck.worker.store import open_store
from quantcheck.worker.stream.loop import Worker, WorkerOptions
from quantcheck.worker.stream.publish import claim_message
from structlog.testing import capture_logs

from quantcheck.checker import Checker
from tests.stream.samples import sample_claims
from tests.stream.workers import connection, load_handbook, make_topics
from tests.support.kafka import KafkaBroker, OutgoingRecord, consume_all, produce

pytestmark = pytest.mark.integration

Names = Callable[[str], str]


@pytest.fixture(autouse=True)
def reset_logging() -> Iterator[None]:
    yield
    structlog.reset_defaults()


def test_claim_lines_carry_coordinates_and_each_batch_one_summary(
    kafka_broker: KafkaBroker, unique_topic: Names, tmp_path: Path
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic, partitions=2)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    claims = sample_claims()
    produce(
        bootstrap,
        topics.claims,
        [OutgoingRecord(value=value, key=key) for key, value in map(claim_message, claims)],
    )
    configure_logging(log_format="json", level="info")
    options = WorkerOptions(
        claims_topic=topics.claims,
        verdicts_topic=topics.verdicts,
        dlq_topic=topics.dlq,
        group_id=unique_topic("group"),
        instance_id="logs-1",
        # One batch of all 16 claims, however the fetches split them.
        batch_max_records=16,
        batch_max_ms=30_000,
    )
    with open_store(store_url) as store, capture_logs() as logs:
        worker = Worker.connect(
            options, connection(bootstrap), store=store, checker=Checker(), metrics=Metrics()
        )
        thread = threading.Thread(target=worker.run, name="worker-under-test")
        thread.start()
        try:
            consume_all(bootstrap, topics.verdicts, expected=16, timeout_s=60)
        finally:
            worker.request_stop("test over")
            thread.join(30)
    assert not thread.is_alive()

    (summary,) = [line for line in logs if line["event"] == "batch committed"]
    assert (summary["records"], summary["verdicts"], summary["dead_letters"]) == (16, 16, 3)
    assert summary["duration_ms"] > 0
    lettered = [line for line in logs if line["event"] == "claim dead-lettered"]
    assert sorted(line["claim_id"] for line in lettered) == ["C12", "C13", "C14"]
    for line in lettered:
        assert line["topic"] == topics.claims
        assert line["partition"] in (0, 1)
        assert line["offset"] >= 0
    events = {line["event"] for line in logs}
    assert {"worker started", "assignment changed", "stopping", "worker stopped"} <= events
    rendered = repr(logs)
    leaked = [c.claim_text for c in claims if c.claim_text in rendered]
    leaked += [c.prompt for c in claims if c.prompt and c.prompt in rendered]
    assert leaked == []
