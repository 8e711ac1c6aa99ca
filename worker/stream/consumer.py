"""kafka-python's consumer with what the worker needs beyond it: a bounded topic listing, and
partitions that start at the group's committed offset whenever they are assigned.

``KafkaConsumer.topics()`` waits for a metadata response without a bound, so a stalled
broker would freeze the loop; :meth:`WorkerConsumer.topics_within` asks the same question
with a timeout.

kafka-python 3.0.12's eager rebalancing keeps the fetch position of a partition that is
revoked and then assigned straight back, where the Java client drops the whole assignment
on revocation. A member that missed a generation in between (its group sync failed after a
long pause, and it joined again without another revocation) would read on from where it
stopped, while another member may have delivered and committed past that point meanwhile.
:class:`WorkerConsumer` drops a revoked partition's state as the Java client does, so a
partition assigned again starts at the committed offset like any new one. Everything else
is kafka-python's own and bounded by its arguments.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kafka import ConsumerRebalanceListener, KafkaConsumer


class _ForgetRevoked(ConsumerRebalanceListener):  # type: ignore[misc]
    """Passes assignment changes on to ``listener``, then forgets the revoked partitions'
    positions. Runs on the client's I/O thread while the caller waits in ``poll``."""

    def __init__(self, listener: Any, subscription: Any) -> None:
        self._listener = listener
        self._subscription = subscription

    def on_partitions_revoked(self, revoked: Iterable[Any]) -> None:
        revoked = set(revoked)
        self._listener.on_partitions_revoked(revoked)
        kept = self._subscription.assigned_partitions() - revoked
        self._subscription.assign_from_subscribed(sorted(kept))

    def on_partitions_assigned(self, assigned: Iterable[Any]) -> None:
        self._listener.on_partitions_assigned(assigned)

    def on_partitions_lost(self, lost: Iterable[Any]) -> None:
        # kafka-python drops the lost partitions' state itself.
        self._listener.on_partitions_lost(lost)


class WorkerConsumer(KafkaConsumer):  # type: ignore[misc]
    """A ``KafkaConsumer`` that can list the cluster's topics within a time limit, and whose
    assigned partitions always start at the group's committed offsets."""

    def subscribe(self, topics: list[str], listener: Any) -> None:
        """Join the group for ``topics``; ``listener`` hears of assignment changes."""
        super().subscribe(topics=topics, listener=_ForgetRevoked(listener, self._subscription))

    def topics_within(self, timeout_ms: int) -> set[str]:
        """Every topic the cluster has (that this client may see), asked now.

        Raises ``KafkaTimeoutError`` when the cluster does not answer within ``timeout_ms``.
        """
        cluster = self._cluster
        wanted_all = cluster.need_all_topic_metadata
        cluster.need_all_topic_metadata = True
        try:
            future = cluster.request_update()
            self._net.run(self._manager.wait_for, future, timeout_ms)
        finally:
            cluster.need_all_topic_metadata = wanted_all
        topics: set[str] = cluster.topics()
        return topics
