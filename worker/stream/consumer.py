"""kafka-python's consumer with the one call the worker needs that it cannot bound itself.

``KafkaConsumer.topics()`` waits for a metadata response without a bound, so a stalled
broker would freeze the loop; :meth:`WorkerConsumer.topics_within` asks the same question
with a timeout. Everything else is kafka-python's own and bounded by its arguments.
"""

from __future__ import annotations

from kafka import KafkaConsumer


class WorkerConsumer(KafkaConsumer):  # type: ignore[misc]
    """A ``KafkaConsumer`` that can list the cluster's topics within a time limit."""

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
