"""Publishing answers and claims from a Python backend without slowing it down.

Backends import it as :mod:`quantcheck.client`, which names the public API; it needs only
the contracts, pydantic and kafka-python (``pip install 'quantcheck[client]'``)."""
