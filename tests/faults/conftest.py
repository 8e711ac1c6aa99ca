"""Fixtures of the fault-injection tests: the stream tests' worker processes, reused."""

from __future__ import annotations

from tests.stream.conftest import workers

__all__ = ["workers"]
