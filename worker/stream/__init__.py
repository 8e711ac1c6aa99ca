"""The Kafka side of the worker: claims in, verdicts and dead letters out.

Everything that touches the broker lives in :mod:`.loop`, :mod:`.delivery`, :mod:`.topics`
and :mod:`.publish`; the rest turns plain records into plain records and can be tested
without a broker.
"""
