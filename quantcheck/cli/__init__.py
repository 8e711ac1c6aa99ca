"""The ``quantcheck`` command line: thin shells around the checker, the store and the stream."""
