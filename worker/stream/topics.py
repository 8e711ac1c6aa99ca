"""The worker's three topics: their partition counts and size limits, and creating them."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kafka.errors import KafkaError, TopicAlreadyExistsError, for_code
from quantcheck.worker.stream.config import (
    MAX_CLAIM_RECORD_BYTES,
    MAX_DEAD_LETTER_RECORD_BYTES,
    MAX_VERDICT_RECORD_BYTES,
)

DEFAULT_PARTITIONS = 6
_WAIT_FOR_LEADERS_MS = 30_000
TOPIC_CHECK_INTERVAL_S = 10.0
_TOPIC_CHECK_TIMEOUT_MS = 2_000


@dataclass(frozen=True, slots=True)
class TopicSpec:
    """A topic to create."""

    name: str
    partitions: int
    configs: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TopicOutcome:
    """What became of one requested topic."""

    name: str
    created: bool
    partitions: int | None


def worker_topics(
    *, claims: str, verdicts: str, dlq: str, partitions: int = DEFAULT_PARTITIONS
) -> list[TopicSpec]:
    """The claims, verdicts and dead-letter topics.

    Claims and verdicts get ``partitions`` each, the number of workers that can share the
    load; dead letters are rare and get half as many. Each topic takes records large enough
    for what the worker may have to write to it, including an oversize claim's dead letter.
    """
    return [
        TopicSpec(claims, partitions, {"max.message.bytes": str(MAX_CLAIM_RECORD_BYTES)}),
        TopicSpec(verdicts, partitions, {"max.message.bytes": str(MAX_VERDICT_RECORD_BYTES)}),
        TopicSpec(
            dlq,
            max(1, partitions // 2),
            {"max.message.bytes": str(MAX_DEAD_LETTER_RECORD_BYTES)},
        ),
    ]


def create_topics(
    admin: Any, specs: Iterable[TopicSpec], *, replication_factor: int = -1
) -> list[TopicOutcome]:
    """Create each topic unless it exists, and wait until every new partition has a leader.

    ``replication_factor`` -1 takes the cluster's default. A topic that already exists is
    reported with its current partition count, not changed. Other refusals raise the
    broker's error.
    """
    wanted = list(specs)
    response = admin.create_topics(
        {
            spec.name: {
                "num_partitions": spec.partitions,
                "replication_factor": replication_factor,
                "configs": dict(spec.configs),
            }
            for spec in wanted
        },
        raise_errors=False,
    )
    created: set[str] = set()
    existing: set[str] = set()
    for topic in response["topics"]:
        error = for_code(topic["error_code"])
        if error is TopicAlreadyExistsError:
            existing.add(topic["name"])
        elif topic["error_code"] != 0:
            raise error(topic.get("error_message") or topic["name"])
        else:
            created.add(topic["name"])
    if created:
        admin.wait_for_topics(sorted(created), timeout_ms=_WAIT_FOR_LEADERS_MS)
    counts = partition_counts(admin, [spec.name for spec in wanted])
    return [TopicOutcome(spec.name, spec.name in created, counts.get(spec.name)) for spec in wanted]


def partition_counts(admin: Any, names: list[str]) -> dict[str, int]:
    """The number of partitions of each named topic that exists."""
    counts: dict[str, int] = {}
    for topic in admin.describe_topics(names):
        if topic.get("error_code", 0) == 0:
            counts[topic["name"]] = len(topic["partitions"])
    return counts


class TopicWatch:
    """Notices when one of the worker's topics is deleted under it.

    A consumer whose topic is deleted is simply left without partitions, and a producer
    waits for the topic's metadata until it times out: both look like an idle or a
    retrying worker. Asking the cluster every so often tells the two apart.
    """

    def __init__(
        self,
        names: Iterable[str],
        *,
        interval_s: float = TOPIC_CHECK_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._names = tuple(names)
        self._interval_s = interval_s
        self._clock = clock
        self._next_at = clock() + interval_s

    def due(self) -> bool:
        """Whether it is time for another look."""
        return self._clock() >= self._next_at

    def missing(self, consumer: Any) -> list[str]:
        """The watched topics the cluster does not have; empty when it did not answer, as
        an unreachable cluster is a transient failure of its own."""
        self._next_at = self._clock() + self._interval_s
        try:
            existing = consumer.topics_within(_TOPIC_CHECK_TIMEOUT_MS)
        except KafkaError:
            return []
        return [name for name in self._names if name not in existing]
