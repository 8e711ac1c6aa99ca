"""Reading a message value of the claims topic into an event model, or one decode error.

Claims and answers are read the same way: UTF-8, then JSON, then a cheap shape check,
then full validation. Every way a value can be wrong becomes one
:class:`ClaimDecodeError` whose kind is also its dead-letter kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, Literal, TypeVar, get_args

import pydantic_core
from pydantic import BaseModel, ValidationError
from quantcheck.schemas._common import one_line
from quantcheck.schemas.limits import (
    MAX_ATTRIBUTES,
    MAX_ERROR_MESSAGE_CHARS,
    MAX_REPORTED_ERRORS,
    SCHEMA_VERSION,
)

ClaimDecodeKind = Literal[
    "invalid_utf8", "invalid_json", "schema_violation", "unsupported_schema_version"
]
"""Why a message of the claims topic could not be read."""

CLAIM_DECODE_KINDS: Final[tuple[ClaimDecodeKind, ...]] = get_args(ClaimDecodeKind)

Event = TypeVar("Event", bound=BaseModel)

_ROOT = "(root)"
_LOCATION_PART_CHARS = 50
_JSON_TYPES: Final = {list: "an array", str: "a string", bool: "a boolean", int: "a number"}


class ClaimDecodeError(ValueError):
    """A message of the claims topic (a claim or an answer) that cannot be read; ``kind``
    classifies it, ``message`` explains it in one line that names the failing fields."""

    def __init__(self, kind: ClaimDecodeKind, message: str) -> None:
        self.kind: ClaimDecodeKind = kind
        self.message = one_line(message, MAX_ERROR_MESSAGE_CHARS)
        super().__init__(self.message)


def read_document(raw: bytes | bytearray | memoryview | None) -> tuple[bytes, object]:
    """The value's bytes and its parsed JSON; a ClaimDecodeError when it is not UTF-8 JSON.

    ``None`` (a tombstone) counts as invalid JSON.
    """
    if raw is None:
        raise ClaimDecodeError("invalid_json", "message has no value (a tombstone)")
    data = bytes(raw)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ClaimDecodeError(
            "invalid_utf8", f"invalid UTF-8 at byte {exc.start}: {exc.reason}"
        ) from None
    try:
        # A first parse, in Rust with a nesting limit, classifies the message cheaply
        # before the full validation parses it again. RecursionError cannot come from it
        # today; it is caught so that no parser change can let one escape.
        document = pydantic_core.from_json(data)
    except (ValueError, RecursionError) as exc:
        raise ClaimDecodeError("invalid_json", f"invalid JSON: {exc}") from None
    return data, document


def validate_document(data: bytes, document: object, model: type[Event]) -> Event:
    """``data`` (whose parsed JSON is ``document``) validated as ``model``."""
    _precheck(document, frozenset(model.model_fields))
    try:
        return model.model_validate_json(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_context=False, include_input=False)
        raise ClaimDecodeError(
            "schema_violation",
            summarize_errors(((e["loc"], e["msg"]) for e in errors), exc.error_count()),
        ) from None


def decode(raw: bytes | bytearray | memoryview | None, model: type[Event]) -> Event:
    """Read one message value as ``model``; raises :class:`ClaimDecodeError` and nothing
    else. Within ``MAX_CLAIM_MESSAGE_BYTES`` every input is handled in time proportional
    to its length."""
    data, document = read_document(raw)
    return validate_document(data, document, model)


def _precheck(document: object, fields: frozenset[str]) -> None:
    """Refuse, without full validation, what is not a JSON object, another schema version,
    and the shapes whose errors would cost time proportional to their size."""
    if not isinstance(document, dict):
        found = "null" if document is None else _JSON_TYPES.get(type(document), "a number")
        raise ClaimDecodeError(
            "schema_violation", f"{_ROOT}: Input should be a JSON object, not {found}"
        )
    version = document.get("schema_version")
    if type(version) is int and version != SCHEMA_VERSION:
        shown = str(version) if abs(version) < 10**9 else "a version this large"
        raise ClaimDecodeError(
            "unsupported_schema_version",
            f"schema_version: {shown} is not supported; this reader reads version {SCHEMA_VERSION}",
        )
    if len(document) > len(fields):
        # More keys than the contract has fields: some are unknown, and pydantic would
        # build one error per key.
        unknown = [key for key in document if key not in fields]
        raise ClaimDecodeError(
            "schema_violation",
            summarize_errors(
                (((key,), "Extra inputs are not permitted") for key in unknown), len(unknown)
            ),
        )
    attributes = document.get("attributes")
    if isinstance(attributes, dict) and len(attributes) > MAX_ATTRIBUTES:
        # Pydantic checks a dict's size only after validating every entry.
        raise ClaimDecodeError(
            "schema_violation",
            f"attributes: Dictionary should have at most {MAX_ATTRIBUTES} items,"
            f" not {len(attributes)}",
        )


def summarize_errors(
    errors: Iterable[tuple[Sequence[int | str], str]], total: int | None = None
) -> str:
    """One line naming at most ``MAX_REPORTED_ERRORS`` errors as ``path: message`` (paths
    dotted, list indexes as numbers), then how many more there were.

    ``total`` is the full number of errors when ``errors`` may stop early.
    """
    shown: list[str] = []
    count = 0
    for location, message in errors:
        count += 1
        if len(shown) < MAX_REPORTED_ERRORS:
            shown.append(f"{_location(location)}: {message}")
    total = count if total is None else max(total, count)
    text = "; ".join(shown)
    if total > len(shown):
        text += f"; and {total - len(shown)} more"
    return one_line(text, MAX_ERROR_MESSAGE_CHARS)


def _location(location: Sequence[int | str]) -> str:
    if not location:
        return _ROOT
    return ".".join(one_line(str(part), _LOCATION_PART_CHARS) for part in location)


__all__ = [
    "CLAIM_DECODE_KINDS",
    "ClaimDecodeError",
    "ClaimDecodeKind",
    "decode",
    "read_document",
    "summarize_errors",
    "validate_document",
]
