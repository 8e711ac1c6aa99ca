"""A worker process against the real broker: the sample claims, then messages it cannot read."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from quantcheck.schemas import read_dead_letter_headers
from quantcheck.worker.stream.publish import claim_message

from quantcheck.cli.main import main
from tests.stream.samples import CITATION_FAILURES, CLAIMS, EXPECTED_STATUSES, sample_claims
from tests.stream.workers import Topics, WorkerProcess, big_producer, load_handbook, make_topics
from tests.support.kafka import ConsumedRecord, KafkaBroker, consume_all

pytestmark = pytest.mark.integration

Names = Callable[[str], str]
StartWorker = Callable[..., WorkerProcess]


def by_position(records: list[ConsumedRecord]) -> dict[tuple[int, int], ConsumedRecord]:
    return {(r.partition, r.offset): r for r in records}


def test_the_sample_claims_get_one_verdict_each_and_citation_failures_a_dead_letter(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: StartWorker,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    group = unique_topic("group")
    argv = ["publish", "--bootstrap-servers", bootstrap, "--topic", topics.claims]
    argv += ["--kb-version", "v1", "--model", "model-a", "--retriever", "bm25", str(CLAIMS)]
    assert main(argv) == 0
    assert capsys.readouterr().out == f"published 16 claims to {topics.claims}\n"

    worker = workers(kafka_broker, topics, store_url, group=group, instance="w1")
    assert len(consume_all(bootstrap, topics.verdicts, expected=16, timeout_s=60)) == 16
    assert len(consume_all(bootstrap, topics.dlq, expected=3, timeout_s=30)) == 3
    assert worker.stop() == 0

    verdicts = consume_all(bootstrap, topics.verdicts, expected=None)
    letters = consume_all(bootstrap, topics.dlq, expected=None)
    claims = by_position(consume_all(bootstrap, topics.claims, expected=None))
    bodies = [json.loads(r.value or b"") for r in verdicts]
    assert Counter(body["status"] for body in bodies) == EXPECTED_STATUSES
    keys = sorted(r.key or b"" for r in verdicts)
    assert keys == sorted(c.claim_id.encode() for c in sample_claims())
    for record, body in zip(verdicts, bodies, strict=True):
        source = claims[(body["source"]["partition"], body["source"]["offset"])]
        assert body["source"]["topic"] == topics.claims
        assert record.key == source.key == body["claim_id"].encode()
        assert body["kb_version"] == "v1"

    assert len(letters) == 3
    kinds = []
    for letter in letters:
        info = read_dead_letter_headers(letter.headers)
        source = claims[(info.partition, info.offset)]
        assert (letter.key, letter.value) == (source.key, source.value)
        assert info.original_headers == source.headers
        assert (info.topic, info.group, info.timestamp) == (topics.claims, group, source.timestamp)
        assert info.claim_id == (letter.key or b"").decode()
        kinds.append(info.kind)
    assert sorted(kinds) == sorted(CITATION_FAILURES)


def test_malformed_and_oversize_messages_are_dead_lettered_and_the_worker_goes_on(
    kafka_broker: KafkaBroker, unique_topic: Names, tmp_path: Path, workers: StartWorker
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics: Topics = make_topics(bootstrap, unique_topic)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    sample = sample_claims()[0]
    valid = [claim_message(sample.model_copy(update={"claim_id": f"V{n}"})) for n in range(1, 4)]
    malformed = (b"bad-key", b'{"claim_id": "M1", ', [("trace-id", b"t-1"), ("empty", b"")])
    oversize = (b"huge-key", b"{" + b"0" * (5 * 1024 * 1024) + b"}", [("trace-id", b"t-2")])
    producer = big_producer(bootstrap)
    try:
        sends: list[tuple[bytes, bytes, list[tuple[str, bytes]]]] = [(*valid[0], [])]
        sends += [malformed, oversize, *((key, value, []) for key, value in valid[1:])]
        futures = [
            producer.send(topics.claims, key=key, value=value, headers=headers, partition=0)
            for key, value, headers in sends
        ]
        producer.flush()
        assert [f.get(timeout=30).offset for f in futures] == [0, 1, 2, 3, 4]
    finally:
        producer.close()

    worker = workers(kafka_broker, topics, store_url, group=unique_topic("group"), instance="w1")
    verdicts = consume_all(bootstrap, topics.verdicts, expected=3, timeout_s=60)
    letters = consume_all(bootstrap, topics.dlq, expected=2, timeout_s=30)
    assert worker.stop() == 0

    assert sorted(r.key or b"" for r in verdicts) == [b"V1", b"V2", b"V3"]
    by_kind = {read_dead_letter_headers(r.headers).kind: r for r in letters}
    assert sorted(by_kind) == ["invalid_json", "oversize"]
    bad = by_kind["invalid_json"]
    assert (bad.key, bad.value) == malformed[:2]
    info = read_dead_letter_headers(bad.headers)
    assert info.original_headers == tuple(malformed[2])
    assert (info.partition, info.offset) == (0, 1)
    big = by_kind["oversize"]
    assert big.key == oversize[0]
    assert big.value == oversize[1]
    info = read_dead_letter_headers(big.headers)
    assert info.original_headers == tuple(oversize[2])
    assert (info.partition, info.offset) == (0, 2)
    assert "more than the limit of 1000000 bytes" in info.message
