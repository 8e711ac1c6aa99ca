"""The worker's Prometheus metrics, held on a registry of their own.

Every series a dashboard or alert divides by is created at zero before the first event,
so ``rate()`` and ratios have data from the first scrape. Free-text label values (model,
retriever, knowledge-base version, fact category) pass through a :class:`SeriesCap` per
metric, which bounds their *combinations*, so a misbehaving producer cannot create an
unbounded number of series.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)

from quantcheck import __version__, schemas
from quantcheck.checker import CHECKER_VERSION
from quantcheck.checker.model import Status

NAMESPACE = "quantcheck"
DEFAULT_LABEL_VALUE_LIMIT = 50
DEFAULT_LABEL_IDLE_S = 900.0
"""A label combination not seen for this long is dropped, making room for new ones."""
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


class SeriesCap:
    """Bounds the label combinations one metric reports, keeping the recently seen ones.

    Up to ``limit`` distinct combinations of free-text values are reported as they are;
    while that many are in use, a new combination is counted under ``other`` in every
    free-text label. A combination not seen for ``idle_s`` is dropped, its series removed
    through ``on_drop``, which makes room: a new knowledge-base version shows up once the
    old ones have gone quiet, instead of after a restart. Empty values become ``unknown``.
    Safe to call from several threads.
    """

    def __init__(
        self,
        limit: int,
        *,
        on_drop: Callable[[tuple[str, ...]], None],
        idle_s: float = DEFAULT_LABEL_IDLE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if limit < 1:
            raise ValueError(f"label combination limit must be at least 1, got {limit}")
        self._limit = limit
        self._on_drop = on_drop
        self._idle_s = idle_s
        self._clock = clock
        # Combination -> when it was last seen, least recently seen first.
        self._seen: OrderedDict[tuple[str, ...], float] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def limit(self) -> int:
        """How many combinations are reported as they are."""
        return self._limit

    def __call__(self, *values: str) -> tuple[str, ...]:
        """The label values to report for ``values``."""
        combination = tuple(value or UNKNOWN for value in values)
        now = self._clock()
        with self._lock:
            if combination in self._seen:
                self._seen[combination] = now
                self._seen.move_to_end(combination)
                return combination
            dropped = self._expire(now)
            if len(self._seen) < self._limit:
                self._seen[combination] = now
            else:
                combination = tuple(OTHER for _ in combination)
        for old in dropped:
            self._on_drop(old)
        return combination

    def _expire(self, now: float) -> list[tuple[str, ...]]:
        dropped = []
        while self._seen:
            oldest, seen_at = next(iter(self._seen.items()))
            if now - seen_at < self._idle_s:
                break
            del self._seen[oldest]
            dropped.append(oldest)
        return dropped


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
        label_idle_s: float = DEFAULT_LABEL_IDLE_S,
        clock: Callable[[], float] = time.monotonic,
        version: str = __version__,
        checker_version: str = str(CHECKER_VERSION),
    ) -> None:
        disable_created_metrics()  # type: ignore[no-untyped-call]
        self.registry = CollectorRegistry()
        registry = self.registry

        # One bound per metric on its free-text label combinations (see SeriesCap).
        self._verdict_labels = SeriesCap(
            label_value_limit, on_drop=self._drop_verdicts, idle_s=label_idle_s, clock=clock
        )
        self._fact_labels = SeriesCap(
            label_value_limit, on_drop=self._drop_facts, idle_s=label_idle_s, clock=clock
        )
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
            "Time from a claim's produced_at to its verdict being committed.",
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

        ``status`` is a :class:`~quantcheck.checker.model.Status` (or its value);
        ``facts`` are ``(category, matched)`` pairs. An unknown status raises ``ValueError``.
        """
        model, retriever, kb_version = self._verdict_labels(model, retriever, kb_version)
        key = (model, retriever, kb_version)
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
        """Observe one claim's latency from its produced_at to its committed verdict."""
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
        (capped,) = self._fact_labels(category)
        key = (capped, matched)
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

    def _drop_verdicts(self, key: tuple[str, ...]) -> None:
        """Remove the series of a label combination that has gone quiet."""
        with self._lock:
            if self._verdict_children.pop((key[0], key[1], key[2]), None) is not None:
                for status in STATUSES:
                    self._verdicts.remove(status, *key)

    def _drop_facts(self, key: tuple[str, ...]) -> None:
        with self._lock:
            for outcome, text in _MATCHED.items():
                if self._fact_children.pop((key[0], outcome), None) is not None:
                    self._facts.remove(key[0], text)
