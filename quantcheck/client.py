"""The import path for backends: ``from quantcheck.client import Publisher``.

The publisher lives with the service's code (:mod:`quantcheck.worker.client`); this name
is the stable one, installed by ``pip install 'quantcheck[client]'`` without the worker's
dependencies.
"""

from quantcheck.worker.client import (
    DEFAULT_BUFFER_SIZE,
    DEFAULT_TOPIC,
    Publisher,
    PublisherStats,
    event_message,
)

__all__ = [
    "DEFAULT_BUFFER_SIZE",
    "DEFAULT_TOPIC",
    "Publisher",
    "PublisherStats",
    "event_message",
]
