"""Field types shared by the events a backend publishes: claims and answers.

Both events take the same prompt, retrieval list and attributes, and read their
``schema_version`` the same way; defining the types once keeps the two JSON Schemas
identical where the contracts are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, cast

from pydantic import (
    AllowInfNan,
    BeforeValidator,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    StringConstraints,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema
from quantcheck.schemas._common import (
    NO_CONTROL_CHARACTERS,
    NO_NUL_CHARACTERS,
    Identifier,
    KbVersion,
    Name,
)
from quantcheck.schemas.limits import (
    MAX_ATTRIBUTE_KEY_CHARS,
    MAX_ATTRIBUTE_VALUE_CHARS,
    MAX_ATTRIBUTES,
    MAX_PROMPT_CHARS,
    MAX_RETRIEVED_DOC_IDS,
)


def _integer_version(value: object) -> object:
    # Pydantic's literal check takes ``true`` and ``1.0`` for 1; a version is an integer.
    if type(value) in (bool, float):
        raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": "1"})
    return value


SchemaVersionOne = Annotated[Literal[1], BeforeValidator(_integer_version)]
"""``schema_version`` of an inbound event: the integer 1 (not ``true``, not ``1.0``)."""


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


def keys_as_property_names() -> _KeyRulesAsPropertyNames:
    """The marker that renders a dict's key rules as ``propertyNames`` in JSON Schema."""
    return _KeyRulesAsPropertyNames()


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

Prompt = Annotated[str, StringConstraints(max_length=MAX_PROMPT_CHARS), NO_NUL_CHARACTERS]
RetrievedDocIds = Annotated[
    list[Identifier],
    Field(
        max_length=MAX_RETRIEVED_DOC_IDS,
        description="IDs of the documents retrieval supplied to the model; a cited ID not"
        " among them gives status citation_not_retrieved.",
    ),
]
# The provenance fields below read the same in a claim and in an answer: described once.
EventKbVersion = Annotated[
    KbVersion,
    Field(description="Knowledge-base version the cited IDs refer to; evidence is read as of it."),
]
ModelName = Annotated[
    Name, Field(description="Name of the model that generated the answer, if known.")
]
RetrieverName = Annotated[
    Name, Field(description="Name of the retriever that supplied the documents, if known.")
]
Attributes = Annotated[
    dict[AttributeKey, AttributeValue],
    Field(max_length=MAX_ATTRIBUTES),
    _KeyRulesAsPropertyNames(),
]

__all__ = [
    "AttributeKey",
    "AttributeValue",
    "Attributes",
    "EventKbVersion",
    "ModelName",
    "Prompt",
    "RetrievedDocIds",
    "RetrieverName",
    "SchemaVersionOne",
    "keys_as_property_names",
]
