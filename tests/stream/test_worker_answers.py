"""A worker process checks answer events from the real broker: four sentences with mixed
markers give four claim verdicts ``<answer_id>:1..4`` and one answer record that agrees
with them, in the same transactions as claims; answers it cannot check are dead-lettered
whole, with their original bytes; the metrics count each sentence as a claim."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from quantcheck.schemas import VerdictEvent, read_dead_letter_headers
from quantcheck.worker.stream.publish import claim_message

from quantcheck.cli.main import main
from tests.answers.samples import FOUR_SENTENCES
from tests.schemas.samples import answer_payload
from tests.stream.samples import MIXED_MARKERS, MIXED_MARKERS_STATUSES, sample_claims
from tests.stream.workers import (
    WorkerProcess,
    checked_answer,
    free_port,
    load_handbook,
    make_topics,
    read_verdicts,
    scrape,
    totals,
    wait_until,
)
from tests.support.kafka import KafkaBroker, OutgoingRecord, consume_all, produce

pytestmark = pytest.mark.integration

Names = Callable[[str], str]
StartWorker = Callable[..., WorkerProcess]

ANSWERS = [
    answer_payload(
        answer_id="mixed",
        answer_text=MIXED_MARKERS,
        kb_version="v1",
        retrieved_doc_ids=["S01", "S02", "S05"],
    ),
    answer_payload(answer_id="intro", answer_text=FOUR_SENTENCES, kb_version="v1"),
    answer_payload(answer_id="later", answer_text=MIXED_MARKERS, kb_version="v9"),
]
UNREADABLE = json.dumps(answer_payload(answer_id="broken", citations={"1": ""})).encode()


def test_answers_get_a_verdict_per_sentence_and_an_answer_record_and_dead_letters_keep_bytes(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: StartWorker,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic, partitions=2)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in ANSWERS))
    argv = ["publish", "--bootstrap-servers", bootstrap, "--topic", topics.claims]
    assert main([*argv, "--answers", str(answers)]) == 0
    assert capsys.readouterr().out == f"published 3 answers to {topics.claims}\n"
    key, value = claim_message(sample_claims()[0])
    produce(
        bootstrap,
        topics.claims,
        [OutgoingRecord(value, key), OutgoingRecord(UNREADABLE, b"broken", (("trace", b"t"),))],
    )

    port = free_port()
    worker = workers(
        kafka_broker,
        topics,
        store_url,
        group=unique_topic("group"),
        instance="w1",
        extra=("--metrics-port", str(port)),
    )
    # mixed: 4 + 1, intro: 4 + 1, the claim: 1.
    verdicts = read_verdicts(bootstrap, topics.verdicts, expected=11)
    letters = consume_all(bootstrap, topics.dlq, expected=3, timeout_s=30)
    expected_counts = {"supported": 5, "unsupported_quantity": 2}
    expected_counts |= {"missing_citation": 1, "needs_review_no_quantity": 1}
    wait_until(
        lambda: totals(scrape(port)["quantcheck_verdicts_total"], "status") == expected_counts,
        30,
        "the verdict metrics",
    )
    assert worker.stop() == 0

    claim_ids = [f"{answer}:{n}" for answer in ("mixed", "intro") for n in range(1, 5)]
    assert sorted(verdicts) == sorted([*claim_ids, "mixed", "intro", "C01"])
    # Four sentences with mixed markers: four claim verdicts and a record agreeing with them.
    sentences, mixed = checked_answer(verdicts, "mixed", MIXED_MARKERS_STATUSES)
    assert mixed.status == "unsupported_quantity"
    for verdict in sentences:
        for fact in verdict.facts:
            assert MIXED_MARKERS[fact.span.start : fact.span.end] == fact.text
    checked_answer(
        verdicts,
        "intro",
        ["needs_review_no_quantity", "supported", "unsupported_quantity", "supported"],
    )
    plain = verdicts["C01"]
    assert isinstance(plain, VerdictEvent)
    assert (plain.status, plain.answer_id) == ("supported", None)

    originals = {r.key: r for r in consume_all(bootstrap, topics.claims, expected=None)}
    found = {}
    for letter in letters:
        info = read_dead_letter_headers(letter.headers)
        source = originals[letter.key]
        assert (letter.key, letter.value) == (source.key, source.value)
        assert info.original_headers == source.headers
        assert (info.partition, info.offset) == (source.partition, source.offset)
        found[info.kind] = (info.claim_id, info.answer_id)
    assert found == {
        "missing_citation": ("mixed:4", "mixed"),
        "unknown_kb_version": (None, "later"),
        "schema_violation": (None, "broken"),
    }
