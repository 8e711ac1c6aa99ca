"""Progress on stderr for long commands: a bar for a person watching a terminal; into a
pipe or a log, nothing for a file being read, and a line per tenth of counted work."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
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


@contextmanager
def count_progress(
    description: str, *, stream: TextIO | None = None
) -> Iterator[Callable[[int, int | None], None]]:
    """A callback ``(done, total)`` for work counted in items (``total`` None while
    unknown): a bar on a terminal; elsewhere, a line at the start, at every tenth of the
    total and at the end, so that a log shows a long run moving."""
    err = sys.stderr if stream is None else stream
    if not err.isatty():
        shown = -1

        def log(done: int, total: int | None) -> None:
            nonlocal shown
            if total is None:
                return
            tenth = 10 * done // total if total else 10
            if tenth != shown:
                shown = tenth
                print(f"{description}: {done}/{total}", file=err, flush=True)

        yield log
        return
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import (  # noqa: PLC0415
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(file=err),
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=None)

        def advance(done: int, total: int | None) -> None:
            bar.update(task, completed=done, total=total)

        yield advance
