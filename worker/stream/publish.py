"""Publishing events to the claims topic: claims keyed by claim ID, answers by answer ID."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kafka.errors import KafkaTimeoutError
from quantcheck.schemas import AnswerEvent, ClaimEvent
from quantcheck.worker.client.messages import event_message

DEFAULT_TIMEOUT_S = 60.0


def claim_message(event: ClaimEvent) -> tuple[bytes, bytes]:
    """The key and value of a claim message: the claim ID and the event's JSON, UTF-8."""
    return event_message(event)


def publish_claims(
    producer: Any,
    topic: str,
    events: Iterable[ClaimEvent | AnswerEvent],
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> int:
    """Send every event to ``topic`` and wait until each is acknowledged; returns the count.

    Raises the producer's error for the first claim that was not acknowledged.
    """
    futures = []
    for event in events:
        key, value = event_message(event)
        futures.append(producer.send(topic, key=key, value=value))
    producer.flush(timeout=timeout_s)
    for future in futures:
        if not future.is_done:
            raise KafkaTimeoutError(f"a claim was not acknowledged within {timeout_s:g}s")
        if future.failed():
            raise future.exception
    return len(futures)
