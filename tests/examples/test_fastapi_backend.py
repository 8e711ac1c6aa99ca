"""The FastAPI example as a real server: it answers at once, its answer events reach the
real broker, keyed by answer ID and valid against the contract, and a real worker checks
them: each answer's four sentences get their claim verdicts and the answer its record. It
keeps answering while Kafka is away."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from quantcheck.schemas import AnswerEvent, parse_claims_topic_value

from tests.stream.workers import (
    WorkerProcess,
    checked_answer,
    free_port,
    load_handbook,
    make_topics,
    read_verdicts,
    wait_until,
)
from tests.support.kafka import ROOT, KafkaBroker, consume_all

EXAMPLE = ROOT / "examples" / "fastapi_backend.py"
QUESTION = {"question": "How often does the logger record readings?"}

STATUSES = ("needs_review_no_quantity", "supported", "supported", "supported")
"""What the example's answer comes to against the sample handbook: an introduction without
number or marker, then three supported sentences (one with "e.g." and "2.5 L/min")."""

Names = Callable[[str], str]
StartWorker = Callable[..., WorkerProcess]


def answers_http(base: str) -> bool:
    try:
        return httpx.get(f"{base}/healthz", timeout=2).status_code == 200
    except httpx.TransportError:
        return False


@contextmanager
def backend(bootstrap: str, topic: str, log: Path, *, graceful: bool = True) -> Iterator[str]:
    """The example running as its own process; yields its base URL. Stopping it is
    graceful (Ctrl-C: the publisher sends what it holds) unless ``graceful`` is false."""
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "QUANTCHECK_BOOTSTRAP_SERVERS": bootstrap,
        "QUANTCHECK_CLAIMS_TOPIC": topic,
        "QUANTCHECK_KB_VERSION": "v1",
    }
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, str(EXAMPLE), "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=ROOT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: process.poll() is not None or answers_http(base), 60, "the example")
        assert process.poll() is None, log.read_text(errors="replace")
        yield base
    finally:
        process.send_signal(signal.SIGINT if graceful else signal.SIGKILL)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.integration
def test_answers_are_returned_published_and_checked_by_a_worker(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: StartWorker,
) -> None:
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic, partitions=3)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    worker = workers(kafka_broker, topics, store_url, group=unique_topic("group"), instance="w1")
    with backend(bootstrap, topics.claims, tmp_path / "backend.log") as base:
        replies = [httpx.post(f"{base}/ask", json=QUESTION, timeout=30) for _ in range(3)]
    assert [reply.status_code for reply in replies] == [200, 200, 200]
    bodies = {reply.json()["answer_id"]: reply.json() for reply in replies}
    assert all(body["queued"] for body in bodies.values())
    records = consume_all(bootstrap, topics.claims, expected=3)
    assert sorted((r.key or b"").decode() for r in records) == sorted(bodies)
    for record in records:
        event = parse_claims_topic_value(record.value)
        assert isinstance(event, AnswerEvent)
        assert event.answer_text == bodies[event.answer_id]["answer"]
        assert event.citations == {"1": "S01", "2": "S02"}
        assert (event.kb_version, event.prompt) == ("v1", QUESTION["question"])

    # Three answers of four sentences: twelve claim verdicts and three answer records.
    verdicts = read_verdicts(bootstrap, topics.verdicts, expected=15)
    assert worker.stop() == 0
    assert len(verdicts) == 15
    for answer_id in bodies:
        _, record = checked_answer(verdicts, answer_id, STATUSES)
        assert (record.status, record.counts.supported) == ("needs_review_no_quantity", 3)
        assert (record.model, record.retriever, record.kb_version) == (
            "example-model",
            "bm25",
            "v1",
        )
    assert consume_all(bootstrap, topics.dlq, expected=None) == []


@pytest.mark.integration
def test_answers_keep_coming_while_kafka_is_away(tmp_path: Path, unique_topic: Names) -> None:
    nowhere = f"127.0.0.1:{free_port()}"
    # Killed at the end: a graceful stop would spend its budget trying to reach Kafka.
    with backend(nowhere, unique_topic("claims"), tmp_path / "b.log", graceful=False) as base:
        replies = [httpx.post(f"{base}/ask", json=QUESTION, timeout=30) for _ in range(3)]
    assert [reply.status_code for reply in replies] == [200, 200, 200]
    assert all(reply.json()["queued"] for reply in replies)
