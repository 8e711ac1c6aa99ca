"""The service: the checker, the Kafka worker, the document store and the command line."""
