"""A terminal table of verdicts, for people reading ``quantcheck check`` output."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from quantcheck.checker.model import Status
from quantcheck.reports.chart import colour_of
from quantcheck.reports.checked import CheckedRow


class TableRows:
    """The rows a terminal shows, at most ``limit`` of them: failures first, in file order,
    then supported claims; memory stays bounded however long the file."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.total = 0
        self._failures: list[CheckedRow] = []
        self._supported: list[CheckedRow] = []

    def add(self, row: CheckedRow) -> None:
        """Count ``row``, and keep it if there is room for it."""
        self.total += 1
        kept = self._supported if row.status == Status.SUPPORTED else self._failures
        if len(kept) < self.limit:
            kept.append(row)

    @property
    def shown(self) -> list[CheckedRow]:
        """The rows to print, failures first."""
        return [*self._failures, *self._supported][: self.limit]


def print_verdict_table(
    rows: Sequence[CheckedRow], *, total: int, results: str | None, file: TextIO | None = None
) -> None:
    """Print one line per claim: ID, status (coloured like the chart) and reason, then how
    many were left out and where they are (``results``: the ``--out`` file, if any)."""
    # Loaded here: only a terminal gets the table, and rich takes a while to import.
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415
    from rich.text import Text  # noqa: PLC0415

    table = Table(show_lines=False, header_style="bold")
    table.add_column("claim")
    table.add_column("status")
    table.add_column("reason", overflow="fold")
    for row in rows:
        # Text, not markup: a reason such as "count[seat]=5" is shown as it is.
        table.add_row(
            Text(row.claim.event.claim_id),
            Text(row.status, style=colour_of(row.status)),
            Text(row.reason),
        )
    console = Console(file=file)
    console.print(table)
    left_out = total - len(rows)
    if left_out:
        where = f" in {results}" if results else "; --out FILE writes every claim"
        console.print(Text(f"... {left_out} more{where}"))
