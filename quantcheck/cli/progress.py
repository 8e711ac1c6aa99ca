"""A progress bar on stderr for commands that read a large file: drawn only for a person
watching a terminal, never into a pipe or a log."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from quantcheck.inputs.rows import ProgressCallback


@contextmanager
def file_progress(
    path: str,
    description: str,
    *,
    stream: TextIO | None = None,
    min_bytes: int = 0,
    done: str | None = None,
) -> Iterator[ProgressCallback | None]:
    """A callback that moves a bar to the bytes of ``path`` read so far, or None when
    ``stream`` (stderr) is not a terminal or the file is smaller than ``min_bytes``. Once
    the whole file is read the bar says ``done``, if given."""
    err = sys.stderr if stream is None else stream
    try:
        total = os.path.getsize(path)
    except OSError:
        total = None  # the reader reports the problem in its own words
    if not err.isatty() or (total or 0) < min_bytes:
        yield None
        return
    # rich is imported only when drawn: most runs are scripts.
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import (  # noqa: PLC0415
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
        TransferSpeedColumn,
    )

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=Console(file=err),
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=total)

        def advance(offset: int) -> None:
            bar.update(task, completed=offset)
            if done is not None and total is not None and offset >= total:
                bar.update(task, description=done)

        yield advance
