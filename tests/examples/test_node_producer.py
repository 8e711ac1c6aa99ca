"""The Node.js producer (examples/node-producer): installed from its lockfile with npm ci,
its own tests run by node, its answer events read back from the real broker by the Python
contracts, and checked by a real worker, whose verdicts and answer records are read back.
A second language proves the JSON Schemas are the contract."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from quantcheck.schemas import AnswerEvent, parse_answer, parse_claims_topic_value

from tests.schemas.samples import answer_payload
from tests.stream.workers import (
    WorkerProcess,
    checked_answer,
    load_handbook,
    make_topics,
    read_verdicts,
)
from tests.support.kafka import ROOT, KafkaBroker, consume_all, create_topics

PACKAGE = ROOT / "examples" / "node-producer"
PUBLISH = PACKAGE / "bin" / "publish-answers.js"

Names = Callable[[str], str]
StartWorker = Callable[..., WorkerProcess]

ANSWERS = [
    answer_payload(answer_id="node-1"),
    answer_payload(
        answer_id="node-2",
        answer_text="Uploads start at 25 MB [S05]. Files over 100 MB are split [S05].",
        citations={},
        retrieved_doc_ids=["S05"],
    ),
    answer_payload(
        answer_id="node-3",
        answer_text="Thanks for asking. Recalibrate past a 3 percent drift^[1][^2].",
        citations={"1": "S02", "2": "S02"},
    ),
]
STATUSES = {
    "node-1": ("supported", "supported"),
    "node-2": ("supported", "supported"),
    # "past a 3 percent drift" is read as exactly 3 percent; the handbook says more than 3.
    "node-3": ("needs_review_no_quantity", "unsupported_quantity"),
}
"""What the answers come to against the sample handbook, sentence by sentence."""


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed: run `make system-deps`", pytrace=False)
    return path


def run(*argv: str | Path, cwd: Path = PACKAGE) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(arg) for arg in argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def node_producer() -> Path:
    """The package with its dependencies installed exactly as locked."""
    installed = run(tool("npm"), "ci", "--no-audit", "--no-fund")
    assert installed.returncode == 0, installed.stderr
    return PACKAGE


def write_answers(path: Path, answers: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in answers))
    return path


def publish_with_node(
    bootstrap: str, topic: str, answers: Path
) -> subprocess.CompletedProcess[str]:
    return run(tool("node"), PUBLISH, "--brokers", bootstrap, "--topic", topic, answers)


@pytest.mark.integration
def test_the_package_tests_pass(node_producer: Path) -> None:
    done = run(tool("node"), "--test", "test/", cwd=node_producer)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout


@pytest.mark.integration
def test_published_answers_are_read_by_the_python_contracts_and_checked_by_a_worker(
    node_producer: Path,
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: StartWorker,
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic, partitions=3)
    kb_version = ANSWERS[0]["kb_version"]
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}", kb_version)
    worker = workers(kafka_broker, topics, store_url, group=unique_topic("group"), instance="w1")
    done = publish_with_node(bootstrap, topics.claims, write_answers(tmp_path / "a.jsonl", ANSWERS))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"published 3 answers to {topics.claims}\n"
    records = consume_all(bootstrap, topics.claims, expected=len(ANSWERS))
    events = {record.key: parse_claims_topic_value(record.value) for record in records}
    assert set(events) == {b"node-1", b"node-2", b"node-3"}
    for payload in ANSWERS:
        event = events[payload["answer_id"].encode()]
        assert isinstance(event, AnswerEvent)
        assert event == parse_answer(json.dumps(payload).encode())

    # Six sentences in all, and one record per answer.
    verdicts = read_verdicts(bootstrap, topics.verdicts, expected=9)
    assert worker.stop() == 0
    assert len(verdicts) == 9
    worst = {}
    for answer_id, statuses in STATUSES.items():
        _, record = checked_answer(verdicts, answer_id, statuses)
        worst[answer_id] = record.status
    assert worst == {
        "node-1": "supported",
        "node-2": "supported",
        "node-3": "unsupported_quantity",
    }
    assert consume_all(bootstrap, topics.dlq, expected=None) == []


@pytest.mark.integration
def test_an_invalid_answer_publishes_nothing(
    node_producer: Path, kafka_broker: KafkaBroker, unique_topic: Names, tmp_path: Path
) -> None:
    topic = unique_topic("claims")
    create_topics(kafka_broker.bootstrap, topic)
    answers = write_answers(tmp_path / "bad.jsonl", [ANSWERS[0], answer_payload(answer_text="")])
    done = publish_with_node(kafka_broker.bootstrap, topic, answers)
    assert done.returncode == 2
    error = "answer_text: must NOT have fewer than 1 characters"
    assert done.stderr == f"publish-answers: error: {answers}, line 2: {error}\n"
    assert consume_all(kafka_broker.bootstrap, topic, expected=None) == []
