"""A terminal table of verdicts, for people reading ``quantcheck check`` output."""

from __future__ import annotations

from collections.abc import Sequence

from quantcheck.worker.checker.model import Verdict
from quantcheck.worker.inputs.claims import ClaimRow
from quantcheck.worker.reports.chart import colour_of


def print_verdict_table(rows: Sequence[tuple[ClaimRow, Verdict]], *, total: int) -> None:
    """Print one line per claim: ID, status (coloured like the chart) and reason."""
    # Loaded here: only a terminal gets the table, and rich takes a while to import.
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    table = Table(show_lines=False, header_style="bold")
    table.add_column("claim")
    table.add_column("status")
    table.add_column("reason", overflow="fold")
    for claim, verdict in rows:
        status = verdict.status.value
        table.add_row(claim.event.claim_id, f"[{colour_of(status)}]{status}[/]", verdict.reason)
    console = Console()
    console.print(table)
    if total > len(rows):
        console.print(f"... {total - len(rows)} more in the results file")
