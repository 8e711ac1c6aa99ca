"""``quantcheck topics create``: the three topics, their sizes, and reruns that change nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from kafka import KafkaAdminClient
from kafka.admin import ConfigResource, ConfigResourceType
from quantcheck.worker.stream.config import MAX_CLAIM_RECORD_BYTES, MAX_DEAD_LETTER_RECORD_BYTES

from quantcheck.cli.main import main
from tests.support.kafka import KafkaBroker

Names = Callable[[str], str]


@pytest.fixture
def admin(kafka_broker: KafkaBroker) -> Iterator[Any]:
    client = KafkaAdminClient(bootstrap_servers=kafka_broker.bootstrap)
    yield client
    client.close()


def create(
    capsys: pytest.CaptureFixture[str], bootstrap: str, names: list[str], *extra: str
) -> tuple[int, str, str]:
    claims, verdicts, dlq = names
    status = main(
        [
            "topics",
            "create",
            "--bootstrap-servers",
            bootstrap,
            "--claims-topic",
            claims,
            "--verdicts-topic",
            verdicts,
            "--dlq-topic",
            dlq,
            *extra,
        ]
    )
    out, err = capsys.readouterr()
    return status, out, err


def max_message_bytes(admin: Any, topic: str) -> int:
    described = admin.describe_configs(
        [ConfigResource(ConfigResourceType.TOPIC, topic, ["max.message.bytes"])]
    )
    return int(described["topic"][topic]["max.message.bytes"]["value"])


@pytest.mark.integration
def test_creates_six_six_three_partitions_with_room_for_large_records(
    capsys: pytest.CaptureFixture[str], kafka_broker: KafkaBroker, unique_topic: Names, admin: Any
) -> None:
    names = [unique_topic("claims"), unique_topic("verdicts"), unique_topic("dlq")]
    status, out, err = create(capsys, kafka_broker.bootstrap, names)
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        f"created {names[0]} (6 partitions)",
        f"created {names[1]} (6 partitions)",
        f"created {names[2]} (3 partitions)",
    ]
    assert max_message_bytes(admin, names[0]) == MAX_CLAIM_RECORD_BYTES
    assert max_message_bytes(admin, names[2]) == MAX_DEAD_LETTER_RECORD_BYTES

    status, out, _ = create(capsys, kafka_broker.bootstrap, names, "--partitions", "2")
    assert status == 0
    assert out.splitlines() == [
        f"exists  {names[0]} (6 partitions)",
        f"exists  {names[1]} (6 partitions)",
        f"exists  {names[2]} (3 partitions)",
    ]


@pytest.mark.integration
def test_partitions_sets_claims_and_verdicts_and_halves_for_dead_letters(
    capsys: pytest.CaptureFixture[str], kafka_broker: KafkaBroker, unique_topic: Names
) -> None:
    names = [unique_topic("claims"), unique_topic("verdicts"), unique_topic("dlq")]
    status, out, _ = create(capsys, kafka_broker.bootstrap, names, "--partitions", "2")
    assert status == 0
    assert [line.split("(")[1] for line in out.splitlines()] == [
        "2 partitions)",
        "2 partitions)",
        "1 partitions)",
    ]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--partitions", "0"), "argument --partitions: 0 is not allowed: it must be at least 1"),
        (("--replication-factor", "0"), "0 is not allowed: it must be at least -1 and not 0"),
    ],
)
def test_bad_counts_are_usage_errors(
    capsys: pytest.CaptureFixture[str], extra: tuple[str, ...], message: str
) -> None:
    status, out, err = create(capsys, "127.0.0.1:1", ["a", "b", "c"], *extra)
    assert (status, out) == (2, "")
    assert message in err
