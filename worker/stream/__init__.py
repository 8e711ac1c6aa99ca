"""The Kafka side of the worker: claims in, verdicts and dead letters out.

Everything that touches the broker lives in :mod:`worker.stream.loop`,
:mod:`worker.stream.delivery`, :mod:`worker.stream.topics` and :mod:`worker.stream.publish`;
the rest turns plain records into plain records and can be tested without a broker.
"""
