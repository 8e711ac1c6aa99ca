"""The relay baseline of the Kafka benchmark runs against the real broker: the worker's
throughput is quoted as a ratio to it, so a relay that cannot start leaves the benchmark
without its main figure."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.support.kafka import KafkaBroker, consume_all, create_topics, produce

Names = Callable[[str], str]

RECORDS = 40
EXIT_DEADLINE_S = 30


@pytest.mark.integration
@pytest.mark.parametrize("delivery", ["exactly-once", "at-least-once"])
def test_the_relay_copies_every_record_once_and_reports_it(
    kafka_broker: KafkaBroker, unique_topic: Names, tmp_path: Path, delivery: str
) -> None:
    bootstrap = kafka_broker.bootstrap
    source, copies = unique_topic("claims"), unique_topic("copies")
    create_topics(bootstrap, [source, copies], partitions=2)
    values = [f"claim-{n}".encode() for n in range(RECORDS)]
    produce(bootstrap, source, values)
    report = tmp_path / "report.json"
    relay = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bench.relay",
            "--bootstrap-servers",
            bootstrap,
            "--input",
            source,
            "--output",
            copies,
            "--group-id",
            unique_topic("relay"),
            "--instance-id",
            unique_topic("relay"),
            "--delivery",
            delivery,
            "--report",
            str(report),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        copied = consume_all(bootstrap, copies, expected=RECORDS, timeout_s=60)
    finally:
        relay.send_signal(signal.SIGTERM)
        output, _ = relay.communicate(timeout=EXIT_DEADLINE_S)
    assert relay.returncode == 0, output
    assert sorted(r.value for r in copied) == sorted(values)
    assert json.loads(report.read_text(encoding="utf-8"))["relayed"] == RECORDS
