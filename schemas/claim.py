"""The claim event, version 1: what a RAG backend publishes to the ``claims`` topic.

A backend builds a :class:`ClaimEvent` and publishes ``event.model_dump_json()`` with the
claim ID, UTF-8 encoded, as the message key. The worker reads messages with
:func:`parse_claim`, which turns every way a message can be wrong into one
:class:`ClaimDecodeError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal, cast, get_args

import pydantic_core
from pydantic import (
    AllowInfNan,
    BaseModel,
    BeforeValidator,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    StringConstraints,
    ValidationError,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

from schemas._common import (
    CONTRACT_CONFIG,
    NO_CONTROL_CHARACTERS,
    NO_NUL_CHARACTERS,
    AwareTimestamp,
    Identifier,
    KbVersion,
    Name,
    one_line,
)
from schemas.limits import (
    MAX_ATTRIBUTE_KEY_CHARS,
    MAX_ATTRIBUTE_VALUE_CHARS,
    MAX_ATTRIBUTES,
    MAX_CITED_DOC_IDS,
    MAX_CLAIM_TEXT_CHARS,
    MAX_ERROR_MESSAGE_CHARS,
    MAX_PROMPT_CHARS,
    MAX_REPORTED_ERRORS,
    MAX_RETRIEVED_DOC_IDS,
    SCHEMA_VERSION,
)

ClaimDecodeKind = Literal[
    "invalid_utf8", "invalid_json", "schema_violation", "unsupported_schema_version"
]
"""Why a claim message could not be read."""

CLAIM_DECODE_KINDS: Final[tuple[ClaimDecodeKind, ...]] = get_args(ClaimDecodeKind)


class ClaimDecodeError(ValueError):
    """A claim message that cannot be read; ``kind`` classifies it, ``message`` explains it
    in one line that names the failing fields."""

    def __init__(self, kind: ClaimDecodeKind, message: str) -> None:
        self.kind: ClaimDecodeKind = kind
        self.message = one_line(message, MAX_ERROR_MESSAGE_CHARS)
        super().__init__(self.message)


def _integer_version(value: object) -> object:
    # Pydantic's literal check takes ``true`` and ``1.0`` for 1; a version is an integer.
    if type(value) in (bool, float):
        raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": "1"})
    return value


@dataclass(frozen=True, slots=True)
class _OneError:
    """Reports a failed union as one error with ``message`` instead of one per member."""

    error_type: str
    message: str

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        schema = handler(source)
        inner = schema
        if inner["type"] == "nullable":
            inner = inner["schema"]
        if inner["type"] == "union":
            union = cast(core_schema.UnionSchema, inner)
            union["custom_error_type"] = self.error_type
            union["custom_error_message"] = self.message
        return schema


@dataclass(frozen=True, slots=True)
class _KeyRulesAsPropertyNames:
    """Documents a dict's key rules under ``propertyNames``.

    Pydantic renders a key pattern as ``patternProperties``, which leaves keys that do
    not match it unconstrained instead of refusing them.
    """

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        json_schema = handler(schema)
        patterns = json_schema.pop("patternProperties", {})
        for pattern, values in patterns.items():
            json_schema.setdefault("propertyNames", {})["pattern"] = pattern
            json_schema["additionalProperties"] = values
        return json_schema


AttributeKey = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_ATTRIBUTE_KEY_CHARS),
    NO_CONTROL_CHARACTERS,
]
"""An attribute name: 1 to ``MAX_ATTRIBUTE_KEY_CHARS`` characters, no control characters."""

AttributeValue = Annotated[
    Annotated[str, StringConstraints(max_length=MAX_ATTRIBUTE_VALUE_CHARS), NO_NUL_CHARACTERS]
    | int
    | Annotated[float, AllowInfNan(False)]
    | bool
    | None,
    _OneError(
        "attribute_value",
        f"Input should be a string of at most {MAX_ATTRIBUTE_VALUE_CHARS} characters"
        " without NUL characters, an integer, a finite number, a boolean or null",
    ),
]
"""An attribute value: a bounded string, an integer, a finite number, a boolean or null."""

ClaimText = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_CLAIM_TEXT_CHARS), NO_NUL_CHARACTERS
]
Prompt = Annotated[str, StringConstraints(max_length=MAX_PROMPT_CHARS), NO_NUL_CHARACTERS]
CitedDocIds = Annotated[list[Identifier], Field(max_length=MAX_CITED_DOC_IDS)]
RetrievedDocIds = Annotated[list[Identifier], Field(max_length=MAX_RETRIEVED_DOC_IDS)]
Attributes = Annotated[
    dict[AttributeKey, AttributeValue],
    Field(max_length=MAX_ATTRIBUTES),
    _KeyRulesAsPropertyNames(),
]


class ClaimEvent(BaseModel):
    """One claim to check: a statement from a generated answer, the documents it cites and
    the documents retrieval supplied, as of one knowledge-base version."""

    model_config = CONTRACT_CONFIG

    schema_version: Annotated[Literal[1], BeforeValidator(_integer_version)] = Field(
        description="Version of this contract; always 1. Other integers are refused as"
        " unsupported so that a newer producer is noticed, not misread."
    )
    claim_id: Identifier = Field(
        description="Unique ID of the claim; also the message key (UTF-8). Verdicts and dead"
        " letters carry it."
    )
    answer_id: Identifier | None = Field(
        default=None, description="ID of the generated answer the claim was taken from."
    )
    claim_text: ClaimText = Field(description="The statement to check, as the answer wrote it.")
    cited_doc_ids: CitedDocIds = Field(
        description="IDs of the documents the claim cites, in citation order. An empty list"
        " means the claim cites nothing (status missing_citation)."
    )
    retrieved_doc_ids: RetrievedDocIds = Field(
        description="IDs of the documents retrieval supplied to the model; a cited ID not"
        " among them gives status citation_not_retrieved."
    )
    kb_version: KbVersion = Field(
        description="Knowledge-base version the cited IDs refer to; evidence is read as of it."
    )
    prompt: Prompt = Field(
        default="",
        description="The prompt that produced the answer; only its SHA-256 reaches the verdict.",
    )
    model: Name = Field(
        default="", description="Name of the model that generated the answer, if known."
    )
    retriever: Name = Field(
        default="", description="Name of the retriever that supplied the documents, if known."
    )
    produced_at: AwareTimestamp = Field(
        description="When the backend produced the claim: an RFC 3339 timestamp with offset."
    )
    attributes: Attributes = Field(
        default_factory=dict,
        description="Free-form scalar metadata for tracing (tenant, request ID, ...); the"
        " check ignores it.",
    )


_FIELDS: Final = frozenset(ClaimEvent.model_fields)
_ROOT = "(root)"
_LOCATION_PART_CHARS = 50
_JSON_TYPES: Final = {list: "an array", str: "a string", bool: "a boolean", int: "a number"}


def parse_claim(raw: bytes | bytearray | memoryview | None) -> ClaimEvent:
    """Read one claim message value (UTF-8 JSON) into a :class:`ClaimEvent`.

    Raises :class:`ClaimDecodeError`, and nothing else, for any input that is not a valid
    version 1 claim: bytes that are not UTF-8, text that is not JSON (including nesting
    deeper than the parser's limit of 200 levels and integers of more than 4300 digits),
    JSON that is not a claim object, or a claim of another ``schema_version``. ``None``
    (a tombstone) counts as invalid JSON.

    The raw size is not checked here: the worker refuses values larger than
    ``MAX_CLAIM_MESSAGE_BYTES`` before calling this. Within that size every input is
    handled in time proportional to its length.
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
        # before the full validation below parses it again. RecursionError cannot come
        # from it today; it is caught so that no parser change can let one escape.
        document = pydantic_core.from_json(data)
    except (ValueError, RecursionError) as exc:
        raise ClaimDecodeError("invalid_json", f"invalid JSON: {exc}") from None
    _precheck(document)
    try:
        return ClaimEvent.model_validate_json(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_context=False, include_input=False)
        raise ClaimDecodeError(
            "schema_violation",
            summarize_errors(((e["loc"], e["msg"]) for e in errors), exc.error_count()),
        ) from None


def _precheck(document: object) -> None:
    """Refuse, without full validation, what is not a claim object, another schema
    version, and the shapes whose errors would cost time proportional to their size."""
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
    if len(document) > len(_FIELDS):
        # More keys than the contract has fields: some are unknown, and pydantic would
        # build one error per key.
        unknown = [key for key in document if key not in _FIELDS]
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
    "AttributeValue",
    "ClaimDecodeError",
    "ClaimDecodeKind",
    "ClaimEvent",
    "parse_claim",
    "summarize_errors",
]
