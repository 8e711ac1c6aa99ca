"""The Kafka side of the broker-backed benchmarks: the broker, topics, publishing, receiving.

A benchmark uses the broker named by ``KAFKA_BOOTSTRAP_SERVERS`` when that variable is set.
Otherwise :func:`shared_broker` starts a single-node broker with ``deploy/local/kafka`` in a
temporary directory and stops it when the block ends, however it ends. ``bench.run_all``
starts one broker that way and hands its address to every benchmark through the variable,
so the broker starts once per run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from quantcheck.worker.stream.config import KafkaConnection, admin_config, producer_config
from quantcheck.worker.stream.topics import TopicSpec, create_topics

from bench.common import ROOT

BOOTSTRAP_ENV = "KAFKA_BOOTSTRAP_SERVERS"
KAFKA_SCRIPT = ROOT / "deploy" / "local" / "kafka"
# The first start on a machine fetches the broker's jars; later starts take seconds.
START_TIMEOUT_S = 900.0
STOP_TIMEOUT_S = 90.0
PUBLISH_TIMEOUT_S = 120.0
METADATA_TIMEOUT_S = 30.0


def _kafka_script(command: str, state_dir: Path, timeout_s: float) -> str:
    env = {**os.environ, "QUANTCHECK_PYTHON": os.environ.get("QUANTCHECK_PYTHON", sys.executable)}
    done = subprocess.run(
        [str(KAFKA_SCRIPT), command, "--state-dir", str(state_dir)],
        capture_output=True,
        text=True,
        timeout=timeout_s,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        detail = done.stderr.strip() or done.stdout.strip() or f"exit status {done.returncode}"
        raise RuntimeError(f"deploy/local/kafka {command} failed: {detail}")
    return done.stdout.strip()


@contextmanager
def shared_broker() -> Iterator[str]:
    """The bootstrap address of the broker to measure against (see the module docstring)."""
    given = os.environ.get(BOOTSTRAP_ENV, "").strip()
    if given:
        yield given
        return
    with tempfile.TemporaryDirectory(prefix="quantcheck-bench-kafka-") as state:
        state_dir = Path(state)
        try:
            yield _kafka_script("start", state_dir, START_TIMEOUT_S)
        finally:
            # Also after a failed start: the script may have left a broker half way up.
            _kafka_script("stop", state_dir, STOP_TIMEOUT_S)


def connection(bootstrap: str) -> KafkaConnection:
    """A plaintext connection to ``bootstrap``."""
    return KafkaConnection(tuple(s.strip() for s in bootstrap.split(",") if s.strip()))


def unique_name(prefix: str) -> str:
    """``prefix`` plus a random suffix: runs sharing a broker never share a topic or group."""
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def make_topics(bootstrap: str, specs: Iterable[TopicSpec]) -> None:
    """Create the topics and wait until every partition has a leader."""
    admin = KafkaAdminClient(**admin_config(connection(bootstrap), client_id="quantcheck-bench"))
    try:
        create_topics(admin, specs)
    finally:
        admin.close()


def publisher(bootstrap: str) -> Any:
    """An idempotent producer configured as the worker's own (without a transactional id)."""
    return KafkaProducer(
        **producer_config(
            connection(bootstrap), client_id="quantcheck-bench", transactional_id=None
        )
    )


def publish(bootstrap: str, topic: str, messages: Iterable[tuple[bytes, bytes]]) -> int:
    """Send keyed messages as fast as the producer takes them; returns how many were acked."""
    producer = publisher(bootstrap)
    try:
        futures = [producer.send(topic, key=key, value=value) for key, value in messages]
        producer.flush(timeout=PUBLISH_TIMEOUT_S)
        for future in futures:
            if not future.is_done or future.failed():
                raise RuntimeError(f"a message to {topic} was not acknowledged: {future.exception}")
    finally:
        producer.close()
    return len(futures)


class Receiver:
    """Reads one topic from its beginning as a read_committed consumer outside any group.

    It sees a record only once the transaction that wrote it has committed, so the moment
    a record arrives here is the moment its commit became visible downstream (give or take
    the fetch round trip). Set it up before the run it watches, so that its own start-up
    is not counted.
    """

    def __init__(self, bootstrap: str, topic: str, partitions: int) -> None:
        self._consumer = KafkaConsumer(
            **connection(bootstrap).client_config("quantcheck-bench-receiver"),
            group_id=None,
            enable_auto_commit=False,
            isolation_level="read_committed",
            auto_offset_reset="earliest",
            # A short broker-side wait keeps the arrival times close to the commits.
            fetch_max_wait_ms=50,
            max_poll_records=5_000,
        )
        # A topic created a moment ago may not be in the metadata this client gets first.
        deadline = time.monotonic() + METADATA_TIMEOUT_S
        while len(self._consumer.partitions_for_topic(topic)) < partitions:
            if time.monotonic() > deadline:
                self._consumer.close(autocommit=False)
                raise RuntimeError(f"{topic} did not show {partitions} partitions in time")
            time.sleep(0.1)
        assigned = [TopicPartition(topic, p) for p in range(partitions)]
        self._consumer.assign(assigned)
        self._consumer.seek_to_beginning(*assigned)
        self.count = 0
        self.first_at: float | None = None
        self.first_count = 0
        self.last_at: float | None = None

    def poll(self, timeout_ms: int) -> list[tuple[bytes | None, float]]:
        """The records that arrived within ``timeout_ms``: each key and its arrival time."""
        polled = self._consumer.poll(timeout_ms=timeout_ms)
        if not polled:
            return []
        arrived = time.time()
        keys = [record.key for records in polled.values() for record in records]
        self.count += len(keys)
        if self.first_at is None:
            self.first_at, self.first_count = arrived, len(keys)
        self.last_at = arrived
        return [(key, arrived) for key in keys]

    def wait_for(self, count: int, timeout_s: float, alive: Callable[[], bool]) -> float:
        """Receive until ``count`` records have arrived; the arrival time of the last one.

        Raises RuntimeError when ``alive`` turns false or ``timeout_s`` passes without a
        new record first.
        """
        deadline = time.monotonic() + timeout_s
        while self.count < count:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.count} of {count} records, none new for {timeout_s:g}s")
            if not alive():
                # One last look: the process may have committed its last batch and exited.
                self.poll(500)
                if self.count < count:
                    raise RuntimeError(f"the process under test exited after {self.count} records")
            if self.poll(100):
                deadline = time.monotonic() + timeout_s
        assert self.last_at is not None
        return self.last_at

    def close(self) -> None:
        """Close the consumer."""
        self._consumer.close(autocommit=False)


def topic_specs(names: Mapping[str, int]) -> list[TopicSpec]:
    """Plain topics with the given partition counts."""
    return [TopicSpec(name, partitions) for name, partitions in names.items()]
