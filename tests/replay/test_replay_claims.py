"""Replaying the claims topic after a real worker run, against the real broker and store."""

from __future__ import annotations

import csv
import itertools
import json
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaAdminClient, KafkaProducer
from quantcheck.worker.replay.window import format_millis
from quantcheck.worker.store import open_store
from quantcheck.worker.stream.publish import claim_message, publish_claims

from tests.replay.commands import Result, replay
from tests.replay.samples import handbook_v2
from tests.stream.samples import sample_claims
from tests.stream.workers import (
    Topics,
    WorkerProcess,
    big_producer,
    load_handbook,
    make_topics,
    wait_until,
)
from tests.support.kafka import (
    ConsumedRecord,
    KafkaBroker,
    consume_all,
    create_topics,
    unique_topic_name,
)

pytestmark = pytest.mark.integration

SUMMARY = [
    "claims=16",
    "supported=7",
    "unsupported_quantity=5",
    "missing_citation=1",
    "unknown_citation=1",
    "citation_not_retrieved=1",
    "needs_review_no_quantity=1",
]


@dataclass(frozen=True)
class WorkerRun:
    """The 16 sample claims, checked by a worker that has stopped since."""

    broker: KafkaBroker
    topics: Topics
    store_url: str
    group: str
    verdicts: list[ConsumedRecord]

    @property
    def bootstrap(self) -> str:
        return self.broker.bootstrap


def committed(bootstrap: str, group: str) -> dict[Any, Any]:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        return dict(admin.list_group_offsets({group: None})[group])
    finally:
        admin.close()


def group_ids(bootstrap: str) -> set[str]:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        return {group["group_id"] for group in admin.list_groups()}
    finally:
        admin.close()


def publish(bootstrap: str, topic: str, events: list[Any]) -> None:
    producer: KafkaProducer = big_producer(bootstrap)
    try:
        publish_claims(producer, topic, events)
    finally:
        producer.close()


@pytest.fixture(scope="module")
def worker_run(kafka_broker: KafkaBroker, tmp_path_factory: pytest.TempPathFactory) -> WorkerRun:
    """v1 and v2 in a SQLite store, the sample claims published as v1 and checked."""
    tmp = tmp_path_factory.mktemp("replay-claims")
    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic_name, partitions=3)
    store_url = load_handbook(f"sqlite:///{tmp / 'store.db'}")
    with open_store(store_url) as store:
        store.load_version("v2", handbook_v2().values())
    publish(bootstrap, topics.claims, sample_claims())
    group = unique_topic_name("group")
    worker = WorkerProcess(
        kafka_broker, topics, store_url, tmp / "worker.log", group=group, instance="w1"
    ).start()
    try:
        verdicts = consume_all(bootstrap, topics.verdicts, expected=16, timeout_s=60)
        wait_until(
            lambda: sum(o.offset for o in committed(bootstrap, group).values()) == 16,
            30,
            "the worker group to commit every claim",
        )
    finally:
        assert worker.stop() == 0
    assert len(verdicts) == 16
    return WorkerRun(kafka_broker, topics, store_url, group, verdicts)


def run(capsys: pytest.CaptureFixture[str], recorded: WorkerRun, *argv: str) -> Result:
    return replay(capsys, recorded.bootstrap, recorded.topics, recorded.store_url, *argv)


def test_replaying_the_whole_topic_changes_nothing_and_twice_gives_identical_files(
    worker_run: WorkerRun, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    outputs: dict[str, list[bytes]] = {"csv": [], "jsonl": []}
    for attempt in range(2):
        for kind, files in outputs.items():
            path = tmp_path / f"rows-{attempt}.{kind}"
            result = run(capsys, worker_run, "--out", str(path))
            assert result.status == 0, result.err
            assert result.lines == [*SUMMARY, "unchanged: 16", "recorded_missing: 0"]
            files.append(path.read_bytes())
    for kind, (first, second) in outputs.items():
        assert first == second, kind
    rows = [json.loads(line) for line in outputs["jsonl"][0].splitlines()]
    assert [(r["partition"], r["offset"]) for r in rows] == sorted(
        (r["partition"], r["offset"]) for r in rows
    )
    # The replayed verdict is the recorded one, except when it counts as checked.
    bodies = [json.loads(v.value or b"") for v in worker_run.verdicts]
    recorded = {body["claim_id"]: body for body in bodies}
    for row in rows:
        new, old = row["verdict"], recorded[row["claim_id"]]
        assert {**new, "checked_at": None} == {**old, "checked_at": None}
        assert datetime.fromisoformat(new["checked_at"]) == datetime.fromtimestamp(
            row["source_timestamp"] / 1000, UTC
        )


def test_a_new_knowledge_base_version_changes_one_claim_and_exits_3(
    worker_run: WorkerRun, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rows = tmp_path / "rows.csv"
    report = tmp_path / "report.html"
    result = run(
        capsys,
        worker_run,
        "--kb-version-override",
        "v2",
        "--out",
        str(rows),
        "--report",
        str(report),
    )
    assert result.status == 3, result.err
    assert result.lines[-3:] == [
        "supported -> unsupported_quantity: 1",
        "unchanged: 15",
        "recorded_missing: 0",
    ]
    with rows.open(encoding="utf-8", newline="") as handle:
        changed = [row for row in csv.DictReader(handle) if row["transition"] != "unchanged"]
    assert len(changed) == 1
    assert changed[0]["claim_id"] == "C01"
    assert changed[0]["recorded_reason"] == "matched cited evidence: time_seconds=15"
    assert changed[0]["new_reason"] == "not in cited evidence: time_seconds=15"
    page = report.read_text(encoding="utf-8")
    assert "<h3>C01: supported -&gt; unsupported_quantity</h3>" in page
    assert page.count('<section class="claim">') == 1


def test_the_production_group_is_untouched_and_no_group_is_created(
    worker_run: WorkerRun, capsys: pytest.CaptureFixture[str]
) -> None:
    before = committed(worker_run.bootstrap, worker_run.group)
    groups_before = group_ids(worker_run.bootstrap)
    assert sum(o.offset for o in before.values()) == 16
    result = run(capsys, worker_run, "--kb-version-override", "v2")
    assert result.status == 3
    result = run(capsys, worker_run, "--partition", "1", "--last", "2")
    assert result.status == 0
    assert committed(worker_run.bootstrap, worker_run.group) == before
    assert group_ids(worker_run.bootstrap) == groups_before


def test_last_n_of_one_partition(
    worker_run: WorkerRun, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rows = tmp_path / "rows.jsonl"
    result = run(capsys, worker_run, "--partition", "1", "--last", "2", "--out", str(rows))
    assert result.status == 0
    assert result.lines[0] == "claims=2"
    assert "unchanged: 2" in result.lines
    read = [json.loads(line) for line in rows.read_text().splitlines()]
    sources = [json.loads(v.value or b"")["source"] for v in worker_run.verdicts]
    on_one = sorted(source["offset"] for source in sources if source["partition"] == 1)
    assert [(row["partition"], row["offset"]) for row in read] == [(1, o) for o in on_one[-2:]]


def test_a_time_window_selects_exactly_the_claims_published_in_it(
    worker_run: WorkerRun, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bootstrap = worker_run.bootstrap
    topics = Topics(
        unique_topic_name("claims"), unique_topic_name("verdicts"), worker_run.topics.dlq
    )
    scratch = unique_topic_name("scratch")
    create_topics(bootstrap, [topics.claims, topics.verdicts, scratch], partitions=3)
    first = [c.model_copy(update={"claim_id": f"A-{c.claim_id}"}) for c in sample_claims()]
    second = [c.model_copy(update={"claim_id": f"B-{c.claim_id}"}) for c in sample_claims()]
    publish(bootstrap, topics.claims, first)
    time.sleep(1.5)
    publish(bootstrap, topics.claims, second)
    stamps = {
        json.loads(r.value or b"")["claim_id"]: r.timestamp
        for r in consume_all(bootstrap, topics.claims, expected=None)
    }
    end_of_first = max(stamps[c.claim_id] for c in first)
    start_of_second = min(stamps[c.claim_id] for c in second)
    assert start_of_second - end_of_first > 1000
    middle = format_millis((end_of_first + start_of_second) // 2)

    def ids(rows: Path) -> set[str]:
        return {json.loads(line)["claim_id"] for line in rows.read_text().splitlines()}

    def replay_topics(*argv: str) -> Result:
        return replay(capsys, bootstrap, topics, worker_run.store_url, *argv)

    # Fill a scratch topic with this topic's verdicts, as a recorded run to compare with.
    result = replay_topics("--no-compare", "--publish-to", scratch)
    assert result.status == 0
    assert result.lines[-2:] == ["not_compared: 32", "published=32"]

    rows = tmp_path / "second.jsonl"
    result = replay_topics("--from", middle, "--compare-topic", scratch, "--out", str(rows))
    assert result.status == 0, result.err
    assert result.lines[0] == "claims=16"
    assert result.lines[-2:] == ["unchanged: 16", "recorded_missing: 0"]
    assert ids(rows) == {c.claim_id for c in second}
    # Only the verdicts of the window's claims were kept from the compare topic.
    assert f"recorded verdicts for this window in {scratch}: 16" in result.err

    rows = tmp_path / "first.jsonl"
    result = replay_topics("--to", middle, "--no-compare", "--out", str(rows))
    assert result.status == 0
    assert ids(rows) == {c.claim_id for c in first}

    rows = tmp_path / "none.jsonl"
    later = format_millis(max(stamps.values()) + 1)
    result = replay_topics("--from", later, "--no-compare", "--out", str(rows))
    assert (result.status, result.lines[0]) == (0, "claims=0")


def test_the_end_is_fixed_when_the_replay_starts_while_producers_keep_writing(
    worker_run: WorkerRun, capsys: pytest.CaptureFixture[str]
) -> None:
    bootstrap = worker_run.bootstrap
    topics = Topics(unique_topic_name("claims"), worker_run.topics.verdicts, worker_run.topics.dlq)
    create_topics(bootstrap, [topics.claims], partitions=2)
    publish(bootstrap, topics.claims, sample_claims())
    stop = threading.Event()
    template = sample_claims()[0]

    def keep_publishing() -> None:
        producer = big_producer(bootstrap)
        try:
            for n in itertools.count():
                if stop.is_set():
                    return
                key, value = claim_message(template.model_copy(update={"claim_id": f"L{n}"}))
                producer.send(topics.claims, key=key, value=value)
                producer.flush()
                time.sleep(0.005)
        finally:
            producer.close()

    writer = threading.Thread(target=keep_publishing, daemon=True)
    writer.start()
    try:
        time.sleep(1.0)
        result = replay(capsys, bootstrap, topics, worker_run.store_url, "--no-compare")
        still_writing = writer.is_alive()
    finally:
        stop.set()
        writer.join(timeout=30)
    assert result.status == 0, result.err
    assert still_writing
    replayed = int(result.lines[0].removeprefix("claims="))
    written = len(consume_all(bootstrap, topics.claims, expected=None))
    assert 16 < replayed < written


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--topic", "no-such-topic-for-replay"], "--topic: topic 'no-such-topic-for-replay' "),
        (["--compare-topic", "no-such-verdicts"], "--compare-topic: topic 'no-such-verdicts' "),
        (["--publish-to", "no-such-scratch"], "--publish-to: topic 'no-such-scratch' does not"),
        (["--from-offset", "0:999"], "--from-offset 0:999 is out of range: partition 0 holds"),
        (["--partition", "7"], "partition 7 does not exist in topic"),
    ],
)
def test_what_the_broker_refutes_exits_2_with_one_line(
    worker_run: WorkerRun, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    result = run(capsys, worker_run, *argv)
    assert result.status == 2
    assert result.out == ""
    assert result.err.startswith("quantcheck: error: ")
    assert result.err.count("\n") == 1
    assert message in result.err
