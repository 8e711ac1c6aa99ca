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

import json
import os
from collections.abc import Iterator

from quantcheck.checker.model import Document, doc_id_problem, text_problem
from quantcheck.errors import InputError
from quantcheck.inputs.rows import (
    SURROGATE,
    ProgressCallback,
    Row,
    csv_rows,
    file_format,
    json_lines,
    json_type,
    open_binary,
)

FORMATS: dict[str, str] = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
COLUMNS: tuple[str, ...] = ("doc_id", "topic", "text")
REQUIRED_COLUMNS: tuple[str, ...] = ("doc_id", "text")


def iter_documents(
    path: str | os.PathLike[str], *, progress: ProgressCallback | None = None
) -> Iterator[Document]:
    """Yield the documents of a CSV or JSON Lines file one by one, validating as it goes.

    Every problem raises :class:`~quantcheck.errors.InputError` naming the file, the row and
    the column where known: an unreadable file, a missing column, an empty ``doc_id`` or
    text, a repeated ``doc_id`` (with the row of its first use), bytes that are not UTF-8,
    a malformed JSON line, a JSON value that is not an object or has non-string fields.
    ``progress``, if given, is called now and then with the number of bytes read so far.
    """
    source = os.fspath(path)
    kind = file_format(source, FORMATS)
    with open_binary(source) as handle:
        rows = (
            csv_rows(handle, source, required=REQUIRED_COLUMNS, progress=progress)
            if kind == "csv"
            else _jsonl_rows(json_lines(handle, source, progress=progress), source)
        )
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


def _jsonl_rows(lines: Iterator[tuple[int, str]], source: str) -> Iterator[Row]:
    for row, line in lines:
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            problem = "invalid UTF-8" if SURROGATE.search(line) else f"malformed JSON: {exc}"
            raise InputError(problem, source=source, row=row) from None
        if not isinstance(value, dict):
            raise InputError(
                f"expected a JSON object, got {json_type(value)}", source=source, row=row
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
                    f"must be a string, got {json_type(field)}",
                    source=source,
                    row=row,
                    column=name,
                )
            fields[name] = field
        yield row, fields


def _document(fields: dict[str, str], source: str, row: int) -> Document:
    values: dict[str, str] = {}
    for name in COLUMNS:
        value = fields.get(name, "")
        if SURROGATE.search(value):
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
