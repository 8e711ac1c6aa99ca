"""The worker's poll loop: batches of claims in, one delivery per batch out.

Records are collected until ``batch_max_records`` have arrived or ``batch_max_ms`` have
passed since the first, then checked and delivered together. A transient failure (the
document store or the broker away) never dead-letters anything: the loop pauses its
partitions, rewinds them to the first record not yet delivered, keeps polling so the
group keeps it as a member, and retries with capped exponential backoff. A rebalance drops
the pending records of revoked partitions; their new owner, which may be this worker again,
reads them again from the committed offsets. :meth:`Worker.request_stop` ends the loop: the
pending batch is delivered if the shutdown budget allows, and the consumer leaves the group.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import structlog
from kafka import ConsumerRebalanceListener
from kafka.errors import KafkaError
from kafka.structs import MemberState, TopicPartition
from quantcheck.schemas import DeadLetterKind
from quantcheck.worker.observability.metrics import Metrics
from quantcheck.worker.store import DocumentStore
from quantcheck.worker.stream.backoff import Backoff
from quantcheck.worker.stream.batch import BatchProcessor, BatchResult, BatchSettings
from quantcheck.worker.stream.clients import unreachable
from quantcheck.worker.stream.config import (
    BOOTSTRAP_TIMEOUT_MS,
    SESSION_TIMEOUT_MS,
    KafkaConnection,
    consumer_config,
    producer_config,
    transactional_id,
)
from quantcheck.worker.stream.consumer import WorkerConsumer
from quantcheck.worker.stream.delivery import (
    DEFAULT_CALL_TIMEOUT_S,
    AtLeastOnceDelivery,
    Delivery,
    DeliveryError,
    FencedError,
    RecordRefusedError,
    TransactionalDelivery,
)
from quantcheck.worker.stream.failures import (
    RECORD_TOO_LARGE,
    Fatal,
    describe,
    fatal_cause,
    missing_topics,
)
from quantcheck.worker.stream.fencing import stable_generation
from quantcheck.worker.stream.health import Health
from quantcheck.worker.stream.lag import LagMonitor
from quantcheck.worker.stream.ports import Consumer, Producer
from quantcheck.worker.stream.producer import BoundedProducer
from quantcheck.worker.stream.records import (
    InputRecord,
    OutputRecord,
    first_offsets,
    from_consumer_record,
    next_offsets,
)
from quantcheck.worker.stream.reporting import BatchReporter, coordinates
from quantcheck.worker.stream.topics import TopicWatch

from quantcheck.answers.split import Uncited
from quantcheck.checker import Checker
from quantcheck.errors import StoreUnavailableError, UsageError

log = structlog.get_logger("quantcheck.worker")

POLL_TIMEOUT_MS = 100
# Kept back from the shutdown budget for leaving the group and closing the producer.
CLOSE_RESERVE_S = 3.0
_COMMITTED_TIMEOUT_MS = 5_000
FATAL_ATTEMPTS = 5
"""Tries at a fatal failure (with the usual backoff, about 8 s in all) before the worker
gives up and exits, in case an operator fixes the cause meanwhile."""
EXIT_FATAL = 3
"""The exit status of a worker that gave up on a fatal failure."""


@dataclass(frozen=True, slots=True)
class WorkerOptions:
    """How one worker reads, batches and writes."""

    claims_topic: str
    verdicts_topic: str
    dlq_topic: str
    group_id: str
    instance_id: str
    exactly_once: bool = True
    batch_max_records: int = 500
    batch_max_ms: int = 200
    max_message_bytes: int = 1_000_000
    shutdown_timeout_s: float = 20.0
    log_claim_text: bool = False
    session_timeout_ms: int = SESSION_TIMEOUT_MS
    call_timeout_s: float = DEFAULT_CALL_TIMEOUT_S
    static_membership: bool = False
    uncited: Uncited = Uncited.MISSING_CITATION


class _RebalanceEvents(ConsumerRebalanceListener):  # type: ignore[misc]
    """Collects revocations for the loop to apply; the client calls it on its I/O thread,
    which must not be held up."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._revoked: set[Any] = set()
        self._changed = False

    def on_partitions_revoked(self, revoked: Iterable[Any]) -> None:
        with self._lock:
            self._revoked.update(revoked)
            self._changed = True

    def on_partitions_assigned(self, assigned: Iterable[Any]) -> None:
        with self._lock:
            self._changed = True

    def on_partitions_lost(self, lost: Iterable[Any]) -> None:
        # The member was evicted: the partitions may already be another member's, and
        # whatever was read from them must be dropped exactly as for a revocation.
        self.on_partitions_revoked(lost)

    def take(self) -> tuple[set[Any], bool]:
        """The partitions revoked since the last call, and whether anything changed."""
        with self._lock:
            revoked, changed = self._revoked, self._changed
            self._revoked, self._changed = set(), False
        return revoked, changed


class Worker:
    """One member of the worker group: owns a consumer, a delivery and the loop state."""

    def __init__(
        self,
        options: WorkerOptions,
        *,
        consumer: Consumer,
        delivery: Delivery,
        processor: BatchProcessor,
        metrics: Metrics,
        health: Health,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.options = options
        self.health = health
        self._consumer = consumer
        self._delivery = delivery
        self._processor = processor
        self._metrics = metrics
        self._reporter = BatchReporter(metrics, log_claim_text=options.log_claim_text)
        self._clock = clock
        self._events = _RebalanceEvents()
        self._lag = LagMonitor(clock=clock)
        self._topics = TopicWatch(
            (options.claims_topic, options.verdicts_topic, options.dlq_topic), clock=clock
        )
        self._backoff = Backoff()
        self._stop = threading.Event()
        self._stop_at: float | None = None
        self._stop_reason = "the loop ended"
        self._pending: list[InputRecord] = []
        self._batch_started: float | None = None
        # The first step sets up the producer, through the same path as any recovery.
        self._retry_at: float | None = clock()
        self._rewind_to_committed = False
        # Next offset per partition that a failed batch must be delivered past.
        self._retrying: dict[tuple[str, int], int] = {}
        # The stable generation of the last poll, and the one the pending batch was read in.
        self._generation: int | None = None
        self._batch_generation: int | None = None
        self._fatal: Fatal | None = None
        self._fatal_attempts = 0
        self.failure: Fatal | None = None
        """Set when the worker gave up on a fatal failure; it then exits non-zero."""
        self._log = log.bind(group=options.group_id, instance=options.instance_id)

    @classmethod
    def connect(
        cls,
        options: WorkerOptions,
        connection: KafkaConnection,
        *,
        store: DocumentStore,
        checker: Checker,
        metrics: Metrics,
    ) -> Worker:
        """Open the Kafka clients for ``options`` and check that the topics exist.

        Raises UsageError when the cluster cannot be reached or a topic is missing.
        """
        client_id = f"quantcheck-{options.instance_id}"
        try:
            consumer = WorkerConsumer(
                **consumer_config(
                    connection,
                    group_id=options.group_id,
                    client_id=client_id,
                    max_poll_records=options.batch_max_records,
                    session_timeout_ms=options.session_timeout_ms,
                    group_instance_id=options.instance_id if options.static_membership else None,
                )
            )
        except KafkaError as exc:
            raise unreachable(connection, exc) from None
        try:
            existing = consumer.topics_within(BOOTSTRAP_TIMEOUT_MS)
        except KafkaError as exc:
            consumer.close(autocommit=False)
            raise UsageError(f"cannot list the Kafka topics: {exc}") from None
        wanted = (options.claims_topic, options.verdicts_topic, options.dlq_topic)
        missing = [topic for topic in wanted if topic not in existing]
        if missing:
            consumer.close(autocommit=False)
            raise UsageError(
                f"topic(s) {', '.join(missing)} do not exist; create them with "
                "'quantcheck topics create'"
            )
        txn_id = transactional_id(options.group_id, options.instance_id)

        def new_producer() -> Producer:
            return BoundedProducer(
                producer_config(
                    connection,
                    client_id=client_id,
                    transactional_id=txn_id if options.exactly_once else None,
                )
            )

        delivery: Delivery = (
            TransactionalDelivery(new_producer, consumer)
            if options.exactly_once
            else AtLeastOnceDelivery(new_producer, consumer)
        )
        processor = BatchProcessor(
            checker,
            store,
            BatchSettings(
                verdicts_topic=options.verdicts_topic,
                dlq_topic=options.dlq_topic,
                group=options.group_id,
                max_message_bytes=options.max_message_bytes,
                uncited=options.uncited,
            ),
        )
        return cls(
            options,
            consumer=consumer,
            delivery=delivery,
            processor=processor,
            metrics=metrics,
            health=Health(store_ping=store.ping),
        )

    def request_stop(self, reason: str = "requested") -> None:
        """Ask the loop to finish. Only sets a flag, so it is safe from a signal handler
        (which must not take the locks that logging takes) and from other threads."""
        if not self._stop.is_set():
            self._stop_reason = reason
            self._stop_at = self._clock()
            self._stop.set()

    def wait_for_stop_request(self, timeout_s: float | None = None) -> bool:
        """Block until :meth:`request_stop` was called (True) or ``timeout_s`` passed."""
        return self._stop.wait(timeout_s)

    def run(self) -> None:
        """Poll, check and deliver until :meth:`request_stop`, then shut down cleanly."""
        self._consumer.subscribe([self.options.claims_topic], listener=self._events)
        self._log.info(
            "worker started",
            claims_topic=self.options.claims_topic,
            verdicts_topic=self.options.verdicts_topic,
            dlq_topic=self.options.dlq_topic,
            delivery="exactly-once" if self.options.exactly_once else "at-least-once",
        )
        try:
            while not self._stop.is_set():
                self.health.beat()
                self._step()
        finally:
            self._log.info("stopping", reason=self._stop_reason)
            self._shutdown()

    # --- one turn of the loop --------------------------------------------------------------

    def _step(self) -> None:
        if self._retry_at is not None:
            if self._clock() < self._retry_at:
                self._idle_poll()
                return
            if not self._recover():
                return
        space = self.options.batch_max_records - len(self._pending)
        self._add(self._poll(self._poll_timeout_ms(), space))
        if self._batch_due():
            self._run_batch()
        if self._lag.due() and self._retry_at is None:
            lags = self._lag.measure(self._consumer)
            if lags is not None:
                self._metrics.set_lag(lags)
        if self._topics.due() and self._retry_at is None:
            self._check_topics()

    def _poll(self, timeout_ms: int, max_records: int) -> list[InputRecord]:
        try:
            polled = self._consumer.poll(timeout_ms=timeout_ms, max_records=max(max_records, 1))
        except KafkaError as exc:
            self._fail(f"poll failed: {exc}")
            return []
        self._apply_rebalance()
        return [from_consumer_record(r) for batch in polled.values() for r in batch]

    def _poll_timeout_ms(self) -> int:
        if self._batch_started is None:
            return POLL_TIMEOUT_MS
        left_ms = self._batch_started * 1000 + self.options.batch_max_ms - self._clock() * 1000
        return int(min(max(left_ms, 0), POLL_TIMEOUT_MS))

    def _add(self, records: list[InputRecord]) -> None:
        if records and self._batch_started is None:
            self._batch_started = self._clock()
            self._batch_generation = self._generation
        elif records and self._batch_generation != self._generation:
            # Read across generations: the fence refuses the batch, and it is read again.
            self._batch_generation = None
        self._pending.extend(records)

    def _batch_due(self) -> bool:
        if not self._pending or self._batch_started is None:
            return False
        if len(self._pending) >= self.options.batch_max_records:
            return True
        return (self._clock() - self._batch_started) * 1000 >= self.options.batch_max_ms

    def _apply_rebalance(self) -> None:
        """Apply what the last poll changed in the assignment.

        Pending records of revoked partitions were read in an earlier generation and are
        dropped, without a seek: a partition assigned again starts at the group's committed
        offset (:class:`quantcheck.worker.stream.consumer.WorkerConsumer`), where this member's
        delivered work ends, or past it when another member delivered more meanwhile. The
        records the poll itself returned were read after the change, from there, and stay.
        """
        revoked, changed = self._events.take()
        gone = {(tp.topic, tp.partition) for tp in revoked}
        dropped = [r for r in self._pending if (r.topic, r.partition) in gone] if gone else []
        if dropped:
            self._pending = [r for r in self._pending if (r.topic, r.partition) not in gone]
            if not self._pending:
                self._batch_started = None
            self._log.info("dropped pending records of revoked partitions", dropped=len(dropped))
        for where in gone & self._retrying.keys():
            # Their new owner reads them again; this member no longer has to.
            del self._retrying[where]
        assigned = self._consumer.assignment()
        group = self._consumer.group_metadata()
        self._generation = stable_generation(group)
        self.health.set_group(
            subscribed=True, assigned=len(assigned), stable=group.state == MemberState.STABLE
        )
        if changed:
            if self._retry_at is not None and assigned:
                # Partitions assigned during a backoff wait for the retry too.
                self._consumer.pause(*assigned)
            self._log.info("assignment changed", partitions=sorted(tp.partition for tp in assigned))
        self._check_recovered()

    # --- batches ---------------------------------------------------------------------------

    def _run_batch(self, *, timeout_s: float | None = None) -> bool:
        timeout_s = self.options.call_timeout_s if timeout_s is None else timeout_s
        records, self._pending, self._batch_started = self._pending, [], None
        generation = self._batch_generation
        started = time.perf_counter()
        try:
            result = self._processor.process(records, checked_at=datetime.now(UTC))
        except StoreUnavailableError as exc:
            self._metrics.record_store_error()
            self._rewind(records)
            self._fail(f"document store unavailable: {exc}", records)
            return False
        offsets = next_offsets(records)
        while True:
            try:
                self._delivery.deliver(
                    result.outputs, offsets, generation=generation, timeout_s=timeout_s
                )
                break
            except RecordRefusedError as exc:
                self._count_aborted()
                amended = self._refuse(result, exc)
                if amended is None:
                    self._rewind(records)
                    return False
                # Each round turns at least one more verdict into a dead letter, so this ends.
                result = amended
            except DeliveryError as exc:
                self._count_aborted()
                if exc.rewind_to_committed:
                    self._rewind_to_committed = True
                else:
                    self._rewind(records)
                if isinstance(exc, FencedError):
                    self._log.warning("batch fenced, reading it again", reason=str(exc))
                cause = None if exc.cause is None else fatal_cause(exc.cause)
                self._fail(f"delivery failed: {exc}", records, fatal=cause)
                return False
        self._fatal, self._fatal_attempts = None, 0
        if self._delivery.exactly_once:
            self._metrics.record_transaction("committed")
        self._reporter.delivered(
            result, seconds=time.perf_counter() - started, committed_at=datetime.now(UTC)
        )
        self._passed(next_offsets(records))
        return True

    def _count_aborted(self) -> None:
        if self._delivery.exactly_once:
            self._metrics.record_transaction("aborted")

    def _refuse(self, result: BatchResult, refused: RecordRefusedError) -> BatchResult | None:
        """``result`` with the claims of the largest refused verdicts dead-lettered instead;
        None (and a fatal failure) when the largest refused output is a dead letter.

        When one record of a transaction is refused, kafka-python may fail others of the
        same request with the same error. The largest refused record is certainly too
        large itself, so only the largest are dead-lettered each round, and the rest of
        the batch is tried again.
        """
        sizes = {i: _size(result.outputs[i]) for i in refused.refusals}
        largest = max(sizes.values())
        amend: dict[int, tuple[DeadLetterKind, str]] = {}
        for index, cause in sorted(refused.refusals.items()):
            output, size = result.outputs[index], sizes[index]
            if size < largest:
                continue
            if output.topic != self.options.verdicts_topic:
                self._fail(
                    f"the dead-letter topic refused a record: {describe(cause)}",
                    fatal=Fatal(
                        f"topic {output.topic} refused a dead letter of {size} bytes: "
                        f"{describe(cause)}",
                        f"raise the topic's max.message.bytes to at least {size + 1024}, or "
                        "lower --max-message-bytes so that larger claims are refused as "
                        "oversize first",
                    ),
                )
                return None
            owner = result.outcomes[result.owners[index]]
            self._log.warning(
                "verdict refused by the verdicts topic, dead-lettering its claim",
                **coordinates(owner.record),
                bytes=size,
                reason=describe(cause),
            )
            kind: DeadLetterKind = (
                "verdict_too_large" if isinstance(cause, RECORD_TOO_LARGE) else "verdict_refused"
            )
            amend[index] = (
                kind,
                f"the verdict ({size} bytes) was refused by topic {output.topic}: "
                f"{describe(cause)}",
            )
        return self._processor.refuse_outputs(result, amend)

    def _check_topics(self) -> None:
        """Fail (fatally, after a few tries) when one of the worker's topics is gone."""
        missing = self._topics.missing(self._consumer)
        if missing:
            self._fail(f"topic(s) {', '.join(missing)} missing", fatal=missing_topics(missing))

    def _rewind(self, records: list[InputRecord]) -> None:
        """Seek back to the first of ``records`` on each partition still assigned."""
        assigned = self._consumer.assignment()
        for (topic, partition), offset in first_offsets(records).items():
            tp = TopicPartition(topic, partition)
            if tp in assigned:
                self._consumer.seek(tp, offset)

    def _seek_to_committed(self) -> None:
        """Seek every assigned partition to the group's committed offset."""
        committed: dict[tuple[str, int], int] = {}
        for tp in self._consumer.assignment():
            offset = self._consumer.committed(tp, timeout_ms=_COMMITTED_TIMEOUT_MS)
            if offset is None:
                self._consumer.seek_to_beginning(tp)
            else:
                self._consumer.seek(tp, offset)
                committed[(tp.topic, tp.partition)] = offset
        # A commit that timed out may have succeeded after all.
        self._passed(committed)

    # --- failure and recovery --------------------------------------------------------------

    def _fail(
        self, reason: str, records: Iterable[InputRecord] = (), *, fatal: Fatal | None = None
    ) -> None:
        """Enter (or stay in) backoff: pause everything and retry later.

        ``records`` are the ones that failed; the worker counts as degraded until they
        have been delivered or their partitions have moved to another member. A ``fatal``
        failure is tried :data:`FATAL_ATTEMPTS` times in a row, then the worker stops.
        """
        self._fatal = fatal
        if fatal is not None:
            self._fatal_attempts += 1
            reason = fatal.describe()
            if self._fatal_attempts >= FATAL_ATTEMPTS:
                self._give_up(fatal)
        delay = self._backoff.next_delay()
        self._retry_at = self._clock() + delay
        if self._pending:
            self._rewind(self._pending)
            records = [*records, *self._pending]
            self._pending, self._batch_started = [], None
        for where, offset in next_offsets(records).items():
            self._retrying[where] = max(offset, self._retrying.get(where, 0))
        assigned = self._consumer.assignment()
        if assigned:
            self._consumer.pause(*assigned)
        self.health.set_degraded(reason)
        self._metrics.set_degraded(True)
        if self.failure is None:
            self._log.warning(
                "transient failure, retrying",
                reason=reason,
                attempt=self._backoff.attempts,
                retry_in_s=round(delay, 2),
            )

    def _idle_poll(self) -> None:
        """Poll while paused, so the group keeps this member and rebalances are handled."""
        timeout = min(POLL_TIMEOUT_MS, max(int(((self._retry_at or 0) - self._clock()) * 1000), 0))
        records = self._poll(timeout, self.options.batch_max_records)
        if records:
            # Partitions assigned inside this poll were not paused yet; read them later.
            self._rewind(records)

    def _recover(self) -> bool:
        """Get a producer and the right positions back; False (and backoff) when not yet."""
        if self._fatal_topics():
            return False
        try:
            self._delivery.ensure_producer()
            if self._rewind_to_committed:
                self._seek_to_committed()
                self._rewind_to_committed = False
        except DeliveryError as exc:
            self._fail(
                f"cannot resume: {exc}", fatal=None if exc.cause is None else fatal_cause(exc.cause)
            )
            return False
        except KafkaError as exc:
            self._fail(f"cannot resume: {exc}", fatal=fatal_cause(exc))
            return False
        paused = self._consumer.paused()
        if paused:
            self._consumer.resume(*paused)
        self._retry_at = None
        self._check_recovered()
        return True

    def _fatal_topics(self) -> bool:
        """Whether a topic is missing, which may be why the last attempt failed."""
        missing = self._topics.missing(self._consumer)
        if missing:
            self._fail(f"topic(s) {', '.join(missing)} missing", fatal=missing_topics(missing))
        return bool(missing)

    def _give_up(self, failure: Fatal) -> None:
        """Stop the worker for good: one line with the cause and the fix, then exit."""
        if self.failure is None:
            self.failure = failure
            self._log.error(
                "giving up", cause=failure.cause, fix=failure.fix, attempts=self._fatal_attempts
            )
            self.request_stop(f"fatal: {failure.cause}")

    def _passed(self, offsets: dict[tuple[str, int], int]) -> None:
        """Note that these partitions are delivered up to ``offsets``."""
        for where, offset in offsets.items():
            if where in self._retrying and offset >= self._retrying[where]:
                del self._retrying[where]
        self._check_recovered()

    def _check_recovered(self) -> None:
        """Leave the degraded state once nothing failed is left to retry."""
        if self._retry_at is None and not self._retrying and self.health.degraded is not None:
            self._backoff.reset()
            self.health.set_degraded(None)
            self._metrics.set_degraded(False)
            self._log.info("recovered")

    # --- shutdown --------------------------------------------------------------------------

    def _shutdown(self) -> None:
        self.health.set_stopping()
        stop_at = self._stop_at if self._stop_at is not None else self._clock()
        deadline = stop_at + self.options.shutdown_timeout_s
        budget = deadline - self._clock() - CLOSE_RESERVE_S
        if self._pending and self._retry_at is None and self.failure is None and budget > 1.0:
            # Two bounded calls (offsets, commit) must fit in what is left.
            if self._run_batch(timeout_s=budget / 2):
                self._log.info("delivered the last batch before stopping")
        elif self._pending:
            self._log.info("left the last batch for the next owner", records=len(self._pending))
        self._pending = []
        close_s = max(deadline - self._clock(), 1.0)
        try:
            # Leaving the group hands the partitions to the other members at once.
            self._consumer.close(autocommit=False, timeout_ms=int(close_s * 1000 / 2))
        except KafkaError as exc:
            self._log.warning("consumer did not close cleanly", error=str(exc))
        self._delivery.close(max(deadline - self._clock(), 0.5))
        self._log.info("worker stopped")


def _size(output: OutputRecord) -> int:
    """A record's key, value and headers in bytes, what a topic's size limit applies to."""
    headers = sum(len(name) + len(value or b"") for name, value in output.headers)
    return len(output.key or b"") + len(output.value or b"") + headers
