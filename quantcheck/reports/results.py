"""The results file of ``quantcheck check``: one CSV row per claim, in input order, or the
verdict events as JSON Lines."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import BinaryIO, Protocol, TextIO

from quantcheck.errors import UsageError
from quantcheck.reports.checked import CheckedLine, CheckedRow
from quantcheck.schemas import SourceCoordinates, dump_answer_verdict
from quantcheck.schemas.limits import MAX_TOPIC_CHARS
from quantcheck.worker.stream.answer_verdicts import ClaimStatus, answer_verdict_event
from quantcheck.worker.stream.verdicts import verdict_json

CLAIM_COLUMNS: tuple[str, ...] = (
    "claim_id",
    "claim_text",
    "cited_doc_id",
    "retrieved_doc_ids",
    "kb_version",
    "expected_status",
)
VERDICT_COLUMNS: tuple[str, ...] = ("status", "reason", "flags", "facts")
FORMATS: dict[str, str] = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}


class ResultsWriter(Protocol):
    """Writes what each line of the claims file gave."""

    def write(self, line: CheckedLine) -> None:
        """Append the rows of ``line``."""


class CsvResults:
    """Writes the input's own columns followed by the verdict's.

    A column of the input that the results write themselves (a results file fed back as
    claims) is not repeated: the new verdict's columns replace the old.
    """

    def __init__(self, handle: TextIO, extra_columns: Sequence[str]):
        self._writer = csv.writer(handle, lineterminator="\n")
        own = {*CLAIM_COLUMNS, *VERDICT_COLUMNS}
        self._extra = tuple(column for column in extra_columns if column not in own)
        self._writer.writerow((*CLAIM_COLUMNS, *self._extra, *VERDICT_COLUMNS))

    def write(self, line: CheckedLine) -> None:
        """One row per claim: the claim as read, then status, reason, flags and fact labels."""
        for row in line.rows:
            self._write(row)

    def _write(self, row: CheckedRow) -> None:
        claim, verdict = row.claim, row.verdict
        event = claim.event
        facts = (
            ""
            if verdict is None
            else "|".join(
                f"{check.mention.fact.label()}:{'matched' if check.matched else 'missing'}"
                for check in verdict.facts
            )
        )
        self._writer.writerow(
            (
                event.claim_id,
                event.claim_text,
                "|".join(event.cited_doc_ids),
                "|".join(event.retrieved_doc_ids),
                event.kb_version,
                claim.expected_status or "",
                *(claim.extra.get(column, "") for column in self._extra),
                row.status,
                row.reason,
                "" if verdict is None else "|".join(verdict.flags),
                facts,
            )
        )


class OfflineVerdicts:
    """The verdict events of an offline run, exactly as the worker publishes them to the
    verdicts topic, their ``source`` naming the claims file's name as the topic and a
    claim's row as the offset (partition 0, no timestamp)."""

    def __init__(self, claims_file: str, checked_at: datetime):
        self._topic = Path(claims_file).name[:MAX_TOPIC_CHARS] or "claims"
        self._checked_at = checked_at

    def source(self, row: int) -> SourceCoordinates:
        """Where the claim of ``row`` was read."""
        return SourceCoordinates(topic=self._topic, partition=0, offset=row, timestamp=-1)

    def verdict(self, row: CheckedRow) -> bytes | None:
        """The verdict event of ``row``; None for a claim that could not be checked, which
        gets none on the topic either (the worker dead-letters it)."""
        if row.verdict is None:
            return None
        return verdict_json(
            row.verdict, row.claim.event, self.source(row.claim.row), checked_at=self._checked_at
        )

    def answer_record(self, line: CheckedLine) -> bytes | None:
        """The answer's own record after its sentences' verdicts; None for a line that is no
        answer, or one with a sentence that could not be checked (the record needs every
        sentence's status)."""
        answer = line.answer
        if answer is None:
            return None
        claims = [
            ClaimStatus(row.claim.event.claim_id, row.verdict.status, part.sentence.span)
            for row, part in zip(line.rows, line.sentences, strict=True)
            if row.verdict is not None
        ]
        if len(claims) < len(line.rows):
            return None
        event = answer_verdict_event(
            answer.event, claims, self.source(answer.row), checked_at=self._checked_at
        )
        return dump_answer_verdict(event)


class VerdictLines:
    """The verdict events of the run as JSON Lines: each claim's, and after an answer's
    sentences the answer's record."""

    def __init__(self, handle: BinaryIO, verdicts: OfflineVerdicts):
        self._handle = handle
        self._verdicts = verdicts

    def write(self, line: CheckedLine) -> None:
        """Append the verdicts of ``line``."""
        values = [self._verdicts.verdict(row) for row in line.rows]
        values.append(self._verdicts.answer_record(line))
        for value in values:
            if value is not None:
                self._handle.write(value + b"\n")


def output_format(path: str | None, given: str | None) -> str | None:
    """The format of the ``--out`` file: ``--format`` if given, else from its suffix; None
    without ``--out``. A file name that names no format is a UsageError, not CSV."""
    if path is None:
        if given is not None:
            raise UsageError("--format names the format of --out FILE, which is not given")
        return None
    if given is not None:
        return given
    found = FORMATS.get(os.path.splitext(path)[1].lower())
    if found is None:
        raise UsageError(
            f"--out {path!r}: end the file name in .csv or .jsonl, or name the format with"
            " --format csv|jsonl"
        )
    return found


@contextmanager
def results_file(
    path: str,
    kind: str,
    *,
    extra_columns: Sequence[str],
    verdicts: OfflineVerdicts,
) -> Iterator[ResultsWriter]:
    """Open ``path`` for results in format ``kind``; an unwritable path is a usage error."""
    try:
        handle = open(path, "wb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise UsageError(f"cannot write {os.fspath(path)!r}: {exc.strerror or exc}") from None
    with handle:
        if kind == "jsonl":
            yield VerdictLines(handle, verdicts)
        else:
            with io.TextIOWrapper(handle, encoding="utf-8", newline="") as text:
                yield CsvResults(text, extra_columns)
