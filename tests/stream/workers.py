"""Running real workers against the test broker: topics, stores and worker processes, and
reading their verdicts back.

Also a pytest plugin (registered in tests/conftest.py) for the ``workers`` fixture.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaAdminClient, KafkaProducer
from prometheus_client.parser import text_string_to_metric_families
from quantcheck.schemas import (
    AnswerVerdictEvent,
    VerdictEvent,
    parse_verdicts_topic_value,
    worst_status,
)
from quantcheck.worker.store import open_store
from quantcheck.worker.stream.config import KafkaConnection, admin_config, producer_config
from quantcheck.worker.stream.topics import create_topics, worker_topics

from quantcheck.inputs.documents import iter_documents
from tests.stream.samples import HANDBOOK, KB_VERSION
from tests.support.kafka import ROOT, KafkaBroker, consume_all

Names = Callable[[str], str]


@dataclass(frozen=True)
class Topics:
    """A fresh set of the worker's three topics."""

    claims: str
    verdicts: str
    dlq: str

    def flags(self) -> list[str]:
        return [
            "--claims-topic",
            self.claims,
            "--verdicts-topic",
            self.verdicts,
            "--dlq-topic",
            self.dlq,
        ]


def connection(bootstrap: str) -> KafkaConnection:
    return KafkaConnection((bootstrap,))


def make_topics(
    bootstrap: str,
    names: Names,
    partitions: int = 6,
    *,
    verdicts_max_bytes: int | None = None,
    client: KafkaConnection | None = None,
) -> Topics:
    """Create unique claims/verdicts/dlq topics the way ``quantcheck topics create`` does;
    ``verdicts_max_bytes`` gives the verdicts topic a smaller ``max.message.bytes``, as a
    cluster whose topics someone else created might. ``client`` connects otherwise than in
    plain text to ``bootstrap``."""
    topics = Topics(names("claims"), names("verdicts"), names("dlq"))
    specs = worker_topics(
        claims=topics.claims, verdicts=topics.verdicts, dlq=topics.dlq, partitions=partitions
    )
    if verdicts_max_bytes is not None:
        specs[1] = replace(specs[1], configs={"max.message.bytes": str(verdicts_max_bytes)})
    admin = KafkaAdminClient(**admin_config(client or connection(bootstrap), client_id="tests"))
    try:
        create_topics(admin, specs)
    finally:
        admin.close()
    return topics


def load_handbook(store_url: str, kb_version: str = KB_VERSION) -> str:
    """Load the sample handbook into the store as ``kb_version``; returns the URL."""
    with open_store(store_url) as store:
        store.load_version(kb_version, iter_documents(HANDBOOK))
    return store_url


def big_producer(bootstrap: str) -> Any:
    """A producer that can send records of several megabytes, as the worker's can."""
    return KafkaProducer(
        **producer_config(connection(bootstrap), client_id="tests", transactional_id=None)
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def http_get(port: int, path: str) -> tuple[int, bytes]:
    """Status and body of a GET on the worker's metrics port; 0 when nothing answers."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return int(response.status), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0, b""


Samples = dict[str, list[tuple[dict[str, str], float]]]
"""A worker's metric samples by name, each with its labels."""


def scrape(port: int) -> Samples:
    """The worker's ``/metrics``, parsed."""
    status, body = http_get(port, "/metrics")
    assert status == 200
    samples: Samples = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            samples.setdefault(sample.name, []).append((sample.labels, sample.value))
    return samples


def totals(samples: list[tuple[dict[str, str], float]], label: str) -> Counter[str]:
    """The samples' values summed per value of ``label``; zeros left out."""
    counts: Counter[str] = Counter()
    for labels, value in samples:
        counts[labels[label]] += int(value)
    return +counts


def wait_until(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s}s waiting for {what}")
        time.sleep(0.2)


class WorkerProcess:
    """``python -m quantcheck.worker worker`` in a child process, its JSON log in a file."""

    def __init__(
        self,
        broker: KafkaBroker,
        topics: Topics,
        store_url: str,
        log_path: Path,
        *,
        group: str,
        instance: str,
        extra: tuple[str, ...] = (),
        env: Mapping[str, str] | None = None,
        metrics: bool = False,
    ) -> None:
        # With ``metrics``, /metrics, /healthz and /readyz on a free local port of its own.
        self.metrics_port = free_port() if metrics else 0
        served = ("--metrics-port", str(self.metrics_port), "--metrics-bind", "127.0.0.1")
        self.argv = [
            sys.executable,
            "-m",
            "quantcheck.worker",
            "worker",
            "--bootstrap-servers",
            broker.bootstrap,
            *topics.flags(),
            "--store",
            store_url,
            "--group-id",
            group,
            "--instance-id",
            instance,
            "--log-format",
            "json",
            *(served if metrics else ()),
            *extra,
        ]
        # Settings given through the environment, such as a password kept off the argv.
        self.env = dict(env or {})
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    def readiness(self) -> int:
        """The status /readyz answers (200 ready, 503 not, 0 nothing listening)."""
        return http_get(self.metrics_port, "/readyz")[0]

    def wait_ready(self, timeout_s: float, what: str = "the worker to be ready") -> None:
        wait_until(lambda: self.readiness() == 200, timeout_s, what)

    def start(self) -> WorkerProcess:
        env = {**os.environ, "PYTHONPATH": str(ROOT), **self.env}
        env.setdefault("QUANTCHECK_METRICS_PORT", "0")
        with self.log_path.open("ab") as log:
            # A session of its own, so that kill() also ends the processes a worker
            # supervises (--processes).
            self.process = subprocess.Popen(
                self.argv,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
                env=env,
                start_new_session=True,
            )
        return self

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout_s: float = 30.0) -> int:
        """SIGTERM, then the exit status (SIGKILL and a failure if it does not exit)."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"worker did not exit within {timeout_s}s of SIGTERM") from None

    def kill(self) -> None:
        """SIGKILL to the worker and anything it started, as a crash would."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def lines(self) -> list[dict[str, Any]]:
        """The JSON log lines written so far (anything else is skipped)."""
        parsed = []
        for raw in self.log_path.read_text(encoding="utf-8", errors="replace").splitlines():
            with contextlib.suppress(ValueError):
                line = json.loads(raw)
                if isinstance(line, dict):
                    parsed.append(line)
        return parsed

    def events(self, name: str) -> list[dict[str, Any]]:
        return [line for line in self.lines() if line.get("event") == name]

    def partitions(self) -> set[int]:
        """The partitions of the latest assignment it logged."""
        changes = self.events("assignment changed")
        return set(changes[-1]["partitions"]) if changes else set()


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Callable[..., WorkerProcess]]:
    """Starts worker processes; any still running at the end of the test are killed."""
    started: list[WorkerProcess] = []

    def start(*args: Any, **kwargs: Any) -> WorkerProcess:
        kwargs.setdefault("log_path", tmp_path / f"worker-{len(started)}.log")
        worker = WorkerProcess(*args, **kwargs).start()
        started.append(worker)
        return worker

    yield start
    for worker in started:
        if worker.running():
            worker.kill()


Verdicts = dict[str, VerdictEvent | AnswerVerdictEvent]
"""A verdicts topic read back: each record by its key, as a claim verdict or answer record."""


def read_verdicts(bootstrap: str, topic: str, *, expected: int, timeout_s: float = 60) -> Verdicts:
    """Wait for ``expected`` records of the verdicts topic (read_committed) and read them;
    asserts that no key came twice."""
    records = consume_all(bootstrap, topic, expected=expected, timeout_s=timeout_s)
    read = {(r.key or b"").decode(): parse_verdicts_topic_value(r.value or b"") for r in records}
    assert len(read) == len(records), "a key was verdicted twice"
    return read


def checked_answer(
    verdicts: Verdicts, answer_id: str, statuses: Sequence[str]
) -> tuple[list[VerdictEvent], AnswerVerdictEvent]:
    """The claim verdicts ``<answer_id>:1..n`` and the answer record of ``answer_id``,
    asserted to have ``statuses`` (no more claims) and a record that agrees with them:
    worst status, counts and claim IDs."""
    claim_ids = [f"{answer_id}:{n}" for n in range(1, len(statuses) + 1)]
    claims = [verdicts[claim_id] for claim_id in claim_ids]
    assert all(isinstance(claim, VerdictEvent) for claim in claims), claim_ids
    sentences = [claim for claim in claims if isinstance(claim, VerdictEvent)]
    assert [v.status for v in sentences] == list(statuses)
    assert {v.answer_id for v in sentences} == {answer_id}
    assert f"{answer_id}:{len(statuses) + 1}" not in verdicts
    record = verdicts[answer_id]
    assert isinstance(record, AnswerVerdictEvent)
    assert record.status == worst_status(v.status for v in sentences)
    assert {s: n for s, n in record.counts.as_dict().items() if n} == Counter(statuses)
    assert [(c.claim_id, c.status) for c in record.claims] == list(
        zip(claim_ids, statuses, strict=True)
    )
    assert {v.source for v in sentences} <= {record.source}
    return sentences, record
