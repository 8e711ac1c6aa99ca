"""Replaying dead letters once their knowledge-base version exists, and republishing them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from quantcheck.schemas import HEADER_PREFIX, read_dead_letter_headers
from quantcheck.worker.stream.publish import claim_message

from tests.replay.commands import replay
from tests.stream.samples import sample_claims
from tests.stream.workers import WorkerProcess, load_handbook, make_topics
from tests.support.kafka import KafkaBroker, OutgoingRecord, consume_all, produce

pytestmark = pytest.mark.integration

# Under v9 (once loaded): two pass, one is unsupported, one still fails a citation gate.
REPLAYED = ("C01", "C04", "C05", "C13")


def test_dead_letters_pass_once_their_version_is_loaded_and_are_republished_intact(
    kafka_broker: KafkaBroker,
    unique_topic: Callable[[str], str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic, partitions=2)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    by_id = {claim.claim_id: claim for claim in sample_claims()}
    originals = []
    for n, claim_id in enumerate(REPLAYED):
        key, value = claim_message(by_id[claim_id].model_copy(update={"kb_version": "v9"}))
        headers = (("trace-id", f"t-{n}".encode()), ("empty", b""))
        originals.append(OutgoingRecord(value, key, headers))
    produce(bootstrap, topics.claims, originals)
    worker = WorkerProcess(
        kafka_broker,
        topics,
        store_url,
        tmp_path / "worker.log",
        group=unique_topic("group"),
        instance="w1",
    ).start()
    try:
        letters = consume_all(bootstrap, topics.dlq, expected=4, timeout_s=60)
        kinds = {read_dead_letter_headers(r.headers).kind for r in letters}
        assert (len(letters), kinds) == (4, {"unknown_kb_version"})
        assert consume_all(bootstrap, topics.verdicts, expected=None) == []

        # Before v9 exists a replay finds nothing new.
        before = replay(capsys, bootstrap, topics, store_url, "--topic", topics.dlq)
        assert before.status == 0, before.err
        assert before.lines == [
            "claims=4",
            "unknown_kb_version=4",
            "unchanged: 4",
            "recorded_missing: 0",
        ]

        load_handbook(store_url, "v9")
        rows = tmp_path / "rows.jsonl"
        after = replay(
            capsys,
            bootstrap,
            topics,
            store_url,
            "--topic",
            topics.dlq,
            "--republish-to",
            topics.claims,
            "--out",
            str(rows),
        )
        assert after.status == 3, after.err
        assert after.lines == [
            "claims=4",
            "supported=2",
            "unsupported_quantity=1",
            "unknown_citation=1",
            "unknown_kb_version -> supported: 2",
            "unknown_kb_version -> unknown_citation: 1",
            "unknown_kb_version -> unsupported_quantity: 1",
            "unchanged: 0",
            "recorded_missing: 0",
            "republished=3",
        ]
        read = [json.loads(line) for line in rows.read_text().splitlines()]
        assert {row["topic"] for row in read} == {topics.dlq}
        assert {row["source_topic"] for row in read} == {topics.claims}
        assert {row["recorded_status"] for row in read} == {"unknown_kb_version"}

        # The worker checks what was republished: three verdicts, read committed.
        verdicts = consume_all(bootstrap, topics.verdicts, expected=3, timeout_s=60)
    finally:
        assert worker.stop() == 0
    assert sorted(r.key or b"" for r in verdicts) == [b"C01", b"C04", b"C05"]
    on_claims = consume_all(bootstrap, topics.claims, expected=None)
    claims = {(r.partition, r.offset): r for r in on_claims}
    assert len(claims) == 7
    sent = {record.key: record for record in originals}
    for verdict in verdicts:
        body = json.loads(verdict.value or b"")
        assert body["kb_version"] == "v9"
        republished = claims[(body["source"]["partition"], body["source"]["offset"])]
        original = sent[republished.key]
        # Byte for byte the original message, without the dead letter's headers.
        assert (republished.key, republished.value) == (original.key, original.value)
        assert republished.headers == original.headers
        assert not any(name.startswith(HEADER_PREFIX) for name, _ in republished.headers)
