"""kafka-python's producer behind :class:`.ports.Producer`, every wait bounded.

``send_offsets_to_transaction``, ``commit_transaction`` and ``abort_transaction`` wait
without a bound in kafka-python 3.0.12. Running them on a helper thread bounded the caller
but left the thread blocked for good after a broker stall, holding the abandoned producer
and its buffers. Instead this adapter starts each transactional request itself and waits
on its result with a timeout, on the caller's thread: a request that does not finish in
time leaves nothing behind once the producer is abandoned (its I/O thread is stopped and
joined). The transaction manager is internal to kafka-python, so the project pins the
version (``pyproject.toml``) and tests this adapter against the real broker.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any

from kafka import KafkaProducer
from kafka.errors import KafkaError, UnknownError
from quantcheck.worker.stream.delivery import send
from quantcheck.worker.stream.failures import RECORD_REFUSED
from quantcheck.worker.stream.ports import (
    CallTimeoutError,
    GroupMetadata,
    SendFuture,
    TopicPartitionT,
)
from quantcheck.worker.stream.records import OutputRecord

# How long an abandoned producer's I/O thread gets to notice that it must stop; it only
# has to leave its select() call, which a wakeup interrupts.
_JOIN_ABANDONED_S = 5.0


class BoundedProducer:
    """One kafka-python ``KafkaProducer`` whose calls wait at most as long as they are told."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self._producer: Any = KafkaProducer(**config)

    def init_transactions(self) -> None:
        """Bounded by the producer's ``max_block_ms``, which kafka-python honours here."""
        self._producer.init_transactions()

    def begin_transaction(self) -> None:
        """Start a transaction; no request is sent until the first record."""
        with self._failure_itself():
            self._producer.begin_transaction()

    def send(self, record: OutputRecord) -> SendFuture:
        """Hand ``record`` to the producer; waits for metadata at most ``max_block_ms``."""
        with self._failure_itself():
            future: SendFuture = send(self._producer, record)
        return future

    def send_offsets(
        self, offsets: Mapping[TopicPartitionT, Any], group: GroupMetadata, timeout_s: float
    ) -> None:
        """Add ``offsets`` to the transaction, waiting at most ``timeout_s``."""
        manager = self._transactions()
        with self._failure_itself():
            result = manager.send_offsets_to_transaction(dict(offsets), group)
        self._wait(result, timeout_s, "send-offsets")

    def commit(self, timeout_s: float) -> None:
        """Commit the transaction, waiting at most ``timeout_s``."""
        with self._failure_itself():
            result = self._transactions().begin_commit()
        self._wait(result, timeout_s, "commit")

    def abort(self, timeout_s: float) -> None:
        """Abort the transaction, waiting at most ``timeout_s``; none of its offsets are
        committed later."""
        manager = self._transactions()
        with self._failure_itself():
            result = manager.begin_abort()
        self._wait(result, timeout_s, "abort")
        # kafka-python keeps the offsets of a TxnOffsetCommit the group refused (a stale
        # generation) after the abort, and sends them again with the next transaction's
        # offsets, under a generation the broker accepts: an evicted worker would move
        # another member's committed offsets back, and that member's partitions would be
        # read and delivered again from there.
        with manager._lock:
            manager._pending_txn_offset_commits.clear()

    def flush(self, timeout_s: float) -> None:
        """Wait for every acknowledgement; raises ``KafkaTimeoutError`` after ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                self._producer.flush(timeout=max(deadline - time.monotonic(), 0.0))
                return
            except UnknownError:
                # A batch split after a MESSAGE_TOO_LARGE answer can be seen between its
                # halves as signalled but not done; its records are still on their way.
                if time.monotonic() >= deadline:
                    raise

    def close(self, timeout_s: float) -> None:
        """Deliver what is buffered within ``timeout_s``, else drop it; never raises."""
        try:
            self._producer.close(timeout=timeout_s)
        except KafkaError:
            # close() flushes first and gives up while records are still in flight,
            # before it stops the I/O thread.
            self.abandon()

    def abandon(self) -> None:
        """Stop the I/O thread at once, failing what is in flight; never raises."""
        sender = self._producer._sender
        sender.force_close()
        if sender is not threading.current_thread():
            sender.join(_JOIN_ABANDONED_S)
        # Only the flush inside close() can fail here, and the I/O thread is stopped already.
        with contextlib.suppress(KafkaError):
            self._producer.close(timeout=0)

    @contextlib.contextmanager
    def _failure_itself(self) -> Iterator[None]:
        """Once a transactional request has failed (a topic the worker may not write to,
        say), kafka-python refuses every later call with a plain ``KafkaError`` that names
        the failure only in its text; raise the failure itself, so that it is classified
        for what it is (:mod:`.failures`). A refused record is left to its own
        send's future, which tells which record it was."""
        try:
            yield
        except KafkaError as exc:
            manager = self._producer._transaction_manager
            failure = None if manager is None else manager.last_error
            if (
                isinstance(failure, KafkaError)
                and failure is not exc
                and not isinstance(failure, RECORD_REFUSED)
            ):
                raise failure from exc
            raise

    def _transactions(self) -> Any:
        manager = self._producer._transaction_manager
        if manager is None:
            raise KafkaError("the producer has no transactional_id")
        return manager

    def _wait(self, result: Any, timeout_s: float, what: str) -> None:
        self._producer._sender.wakeup()
        if not result.wait(timeout_ms=timeout_s * 1000):
            raise CallTimeoutError(f"{what} did not finish within {timeout_s:g}s")
