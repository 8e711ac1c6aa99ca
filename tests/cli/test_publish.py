"""``quantcheck publish``: claims from a file to the claims topic, keyed by claim ID."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from quantcheck.schemas import AnswerEvent, parse_claim, parse_claims_topic_value

from quantcheck.cli.main import main
from tests.stream.samples import CLAIMS, sample_claims
from tests.support.kafka import KafkaBroker, consume_all, create_topics

Names = Callable[[str], str]


def publish(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["publish", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.integration
def test_csv_claims_are_published_keyed_by_claim_id_with_the_given_defaults(
    capsys: pytest.CaptureFixture[str], kafka_broker: KafkaBroker, unique_topic: Names
) -> None:
    topic = unique_topic("claims")
    create_topics(kafka_broker.bootstrap, [topic], partitions=3)
    status, out, err = publish(
        capsys,
        "--bootstrap-servers",
        kafka_broker.bootstrap,
        "--topic",
        topic,
        "--kb-version",
        "handbook-v1",
        "--model",
        "demo-model",
        "--retriever",
        "demo-retriever",
        str(CLAIMS),
    )
    assert (status, err) == (0, "")
    assert out == f"published 16 claims to {topic}\n"
    records = consume_all(kafka_broker.bootstrap, topic, expected=None)
    events = {record.key or b"": parse_claim(record.value) for record in records}
    assert sorted(events) == sorted(c.claim_id.encode() for c in sample_claims())
    c04 = events[b"C04"]
    assert (c04.kb_version, c04.model) == ("handbook-v1", "demo-model")
    assert c04.retriever == "demo-retriever"
    assert c04.prompt == "At what flow rate is the meter calibrated?"
    assert c04.cited_doc_ids == ["S02"]
    assert c04.retrieved_doc_ids == ["S02", "S05"]


@pytest.mark.integration
def test_json_lines_are_published_as_written(
    capsys: pytest.CaptureFixture[str],
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
) -> None:
    topic = unique_topic("claims")
    create_topics(kafka_broker.bootstrap, [topic])
    events = [c.model_copy(update={"kb_version": "v7"}) for c in sample_claims()[:2]]
    path = tmp_path / "claims.jsonl"
    path.write_text("".join(e.model_dump_json() + "\n" for e in events), encoding="utf-8")
    status, out, _ = publish(
        capsys, "--bootstrap-servers", kafka_broker.bootstrap, "--topic", topic, str(path)
    )
    assert (status, out) == (0, f"published 2 claims to {topic}\n")
    records = consume_all(kafka_broker.bootstrap, topic, expected=None)
    assert [parse_claim(r.value) for r in records] == events


@pytest.mark.integration
def test_a_bad_file_publishes_nothing(
    capsys: pytest.CaptureFixture[str],
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
) -> None:
    topic = unique_topic("claims")
    create_topics(kafka_broker.bootstrap, [topic])
    lines = CLAIMS.read_text(encoding="utf-8").splitlines()
    # Row 5 cites nothing, retrieves nothing and has no text.
    lines.insert(4, "C99,Why?,,,,")
    path = tmp_path / "claims.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = publish(
        capsys,
        "--bootstrap-servers",
        kafka_broker.bootstrap,
        "--topic",
        topic,
        "--kb-version",
        "v1",
        str(path),
    )
    assert (status, out) == (2, "")
    assert err.startswith(f"quantcheck: error: {path}, row 5")
    assert err.count("\n") == 1
    assert consume_all(kafka_broker.bootstrap, topic, expected=None) == []


def test_csv_claims_need_a_knowledge_base_version(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = publish(capsys, "--bootstrap-servers", "127.0.0.1:1", str(CLAIMS))
    assert status == 2
    assert "kb_version" in err
    assert "--kb-version" in err


@pytest.mark.integration
def test_a_file_of_answers_needs_no_event_type(
    capsys: pytest.CaptureFixture[str],
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
) -> None:
    topic = unique_topic("claims")
    create_topics(kafka_broker.bootstrap, [topic])
    answer = {
        "schema_version": 1,
        "answer_id": "A1",
        "answer_text": "Log a reading every 15 seconds [1].",
        "citations": {"1": "S01"},
        "retrieved_doc_ids": ["S01"],
        "kb_version": "v1",
        "produced_at": "2026-06-01T12:00:00Z",
    }
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps(answer) + "\n", encoding="utf-8")
    status, out, err = publish(
        capsys, "--bootstrap-servers", kafka_broker.bootstrap, "--topic", topic, "--answers",
        str(path),
    )  # fmt: skip
    assert (status, err) == (0, "")
    assert out == f"published 1 answers to {topic}\n"
    (record,) = consume_all(kafka_broker.bootstrap, topic, expected=None)
    # Published as the worker reads an answer: naming itself.
    event = parse_claims_topic_value(record.value)
    assert isinstance(event, AnswerEvent)
    assert (record.key, event.answer_text) == (b"A1", answer["answer_text"])
