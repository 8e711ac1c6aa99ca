"""The results file of ``quantcheck check``: one CSV row per claim, in input order."""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TextIO

from quantcheck.worker.checker.model import Verdict
from quantcheck.worker.errors import UsageError
from quantcheck.worker.inputs.claims import ClaimRow

VERDICT_COLUMNS: tuple[str, ...] = ("status", "reason", "flags", "facts")


class ResultsWriter:
    """Writes the input's own columns followed by the verdict's."""

    def __init__(self, handle: TextIO, extra_columns: Sequence[str]):
        self._writer = csv.writer(handle, lineterminator="\n")
        self._extra = tuple(extra_columns)
        self._writer.writerow(
            (
                "claim_id",
                "claim_text",
                "cited_doc_id",
                "retrieved_doc_ids",
                "kb_version",
                "expected_status",
                *self._extra,
                *VERDICT_COLUMNS,
            )
        )

    def write(self, claim: ClaimRow, verdict: Verdict) -> None:
        """One row: the claim as read, then status, reason, flags and fact labels."""
        event = claim.event
        facts = "|".join(
            f"{check.mention.fact.label()}:{'matched' if check.matched else 'missing'}"
            for check in verdict.facts
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
                verdict.status.value,
                verdict.reason,
                "|".join(verdict.flags),
                facts,
            )
        )


@contextmanager
def results_file(path: str, extra_columns: Sequence[str]) -> Iterator[ResultsWriter]:
    """Open ``path`` for the results; an unwritable path is a usage error."""
    try:
        handle = open(path, "w", newline="", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise UsageError(f"cannot write {os.fspath(path)!r}: {exc.strerror or exc}") from None
    with handle:
        yield ResultsWriter(handle, extra_columns)
