"""What the fault-injection tests share: numbered claims, a publisher that keeps them coming
while a fault happens, a counter of committed verdicts, and the checks every scenario ends
with (one verdict per claim, and dead letters only where the claims call for them)."""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import threading
import time
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from quantcheck.schemas import ClaimEvent, read_dead_letter_headers
from quantcheck.worker.stream.publish import claim_message

from tests.stream.samples import CITATION_FAILURES, sample_rows
from tests.support.kafka import ConsumedRecord, OutgoingRecord, produce

SEED_ENV = "QUANTCHECK_FAULT_SEED"
"""Set to a seed a failed run printed to replay its fault plan."""

FIGURES_ENV = "QUANTCHECK_RELIABILITY_OUT"
"""A file each fault test appends its figures to, one JSON object a line (``make bench``)."""

_SAMPLES = {row.event.claim_id: row for row in sample_rows()}
_ROUND = list(_SAMPLES.values())


def fault_seed() -> int:
    """The seed of a randomised fault plan: ``$QUANTCHECK_FAULT_SEED``, else a fresh one.

    A fresh seed per run lets CI try new fault timings over time; the tests print and
    record it so that a failure can be replayed.
    """
    text = os.environ.get(SEED_ENV, "").strip()
    return int(text) if text else random.SystemRandom().randrange(2**32)


def numbered_claims(count: int, tag: str, start: int = 0) -> list[ClaimEvent]:
    """``count`` copies of the sample claims in turn, each with its own claim ID.

    IDs read ``<sample ID>-<tag>-<number>``, so :func:`expected_status` can tell what each
    should come to, and different ``tag`` values never collide.
    """
    claims = []
    for number in range(start, start + count):
        sample = _ROUND[number % len(_ROUND)].event
        claim_id = f"{sample.claim_id}-{tag}-{number:05d}"
        claims.append(sample.model_copy(update={"claim_id": claim_id}))
    return claims


def expected_status(claim_id: str) -> str | None:
    """The status the sample copied by a numbered claim is expected to get."""
    return _SAMPLES[claim_id.split("-", 1)[0]].expected_status


def claim_records(claims: Iterable[ClaimEvent]) -> list[OutgoingRecord]:
    """The claims as messages keyed by claim ID, as ``quantcheck publish`` sends them."""
    return [OutgoingRecord(value=value, key=key) for key, value in map(claim_message, claims)]


def publish(bootstrap: str, topic: str, claims: Sequence[ClaimEvent]) -> list[str]:
    """Publish ``claims`` and wait for every acknowledgement; returns their IDs."""
    produce(bootstrap, topic, claim_records(claims))
    return [claim.claim_id for claim in claims]


class CommittedVerdicts:
    """Counts the claims with a verdict on the verdicts topic as a read_committed reader sees
    it; a claim verdicted twice counts once, so a duplicate cannot stand in for a verdict
    still to come."""

    def __init__(self, bootstrap: str, topic: str, partitions: int = 6) -> None:
        self._consumer: Any = KafkaConsumer(
            bootstrap_servers=bootstrap,
            enable_auto_commit=False,
            isolation_level="read_committed",
        )
        assigned = [TopicPartition(topic, p) for p in range(partitions)]
        self._consumer.assign(assigned)
        self._consumer.seek_to_beginning(*assigned)
        self._seen: set[bytes | None] = set()

    def count(self, within_s: float = 1.0) -> int:
        """Claims with a committed verdict so far: reads what has arrived, for at most
        ``within_s`` so that a busy topic cannot keep the caller waiting."""
        deadline = time.monotonic() + within_s
        while polled := self._consumer.poll(timeout_ms=200, max_records=5_000):
            self._seen.update(record.key for batch in polled.values() for record in batch)
            if time.monotonic() >= deadline:
                break
        return len(self._seen)

    def close(self) -> None:
        """Release the reader's connections."""
        self._consumer.close(autocommit=False)

    def __enter__(self) -> CommittedVerdicts:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class Trickle:
    """Publishes ``chunk`` numbered claims every ``interval_s`` on a background thread, until
    stopped or ``total`` have been published, so claims keep arriving while faults happen."""

    def __init__(
        self,
        bootstrap: str,
        topic: str,
        tag: str,
        *,
        chunk: int = 16,
        interval_s: float = 0.1,
        total: int | None = None,
    ) -> None:
        self._bootstrap = bootstrap
        self._topic = topic
        self._tag = tag
        self._chunk = chunk
        self._interval_s = interval_s
        self._total = total
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._published: list[str] = []
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="trickle", daemon=True)

    def start(self) -> Trickle:
        """Begin publishing."""
        self._thread.start()
        return self

    def published(self) -> int:
        """How many claims have been acknowledged so far."""
        with self._lock:
            return len(self._published)

    def finish(self) -> list[str]:
        """Stop publishing; returns the IDs of every acknowledged claim, or raises what the
        thread failed with."""
        self._stop.set()
        self._thread.join(60)
        assert not self._thread.is_alive(), "the trickle publisher did not stop"
        if self._error is not None:
            raise self._error
        return list(self._published)

    def _run(self) -> None:
        producer = KafkaProducer(bootstrap_servers=self._bootstrap)
        try:
            while not self._stop.wait(self._interval_s):
                count = self._chunk
                if self._total is not None:
                    count = min(count, self._total - len(self._published))
                    if count <= 0:
                        return
                claims = numbered_claims(count, self._tag, start=len(self._published))
                futures = [
                    producer.send(self._topic, key=record.key, value=record.value)
                    for record in claim_records(claims)
                ]
                producer.flush()
                for future in futures:
                    future.get(timeout=30)
                with self._lock:
                    self._published.extend(claim.claim_id for claim in claims)
        except BaseException as exc:  # handed to finish(), on the test's thread
            self._error = exc
        finally:
            producer.close()


def verdict_claim_ids(verdicts: Iterable[ConsumedRecord]) -> list[str]:
    """The claim ID of each verdict, checking that it is also the record's key."""
    ids = []
    for record in verdicts:
        claim_id = json.loads(record.value or b"")["claim_id"]
        assert record.key == claim_id.encode(), f"verdict of {claim_id} keyed {record.key!r}"
        ids.append(claim_id)
    return ids


def checked_at(verdicts: Iterable[ConsumedRecord]) -> dict[str, datetime]:
    """When each verdict's claim was checked, by claim ID."""
    return {
        body["claim_id"]: datetime.fromisoformat(body["checked_at"])
        for body in (json.loads(record.value or b"") for record in verdicts)
    }


def assert_one_verdict_per_claim(
    verdicts: Sequence[ConsumedRecord], claim_ids: Collection[str], context: str = ""
) -> None:
    """Every claim has exactly one committed verdict, and nothing else has one."""
    counts = Counter(verdict_claim_ids(verdicts))
    expected = set(claim_ids)
    assert len(expected) == len(claim_ids), "the test published a claim ID twice"
    lost = sorted(expected - counts.keys())
    unknown = sorted(counts.keys() - expected)
    doubled = sorted(claim_id for claim_id, n in counts.items() if n > 1)
    assert (lost, unknown, doubled) == ([], [], []), (
        f"{len(lost)} lost (first {lost[:5]}), {len(unknown)} unknown (first {unknown[:5]}), "
        f"{len(doubled)} duplicated (first {doubled[:5]}) {context}"
    )
    assert set(counts) == expected
    assert len(verdicts) == len(expected)


def assert_only_citation_failures_dead_lettered(
    letters: Sequence[ConsumedRecord], claim_ids: Collection[str], context: str = ""
) -> None:
    """The dead letters are exactly one per claim that fails a citation gate, of that kind:
    a fault never dead-letters a claim."""
    found = Counter(
        ((letter.key or b"").decode(), read_dead_letter_headers(letter.headers).kind)
        for letter in letters
    )
    wanted = Counter(
        (claim_id, status)
        for claim_id in claim_ids
        if (status := expected_status(claim_id)) in CITATION_FAILURES
    )
    assert wanted, "the claims include no citation failures to compare against"
    assert found == wanted, (
        f"missing {sorted(wanted - found)[:5]}, unexpected {sorted(found - wanted)[:5]} {context}"
    )


@contextmanager
def frozen(pid: int) -> Iterator[None]:
    """Process ``pid`` frozen (SIGSTOP) for the ``with`` block, as a long pause or a frozen
    container would leave it, and thawed (SIGCONT) after it."""
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def freeze_process(pid: int, seconds: float) -> None:
    """Freeze process ``pid`` for ``seconds``, then thaw it."""
    with frozen(pid):
        time.sleep(seconds)


@dataclass(frozen=True)
class FaultFigures:
    """What one fault test run came to, for the reliability table."""

    fault: str
    seed: int | None
    claims: int
    lost: int
    duplicated: int
    faults: int
    recover_median_s: float
    recover_max_s: float


def record_figures(
    fault: str,
    seed: int | None,
    claim_ids: Collection[str],
    answers: Counter[str],
    recoveries: Sequence[float],
) -> FaultFigures:
    """Count lost and duplicated answers (verdicts, or dead letters standing for them) per
    claim, print them and, when ``$QUANTCHECK_RELIABILITY_OUT`` names a file, append them
    to it. ``recoveries`` are seconds from each fault's start until the committed outputs
    covered every claim published before it ended."""
    counts = answers
    figures = FaultFigures(
        fault=fault,
        seed=seed,
        claims=len(claim_ids),
        lost=len(set(claim_ids) - counts.keys()),
        duplicated=sum(n - 1 for n in counts.values() if n > 1),
        faults=len(recoveries),
        recover_median_s=round(statistics.median(recoveries), 2) if recoveries else 0.0,
        recover_max_s=round(max(recoveries), 2) if recoveries else 0.0,
    )
    line = json.dumps(asdict(figures))
    print(f"figures: {line}")
    out = os.environ.get(FIGURES_ENV, "").strip()
    if out:
        with Path(out).open("a", encoding="utf-8") as file:
            file.write(line + "\n")
    return figures
