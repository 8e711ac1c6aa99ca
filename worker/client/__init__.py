"""Publishing answers and claims from a Python backend without slowing it down.

Needs only the contracts, pydantic and kafka-python (``pip install 'quantcheck[client]'``)::

    from worker.client import Publisher

    with Publisher(bootstrap_servers="kafka:9092") as publisher:
        publisher.publish_answer(answer)   # returns at once; sent in the background
"""

from worker.client.messages import event_message
from worker.client.publisher import DEFAULT_BUFFER_SIZE, DEFAULT_TOPIC, Publisher, PublisherStats

__all__ = [
    "DEFAULT_BUFFER_SIZE",
    "DEFAULT_TOPIC",
    "Publisher",
    "PublisherStats",
    "event_message",
]
