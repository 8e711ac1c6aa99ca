"""The PostgreSQL store goes away mid-stream: the worker waits it out instead of dead-lettering."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable

import pytest
from quantcheck.schemas import read_dead_letter_headers
from quantcheck.worker.stream.publish import claim_message

from tests.stream.samples import CITATION_FAILURES, sample_claims
from tests.stream.workers import (
    WorkerProcess,
    http_get,
    load_handbook,
    make_topics,
    wait_until,
)
from tests.support.kafka import KafkaBroker, OutgoingRecord, consume_all, produce
from tests.support.postgres import PostgresServer

pytestmark = [pytest.mark.integration, pytest.mark.faults]

Names = Callable[[str], str]


def publish(bootstrap: str, topic: str, tag: str) -> list[str]:
    claims = [c.model_copy(update={"claim_id": f"{c.claim_id}-{tag}"}) for c in sample_claims()]
    produce(
        bootstrap,
        topic,
        [OutgoingRecord(value=value, key=key) for key, value in map(claim_message, claims)],
    )
    return [c.claim_id for c in claims]


def store_errors(port: int) -> float:
    status, body = http_get(port, "/metrics")
    if status != 200:
        return 0.0
    found = re.search(rb"^quantcheck_store_errors_total (\S+)$", body, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def test_a_store_outage_delays_verdicts_and_dead_letters_nothing(
    kafka_broker: KafkaBroker,
    postgres_server: PostgresServer,
    postgres_database: str,
    unique_topic: Names,
    workers: Callable[..., WorkerProcess],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic)
    load_handbook(postgres_database)
    worker = workers(
        kafka_broker,
        topics,
        postgres_database,
        group=unique_topic("group"),
        instance="outage-1",
        # Every batch asks the store, so the outage cannot hide behind the cache.
        extra=("--document-cache-size", "0"),
        metrics=True,
    )
    port = worker.metrics_port
    before = publish(bootstrap, topics.claims, "before")
    consume_all(bootstrap, topics.verdicts, expected=16, timeout_s=60)
    worker.wait_ready(30)

    postgres_server.stop()
    try:
        during = publish(bootstrap, topics.claims, "during")
        wait_until(lambda: http_get(port, "/readyz")[0] == 503, 30, "/readyz to turn not-ready")
        wait_until(lambda: store_errors(port) >= 1, 30, "a failed store read")
        status, body = http_get(port, "/readyz")
        assert status == 503
        assert json.loads(body)["ready"] is False
        assert http_get(port, "/healthz")[0] == 200
    finally:
        postgres_server.start()

    verdicts = consume_all(bootstrap, topics.verdicts, expected=32, timeout_s=90)
    wait_until(lambda: http_get(port, "/readyz")[0] == 200, 60, "/readyz to turn ready again")
    assert worker.stop() == 0

    verdicts = consume_all(bootstrap, topics.verdicts, expected=None)
    keys = Counter((record.key or b"").decode() for record in verdicts)
    assert sorted(keys) == sorted(before + during)
    assert set(keys.values()) == {1}
    letters = consume_all(bootstrap, topics.dlq, expected=None)
    kinds = Counter(read_dead_letter_headers(record.headers).kind for record in letters)
    # Only the sample's own citation failures, once per round: nothing from the outage.
    assert kinds == Counter({kind: 2 for kind in CITATION_FAILURES})
    assert worker.events("transient failure, retrying")
    assert worker.events("recovered")
