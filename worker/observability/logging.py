"""Structured logging: JSON lines for machines, a readable console for people.

Every line carries a UTC ISO-8601 ``timestamp``, a ``level`` and an ``event``. The chatty
client libraries log through the standard library; their ``kafka`` and ``psycopg.pool``
loggers are passed through the same renderer at WARNING and above only.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

import structlog
from structlog.typing import Processor

LOG_FORMATS = ("auto", "json", "console")
LOG_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}
LIBRARY_LOGGERS = ("kafka", "psycopg.pool")
"""Standard-library loggers routed through structlog, at WARNING and above."""


def resolve_format(log_format: str, stream: TextIO) -> str:
    """``json`` or ``console``: ``auto`` picks the console renderer on a terminal."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"unknown log format {log_format!r}")
    if log_format != "auto":
        return log_format
    return "console" if stream.isatty() else "json"


def configure_logging(
    *, log_format: str = "auto", level: str = "info", stream: TextIO | None = None
) -> None:
    """Send structlog and the library loggers to ``stream`` (default stdout).

    ``level`` is one of :data:`LOG_LEVELS`; lines below it are dropped before any
    formatting work is done.
    """
    out = sys.stdout if stream is None else stream
    renderer: Processor
    if resolve_format(log_format, out) == "json":
        renderer = structlog.processors.JSONRenderer()
        tail: list[Processor] = [structlog.processors.format_exc_info, renderer]
    else:
        renderer = structlog.dev.ConsoleRenderer(colors=out.isatty())
        tail = [renderer]
    shared: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    structlog.configure(
        processors=[*shared, structlog.processors.StackInfoRenderer(), *tail],
        wrapper_class=structlog.make_filtering_bound_logger(LOG_LEVELS[level]),
        logger_factory=structlog.PrintLoggerFactory(out),
        # Not cached, so that reconfiguring (and structlog's test helpers) always take effect.
        cache_logger_on_first_use=False,
    )
    handler = logging.StreamHandler(out)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[structlog.stdlib.add_logger_name, *shared],
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *tail],
        )
    )
    for name in LIBRARY_LOGGERS:
        library = logging.getLogger(name)
        library.handlers = [handler]
        library.setLevel(max(logging.WARNING, LOG_LEVELS[level]))
        library.propagate = False
