"""Shared fixtures: the real broker and database come from tests/support, started on demand;
worker processes from tests/stream/workers."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["tests.support.kafka", "tests.support.postgres", "tests.stream.workers"]

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    """The sample handbook and claims shipped with the project."""
    return EXAMPLES
