"""Running ``quantcheck replay`` in-process against the test broker."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from quantcheck.cli.main import main
from tests.stream.workers import Topics


@dataclass(frozen=True)
class Result:
    """What one replay printed and returned."""

    status: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()


def replay(
    capsys: pytest.CaptureFixture[str],
    bootstrap: str,
    topics: Topics,
    store_url: str,
    *argv: str,
) -> Result:
    """``quantcheck replay`` with the test topics as its production topics."""
    capsys.readouterr()
    status = main(
        [
            "replay",
            "--bootstrap-servers",
            bootstrap,
            "--store",
            store_url,
            "--topic",
            topics.claims,
            "--verdicts-topic",
            topics.verdicts,
            "--dlq-topic",
            topics.dlq,
            *argv,
        ]
    )
    out, err = capsys.readouterr()
    return Result(status, out, err)
