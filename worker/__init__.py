"""The service around the check: the Kafka worker, the document store, replays, metrics
and the publisher."""
