"""Pytest plugin for tests that need a real Kafka broker, plus small client helpers.

Registered from tests/conftest.py with ``pytest_plugins = ["tests.support.kafka"]``.

The session fixture ``kafka_broker`` talks to the broker named by ``KAFKA_BOOTSTRAP_SERVERS``
when that variable is set. Otherwise it starts a private single-node broker with
``deploy/local/kafka`` in the session's temporary directory and stops it when the session ends,
including after a failure or Ctrl-C.

The helpers open a short-lived client per call, so a test can use them before, during and
after a broker restart without managing connections.
"""

from __future__ import annotations

import atexit
import functools
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition

ROOT = Path(__file__).resolve().parents[2]
KAFKA_SCRIPT = ROOT / "deploy" / "local" / "kafka"
BOOTSTRAP_ENV = "KAFKA_BOOTSTRAP_SERVERS"

# The first start on a machine downloads the broker's jars; the script bounds the broker's own
# startup, so this only guards against a hung download.
START_TIMEOUT_S = 900.0
STOP_TIMEOUT_S = 90.0

Headers = tuple[tuple[str, bytes], ...]


class ExternalBrokerError(RuntimeError):
    """A test tried to stop or restart a broker that it did not start."""


class KafkaScriptError(RuntimeError):
    """``deploy/local/kafka`` failed; the message carries its one-line error."""


@dataclass(frozen=True)
class ConsumedRecord:
    """One record as read back from a topic."""

    key: bytes | None
    value: bytes | None
    headers: Headers
    partition: int
    offset: int
    timestamp: int


@dataclass(frozen=True)
class OutgoingRecord:
    """A record for :func:`produce`; a plain ``bytes`` item stands for a value without a key."""

    value: bytes | None
    key: bytes | None = None
    headers: Headers = field(default_factory=tuple)
    partition: int | None = None


def run_kafka_script(
    command: str, state_dir: Path, *, timeout_s: float, options: tuple[str, ...] = ()
) -> str:
    """Run ``deploy/local/kafka COMMAND --state-dir STATE_DIR [OPTIONS]`` and return its
    stdout, stripped.

    Raises KafkaScriptError with the script's own error line when it fails or hangs.
    """
    env = dict(os.environ)
    # The readiness check needs kafka-python, which the interpreter running the tests has.
    env.setdefault("QUANTCHECK_PYTHON", sys.executable)
    argv = [str(KAFKA_SCRIPT), command, "--state-dir", str(state_dir), *options]
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=timeout_s, env=env, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise KafkaScriptError(
            f"deploy/local/kafka {command} did not finish within {timeout_s:.0f}s "
            f"(broker logs: {state_dir / 'logs'})"
        ) from exc
    if done.returncode != 0:
        detail = done.stderr.strip() or done.stdout.strip() or f"exit status {done.returncode}"
        raise KafkaScriptError(f"deploy/local/kafka {command} failed: {detail}")
    return done.stdout.strip()


class KafkaBroker:
    """The broker the tests use, reachable at ``bootstrap``.

    ``external`` is True for a broker named by KAFKA_BOOTSTRAP_SERVERS: the tests do not own
    it, so :meth:`stop` and :meth:`start` raise ExternalBrokerError. Tests that stop the
    broker should skip when ``external`` is set.
    """

    def __init__(self, bootstrap: str, state_dir: Path | None = None) -> None:
        self.bootstrap = bootstrap
        self.state_dir = state_dir

    @property
    def external(self) -> bool:
        """Whether the broker comes from KAFKA_BOOTSTRAP_SERVERS rather than this session."""
        return self.state_dir is None

    @classmethod
    def launch(cls, state_dir: Path, *, authorizer: bool = False) -> KafkaBroker:
        """Start a local broker keeping its config, data and logs in ``state_dir``; with
        ``authorizer``, one that authenticates users and enforces ACLs (see :meth:`user`)."""
        options = ("--authorizer",) if authorizer else ()
        address = run_kafka_script("start", state_dir, timeout_s=START_TIMEOUT_S, options=options)
        return cls(address, state_dir)

    def user(self, name: str) -> dict[str, str]:
        """kafka-python settings to connect as ``name`` (``admin``, a super user, or
        ``worker``) to a broker launched with the authorizer."""
        users = (self._own_state_dir("read the users of") / "users").read_text()
        passwords = dict(line.split() for line in users.splitlines() if line.strip())
        return {
            "security_protocol": "SASL_PLAINTEXT",
            "sasl_mechanism": "PLAIN",
            "sasl_plain_username": name,
            "sasl_plain_password": passwords[name],
        }

    def stop(self) -> None:
        """Stop the broker cleanly (SIGKILL only if it hangs); a stopped broker stays stopped."""
        run_kafka_script("stop", self._own_state_dir("stop"), timeout_s=STOP_TIMEOUT_S)

    def start(self) -> None:
        """Start the broker again with the data it had, on the same address."""
        address = run_kafka_script("start", self._own_state_dir("start"), timeout_s=START_TIMEOUT_S)
        if address != self.bootstrap:
            raise KafkaScriptError(
                f"the restarted broker listens on {address}, not on {self.bootstrap}"
            )

    def _own_state_dir(self, action: str) -> Path:
        if self.state_dir is None:
            raise ExternalBrokerError(
                f"cannot {action} the broker at {self.bootstrap}: it comes from "
                f"{BOOTSTRAP_ENV}; unset that variable to let the tests run their own broker"
            )
        return self.state_dir

    def __repr__(self) -> str:
        origin = BOOTSTRAP_ENV if self.external else str(self.state_dir)
        return f"KafkaBroker({self.bootstrap!r}, from {origin})"


def _stop_quietly(state_dir: Path) -> None:
    try:
        run_kafka_script("stop", state_dir, timeout_s=STOP_TIMEOUT_S)
    except KafkaScriptError as exc:
        print(f"warning: {exc}", file=sys.stderr)


@pytest.fixture(scope="session")
def kafka_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KafkaBroker]:
    """A running broker for the whole session (see the module docstring)."""
    external = os.environ.get(BOOTSTRAP_ENV, "").strip()
    if external:
        yield KafkaBroker(external)
        return
    state_dir = tmp_path_factory.mktemp("kafka")
    # pytest runs session finalizers after failures and Ctrl-C; atexit covers an interpreter
    # that exits without reaching them, so no broker outlives the test run.
    stop_at_exit = functools.partial(_stop_quietly, state_dir)
    atexit.register(stop_at_exit)
    try:
        yield KafkaBroker.launch(state_dir)
    finally:
        atexit.unregister(stop_at_exit)
        run_kafka_script("stop", state_dir, timeout_s=STOP_TIMEOUT_S)


@pytest.fixture
def authorizer_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KafkaBroker]:
    """A broker of its own that authenticates users (SASL/PLAIN) and enforces ACLs, for the
    tests that need the cluster to refuse something; stopped when the test ends."""
    state_dir = tmp_path_factory.mktemp("kafka-authorizer")
    stop_at_exit = functools.partial(_stop_quietly, state_dir)
    atexit.register(stop_at_exit)
    try:
        yield KafkaBroker.launch(state_dir, authorizer=True)
    finally:
        atexit.unregister(stop_at_exit)
        run_kafka_script("stop", state_dir, timeout_s=STOP_TIMEOUT_S)


def unique_topic_name(prefix: str = "test") -> str:
    """``prefix`` plus a random suffix, so tests sharing a broker never share a topic."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def unique_topic() -> Callable[[str], str]:
    """Unique names for topics, groups and transactional ids: ``unique_topic("claims")``."""
    return unique_topic_name


def create_topics(bootstrap: str, names: Iterable[str], partitions: int = 1) -> None:
    """Create topics with ``partitions`` partitions each and wait until every partition has a
    leader. The replication factor is the broker's default (1 on the local broker)."""
    topic_names = [names] if isinstance(names, str) else list(names)
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics(
            {
                name: {"num_partitions": partitions, "replication_factor": -1}
                for name in topic_names
            },
            wait_for_metadata=True,
        )
    finally:
        admin.close()


def produce(
    bootstrap: str,
    topic: str,
    records: Iterable[bytes | OutgoingRecord],
    *,
    client: Mapping[str, Any] | None = None,
) -> list[tuple[int, int]]:
    """Send ``records`` with an idempotent, non-transactional producer and wait for every
    acknowledgement. Returns the (partition, offset) of each record, in order. ``client``
    adds settings, such as a user's credentials."""
    producer = KafkaProducer(bootstrap_servers=bootstrap, **(client or {}))
    try:
        futures = []
        for item in records:
            record = item if isinstance(item, OutgoingRecord) else OutgoingRecord(value=item)
            futures.append(
                producer.send(
                    topic,
                    value=record.value,
                    key=record.key,
                    headers=list(record.headers),
                    partition=record.partition,
                )
            )
        producer.flush()
        placed = [future.get(timeout=30) for future in futures]
    finally:
        producer.close()
    return [(metadata.partition, metadata.offset) for metadata in placed]


def consume_all(
    bootstrap: str,
    topic: str,
    *,
    expected: int | None,
    timeout_s: float = 30.0,
    isolation_level: str = "read_committed",
    client: Mapping[str, Any] | None = None,
) -> list[ConsumedRecord]:
    """Read ``topic`` from the beginning of every partition, outside any consumer group.

    With ``expected=None`` it reads up to the end offsets taken when it is called (for
    ``read_committed`` that is the last stable offset, so open transactions are not waited
    for) and raises TimeoutError if it cannot get there within ``timeout_s``. With a number it
    waits for at least that many records and returns what it has when ``timeout_s`` runs out,
    so the caller's assertion shows what arrived. Records come in per-partition order,
    partitions interleaved as fetched.
    """
    deadline = time.monotonic() + timeout_s
    consumer = KafkaConsumer(
        bootstrap_servers=bootstrap,
        group_id=None,
        enable_auto_commit=False,
        isolation_level=isolation_level,
        **(client or {}),
    )
    try:
        partitions = _wait_for_partitions(consumer, topic, deadline)
        consumer.assign(partitions)
        consumer.seek_to_beginning(*partitions)
        end_offsets: dict[Any, int] | None = None
        if expected is None:
            end_offsets = consumer.end_offsets(partitions)
        records: list[ConsumedRecord] = []
        while True:
            if expected is not None and len(records) >= expected:
                return records
            if end_offsets is not None and all(
                consumer.position(tp) >= end for tp, end in end_offsets.items()
            ):
                return records
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if end_offsets is None:
                    return records
                raise TimeoutError(
                    f"read {len(records)} records from {topic} but did not reach its end "
                    f"offsets {_offsets_text(end_offsets)} within {timeout_s}s"
                )
            batches = consumer.poll(timeout_ms=int(min(remaining, 0.5) * 1000) + 1)
            for batch in batches.values():
                records.extend(_consumed(record) for record in batch)
    finally:
        consumer.close(autocommit=False)


def _wait_for_partitions(consumer: Any, topic: str, deadline: float) -> list[Any]:
    # The topic may be created by the code under test while the caller is already waiting.
    while True:
        ids = consumer.partitions_for_topic(topic)
        if ids:
            return [TopicPartition(topic, partition) for partition in sorted(ids)]
        if time.monotonic() >= deadline:
            raise TimeoutError(f"topic {topic} does not exist")
        time.sleep(0.2)


def _consumed(record: Any) -> ConsumedRecord:
    return ConsumedRecord(
        key=record.key,
        value=record.value,
        headers=tuple((name, value) for name, value in record.headers or ()),
        partition=record.partition,
        offset=record.offset,
        timestamp=record.timestamp,
    )


def _offsets_text(offsets: dict[Any, int]) -> str:
    return ", ".join(f"{tp.partition}:{offset}" for tp, offset in sorted(offsets.items()))
