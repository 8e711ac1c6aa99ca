"""Errors that will never pass. A verdict larger than the verdicts topic takes is dead-lettered
on its own and the partition moves on; a topic deleted under a running worker, or an ACL
that denies it writing dead letters, makes it report itself not ready, say why and what to
do in one line, and exit non-zero."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaAdminClient
from kafka.admin import (
    ACL,
    ACLOperation,
    ACLPermissionType,
    ACLResourcePatternType,
    ResourcePattern,
    ResourceType,
)
from quantcheck.schemas import read_dead_letter_headers
from quantcheck.worker.stream.config import KafkaConnection, admin_config
from quantcheck.worker.stream.loop import EXIT_FATAL, FATAL_ATTEMPTS

from tests.faults.streams import claim_records, numbered_claims, publish, record_figures
from tests.stream.workers import (
    WorkerProcess,
    connection,
    http_get,
    load_handbook,
    make_topics,
    wait_until,
)
from tests.support.kafka import KafkaBroker, consume_all, produce

pytestmark = [pytest.mark.integration, pytest.mark.faults, pytest.mark.slow]

Names = Callable[[str], str]

CLAIM_COUNT = 320
# Between the smallest and the largest verdict of the sample claims (about 0.5 to 1 kB).
VERDICTS_MAX_BYTES = 900


def test_verdicts_too_large_for_their_topic_are_dead_lettered_and_the_stream_goes_on(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic, verdicts_max_bytes=VERDICTS_MAX_BYTES)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    worker = workers(
        kafka_broker,
        topics,
        store_url,
        group=unique_topic("group"),
        instance="small-topic",
        extra=("--batch-max-records", "64"),
    )
    claims = numbered_claims(CLAIM_COUNT, "large")
    started = time.monotonic()
    claim_ids = publish(bootstrap, topics.claims, claims)
    sent = {claim.claim_id: claim.model_dump_json().encode() for claim in claims}

    def settled() -> tuple[list[str], dict[str, bytes]]:
        verdicts = consume_all(bootstrap, topics.verdicts, expected=None, timeout_s=60)
        letters = consume_all(bootstrap, topics.dlq, expected=None, timeout_s=60)
        refused = {
            (letter.key or b"").decode(): letter.value or b""
            for letter in letters
            if read_dead_letter_headers(letter.headers).kind == "verdict_too_large"
        }
        return [json.loads(v.value or b"")["claim_id"] for v in verdicts], refused

    wait_until(lambda: sum(map(len, settled())) >= CLAIM_COUNT, 120, "every claim to be answered")
    recovered_s = time.monotonic() - started
    assert worker.running(), "the worker stopped on a refused verdict"
    assert worker.stop() == 0
    verdict_ids, refused = settled()

    counts = Counter(verdict_ids) + Counter(refused.keys())
    assert set(counts) == set(claim_ids)
    assert max(counts.values()) == 1, "a claim got both a verdict and a verdict_too_large"
    assert 0 < len(refused) < CLAIM_COUNT, "the limit should refuse some verdicts, not all"
    for claim_id, value in refused.items():
        assert value == sent[claim_id], f"the dead letter of {claim_id} is not the claim as sent"
    assert worker.events("verdict refused by the verdicts topic, dead-lettering its claim")
    figures = record_figures("verdict too large", None, claim_ids, counts, [recovered_s])
    assert (figures.lost, figures.duplicated) == (0, 0)


def gives_up(worker: WorkerProcess, port: int, *, named: str) -> dict[str, Any]:
    """Wait for ``/readyz`` to answer 503 naming ``named`` (or for the worker to have ended),
    then for the worker to exit with the status of a fatal failure after the bounded number
    of tries; returns its one ``giving up`` line."""

    def not_ready() -> bool:
        status, body = http_get(port, "/readyz")
        return status == 503 and named in json.loads(body or b"{}").get("detail", "")

    wait_until(lambda: not_ready() or not worker.running(), 60, f"/readyz to name {named}")
    assert worker.process is not None
    assert worker.process.wait(timeout=120) == EXIT_FATAL
    (line,) = worker.events("giving up")
    assert line["level"] == "error"
    assert line["attempts"] == FATAL_ATTEMPTS
    return line


def test_a_topic_deleted_under_a_running_worker_ends_it_with_one_clear_line(
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
        instance="deleted",
        metrics=True,
    )
    port = worker.metrics_port
    worker.wait_ready(60)
    publish(bootstrap, topics.claims, numbered_claims(32, "before"))
    consume_all(bootstrap, topics.verdicts, expected=32, timeout_s=60)

    admin = KafkaAdminClient(**admin_config(connection(bootstrap), client_id="tests"))
    try:
        admin.delete_topics([topics.verdicts])
    finally:
        admin.close()
    deleted_at = time.monotonic()
    publish(bootstrap, topics.claims, numbered_claims(32, "after"))

    line = gives_up(worker, port, named=topics.verdicts)
    print(f"gave up {time.monotonic() - deleted_at:.1f}s after the topic was deleted")
    assert topics.verdicts in line["cause"]
    assert "topics create" in line["fix"]


def grant(admin: Any, *rights: tuple[ResourceType, str, ACLOperation]) -> None:
    """Allow the user ``worker`` each (resource type, name, operation); a name ending in
    ``*`` is a prefix."""
    acls = [
        ACL(
            "User:worker",
            "*",
            operation,
            ACLPermissionType.ALLOW,
            ResourcePattern(
                kind,
                name.rstrip("*"),
                ACLResourcePatternType.PREFIXED
                if name.endswith("*")
                else ACLResourcePatternType.LITERAL,
            ),
        )
        for kind, name, operation in rights
    ]
    result = admin.create_acls(acls)
    assert not result["failed"], result["failed"]


def test_a_dead_letter_topic_the_worker_may_not_write_ends_it_with_one_clear_line(
    authorizer_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
) -> None:
    bootstrap = authorizer_broker.bootstrap
    admin_user = authorizer_broker.user("admin")
    as_admin = KafkaConnection(
        (bootstrap,),
        security_protocol="SASL_PLAINTEXT",
        sasl_mechanism="PLAIN",
        sasl_username="admin",
        sasl_password=admin_user["sasl_plain_password"],
    )
    topics = make_topics(bootstrap, unique_topic, client=as_admin)
    group = unique_topic("group")
    admin = KafkaAdminClient(**admin_config(as_admin, client_id="tests"))
    try:
        # Everything the worker needs but writing dead letters: it may see that topic only.
        grant(
            admin,
            (ResourceType.TOPIC, topics.claims, ACLOperation.READ),
            (ResourceType.GROUP, group, ACLOperation.READ),
            (ResourceType.TOPIC, topics.verdicts, ACLOperation.WRITE),
            (ResourceType.TOPIC, topics.dlq, ACLOperation.DESCRIBE),
            (ResourceType.TRANSACTIONAL_ID, f"{group}*", ACLOperation.WRITE),
            (ResourceType.TRANSACTIONAL_ID, f"{group}*", ACLOperation.DESCRIBE),
        )
    finally:
        admin.close()
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    worker_user = authorizer_broker.user("worker")
    worker = workers(
        authorizer_broker,
        topics,
        store_url,
        group=group,
        instance="no-dlq",
        metrics=True,
        env={
            "QUANTCHECK_SECURITY_PROTOCOL": "SASL_PLAINTEXT",
            "QUANTCHECK_SASL_MECHANISM": "PLAIN",
            "QUANTCHECK_SASL_USERNAME": "worker",
            "QUANTCHECK_SASL_PASSWORD": worker_user["sasl_plain_password"],
        },
    )
    port = worker.metrics_port
    worker.wait_ready(60)
    # A round of the sample claims includes citation failures, which need dead letters.
    produce(bootstrap, topics.claims, claim_records(numbered_claims(32, "acl")), client=admin_user)
    denied_at = time.monotonic()

    line = gives_up(worker, port, named="TopicAuthorizationFailed")
    print(f"gave up {time.monotonic() - denied_at:.1f}s after the first claims arrived")
    assert topics.dlq in line["cause"]
    assert "Write on the verdicts and dead-letter topics" in line["fix"]
    retries = worker.events("transient failure, retrying")
    assert len(retries) == FATAL_ATTEMPTS - 1, "no retry is announced after giving up"
    verdicts = consume_all(bootstrap, topics.verdicts, expected=None, client=admin_user)
    assert verdicts == [], "nothing of a batch that could not be delivered whole is committed"
