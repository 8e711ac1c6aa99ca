"""The worker's Prometheus metrics, held on a registry of their own.

Every series a dashboard or alert divides by is created at zero before the first event,
so ``rate()`` and ratios have data from the first scrape. Free-text label values (model,
retriever, knowledge-base version, fact category) pass through a :class:`LabelCap` so a
misbehaving producer cannot create an unbounded number of series.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)

import schemas
from worker import __version__
from worker.checker import CHECKER_VERSION
from worker.checker.model import Status

NAMESPACE = "quantcheck"
DEFAULT_LABEL_VALUE_LIMIT = 50
UNKNOWN = "unknown"
OTHER = "other"

# generate_latest() writes the classic 0.0.4 text format, whatever newer format the
# library's own CONTENT_TYPE_LATEST names.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

STATUSES: tuple[str, ...] = tuple(status.value for status in Status)
DEAD_LETTER_KINDS: tuple[str, ...] = tuple(schemas.DEAD_LETTER_KINDS)
TRANSACTION_OUTCOMES: tuple[str, ...] = ("committed", "aborted")

# One claim's check takes around a millisecond, while end-to-end latency adds batching
# (hundreds of ms) and, when the group falls behind, minutes of backlog; a 1-2.5-5 step
# from 1 ms to 10 min resolves both ends with 18 buckets per histogram.
LATENCY_BUCKETS: tuple[float, ...] = (
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0,
)  # fmt: skip
# Covers single-record batches up to well past the default batch_max_records (500).
BATCH_SIZE_BUCKETS: tuple[float, ...] = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)

_MATCHED = {True: "true", False: "false"}


class LabelCap:
    """Bounds the distinct values one label takes; later newcomers are reported as ``other``.

    The first ``limit`` distinct non-empty values are kept as they are. Empty values
    become ``unknown``; ``unknown`` and ``other`` themselves never use up the limit.
    Safe to call from several threads.
    """

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"label value limit must be at least 1, got {limit}")
        self._limit = limit
        self._kept: set[str] = {UNKNOWN, OTHER}
        self._lock = threading.Lock()

    @property
    def limit(self) -> int:
        """How many distinct values are kept besides ``unknown`` and ``other``."""
        return self._limit

    def __call__(self, value: str) -> str:
        """The label value to report for ``value``."""
        # Values already kept (the common case) are answered without taking the lock;
        # the set is only ever added to, and under the lock.
        if value in self._kept:
            return value
        if not value:
            return UNKNOWN
        with self._lock:
            if value in self._kept:
                return value
            if len(self._kept) - 2 >= self._limit:
                return OTHER
            self._kept.add(value)
            return value


class Metrics:
    """Every metric the worker exports, on a dedicated :class:`CollectorRegistry`.

    Each instance is independent, so tests can create as many as they like. Creating one
    turns off the library's ``*_created`` series process-wide: they would double the
    number of series and no dashboard or rule reads them.
    """

    def __init__(
        self,
        *,
        label_value_limit: int = DEFAULT_LABEL_VALUE_LIMIT,
        version: str = __version__,
        checker_version: str = str(CHECKER_VERSION),
    ) -> None:
        disable_created_metrics()  # type: ignore[no-untyped-call]
        self.registry = CollectorRegistry()
        registry = self.registry

        self._models = LabelCap(label_value_limit)
        self._retrievers = LabelCap(label_value_limit)
        self._kb_versions = LabelCap(label_value_limit)
        self._categories = LabelCap(label_value_limit)
        self._lock = threading.Lock()

        self._verdicts = Counter(
            "verdicts",
            "Verdicts published, by status and the claim's model, retriever and KB version.",
            ["status", "model", "retriever", "kb_version"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self._dead_letters = Counter(
            "dead_letters",
            "Messages sent to the dead-letter topic, by reason.",
            ["kind"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self._facts = Counter(
            "facts",
            "Claim facts checked, by category and whether the evidence supported them.",
            ["category", "matched"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self._check_duration = Histogram(
            "check_duration_seconds",
            "Time spent checking one claim against its cited documents.",
            namespace=NAMESPACE,
            registry=registry,
            buckets=LATENCY_BUCKETS,
        )
        self._end_to_end = Histogram(
            "end_to_end_latency_seconds",
            "Time from a claim's record timestamp to its verdict being committed.",
            namespace=NAMESPACE,
            registry=registry,
            buckets=LATENCY_BUCKETS,
        )
        self._batch_size = Histogram(
            "batch_size",
            "Records handled per batch (one transaction in exactly-once mode).",
            namespace=NAMESPACE,
            registry=registry,
            buckets=BATCH_SIZE_BUCKETS,
        )
        self._transactions = Counter(
            "transactions",
            "Producer transactions, by outcome.",
            ["outcome"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self._store_errors = Counter(
            "store_errors",
            "Failed reads from the document store (retried, never dead-lettered).",
            namespace=NAMESPACE,
            registry=registry,
        )
        self._lag = Gauge(
            "consumer_lag",
            "Records between the worker's position and the end of each assigned partition.",
            ["partition"],
            namespace=NAMESPACE,
            registry=registry,
        )
        build_info = Gauge(
            "build_info",
            "Always 1; the labels carry the worker and checker versions.",
            ["version", "checker_version"],
            namespace=NAMESPACE,
            registry=registry,
        )
        worker_up = Gauge(
            "worker_up",
            "Always 1 while the worker runs; count() gives the number of workers.",
            namespace=NAMESPACE,
            registry=registry,
        )
        self._degraded = Gauge(
            "degraded",
            "1 while the worker runs in a degraded mode, else 0.",
            namespace=NAMESPACE,
            registry=registry,
        )

        build_info.labels(version or UNKNOWN, checker_version or UNKNOWN).set(1)
        worker_up.set(1)
        self._degraded.set(0)

        # Children are looked up once and cached so the per-claim path is dict lookups.
        self._verdict_children: dict[tuple[str, str, str], dict[str, Counter]] = {}
        self._fact_children: dict[tuple[str, bool], Counter] = {}
        self._dead_letter_children = {k: self._dead_letters.labels(k) for k in DEAD_LETTER_KINDS}
        self._transaction_children = {o: self._transactions.labels(o) for o in TRANSACTION_OUTCOMES}
        self._lag_partitions: set[int] = set()
        self._verdicts_for((UNKNOWN, UNKNOWN, UNKNOWN))

    def record_verdict(
        self,
        status: str,
        model: str,
        retriever: str,
        kb_version: str,
        *,
        facts: Iterable[tuple[str, bool]],
        check_seconds: float,
    ) -> None:
        """Count one published verdict, the facts behind it and how long its check took.

        ``status`` is a :class:`~worker.checker.model.Status` (or its value); ``facts`` are
        ``(category, matched)`` pairs. An unknown status raises ``ValueError``.
        """
        key = (self._models(model), self._retrievers(retriever), self._kb_versions(kb_version))
        by_status = self._verdict_children.get(key) or self._verdicts_for(key)
        try:
            child = by_status[status]
        except KeyError:
            raise ValueError(f"unknown verdict status {status!r}") from None
        child.inc()
        for category, matched in facts:
            self._fact_child(category, matched).inc()
        self._check_duration.observe(check_seconds)

    def record_dead_letter(self, kind: str) -> None:
        """Count one dead-lettered message; an unknown kind raises ``ValueError``."""
        try:
            child = self._dead_letter_children[kind]
        except KeyError:
            raise ValueError(f"unknown dead-letter kind {kind!r}") from None
        child.inc()

    def record_batch(self, size: int) -> None:
        """Observe the number of records in one batch."""
        self._batch_size.observe(size)

    def record_transaction(self, outcome: str) -> None:
        """Count one transaction as ``committed`` or ``aborted``."""
        try:
            child = self._transaction_children[outcome]
        except KeyError:
            raise ValueError(f"unknown transaction outcome {outcome!r}") from None
        child.inc()

    def record_store_error(self) -> None:
        """Count one failed document-store read."""
        self._store_errors.inc()

    def observe_end_to_end(self, seconds: float) -> None:
        """Observe one claim's latency from its record timestamp to its committed verdict."""
        # Producer and worker clocks can disagree by a little; a negative observation
        # would pull the histogram's _sum below what was really measured.
        self._end_to_end.observe(max(seconds, 0.0))

    def set_degraded(self, degraded: bool) -> None:
        """Report whether the worker currently runs in a degraded mode."""
        self._degraded.set(1 if degraded else 0)

    def set_lag(self, partition_to_lag: Mapping[int, int]) -> None:
        """Replace the lag of every assigned partition; partitions left out are removed."""
        with self._lock:
            for gone in self._lag_partitions - partition_to_lag.keys():
                self._lag.remove(str(gone))
            for partition, lag in partition_to_lag.items():
                # End offsets are fetched apart from positions and may be slightly older.
                self._lag.labels(str(partition)).set(max(lag, 0))
            self._lag_partitions = set(partition_to_lag)

    def render(self) -> bytes:
        """The registry in the Prometheus text exposition format (see :data:`CONTENT_TYPE`)."""
        return generate_latest(self.registry)

    def _verdicts_for(self, key: tuple[str, str, str]) -> dict[str, Counter]:
        """Create (at zero) the verdict series of every status for one label combination."""
        with self._lock:
            by_status = self._verdict_children.get(key)
            if by_status is None:
                by_status = {s: self._verdicts.labels(s, *key) for s in STATUSES}
                self._verdict_children[key] = by_status
            return by_status

    def _fact_child(self, category: str, matched: bool) -> Counter:
        key = (self._categories(category), matched)
        child = self._fact_children.get(key)
        if child is None:
            with self._lock:
                # Both outcomes start at zero so a match ratio exists from the first fact.
                for outcome, text in _MATCHED.items():
                    self._fact_children.setdefault(
                        (key[0], outcome), self._facts.labels(key[0], text)
                    )
                child = self._fact_children[key]
        return child
