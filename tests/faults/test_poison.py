"""Poison messages between valid claims: each is dead-lettered byte for byte with the kind the
contract gives it, the claims around it are verdicted, and the worker neither stops nor
stalls on any of them."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from quantcheck.schemas import read_dead_letter_headers
from quantcheck.schemas.limits import (
    MAX_CITED_DOC_IDS,
    MAX_CLAIM_MESSAGE_BYTES,
    MAX_CLAIM_TEXT_CHARS,
    MAX_RETRIEVED_DOC_IDS,
)
from quantcheck.worker.stream.publish import claim_message

from tests.faults.streams import assert_one_verdict_per_claim
from tests.schemas.samples import DROP
from tests.stream.samples import sample_claims
from tests.stream.workers import (
    WorkerProcess,
    big_producer,
    load_handbook,
    make_topics,
    scrape,
    wait_until,
)
from tests.support.kafka import KafkaBroker, consume_all

pytestmark = [pytest.mark.integration, pytest.mark.faults, pytest.mark.slow]

Names = Callable[[str], str]

# How long to wait for the outputs before failing (not a performance bound: the
# benchmarks report how fast hostile messages are handled).
OUTPUTS_TIMEOUT_S = 120.0

TRACE = "trace-id"


def claim_value(**overrides: Any) -> bytes:
    """A valid claim message (the first sample) with ``overrides``; ``DROP`` removes a field."""
    payload = json.loads(claim_message(sample_claims()[0])[1])
    for name, value in overrides.items():
        if value is DROP:
            del payload[name]
        else:
            payload[name] = value
    return json.dumps(payload).encode()


def spliced(**fields: bytes) -> bytes:
    """A valid claim with each named field set to raw JSON bytes: for bytes that encoding the
    claim as JSON would escape, and for nesting too deep to build as Python values."""
    value = claim_value(**{name: f"@{name}@" for name in fields})
    for name, raw in fields.items():
        marker = f'"@{name}@"'.encode()
        assert value.count(marker) == 1
        value = value.replace(marker, raw)
    return value


@dataclass(frozen=True)
class Poison:
    """A message no worker can verdict, and the dead-letter kind the contract gives it."""

    name: str
    value: bytes | None
    kind: str


ONE_MB_OF_DIGITS = claim_value(claim_text="1-" * 500_000)
DIGITS_OVER_THE_LIMIT = claim_value(claim_text="1-" * (MAX_CLAIM_TEXT_CHARS // 2 + 1))
DIGITS_WITHIN_THE_LIMIT = "1-" * 9_500
# Nesting far past the JSON parser's limit of 200 levels, inside an otherwise valid claim.
DEEP_ATTRIBUTES = b'{"deep": ' + b"[" * 5_000 + b"]" * 5_000 + b"}"

POISON = [
    Poison("not-utf8", b"\xff\xfe\xfd not text", "invalid_utf8"),
    Poison("bad-utf8-in-claim-text", spliced(claim_text=b'"A\xc3\x28A"'), "invalid_utf8"),
    Poison("utf8-encoded-surrogate", spliced(claim_text=b'"\xed\xa0\x80"'), "invalid_utf8"),
    Poison("invalid-json", b'{"claim_id": "P1", "claim_text": ', "invalid_json"),
    Poison("empty-value", b"", "invalid_json"),
    Poison("tombstone", None, "invalid_json"),
    Poison("json-array", b"[1, 2, 3]", "schema_violation"),
    Poison("json-string", b'"the logger records every 15 seconds"', "schema_violation"),
    Poison("json-null", b"null", "schema_violation"),
    Poison("empty-object", b"{}", "schema_violation"),
    Poison("missing-fields", claim_value(claim_text=DROP, cited_doc_ids=DROP), "schema_violation"),
    Poison(
        "wrong-types",
        claim_value(claim_text=42, cited_doc_ids="S01", produced_at=True),
        "schema_violation",
    ),
    Poison("schema-version-2", claim_value(schema_version=2), "unsupported_schema_version"),
    Poison("schema-version-huge", claim_value(schema_version=10**30), "unsupported_schema_version"),
    Poison("schema-version-text", claim_value(schema_version="1"), "schema_violation"),
    Poison("five-megabytes", claim_value(prompt="p" * (5 * 1024 * 1024)), "oversize"),
    Poison("cited-100k", claim_value(cited_doc_ids=["S01"] * 100_000), "schema_violation"),
    Poison("retrieved-100k", claim_value(retrieved_doc_ids=["S01"] * 100_000), "schema_violation"),
    # The contract measures the message before its fields: a megabyte of text is over the
    # byte limit before it is over the text limit.
    Poison("one-megabyte-of-digits", ONE_MB_OF_DIGITS, "oversize"),
    Poison("digits-over-the-text-limit", DIGITS_OVER_THE_LIMIT, "schema_violation"),
    Poison("deeply-nested", b"[" * 100_000 + b"]" * 100_000, "invalid_json"),
    Poison("deeply-nested-attribute", spliced(attributes=DEEP_ATTRIBUTES), "invalid_json"),
    Poison("nul-bytes", b"\x00" * 64, "invalid_json"),
    Poison("raw-nul-in-claim-text", spliced(claim_text=b'"a\x00b"'), "invalid_json"),
    Poison("escaped-nul-in-claim-text", claim_value(claim_text="a\u0000b"), "schema_violation"),
    Poison("unknown-kb-version", claim_value(kb_version="kb-nobody-loaded"), "unknown_kb_version"),
]


def test_poison_is_dead_lettered_and_the_worker_goes_on(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
) -> None:
    # The kinds above follow from these limits.
    assert len(ONE_MB_OF_DIGITS) > MAX_CLAIM_MESSAGE_BYTES
    assert len(DIGITS_OVER_THE_LIMIT) < MAX_CLAIM_MESSAGE_BYTES
    assert len(DIGITS_WITHIN_THE_LIMIT) <= MAX_CLAIM_TEXT_CHARS
    assert all(len(p.value or b"") < MAX_CLAIM_MESSAGE_BYTES for p in POISON if "100k" in p.name)
    assert max(MAX_CITED_DOC_IDS, MAX_RETRIEVED_DOC_IDS) < 100_000

    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    worker = workers(
        kafka_broker,
        topics,
        store_url,
        group=unique_topic("group"),
        instance="poison-1",
        metrics=True,
    )
    port = worker.metrics_port
    worker.wait_ready(60)

    template = sample_claims()[0]
    valid = [
        template.model_copy(update={"claim_id": f"valid-{n:02d}"}) for n in range(len(POISON) + 1)
    ]
    # Digits and hyphens within every limit: it must be checked, and quickly.
    valid.append(
        template.model_copy(
            update={"claim_id": "valid-digits", "claim_text": DIGITS_WITHIN_THE_LIMIT}
        )
    )
    sends: list[tuple[bytes, bytes | None, list[tuple[str, bytes]], Poison | None]] = []
    for claim, poison in zip(valid, [*POISON, None, None], strict=True):
        sends.append((*claim_message(claim), [], None))
        if poison is not None:
            key = f"poison-{poison.name}".encode()
            sends.append((key, poison.value, [(TRACE, poison.name.encode())], poison))

    producer = big_producer(bootstrap)
    try:
        # One partition keeps every poison message between two valid claims.
        futures = [
            producer.send(topics.claims, key=key, value=value, headers=headers, partition=0)
            for key, value, headers, _ in sends
        ]
        producer.flush()
        offsets = [future.get(timeout=60).offset for future in futures]
    finally:
        producer.close()
    assert offsets == list(range(len(sends)))
    poison_at = {offset: send[3] for offset, send in enumerate(sends) if send[3] is not None}

    consume_all(bootstrap, topics.verdicts, expected=len(valid), timeout_s=OUTPUTS_TIMEOUT_S)
    consume_all(bootstrap, topics.dlq, expected=len(POISON), timeout_s=OUTPUTS_TIMEOUT_S)

    metrics: dict[str, list[tuple[dict[str, str], float]]] = {}

    def reported() -> bool:
        # The worker counts a batch just after committing it, so the count may trail a little.
        metrics.update(scrape(port))
        checks = metrics.get("quantcheck_check_duration_seconds_count", [])
        letters = metrics.get("quantcheck_dead_letters_total", [])
        return sum(n for _, n in checks) >= len(valid) and sum(n for _, n in letters) >= len(POISON)

    wait_until(reported, 30, "the metrics to count every message")
    assert worker.running(), "the worker stopped on poison"
    assert len(worker.events("worker started")) == 1
    assert not worker.events("transient failure, retrying"), "poison was taken for an outage"
    assert worker.events("batch committed")
    assert worker.stop() == 0

    verdicts = consume_all(bootstrap, topics.verdicts, expected=None, timeout_s=60)
    assert_one_verdict_per_claim(verdicts, [claim.claim_id for claim in valid])

    letters = consume_all(bootstrap, topics.dlq, expected=None, timeout_s=60)
    assert len(letters) == len(POISON)
    found: dict[str, str] = {}
    for letter in letters:
        info = read_dead_letter_headers(letter.headers)
        assert (info.topic, info.partition) == (topics.claims, 0)
        poison = poison_at[info.offset]
        assert letter.key == f"poison-{poison.name}".encode()
        assert letter.value == poison.value, f"{poison.name}: the value was not kept as sent"
        assert info.original_headers == ((TRACE, poison.name.encode()),)
        found[poison.name] = info.kind
    assert found == {poison.name: poison.kind for poison in POISON}

    kinds = Counter(poison.kind for poison in POISON)
    counted = {labels["kind"]: value for labels, value in metrics["quantcheck_dead_letters_total"]}
    assert {kind: counted.get(kind, 0) for kind in kinds} == kinds
    # Every valid claim, the 19,000 characters of digits and hyphens included, was checked.
    ((_, total),) = metrics["quantcheck_check_duration_seconds_count"]
    assert total == len(valid)
