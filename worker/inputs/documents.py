"""Reading document files: CSV or JSON Lines, streamed one document at a time.

The format follows the extension: ``.csv``, or ``.jsonl`` / ``.ndjson``.

CSV
    A header row naming the columns ``doc_id``, ``text`` and optionally ``topic`` (in any
    order, any letter case; other columns are ignored), then one document per row.
JSON Lines
    One JSON object per line with the string fields ``doc_id``, ``text`` and optionally
    ``topic``; other fields are ignored. Blank lines are skipped.

Files are UTF-8; a leading byte-order mark is ignored. ``doc_id`` and ``topic`` lose
surrounding whitespace, ``text`` is kept exactly as written.

Row numbers in errors are what a person looking at the file sees: for CSV the header is
row 1 and the first document row 2, counting a quoted multi-line field as one row, as a
spreadsheet does; for JSON Lines the row is the line number. Memory stays bounded by the
largest document plus one ID and row number per document (kept to report duplicates),
however big the file.
"""

from __future__ import annotations

import codecs
import csv
import json
import os
import re
from collections.abc import Callable, Iterator
from typing import BinaryIO

from worker.checker.model import Document
from worker.errors import InputError
from worker.store.base import doc_id_problem, text_problem

FORMATS: dict[str, str] = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
COLUMNS: tuple[str, ...] = ("doc_id", "topic", "text")
REQUIRED_COLUMNS: tuple[str, ...] = ("doc_id", "text")
# Bounds what one row may hold, so an unclosed quote cannot swallow a whole file.
MAX_ROW_BYTES = 32 * 1024 * 1024
_PROGRESS_STEP_BYTES = 1024 * 1024
# Undecodable bytes come through as lone surrogates (surrogateescape), and JSON escapes
# such as "\udc80" produce them too; neither can be stored as UTF-8.
_SURROGATE = re.compile("[\ud800-\udfff]")

ProgressCallback = Callable[[int], None]
_Row = tuple[int, dict[str, str]]


class _RowTooLong(Exception):
    """A physical line exceeded MAX_ROW_BYTES; the caller knows which row it belongs to."""


def iter_documents(
    path: str | os.PathLike[str], *, progress: ProgressCallback | None = None
) -> Iterator[Document]:
    """Yield the documents of a CSV or JSON Lines file one by one, validating as it goes.

    Every problem raises :class:`~worker.errors.InputError` naming the file, the row and
    the column where known: an unreadable file, a missing column, an empty ``doc_id`` or
    text, a repeated ``doc_id`` (with the row of its first use), bytes that are not UTF-8,
    a malformed JSON line, a JSON value that is not an object or has non-string fields.
    ``progress``, if given, is called now and then with the number of bytes read so far.
    """
    source = os.fspath(path)
    suffix = os.path.splitext(source)[1].lower()
    file_format = FORMATS.get(suffix)
    if file_format is None:
        raise InputError(
            f"unsupported document file type {suffix or '(no extension)'!r}; "
            f"use {', '.join(FORMATS)}",
            source=source,
        )
    try:
        handle = open(source, "rb")  # noqa: SIM115 - closed by the with-block below
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", source=source) from None
    with handle:
        lines = _decoded_lines(handle, source, progress)
        rows = _csv_rows(lines, source) if file_format == "csv" else _jsonl_rows(lines, source)
        first_row: dict[str, int] = {}
        for row, fields in rows:
            doc = _document(fields, source, row)
            previous = first_row.setdefault(doc.doc_id, row)
            if previous != row:
                raise InputError(
                    f"duplicate doc_id {doc.doc_id!r}, first used in row {previous}",
                    source=source,
                    row=row,
                    column="doc_id",
                )
            yield doc


def read_documents(path: str | os.PathLike[str]) -> dict[str, Document]:
    """All documents of a small file, keyed by ``doc_id`` in file order."""
    return {doc.doc_id: doc for doc in iter_documents(path)}


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


def _csv_rows(lines: Iterator[str], source: str) -> Iterator[_Row]:
    # The csv module's field limit is process-wide; raise it once to our own row bound.
    if csv.field_size_limit() < MAX_ROW_BYTES:
        csv.field_size_limit(MAX_ROW_BYTES)
    reader = csv.reader(lines, strict=True)
    row = 1
    try:
        header = next(reader, None)
    except _RowTooLong:
        raise _too_long(source, row) from None
    except csv.Error as exc:
        raise InputError(f"malformed CSV header: {exc}", source=source, row=row) from None
    if header is None:
        raise InputError(
            f"the file is empty; expected a header naming {', '.join(COLUMNS)}", source=source
        )
    positions = _header_positions(header, source)
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
        yield (
            row,
            {
                name: record[index] if index < len(record) else ""
                for name, index in positions.items()
            },
        )


def _header_positions(header: list[str], source: str) -> dict[str, int]:
    positions: dict[str, int] = {}
    for index, raw_name in enumerate(header):
        name = raw_name.strip().lower()
        if name not in COLUMNS:
            continue
        if name in positions:
            raise InputError(
                "column appears twice in the header", source=source, row=1, column=name
            )
        if _SURROGATE.search(raw_name):
            raise InputError("invalid UTF-8 in the header", source=source, row=1)
        positions[name] = index
    for name in REQUIRED_COLUMNS:
        if name not in positions:
            raise InputError(
                f"missing column; the header has {', '.join(repr(h) for h in header)}",
                source=source,
                row=1,
                column=name,
            )
    return positions


def _jsonl_rows(lines: Iterator[str], source: str) -> Iterator[_Row]:
    row = 0
    while True:
        row += 1
        try:
            line = next(lines, None)
        except _RowTooLong:
            raise _too_long(source, row) from None
        if line is None:
            return
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            problem = "invalid UTF-8" if _SURROGATE.search(line) else f"malformed JSON: {exc}"
            raise InputError(problem, source=source, row=row) from None
        if not isinstance(value, dict):
            raise InputError(
                f"expected a JSON object, got {_json_type(value)}", source=source, row=row
            )
        fields: dict[str, str] = {}
        for name in COLUMNS:
            if name not in value:
                if name in REQUIRED_COLUMNS:
                    raise InputError("missing field", source=source, row=row, column=name)
                continue
            field = value[name]
            if not isinstance(field, str):
                raise InputError(
                    f"must be a string, got {_json_type(field)}",
                    source=source,
                    row=row,
                    column=name,
                )
            fields[name] = field
        yield row, fields


def _json_type(value: object) -> str:
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


def _document(fields: dict[str, str], source: str, row: int) -> Document:
    values: dict[str, str] = {}
    for name in COLUMNS:
        value = fields.get(name, "")
        if _SURROGATE.search(value):
            raise InputError(
                "invalid UTF-8 (or a lone surrogate escape)", source=source, row=row, column=name
            )
        values[name] = value if name == "text" else value.strip()
    problem = doc_id_problem(values["doc_id"])
    if problem is not None:
        raise InputError(problem, source=source, row=row, column="doc_id")
    problem = text_problem(values["text"])
    if problem is not None:
        raise InputError(problem, source=source, row=row, column="text")
    if "\x00" in values["topic"]:
        raise InputError("topic contains a NUL character", source=source, row=row, column="topic")
    return Document(doc_id=values["doc_id"], text=values["text"], topic=values["topic"])
