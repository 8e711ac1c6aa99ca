"""Opening Kafka clients for commands, with one wording for a cluster that cannot be reached."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kafka import KafkaProducer
from kafka.errors import KafkaError
from quantcheck.worker.stream.config import KafkaConnection, producer_config

from quantcheck.errors import UsageError


def unreachable(connection: KafkaConnection, exc: KafkaError) -> UsageError:
    """The one-line error for a client that could not connect."""
    return UsageError(f"cannot reach Kafka at {','.join(connection.bootstrap_servers)}: {exc}")


@contextmanager
def plain_producer(
    connection: KafkaConnection, *, client_id: str, close_timeout_s: float
) -> Iterator[Any]:
    """An idempotent, non-transactional producer, closed on exit."""
    try:
        producer = KafkaProducer(
            **producer_config(connection, client_id=client_id, transactional_id=None)
        )
    except KafkaError as exc:
        raise unreachable(connection, exc) from None
    try:
        yield producer
    finally:
        producer.close(timeout=close_timeout_s)
