"""Reading claim files: the sample CSV layout, or JSON Lines of claim events.

CSV
    Columns ``claim_id``, ``claim_text``, ``cited_doc_id`` and ``retrieved_doc_ids`` (the
    last two may hold several IDs separated by ``|``; an empty ``cited_doc_id`` is a
    claim without citation), optionally ``expected_status`` (a reviewed label, used to
    report ``matched_expected``), ``question`` or ``prompt``, ``answer_id``,
    ``kb_version``, ``model``, ``retriever`` and ``produced_at``. Other columns are kept
    and passed through to result files.
JSON Lines
    One claim event or answer event per line, exactly as published to the claims topic
    (an answer names itself with ``"event_type": "answer"``). A file read as answers only
    (``answers=True``) may leave ``event_type`` out: every line is an answer.

Fields a CSV lacks (knowledge-base version, model, retriever) come from
:class:`ClaimDefaults`. Every problem is an InputError naming file, row and column.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pydantic import ValidationError

from quantcheck.checker.model import Status
from quantcheck.errors import InputError
from quantcheck.inputs.rows import (
    SURROGATE,
    ProgressCallback,
    csv_rows,
    file_format,
    json_lines,
    open_binary,
)
from quantcheck.schemas import (
    ANSWER_EVENT_TYPE,
    AnswerEvent,
    ClaimDecodeError,
    ClaimEvent,
    parse_answer,
    parse_claims_topic_value,
)

FORMATS: dict[str, str] = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
REQUIRED_COLUMNS: tuple[str, ...] = ("claim_id", "claim_text", "cited_doc_id", "retrieved_doc_ids")
_LIST_COLUMNS = {"cited_doc_id": "cited_doc_ids", "retrieved_doc_ids": "retrieved_doc_ids"}
_TEXT_COLUMNS = {
    "claim_id": "claim_id",
    "claim_text": "claim_text",
    "answer_id": "answer_id",
    "kb_version": "kb_version",
    "model": "model",
    "retriever": "retriever",
    "prompt": "prompt",
    "question": "prompt",
}
_STATUSES = frozenset(s.value for s in Status)


@dataclass(frozen=True, slots=True)
class ClaimDefaults:
    """Values for claim fields a file does not carry."""

    kb_version: str = ""
    model: str = ""
    retriever: str = ""
    produced_at: datetime = field(default_factory=lambda: datetime.now(UTC))


@dataclass(frozen=True, slots=True)
class ClaimRow:
    """One claim read from a file, with where it was and what else the row held."""

    row: int
    event: ClaimEvent
    expected_status: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    # False for a sentence of an answer that cites nothing and states no number.
    gated: bool = True


@dataclass(frozen=True, slots=True)
class AnswerRow:
    """One answer read from a JSON Lines file; its sentences are its claims."""

    row: int
    event: AnswerEvent


def split_ids(value: str) -> list[str]:
    """``S01|S03`` as ``["S01", "S03"]``; blanks between bars are dropped."""
    return [item.strip() for item in value.split("|") if item.strip()]


def iter_claims(
    path: str | os.PathLike[str],
    *,
    defaults: ClaimDefaults | None = None,
    answers: bool = False,
    progress: ProgressCallback | None = None,
) -> Iterator[ClaimRow | AnswerRow]:
    """Yield the claims and answers of a CSV or JSON Lines file in file order, validating
    each. With ``answers`` the file must be JSON Lines of answers only. ``progress`` is
    called with the bytes read so far, every megabyte and at the end."""
    source = os.fspath(path)
    kind = file_format(source, FORMATS)
    if answers and kind != "jsonl":
        raise InputError("a file of answers is JSON Lines (.jsonl)", source=source)
    fill = defaults or ClaimDefaults()
    seen: dict[str, int] = {}
    with open_binary(source) as handle:
        rows: Iterator[ClaimRow | AnswerRow] = (
            _csv_claims(
                csv_rows(handle, source, required=REQUIRED_COLUMNS, progress=progress),
                source,
                fill,
            )
            if kind == "csv"
            else _jsonl_claims(json_lines(handle, source, progress=progress), source, answers)
        )
        for claim in rows:
            event = claim.event
            column, key = (
                ("answer_id", event.answer_id)
                if isinstance(event, AnswerEvent)
                else ("claim_id", event.claim_id)
            )
            first = seen.setdefault(key or "", claim.row)
            if first != claim.row:
                raise InputError(
                    f"duplicate {column} {key!r}, first used in row {first}",
                    source=source,
                    row=claim.row,
                    column=column,
                )
            yield claim


def _csv_claims(
    rows: Iterator[tuple[int, dict[str, str]]], source: str, fill: ClaimDefaults
) -> Iterator[ClaimRow]:
    for row, fields in rows:
        # One search per row; the column is only looked for when there is something to name.
        if SURROGATE.search("".join(fields.values())):
            column = next(c for c, value in fields.items() if SURROGATE.search(value))
            raise InputError("invalid UTF-8", source=source, row=row, column=column)
        if not fields["claim_id"].strip():
            raise InputError("empty claim_id", source=source, row=row, column="claim_id")
        expected = fields.get("expected_status", "").strip() or None
        if expected is not None and expected not in _STATUSES:
            raise InputError(
                f"unknown status {expected!r}; expected one of {', '.join(sorted(_STATUSES))}",
                source=source,
                row=row,
                column="expected_status",
            )
        data: dict[str, object] = {
            "schema_version": 1,
            "kb_version": fill.kb_version,
            "model": fill.model,
            "retriever": fill.retriever,
            "produced_at": fill.produced_at,
        }
        extra: dict[str, str] = {}
        for column, value in fields.items():
            if column in _LIST_COLUMNS:
                data[_LIST_COLUMNS[column]] = split_ids(value)
            elif column in _TEXT_COLUMNS:
                text = value if column in {"claim_text", "question", "prompt"} else value.strip()
                if text or column == "claim_text":
                    data[_TEXT_COLUMNS[column]] = text
            elif column == "produced_at":
                if value.strip():
                    data["produced_at"] = _timestamp(value, source, row)
            elif column != "expected_status":
                extra[column] = value
        yield ClaimRow(row, _validated(data, source, row), expected, extra)


def _jsonl_claims(
    lines: Iterator[tuple[int, str]], source: str, answers: bool
) -> Iterator[ClaimRow | AnswerRow]:
    # An event carries every field itself: no defaults are filled in.
    for row, line in lines:
        raw = line.encode("utf-8", "surrogateescape")
        try:
            event = _answer(raw) if answers else parse_claims_topic_value(raw)
        except ClaimDecodeError as exc:
            raise InputError(exc.message, source=source, row=row) from None
        yield AnswerRow(row, event) if isinstance(event, AnswerEvent) else ClaimRow(row, event)


def _answer(raw: bytes) -> AnswerEvent:
    """An answer line, which in a file of answers need not say ``"event_type": "answer"``."""
    try:
        document = json.loads(raw)
    except ValueError:
        return parse_answer(raw)  # which names what is wrong with it, as for any event
    if isinstance(document, dict) and "event_type" not in document:
        raw = json.dumps({"event_type": ANSWER_EVENT_TYPE, **document}).encode("utf-8")
    return parse_answer(raw)


def _timestamp(value: str, source: str, row: int) -> datetime:
    try:
        stamp = datetime.fromisoformat(value.strip())
    except ValueError:
        raise InputError(
            f"not an ISO-8601 timestamp: {value!r}", source=source, row=row, column="produced_at"
        ) from None
    if stamp.tzinfo is None:
        raise InputError(
            "timestamp needs a UTC offset", source=source, row=row, column="produced_at"
        )
    return stamp


def _validated(data: dict[str, object], source: str, row: int) -> ClaimEvent:
    try:
        return ClaimEvent.model_validate(data)
    except ValidationError as exc:
        error = exc.errors(include_url=False, include_input=False)[0]
        field_name = str(error["loc"][0]) if error["loc"] else None
        column = {v: k for k, v in {**_TEXT_COLUMNS, **_LIST_COLUMNS}.items()}.get(
            field_name or "", field_name
        )
        hint = ""
        if field_name == "kb_version":
            hint = " (give --kb-version, a kb_version column, or --documents FILE)"
        raise InputError(f"{error['msg']}{hint}", source=source, row=row, column=column) from None
