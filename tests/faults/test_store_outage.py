"""PostgreSQL is down for ten seconds, or holds a lock every lookup waits on, while claims keep
arriving: the worker turns not-ready, dead-letters nothing because of it, turns ready again
and verdicts every claim once."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable

import psycopg
import pytest

from tests.faults.streams import (
    CommittedVerdicts,
    Trickle,
    assert_one_verdict_per_claim,
    assert_only_citation_failures_dead_lettered,
    record_figures,
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
from tests.support.postgres import PostgresServer

pytestmark = [pytest.mark.integration, pytest.mark.faults, pytest.mark.slow]

Names = Callable[[str], str]

OUTAGE_S = 10
POLL_S = 0.25
# Claims published before the outage and verdicted, to know the stream is flowing.
WARM_UP = 320


def store_errors(port: int) -> float:
    """``quantcheck_store_errors_total`` as the worker reports it (0 when unreadable)."""
    status, body = http_get(port, "/metrics")
    found = re.search(rb"^quantcheck_store_errors_total (\S+)$", body, re.MULTILINE)
    return float(found.group(1)) if status == 200 and found else 0.0


def test_a_store_outage_mid_stream_turns_readiness_off_and_back_and_loses_nothing(
    kafka_broker: KafkaBroker,
    postgres_server: PostgresServer,
    postgres_database: str,
    unique_topic: Names,
    workers: Callable[..., WorkerProcess],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic)
    store_url = load_handbook(postgres_database)
    worker = workers(
        kafka_broker,
        topics,
        store_url,
        group=unique_topic("group"),
        instance="store-outage-1",
        # Without the cache every batch reads the store, so none can skip the outage.
        extra=("--document-cache-size", "0"),
        metrics=True,
    )
    port = worker.metrics_port
    worker.wait_ready(60)
    trickle = Trickle(bootstrap, topics.claims, "store").start()
    try:
        wait_until(lambda: trickle.published() >= WARM_UP, 60, "claims to flow")
        consume_all(bootstrap, topics.verdicts, expected=WARM_UP, timeout_s=60)
        assert store_errors(port) == 0

        readiness: Counter[int] = Counter()
        liveness: Counter[int] = Counter()
        postgres_server.stop()
        try:
            published_at_stop = trickle.published()
            ends = time.monotonic() + OUTAGE_S
            while time.monotonic() < ends:
                readiness[http_get(port, "/readyz")[0]] += 1
                liveness[http_get(port, "/healthz")[0]] += 1
                time.sleep(POLL_S)
            published_in_outage = trickle.published() - published_at_stop
            status, body = http_get(port, "/readyz")
        finally:
            postgres_server.start()
        wait_until(lambda: http_get(port, "/readyz")[0] == 200, 60, "/readyz to be ready again")
        # Claims keep coming for a moment after the store is back.
        time.sleep(1)
    finally:
        claim_ids = trickle.finish()

    assert readiness[503] > 0, f"/readyz never said not-ready during the outage: {readiness}"
    assert (status, json.loads(body)["ready"]) == (503, False)
    assert set(liveness) == {200}, f"/healthz failed during the outage: {liveness}"
    assert published_in_outage > 0, "no claims arrived during the outage"
    assert store_errors(port) >= 1

    consume_all(bootstrap, topics.verdicts, expected=len(claim_ids), timeout_s=120)
    assert worker.running(), "the worker exited"
    assert len(worker.events("worker started")) == 1
    assert worker.events("transient failure, retrying")
    assert worker.events("recovered")
    assert worker.stop() == 0

    verdicts = consume_all(bootstrap, topics.verdicts, expected=None, timeout_s=60)
    assert_one_verdict_per_claim(verdicts, claim_ids)
    letters = consume_all(bootstrap, topics.dlq, expected=None, timeout_s=60)
    assert_only_citation_failures_dead_lettered(letters, claim_ids)


LOCK_S = 6.0
STATEMENT_TIMEOUT_MS = 500


def test_a_lookup_blocked_by_a_lock_fails_as_a_store_error_and_resumes_on_release(
    kafka_broker: KafkaBroker,
    postgres_database: str,
    unique_topic: Names,
    workers: Callable[..., WorkerProcess],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic)
    store_url = load_handbook(postgres_database)
    worker = workers(
        kafka_broker,
        topics,
        store_url,
        group=unique_topic("group"),
        instance="store-lock-1",
        extra=(
            "--document-cache-size",
            "0",
            "--store-statement-timeout-ms",
            str(STATEMENT_TIMEOUT_MS),
        ),
        metrics=True,
    )
    port = worker.metrics_port
    worker.wait_ready(60)
    trickle = Trickle(bootstrap, topics.claims, "lock").start()
    try:
        wait_until(lambda: trickle.published() >= WARM_UP, 60, "claims to flow")
        consume_all(bootstrap, topics.verdicts, expected=WARM_UP, timeout_s=60)
        with psycopg.connect(postgres_database) as holder:
            # A load holding the documents table, as a migration or a long manual
            # transaction might: every lookup waits on it.
            holder.execute("LOCK TABLE kb_documents IN ACCESS EXCLUSIVE MODE")
            locked_at = time.monotonic()
            wait_until(lambda: store_errors(port) >= 2, 30, "lookups to time out")
            assert worker.running()
            remaining = LOCK_S - (time.monotonic() - locked_at)
            if remaining > 0:
                time.sleep(remaining)  # the fault's duration, not a wait for an outcome
            published_at_release = trickle.published()
        released_at = time.monotonic()
        with CommittedVerdicts(bootstrap, topics.verdicts) as progress:
            wait_until(
                lambda: progress.count() >= published_at_release,
                60,
                "the verdicts of the claims published while the lock was held",
            )
        recovered_s = time.monotonic() - released_at
    finally:
        claim_ids = trickle.finish()

    consume_all(bootstrap, topics.verdicts, expected=len(claim_ids), timeout_s=120)
    assert worker.events("transient failure, retrying")
    assert any(
        "statement timeout" in line["reason"]
        for line in worker.events("transient failure, retrying")
    )
    assert worker.events("recovered")
    assert worker.stop() == 0
    verdicts = consume_all(bootstrap, topics.verdicts, expected=None, timeout_s=60)
    record_figures(
        "store lookup blocked", None, claim_ids, Counter(verdict_claim_ids(verdicts)), [recovered_s]
    )
    assert_one_verdict_per_claim(verdicts, claim_ids)
    letters = consume_all(bootstrap, topics.dlq, expected=None, timeout_s=60)
    assert_only_citation_failures_dead_lettered(letters, claim_ids)
