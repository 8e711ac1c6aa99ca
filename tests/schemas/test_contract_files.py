"""The generated JSON Schema files and the AsyncAPI document agree with the models."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from quantcheck.schemas import (
    ADDED_HEADERS,
    DEAD_LETTER_KINDS,
    REQUIRED_HEADERS,
    STATUSES,
    AnswerEvent,
    AnswerVerdictEvent,
    ClaimDecodeError,
    ClaimEvent,
    VerdictEvent,
    dump_answer_verdict,
    dump_verdict,
    parse_answer,
    parse_claim,
    read_dead_letter_headers,
)
from quantcheck.schemas.generate import (
    SCHEMA_DIR,
    SCHEMA_FILES,
    main,
    render,
    rendered_files,
    stale_files,
)

from quantcheck.answers import split_answer
from tests.answers.samples import has_quantity
from tests.schemas.samples import answer_payload, claim_payload, fact, verdict

ASYNCAPI = SCHEMA_DIR / "asyncapi.yaml"
CLAIM_SCHEMA = "claim-event.v1.schema.json"
VERDICT_SCHEMA = "verdict.v1.schema.json"
ANSWER_SCHEMA = "answer-event.v1.schema.json"
ANSWER_VERDICT_SCHEMA = "answer-verdict.v1.schema.json"


def load_schema(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
    return schema


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_schema(name))


@pytest.fixture(scope="module")
def asyncapi() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(ASYNCAPI.read_text(encoding="utf-8"))
    return document


# --- generated JSON Schema files -------------------------------------------------------


def test_committed_schemas_match_the_models() -> None:
    assert stale_files() == {}, "run: python -m quantcheck.schemas.generate"


def test_generated_text_is_stable() -> None:
    for name, text in rendered_files().items():
        assert text.endswith("}\n")
        assert render(json.loads(text)) == text, name
        assert '\n  "$id"' in text


@pytest.mark.parametrize("spec", SCHEMA_FILES, ids=lambda spec: spec.filename)
def test_schema_files_are_valid_2020_12(spec: Any) -> None:
    schema = load_schema(spec.filename)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].startswith("urn:quantcheck:schema:")
    assert schema["title"] == spec.model.__name__
    assert schema["description"]


def test_check_mode_reports_drift(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check", "--directory", str(tmp_path)]) == 1
    assert main(["--directory", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(rendered_files())
    assert main(["--check", "--directory", str(tmp_path)]) == 0
    capsys.readouterr()
    path = tmp_path / VERDICT_SCHEMA
    path.write_text(path.read_text(encoding="utf-8").replace('"reason"', '"reasons"'))
    assert main(["--check", "--directory", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert VERDICT_SCHEMA in error
    assert CLAIM_SCHEMA not in error


def test_files_sit_in_the_package() -> None:
    package = resources.files("quantcheck.schemas")
    for name in [*rendered_files(), "asyncapi.yaml", "py.typed"]:
        assert package.joinpath(name).is_file(), name


def test_contracts_do_not_import_the_worker() -> None:
    code = (
        "import sys, quantcheck.schemas, quantcheck.schemas.generate; "
        "sys.exit(any(m.startswith('quantcheck.worker') for m in sys.modules))"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=SCHEMA_DIR.parent)


# --- samples against the JSON Schemas --------------------------------------------------


def test_sample_claims_validate() -> None:
    claims = validator(CLAIM_SCHEMA)
    claims.validate(claim_payload())
    claims.validate(json.loads(parse_claim(json.dumps(claim_payload()).encode()).model_dump_json()))
    minimal = {
        k: v for k, v in claim_payload().items() if k in load_schema(CLAIM_SCHEMA)["required"]
    }
    claims.validate(minimal)
    ClaimEvent.model_validate_json(json.dumps(minimal))


def test_sample_verdicts_validate() -> None:
    verdicts = validator(VERDICT_SCHEMA)
    range_fact = fact(
        relation="..", value="2", upper="8", matched=False, match_kind=None, evidence=None
    )
    for event in (
        verdict(),
        verdict(status="missing_citation", facts=[], cited_doc_ids=[]),
        verdict(facts=[range_fact]),
    ):
        verdicts.validate(json.loads(dump_verdict(event)))


def test_verdict_schema_requires_every_field() -> None:
    # The serialization schema: consumers can rely on every key being present.
    schema = load_schema(VERDICT_SCHEMA)
    assert schema["required"] == list(VerdictEvent.model_fields)
    answer_schema = load_schema(ANSWER_VERDICT_SCHEMA)
    assert answer_schema["required"] == list(AnswerVerdictEvent.model_fields)
    counts = answer_schema["$defs"]["StatusCounts"]
    assert sorted(counts["required"]) == sorted(counts["properties"]) == sorted(STATUSES)


def test_sample_answers_validate() -> None:
    answers = validator(ANSWER_SCHEMA)
    answers.validate(answer_payload())
    minimal = {
        k: v for k, v in answer_payload().items() if k in load_schema(ANSWER_SCHEMA)["required"]
    }
    answers.validate(minimal)
    parse_answer(json.dumps(minimal).encode())


def test_answers_and_claims_are_told_apart_by_their_schemas() -> None:
    # A consumer validating with the JSON Schemas alone can route the claims topic.
    assert not validator(CLAIM_SCHEMA).is_valid(answer_payload())
    assert not validator(ANSWER_SCHEMA).is_valid(claim_payload())
    assert not validator(ANSWER_SCHEMA).is_valid(answer_payload(event_type="claim"))
    assert load_schema(ANSWER_SCHEMA)["properties"]["event_type"]["const"] == "answer"
    assert "event_type" not in load_schema(CLAIM_SCHEMA)["properties"]
    verdict_schema = load_schema(ANSWER_VERDICT_SCHEMA)
    assert verdict_schema["properties"]["event_type"]["const"] == "answer_verdict"
    assert "event_type" not in load_schema(VERDICT_SCHEMA)["properties"]


ANSWER_REFUSALS: list[dict[str, Any]] = [
    {"answer_id": "x" * 195},
    {"answer_text": "a\x00b"},
    {"citations": {f"{i}": "S01" for i in range(1001)}},
    {"citations": {"1\t2": "S01"}},
    {"event_type": "claim"},
    {"schema_version": 2},
    {"unexpected": True},
]


@pytest.mark.parametrize("overrides", ANSWER_REFUSALS, ids=lambda o: next(iter(o)))
def test_answer_model_and_schema_agree_on_refusals(overrides: dict[str, Any]) -> None:
    payload = answer_payload(**overrides)
    assert not validator(ANSWER_SCHEMA).is_valid(payload)
    with pytest.raises(ClaimDecodeError):
        parse_answer(json.dumps(payload).encode())


# Both the model and the JSON Schema refuse each of these.
REFUSED: list[dict[str, Any]] = [
    {"claim_id": ""},
    {"claim_id": "x" * 201},
    {"claim_id": "a\nb"},
    {"claim_text": "a\x00b"},
    {"cited_doc_ids": [f"D{i}" for i in range(65)]},
    {"retrieved_doc_ids": [1]},
    {"schema_version": 2},
    # Not a trailing newline: Python's re lets "$" match before one, unlike ECMA-262.
    {"attributes": {"k\tv": 1}},
    {"attributes": {"k": [1]}},
    {"attributes": {f"k{i}": 1 for i in range(65)}},
    {"unexpected": True},
]


@pytest.mark.parametrize("overrides", REFUSED, ids=lambda o: next(iter(o)))
def test_model_and_schema_agree_on_refusals(overrides: dict[str, Any]) -> None:
    payload = claim_payload(**overrides)
    assert not validator(CLAIM_SCHEMA).is_valid(payload)
    with pytest.raises(ClaimDecodeError):
        parse_claim(json.dumps(payload).encode())


# --- the AsyncAPI document -------------------------------------------------------------


def test_asyncapi_is_version_3(asyncapi: dict[str, Any]) -> None:
    assert asyncapi["asyncapi"] == "3.0.0"
    assert asyncapi["info"]["title"]
    assert asyncapi["info"]["version"]


def test_asyncapi_has_the_three_topics(asyncapi: dict[str, Any]) -> None:
    addresses = {channel["address"] for channel in asyncapi["channels"].values()}
    assert addresses == {"claims", "claim-verdicts", "claims-dlq"}


def test_asyncapi_topics_carry_both_record_types(asyncapi: dict[str, Any]) -> None:
    channels = asyncapi["channels"]
    assert set(channels["claims"]["messages"]) == {"claimEvent", "answerEvent"}
    assert set(channels["claimVerdicts"]["messages"]) == {"verdictEvent", "answerVerdictEvent"}
    for name in ("claims", "claimVerdicts"):
        assert "`event_type`" in channels[name]["description"]
    operations = asyncapi["operations"]
    assert len(operations["receiveClaims"]["messages"]) == 2
    assert len(operations["sendVerdicts"]["messages"]) == 2


def test_asyncapi_operations(asyncapi: dict[str, Any]) -> None:
    by_address = {
        asyncapi["channels"][op["channel"]["$ref"].split("/")[-1]]["address"]: op["action"]
        for op in asyncapi["operations"].values()
    }
    assert by_address == {"claims": "receive", "claim-verdicts": "send", "claims-dlq": "send"}


def test_asyncapi_says_to_read_committed(asyncapi: dict[str, Any]) -> None:
    assert "isolation_level=read_committed" in asyncapi["channels"]["claimVerdicts"]["description"]
    assert "isolation_level=read_committed" in asyncapi["info"]["description"]


def _references(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from _references(value)
    elif isinstance(node, list):
        for item in node:
            yield from _references(item)


def _resolve_pointer(document: Any, pointer: str) -> Any:
    node = document
    for part in pointer.split("/")[1:]:
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def test_asyncapi_references_resolve(asyncapi: dict[str, Any]) -> None:
    references = list(_references(asyncapi))
    files = [ref for ref in references if not ref.startswith("#")]
    assert sorted(files) == [
        "./answer-event.v1.schema.json",
        "./answer-verdict.v1.schema.json",
        "./claim-event.v1.schema.json",
        "./verdict.v1.schema.json",
    ]
    for ref in references:
        target, _, pointer = ref.partition("#")
        document = json.loads((SCHEMA_DIR / target).read_text()) if target else asyncapi
        assert _resolve_pointer(document, pointer) is not None, ref


def test_asyncapi_payloads_declare_json_schema(asyncapi: dict[str, Any]) -> None:
    messages = asyncapi["components"]["messages"]
    for name in ("ClaimEvent", "VerdictEvent", "AnswerEvent", "AnswerVerdictEvent"):
        payload = messages[name]["payload"]
        assert payload["schemaFormat"] == "application/schema+json;version=draft-2020-12"
        assert messages[name]["bindings"]["kafka"]["key"]["type"] == "string"


def test_asyncapi_dead_letter_headers_match_the_constants(asyncapi: dict[str, Any]) -> None:
    headers = asyncapi["components"]["schemas"]["DeadLetterHeaders"]
    assert list(headers["properties"]) == list(ADDED_HEADERS)
    assert headers["required"] == list(REQUIRED_HEADERS)
    assert headers["properties"]["quantcheck.error.kind"]["enum"] == list(DEAD_LETTER_KINDS)


def test_asyncapi_examples_are_valid(asyncapi: dict[str, Any]) -> None:
    messages = asyncapi["components"]["messages"]
    for example in messages["ClaimEvent"]["examples"]:
        validator(CLAIM_SCHEMA).validate(example["payload"])
        parse_claim(json.dumps(example["payload"]).encode())
    for example in messages["VerdictEvent"]["examples"]:
        validator(VERDICT_SCHEMA).validate(example["payload"])
        event = VerdictEvent.model_validate_json(json.dumps(example["payload"]))
        assert json.loads(dump_verdict(event)) == example["payload"]
    for example in messages["AnswerEvent"]["examples"]:
        validator(ANSWER_SCHEMA).validate(example["payload"])
        parse_answer(json.dumps(example["payload"]).encode())
    for example in messages["AnswerVerdictEvent"]["examples"]:
        validator(ANSWER_VERDICT_SCHEMA).validate(example["payload"])
        record = AnswerVerdictEvent.model_validate_json(json.dumps(example["payload"]))
        assert json.loads(dump_answer_verdict(record)) == example["payload"]
    header_schema = asyncapi["components"]["schemas"]["DeadLetterHeaders"]
    for example in messages["DeadLetter"]["examples"]:
        jsonschema.Draft202012Validator(header_schema).validate(example["headers"])
        encoded = [(name, value.encode()) for name, value in example["headers"].items()]
        info = read_dead_letter_headers(encoded)
        assert info.kind == example["headers"]["quantcheck.error.kind"]
        assert info.claim_id == example["headers"].get("quantcheck.claim.id")
        assert info.answer_id == example["headers"].get("quantcheck.answer.id")


def test_asyncapi_answer_examples_agree_with_the_split(asyncapi: dict[str, Any]) -> None:
    messages = asyncapi["components"]["messages"]
    (answer_example,) = messages["AnswerEvent"]["examples"]
    (verdict_example,) = messages["AnswerVerdictEvent"]["examples"]
    answer = parse_answer(json.dumps(answer_example["payload"]).encode())
    claims = split_answer(answer, has_quantity=has_quantity)
    recorded = verdict_example["payload"]["claims"]
    assert [c.claim_id for c in claims] == [c["claim_id"] for c in recorded]
    assert [{"start": c.span.start, "end": c.span.end} for c in claims] == [
        c["span"] for c in recorded
    ]
    prompt_hash = hashlib.sha256(answer.prompt.encode("utf-8")).hexdigest()
    assert verdict_example["payload"]["prompt_sha256"] == prompt_hash
    key = messages["AnswerEvent"]["bindings"]["kafka"]["key"]
    assert (
        key["maxLength"] == AnswerEvent.model_json_schema()["properties"]["answer_id"]["maxLength"]
    )
