"""Fixtures of the stream tests: worker processes that never outlive their test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.stream.workers import WorkerProcess


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Callable[..., WorkerProcess]]:
    """Starts worker processes; any still running at the end of the test are killed."""
    started: list[WorkerProcess] = []

    def start(*args: Any, **kwargs: Any) -> WorkerProcess:
        kwargs.setdefault("log_path", tmp_path / f"worker-{len(started)}.log")
        worker = WorkerProcess(*args, **kwargs).start()
        started.append(worker)
        return worker

    yield start
    for worker in started:
        if worker.running():
            worker.kill()
