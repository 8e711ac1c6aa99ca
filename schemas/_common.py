"""Types and settings shared by the contracts, and the one-line rendering of untrusted text."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    ConfigDict,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    StringConstraints,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema
from quantcheck.schemas.limits import MAX_ID_CHARS, MAX_KB_VERSION_CHARS, MAX_NAME_CHARS

CONTRACT_CONFIG = ConfigDict(
    strict=True,
    extra="forbid",
    frozen=True,
    # Claims carry prompts and answers; a logged ValidationError must not repeat them.
    hide_input_in_errors=True,
)
"""Settings shared by every contract model: strict types, no unknown fields, immutable."""


@dataclass(frozen=True, slots=True)
class _Forbidden:
    """Rejects strings containing characters that match ``pattern``.

    Validation uses its own message, clearer than a failed regular expression; the JSON
    Schema states the same rule as ``allowed`` so other languages can enforce it too.
    """

    pattern: re.Pattern[str]
    allowed: str
    error_type: str
    message: str

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self._check, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        json_schema = handler(schema)
        json_schema["pattern"] = self.allowed
        return json_schema

    def _check(self, value: str) -> str:
        if self.pattern.search(value):
            raise PydanticCustomError(self.error_type, self.message)
        return value


NO_CONTROL_CHARACTERS = _Forbidden(
    pattern=re.compile(r"[\x00-\x1f\x7f-\x9f]"),
    allowed=r"^[^\x00-\x1f\x7f-\x9f]*$",
    error_type="control_character",
    message="String should not contain control characters",
)
"""For names and IDs: no C0 or C1 control characters (they break logs and headers)."""

NO_NUL_CHARACTERS = _Forbidden(
    pattern=re.compile(r"\x00"),
    allowed=r"^[^\x00]*$",
    error_type="nul_character",
    message="String should not contain NUL characters",
)
"""For free text: only NUL is refused, as PostgreSQL text and C strings cannot hold it."""

Identifier = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_ID_CHARS), NO_CONTROL_CHARACTERS
]
"""A claim, answer or document ID: 1 to ``MAX_ID_CHARS`` characters, no control characters."""

KbVersion = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_KB_VERSION_CHARS), NO_CONTROL_CHARACTERS
]
"""A knowledge-base version: 1 to ``MAX_KB_VERSION_CHARS`` characters, no control characters."""

Name = Annotated[str, StringConstraints(max_length=MAX_NAME_CHARS), NO_CONTROL_CHARACTERS]
"""A model, retriever or checker name: at most ``MAX_NAME_CHARS`` characters, may be empty."""


def _aware(value: datetime) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise PydanticCustomError(
            "timezone_aware", "Input should have a timezone offset, such as 'Z' or '+02:00'"
        )
    return value


AwareTimestamp = Annotated[datetime, AfterValidator(_aware)]
"""A datetime with a UTC offset (an RFC 3339 timestamp in JSON); naive ones are refused."""

_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_ELLIPSIS = "..."


def one_line(text: str, limit: int) -> str:
    """``text`` made safe to print on one line: invisible and line-breaking characters are
    escaped (``\\n``, ``\\u202e``) and the result is cut to at most ``limit`` characters."""
    head = text[: limit + 1]
    if not head.isprintable():
        head = "".join(
            ch.encode("unicode_escape").decode("ascii")
            if unicodedata.category(ch) in _ESCAPED_CATEGORIES
            else ch
            for ch in head
        )
    if len(head) > limit or len(text) > limit:
        keep = max(limit - len(_ELLIPSIS), 0)
        return (head[:keep] + _ELLIPSIS)[:limit]
    return head
