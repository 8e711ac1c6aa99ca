"""Publishing answers and claims from a Python backend without slowing it down::

    from quantcheck.client import Publisher

    with Publisher(bootstrap_servers="kafka:9092") as publisher:
        publisher.publish_answer(answer)   # returns at once; sent in the background

This is the import path backends use, installed by ``pip install 'quantcheck[client]'``
without the worker's dependencies; the code lives in :mod:`quantcheck.worker.client`.
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
