"""The status bar chart: one bar per status, coloured by the work queue it feeds."""

from __future__ import annotations

import os
from collections.abc import Sequence

from quantcheck.checker.model import Status
from quantcheck.errors import UsageError

SUPPORTED_COLOUR = "#2e7d32"
UNSUPPORTED_COLOUR = "#c62828"
REVIEW_COLOUR = "#1565c0"
CITATION_COLOUR = "#ef6c00"


def colour_of(status: str) -> str:
    """Green passes, red unsupported numbers, blue review queues, orange citation repairs."""
    if status == Status.SUPPORTED:
        return SUPPORTED_COLOUR
    if status == Status.UNSUPPORTED_QUANTITY:
        return UNSUPPORTED_COLOUR
    if status.startswith("needs_review"):
        return REVIEW_COLOUR
    return CITATION_COLOUR


def write_chart(
    counts: Sequence[tuple[str, int]], path: str | os.PathLike[str], title: str
) -> None:
    """Save a bar chart of ``counts`` (status, count) to ``path`` (PNG, SVG or PDF)."""
    # Imported here: matplotlib takes about a second to load, which every command (the
    # worker included) would otherwise pay at start-up.
    import matplotlib  # noqa: PLC0415

    # The file-only backend, chosen before pyplot loads: servers have no display.
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    figure, axes = plt.subplots(figsize=(9, 4.8), layout="constrained")
    try:
        labels = [status for status, _ in counts]
        values = [count for _, count in counts]
        bars = axes.bar(labels, values, color=[colour_of(s) for s in labels])
        axes.bar_label(bars)
        axes.set_title(title)
        axes.set_xlabel("status")
        axes.set_ylabel("claims")
        axes.tick_params(axis="x", labelrotation=25)
        axes.margins(y=0.15)
        try:
            figure.savefig(path, dpi=120)
        except (OSError, ValueError) as exc:
            raise UsageError(f"cannot write chart {os.fspath(path)!r}: {exc}") from None
    finally:
        plt.close(figure)
