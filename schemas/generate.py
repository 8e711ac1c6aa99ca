"""Write the contracts' JSON Schema files next to this module.

``python -m quantcheck.schemas.generate`` rewrites the files that differ from the models;
``python -m quantcheck.schemas.generate --check`` writes nothing and exits 1 when any differs, so a
change to a model cannot land without its schema.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode
from quantcheck.schemas.answer import AnswerEvent
from quantcheck.schemas.answer_verdict import AnswerVerdictEvent
from quantcheck.schemas.claim import ClaimEvent
from quantcheck.schemas.limits import MAX_CLAIM_MESSAGE_BYTES
from quantcheck.schemas.verdict import VerdictEvent

SCHEMA_DIR: Final = Path(__file__).resolve().parent
"""Where the generated files live: inside the package, so they ship with it."""

JSON_SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"


@dataclass(frozen=True, slots=True)
class SchemaFile:
    """One generated file: which model, which side of it, and how the file names itself."""

    filename: str
    model: type[BaseModel]
    mode: JsonSchemaMode
    schema_id: str
    description: str


SCHEMA_FILES: Final = (
    SchemaFile(
        filename="claim-event.v1.schema.json",
        model=ClaimEvent,
        # What the worker accepts.
        mode="validation",
        schema_id="urn:quantcheck:schema:claim-event:v1",
        description=(
            "A claim published to the claims topic, keyed by its claim_id (UTF-8), as UTF-8"
            f" JSON of at most {MAX_CLAIM_MESSAGE_BYTES} bytes. Character limits count"
            " Unicode code points. Messages that fail this schema are dead-lettered."
        ),
    ),
    SchemaFile(
        filename="verdict.v1.schema.json",
        model=VerdictEvent,
        # What the worker writes: every field is always present.
        mode="serialization",
        schema_id="urn:quantcheck:schema:verdict:v1",
        description=(
            "The verdict on one claim, published to the claim-verdicts topic keyed by"
            " claim_id, in transactions: read it with isolation_level=read_committed."
            " Spans count Unicode code points."
        ),
    ),
    SchemaFile(
        filename="answer-event.v1.schema.json",
        model=AnswerEvent,
        mode="validation",
        schema_id="urn:quantcheck:schema:answer-event:v1",
        description=(
            "A generated answer published to the claims topic, keyed by its answer_id"
            f" (UTF-8), as UTF-8 JSON of at most {MAX_CLAIM_MESSAGE_BYTES} bytes. event_type"
            " 'answer' tells it from a claim event. Character limits count Unicode code"
            " points. Messages that fail this schema are dead-lettered."
        ),
    ),
    SchemaFile(
        filename="answer-verdict.v1.schema.json",
        model=AnswerVerdictEvent,
        mode="serialization",
        schema_id="urn:quantcheck:schema:answer-verdict:v1",
        description=(
            "The verdict on one answer, published to the claim-verdicts topic keyed by"
            " answer_id after the verdicts of its claims, in the same transaction: read it"
            " with isolation_level=read_committed. event_type 'answer_verdict' tells it from"
            " a claim verdict. Spans count Unicode code points."
        ),
    ),
)
"""Every generated file."""


def build_schema(spec: SchemaFile) -> dict[str, Any]:
    """The JSON Schema document of one file."""
    schema = spec.model.model_json_schema(mode=spec.mode)
    schema["$schema"] = JSON_SCHEMA_DIALECT
    schema["$id"] = spec.schema_id
    schema["title"] = spec.model.__name__
    schema["description"] = spec.description
    return schema


def render(schema: dict[str, Any]) -> str:
    """The stable text of a schema: sorted keys, two-space indent, trailing newline."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def rendered_files() -> dict[str, str]:
    """File name to expected content, for every generated file."""
    return {spec.filename: render(build_schema(spec)) for spec in SCHEMA_FILES}


def stale_files(directory: Path = SCHEMA_DIR) -> dict[str, str]:
    """The generated files in ``directory`` that are missing or differ, with the content
    they should have."""
    return {
        name: text
        for name, text in rendered_files().items()
        if not (directory / name).is_file()
        or (directory / name).read_bytes() != text.encode("utf-8")
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Write or check the generated files; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m quantcheck.schemas.generate",
        description="Write the JSON Schema files of the event contracts.",
    )
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a file is out of date"
    )
    parser.add_argument(
        "--directory",
        type=Path,
        default=SCHEMA_DIR,
        help="where the files are (default: this package)",
    )
    args = parser.parse_args(argv)
    directory: Path = args.directory
    stale = stale_files(directory)
    if args.check:
        if stale:
            print(
                f"out of date: {', '.join(stale)} (run python -m quantcheck.schemas.generate)",
                file=sys.stderr,
            )
            return 1
        return 0
    for name, text in stale.items():
        (directory / name).write_bytes(text.encode("utf-8"))
        print(f"wrote {directory / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
