"""Writing a replay's records to Kafka: new verdicts (``--publish-to``) and republished
claims (``--republish-to``).

Records are handed to the producer as they are replayed; acknowledgements are counted by
callbacks instead of keeping a future per record, so memory stays flat for any window.
"""

from __future__ import annotations

import threading
from typing import Any

from kafka.errors import KafkaError
from quantcheck.worker.stream.delivery import send
from quantcheck.worker.stream.records import OutputRecord

from quantcheck.errors import UsageError

FLUSH_TIMEOUT_S = 120.0


class Publisher:
    """Sends records with one producer and reports the first failure at :meth:`finish`."""

    def __init__(self, producer: Any) -> None:
        self._producer = producer
        self._lock = threading.Lock()
        self._error: BaseException | None = None
        self.sent = 0
        self.acknowledged = 0

    def send(self, record: OutputRecord) -> None:
        """Hand ``record`` to the producer; raise UsageError if it cannot even be queued."""
        try:
            future = send(self._producer, record)
        except KafkaError as exc:
            raise UsageError(f"cannot publish to {record.topic}: {exc}") from None
        self.sent += 1
        future.add_callback(self._acknowledged)
        future.add_errback(self._failed, record.topic)

    def finish(self, timeout_s: float = FLUSH_TIMEOUT_S) -> None:
        """Wait until every record is acknowledged; raise UsageError naming the first failure."""
        try:
            self._producer.flush(timeout=timeout_s)
        except KafkaError as exc:
            raise UsageError(f"cannot publish the replay's records: {exc}") from None
        with self._lock:
            error, acknowledged = self._error, self.acknowledged
        if error is not None:
            raise UsageError(str(error))
        if acknowledged < self.sent:
            raise UsageError(
                f"only {acknowledged} of {self.sent} records were acknowledged "
                f"within {timeout_s:g}s"
            )

    def _acknowledged(self, metadata: Any) -> None:
        del metadata
        with self._lock:
            self.acknowledged += 1

    def _failed(self, topic: str, exc: BaseException) -> None:
        with self._lock:
            if self._error is None:
                self._error = RuntimeError(f"cannot publish to {topic}: {exc}")
