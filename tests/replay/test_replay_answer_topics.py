"""Replaying answers after a real worker checked them: from the claims topic, compared with
each sentence's verdict and the answer record; from the dead-letter topic, a sentence's
dead letter and a whole answer's, the latter republished once and checked again."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from quantcheck.cli.main import main
from tests.replay.commands import replay
from tests.schemas.samples import answer_payload
from tests.stream.samples import MIXED_MARKERS
from tests.stream.workers import (
    WorkerProcess,
    checked_answer,
    load_handbook,
    make_topics,
    read_verdicts,
)
from tests.support.kafka import KafkaBroker, consume_all

pytestmark = pytest.mark.integration

LATER = "The logger records a reading every 15 seconds [1]. Calibrate at 2.5 L/min【2】."
ANSWERS = [
    answer_payload(answer_id="mixed", answer_text=MIXED_MARKERS, kb_version="v1"),
    answer_payload(answer_id="later", answer_text=LATER, kb_version="v9"),
]


def test_answers_replay_from_the_claims_and_dead_letter_topics(
    kafka_broker: KafkaBroker,
    unique_topic: Callable[[str], str],
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
    capsys: pytest.CaptureFixture[str],
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic, partitions=2)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in ANSWERS))
    argv = ["publish", "--bootstrap-servers", bootstrap, "--topic", topics.claims]
    assert main([*argv, "--answers", str(answers)]) == 0
    worker = workers(kafka_broker, topics, store_url, group=unique_topic("group"), instance="w1")
    statuses = ("supported", "unsupported_quantity", "supported", "missing_citation")
    checked_answer(read_verdicts(bootstrap, topics.verdicts, expected=5), "mixed", statuses)
    assert len(consume_all(bootstrap, topics.dlq, expected=2, timeout_s=30)) == 2

    rows = tmp_path / "claims.jsonl"
    claims = replay(capsys, bootstrap, topics, store_url, "--out", str(rows))
    assert claims.status == 0, claims.err
    assert claims.lines == [
        "claims=4",
        "supported=2",
        "unsupported_quantity=1",
        "missing_citation=1",
        "answers=2",
        "answers.unsupported_quantity=1",
        "answers.unknown_kb_version=1",
        "unchanged: 6",
        "recorded_missing: 0",
    ]
    read = [json.loads(line) for line in rows.read_text().splitlines()]
    mixed = [row for row in read if row["answer_id"] == "mixed"]
    assert [row["claim_id"] for row in mixed] == [*(f"mixed:{n}" for n in range(1, 5)), None]
    own = mixed[-1]
    assert (own["recorded_status"], own["new_status"]) == ("unsupported_quantity",) * 2
    assert own["recorded_reason"] == own["new_reason"]
    assert own["verdict"]["event_type"] == "answer_verdict"

    load_handbook(store_url, "v9")
    letters = replay(
        capsys, bootstrap, topics, store_url, "--topic", topics.dlq, "--republish-to", topics.claims
    )
    assert letters.status == 3, letters.err
    assert letters.lines == [
        "claims=3",
        "supported=2",
        "missing_citation=1",
        "answers=1",
        "answers.supported=1",
        "unknown_kb_version -> supported: 3",
        "unchanged: 1",
        "recorded_missing: 0",
        "republished=1",
    ]
    # The worker checks the republished answer: two claim verdicts and a record.
    verdicts = read_verdicts(bootstrap, topics.verdicts, expected=8)
    assert worker.stop() == 0
    _, later = checked_answer(verdicts, "later", ("supported", "supported"))
    assert later.kb_version == "v9"
