"""The ``--out`` file of a replay: one row per replayed claim, written as it is replayed.

CSV rows hold the comparison; JSON Lines rows hold the same fields plus ``verdict``, the new
verdict embedded as the exact JSON the worker would publish (null for a message that gets
no verdict). An answer's rows carry its ``answer_id``: one per sentence claim, then the
answer's own row, with no ``claim_id`` and the answer record as its ``verdict``. Rows follow
the replay's order (partition, then offset), so two runs over the same input write
identical files.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol, TextIO

from quantcheck.worker.replay.compare import ReplayedClaim

from quantcheck.errors import UsageError

COLUMNS: tuple[str, ...] = (
    "claim_id",
    "answer_id",
    "topic",
    "partition",
    "offset",
    "source_topic",
    "source_partition",
    "source_offset",
    "source_timestamp",
    "recorded_status",
    "recorded_reason",
    "new_status",
    "new_reason",
    "transition",
)
"""The fields of every row, in order."""

FORMATS = {".csv": "csv", ".jsonl": "jsonl"}


class RowWriter(Protocol):
    """Writes one row per replayed claim."""

    def write(self, claim: ReplayedClaim) -> None:
        """Append the row of ``claim``."""


def row_fields(claim: ReplayedClaim) -> dict[str, str | int | None]:
    """The row's fields in :data:`COLUMNS` order; recorded fields are None when nothing
    was recorded or compared."""
    recorded = claim.recorded
    return {
        "claim_id": claim.claim_id,
        "answer_id": claim.answer_id,
        "topic": claim.read_at.topic,
        "partition": claim.read_at.partition,
        "offset": claim.read_at.offset,
        "source_topic": claim.source.topic,
        "source_partition": claim.source.partition,
        "source_offset": claim.source.offset,
        "source_timestamp": claim.source_timestamp,
        "recorded_status": None if recorded is None else recorded.status,
        "recorded_reason": None if recorded is None else recorded.reason,
        "new_status": claim.new.status,
        "new_reason": claim.new.reason,
        "transition": claim.label,
    }


class CsvRows:
    """CSV with a header row; empty cells for missing values."""

    def __init__(self, handle: TextIO) -> None:
        self._writer = csv.writer(handle, lineterminator="\n")
        self._writer.writerow(COLUMNS)

    def write(self, claim: ReplayedClaim) -> None:
        """Append the row of ``claim``."""
        self._writer.writerow("" if v is None else v for v in row_fields(claim).values())


class JsonlRows:
    """One compact JSON object per line, keys in :data:`COLUMNS` order, then ``verdict``."""

    def __init__(self, handle: TextIO) -> None:
        self._handle = handle

    def write(self, claim: ReplayedClaim) -> None:
        """Append the row of ``claim``."""
        head = json.dumps(row_fields(claim), ensure_ascii=False, separators=(",", ":"))
        # The verdict is spliced in as published bytes rather than re-encoded, so the row
        # carries exactly what a verdicts topic would.
        verdict = "null" if claim.verdict_json is None else claim.verdict_json.decode("utf-8")
        self._handle.write(f'{head[:-1]},"verdict":{verdict}}}\n')


def output_format(path: str) -> str:
    """``csv`` or ``jsonl`` from the file's suffix; anything else is a UsageError."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(f"--out {path!r}: the file name must end in .csv or .jsonl")
    return FORMATS[suffix]


@contextmanager
def rows_file(path: str) -> Iterator[RowWriter]:
    """Open ``path`` for rows in the format its suffix names."""
    kind = output_format(path)
    try:
        handle = open(path, "w", newline="", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise UsageError(f"cannot write {os.fspath(path)!r}: {exc.strerror or exc}") from None
    with handle:
        yield CsvRows(handle) if kind == "csv" else JsonlRows(handle)
