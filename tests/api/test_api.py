"""The in-process API: plain strings and mappings in, verdicts that serialize to the
contract out, the citation gates kept."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from decimal import Decimal
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError
from quantcheck.schemas import AnswerVerdictEvent, VerdictEvent, parse_verdicts_topic_value

import quantcheck
from quantcheck import AnswerVerdict, Checker, ClaimVerdict, Status, check, check_answer
from quantcheck.api import IN_PROCESS
from tests.conftest import ROOT

SCHEMAS = ROOT / "schemas"
HANDBOOK = {
    "S01": "Log a sensor reading every 15 seconds. When the battery is low, log a reading"
    " every 60 seconds.",
    "S02": "The site employs 3,400 people across 25 stores.",
}


def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    return loaded


def test_three_lines() -> None:
    verdict = check("Readings every 45 seconds.", {"S01": HANDBOOK["S01"]})
    assert isinstance(verdict, ClaimVerdict)
    assert verdict.status is Status.UNSUPPORTED_QUANTITY
    assert verdict.status == "unsupported_quantity"
    assert not verdict.supported
    assert verdict.reason == "not in cited evidence: time_seconds=45"
    (fact,) = verdict.facts
    assert fact.mention.fact.label() == "time_seconds=45"
    assert fact.mention.fact.value == Decimal(45)
    assert not fact.matched


def test_a_count_noun_is_read_with_the_check_s_own_dependencies() -> None:
    verdict = check("The company has 3,400 employees.", {"S02": HANDBOOK["S02"]})
    assert verdict.supported, verdict.reason
    assert verdict.facts[0].mention.fact.category.startswith("count[")


def test_to_dict_and_to_json_are_the_verdict_event() -> None:
    verdict = check("Log a reading every 15 seconds.", HANDBOOK, claim_id="K1", kb_version="v3")
    data = verdict.to_dict()
    jsonschema.validate(data, schema("verdict.v1.schema.json"))
    assert json.loads(json.dumps(data)) == data  # plain JSON types, no Decimal
    assert json.loads(verdict.to_json()) == data
    event = parse_verdicts_topic_value(verdict.to_json().encode("utf-8"))
    assert isinstance(event, VerdictEvent)
    assert (event.claim_id, event.kb_version, event.status) == ("K1", "v3", "supported")
    assert event.cited_doc_ids == ["S01", "S02"]
    assert event.source.topic == IN_PROCESS.topic
    (fact,) = event.facts
    assert fact.evidence is not None
    start, end = fact.evidence.span.start, fact.evidence.span.end
    assert HANDBOOK["S01"][start:end] == "15 seconds"
    assert [d.doc_id for d in event.evidence_documents] == ["S01", "S02"]


@pytest.mark.parametrize(
    ("kwargs", "status"),
    [
        ({}, "supported"),
        ({"cited": ["S01"]}, "supported"),
        ({"cited": []}, "missing_citation"),
        ({"cited": ["S09"]}, "unknown_citation"),
        ({"cited": ["S01"], "retrieved": ["S02"]}, "citation_not_retrieved"),
    ],
)
def test_cited_and_retrieved_keep_the_citation_gates(kwargs: dict[str, Any], status: str) -> None:
    assert check("Log a reading every 15 seconds.", HANDBOOK, **kwargs).status == status


def test_a_list_of_sources_is_numbered_from_one() -> None:
    verdict = check("Log a reading every 60 seconds.", ["No numbers here.", HANDBOOK["S01"]])
    assert verdict.supported
    assert [ref.doc_id for ref in verdict.evidence] == ["1", "2"]


@pytest.mark.parametrize(
    ("claim", "sources", "error"),
    [
        ("", HANDBOOK, ValidationError),
        ("Log every 15 seconds.", "Log every 15 seconds.", TypeError),
        ("Log every 15 seconds.", {"S01": 15}, TypeError),
    ],
)
def test_bad_input_raises_naming_what_is_wrong(
    claim: str, sources: Any, error: type[Exception]
) -> None:
    with pytest.raises(error):
        check(claim, sources)


ANSWER = (
    "The logger records a reading every 15 seconds [1]. On low battery it logs every"
    " 45 seconds [S01]. The site employs 3,400 people."
)


def test_check_answer_checks_each_sentence_against_its_markers() -> None:
    verdict = check_answer(ANSWER, HANDBOOK, {"1": "S01"}, answer_id="A7")
    assert isinstance(verdict, AnswerVerdict)
    assert [c.status for c in verdict.claims] == [
        "supported",
        "unsupported_quantity",
        "missing_citation",
    ]
    # The worst first: a wrong number, then a number without a citation.
    assert verdict.status is Status.UNSUPPORTED_QUANTITY
    assert not verdict.supported
    assert verdict.reason == "3 claims: 1 unsupported_quantity, 1 missing_citation, 1 supported"
    assert [c.claim.claim_id for c in verdict.claims] == ["A7:1", "A7:2", "A7:3"]
    for claim in verdict.claims:
        for fact in claim.facts:
            span = fact.mention.span
            assert ANSWER[span.start : span.end] == fact.mention.text
    record = verdict.to_dict()
    jsonschema.validate(record, schema("answer-verdict.v1.schema.json"))
    event = AnswerVerdictEvent.model_validate_json(verdict.to_json())
    assert [(c.claim_id, c.status) for c in event.claims] == [
        ("A7:1", "supported"),
        ("A7:2", "unsupported_quantity"),
        ("A7:3", "missing_citation"),
    ]
    start, end = record["claims"][0]["span"]["start"], record["claims"][0]["span"]["end"]
    assert ANSWER[start:end] == "The logger records a reading every 15 seconds [1]."
    for claim in verdict.claims:
        jsonschema.validate(claim.to_dict(), schema("verdict.v1.schema.json"))


def test_uncited_retrieved_checks_a_sentence_without_marker_against_every_source() -> None:
    text = "The logger records a reading every 15 seconds. The site employs 3,400 people."
    assert check_answer(text, HANDBOOK).status == "missing_citation"
    verdict = check_answer(text, HANDBOOK, uncited="retrieved")
    assert [c.status for c in verdict.claims] == ["supported", "supported"]
    assert all("cites_retrieved" in c.flags for c in verdict.claims)
    assert verdict.supported


def test_a_checker_is_reusable_and_takes_the_command_line_s_options() -> None:
    checker = Checker(scope="units")
    # A year is read in scope all, not in scope units.
    claim, sources = "Revenue grew 5% in 2019.", {"D1": "Revenue grew 5% in 2021."}
    assert checker.check(claim, sources).status == "supported"
    assert Checker().check(claim, sources).status == "unsupported_quantity"
    first, again = checker.check(claim, sources), checker.check(claim, sources)
    assert first.verdict == again.verdict
    with pytest.raises(ValueError, match="'most'"):
        Checker(scope="most")  # type: ignore[arg-type]


def test_a_checker_can_be_shared_between_threads() -> None:
    checker = Checker()
    claims = [f"Log a reading every {n} seconds." for n in (15, 60, 45, 30)] * 25
    results: dict[int, str] = {}

    def work(start: int) -> None:
        for index in range(start, len(claims), 4):
            results[index] = checker.check(claims[index], HANDBOOK).status.value

    threads = [threading.Thread(target=work, args=(start,)) for start in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    expected = {
        15: "supported",
        60: "supported",
        45: "unsupported_quantity",
        30: "unsupported_quantity",
    }
    assert results == {index: expected[int(text.split()[4])] for index, text in enumerate(claims)}


def test_the_package_exports_the_api_lazily() -> None:
    assert quantcheck.check is check
    assert set(quantcheck.__all__) >= {"check", "check_answer", "Checker", "Status"}
    with pytest.raises(AttributeError):
        _ = quantcheck.nothing_here  # type: ignore[attr-defined]


def test_the_api_module_path_is_in_the_package() -> None:
    # The API lives in the folder of the package itself, not behind a link.
    assert Path(quantcheck.api.__file__).resolve().parent == (ROOT / "quantcheck").resolve()


def test_the_check_imports_nothing_for_kafka_postgres_or_charts() -> None:
    # What `pip install .` leaves out must not be needed to check (tests/deploy/test_install.py
    # proves it in a fresh virtualenv; this says which import pulled one in, and quickly).
    optional = ["kafka", "psycopg", "psycopg_pool", "matplotlib", "prometheus_client", "structlog"]
    script = (
        "import sys, quantcheck.api, quantcheck.cli.check, quantcheck.cli.main;"
        f" print(sorted(m for m in {optional!r} if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert (done.returncode, done.stdout) == (0, "[]\n"), done.stderr
