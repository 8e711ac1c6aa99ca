"""Errors with a meaning the shell acts on: user mistakes exit 2, transient faults are retried."""

from __future__ import annotations


class UsageError(Exception):
    """A user's mistake (bad file, bad argument): reported in one line, exit status 2."""


class InputError(UsageError):
    """Bad input data, located by file, row and column where known."""

    def __init__(
        self, message: str, *, source: str, row: int | None = None, column: str | None = None
    ):
        where = source
        if row is not None:
            where += f", row {row}"
        if column is not None:
            where += f", column {column!r}"
        super().__init__(f"{where}: {message}")
        self.source = source
        self.row = row
        self.column = column


class TransientError(Exception):
    """A fault that should pass (store restarting, broker unavailable): retry, never dead-letter."""


class StoreUnavailableError(TransientError):
    """The document store cannot be reached right now."""
