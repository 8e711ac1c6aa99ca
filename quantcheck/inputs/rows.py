"""Reading CSV and JSON Lines files row by row, with row numbers a person can find.

Shared by the document and claim readers. Files are UTF-8 (a leading byte-order mark is
ignored); bytes that are not UTF-8 come through as lone surrogates so the caller can
name the row and column they sit in. For CSV the header is row 1 and a quoted
multi-line field counts as one row, as a spreadsheet shows it; for JSON Lines the row
is the line number. A single row is bounded, so an unclosed quote cannot swallow a file.
"""

from __future__ import annotations

import codecs
import csv
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import BinaryIO

from quantcheck.errors import InputError

MAX_ROW_BYTES = 32 * 1024 * 1024
_PROGRESS_STEP_BYTES = 1024 * 1024
# Undecodable bytes come through as lone surrogates (surrogateescape), and JSON escapes
# such as "\udc80" produce them too; neither can be stored as UTF-8.
SURROGATE = re.compile("[\ud800-\udfff]")

ProgressCallback = Callable[[int], None]
Row = tuple[int, dict[str, str]]


class _RowTooLong(Exception):
    """A physical line exceeded MAX_ROW_BYTES; the caller knows which row it belongs to."""


def file_format(source: str, formats: dict[str, str]) -> str:
    """The format ``formats`` assigns to the file's extension; an InputError otherwise."""
    suffix = os.path.splitext(source)[1].lower()
    found = formats.get(suffix)
    if found is None:
        raise InputError(
            f"unsupported file type {suffix or '(no extension)'!r}; use {', '.join(formats)}",
            source=source,
        )
    return found


@contextmanager
def open_binary(source: str) -> Iterator[BinaryIO]:
    """Open a file for reading; failure is an InputError naming the file."""
    try:
        handle = open(source, "rb")  # noqa: SIM115 - closed by the with-block below
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", source=source) from None
    with handle:
        yield handle


def csv_rows(
    handle: BinaryIO,
    source: str,
    *,
    required: Sequence[str],
    progress: ProgressCallback | None = None,
) -> Iterator[Row]:
    """Data rows of a CSV file as ``(row, {column: value})`` for every header column.

    Column names are matched without surrounding space or letter case; a name given twice,
    a missing required column, or a row with more or fewer fields than the header is an
    InputError. Blank rows are skipped.
    """
    # The csv module's field limit is process-wide; raise it once to our own row bound.
    if csv.field_size_limit() < MAX_ROW_BYTES:
        csv.field_size_limit(MAX_ROW_BYTES)
    reader = csv.reader(_decoded_lines(handle, source, progress), strict=True)
    row = 1
    try:
        header = next(reader, None)
    except _RowTooLong:
        raise _too_long(source, row) from None
    except csv.Error as exc:
        raise InputError(f"malformed CSV header: {exc}", source=source, row=row) from None
    if header is None:
        raise InputError(
            f"the file is empty; expected a header naming {', '.join(required)}", source=source
        )
    names = _header_names(header, source, required)
    while True:
        row += 1
        try:
            record = next(reader, None)
        except _RowTooLong:
            raise _too_long(source, row) from None
        except csv.Error as exc:
            raise InputError(f"malformed CSV: {exc}", source=source, row=row) from None
        if record is None:
            return
        if not any(field.strip() for field in record):
            continue  # blank rows, as spreadsheets leave at the end
        if len(record) != len(names):
            # A field too many or too few shifts every value after it into the wrong column.
            raise InputError(
                f"the row has {len(record)} fields, the header {len(names)}",
                source=source,
                row=row,
            )
        yield row, dict(zip(names, record, strict=True))


def json_lines(
    handle: BinaryIO, source: str, *, progress: ProgressCallback | None = None
) -> Iterator[tuple[int, str]]:
    """Non-blank lines of a JSON Lines file as ``(line number, text)``."""
    lines = _decoded_lines(handle, source, progress)
    row = 0
    while True:
        row += 1
        try:
            line = next(lines, None)
        except _RowTooLong:
            raise _too_long(source, row) from None
        if line is None:
            return
        if line.strip():
            yield row, line


def json_type(value: object) -> str:
    """How a JSON value's type reads in an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "a string"


def _decoded_lines(
    handle: BinaryIO, source: str, progress: ProgressCallback | None
) -> Iterator[str]:
    offset = reported = 0
    first = True
    while True:
        try:
            raw = handle.readline(MAX_ROW_BYTES + 1)
        except OSError as exc:
            raise InputError(
                f"cannot read the file: {exc.strerror or exc}", source=source
            ) from None
        if not raw:
            break
        if len(raw) > MAX_ROW_BYTES:
            raise _RowTooLong
        offset += len(raw)
        if first:
            raw = raw.removeprefix(codecs.BOM_UTF8)
            first = False
        yield raw.decode("utf-8", "surrogateescape")
        if progress is not None and offset - reported >= _PROGRESS_STEP_BYTES:
            progress(offset)
            reported = offset
    if progress is not None:
        progress(offset)


def _too_long(source: str, row: int) -> InputError:
    return InputError(f"row is longer than {MAX_ROW_BYTES} bytes", source=source, row=row)


def _header_names(header: list[str], source: str, required: Sequence[str]) -> list[str]:
    names: list[str] = []
    for raw_name in header:
        if SURROGATE.search(raw_name):
            raise InputError("invalid UTF-8 in the header", source=source, row=1)
        name = raw_name.strip().lower()
        if name and name in names:
            raise InputError(
                "column appears twice in the header", source=source, row=1, column=name
            )
        names.append(name)
    for name in required:
        if name not in names:
            raise InputError(
                f"missing column; the header has {', '.join(repr(h) for h in header)}",
                source=source,
                row=1,
                column=name,
            )
    return names
