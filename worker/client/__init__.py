"""Publishing answers and claims from a Python backend without slowing it down.

Needs only the contracts, pydantic and kafka-python (``pip install 'quantcheck[client]'``)::

    from quantcheck.client import Publisher

    with Publisher(bootstrap_servers="kafka:9092") as publisher:
        publisher.publish_answer(answer)   # returns at once; sent in the background
"""

from quantcheck.worker.client.messages import event_message
from quantcheck.worker.client.publisher import (
    DEFAULT_BUFFER_SIZE,
    DEFAULT_TOPIC,
    Publisher,
    PublisherStats,
)

__all__ = [
    "DEFAULT_BUFFER_SIZE",
    "DEFAULT_TOPIC",
    "Publisher",
    "PublisherStats",
    "event_message",
]
