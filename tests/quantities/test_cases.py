"""The labelled cases of tests/data/quantity_cases.yaml, each run through the real Checker."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import yaml

from quantcheck.checker import Checker, CheckOptions, CitationMode, Claim, Document, Status
from quantcheck.quantities.categories import Scope

CASES_FILE = Path(__file__).resolve().parent.parent / "data" / "quantity_cases.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))

KNOWN_FIELDS = {
    "id",
    "rule",
    "claim",
    "evidence",
    "cited",
    "retrieved",
    "options",
    "expected_status",
    "reason",
    "reason_contains",
    "flags",
    "labels",
    "changed_by",
}


def documents_of(case: dict[str, Any]) -> dict[str, Document]:
    texts = case["evidence"]
    if isinstance(texts, str):
        texts = [texts]
    return {f"D{n}": Document(f"D{n}", text) for n, text in enumerate(texts, start=1)}


def claim_of(case: dict[str, Any], documents: dict[str, Document]) -> Claim:
    cited = tuple(case.get("cited", documents))
    retrieved = frozenset(case.get("retrieved", cited))
    return Claim(case["claim"], cited, retrieved)


def checker_of(case: dict[str, Any]) -> Checker:
    options = case.get("options", {})
    return Checker(
        CheckOptions(
            scope=Scope(options.get("scope", "all")),
            citation_mode=CitationMode(options.get("citation_mode", "combined")),
        )
    )


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_case(case: dict[str, Any]) -> None:
    documents = documents_of(case)
    verdict = checker_of(case).check(claim_of(case, documents), documents)
    assert verdict.status == Status(case["expected_status"]), verdict.reason
    if "reason" in case:
        assert verdict.reason == case["reason"]
    if "reason_contains" in case:
        assert case["reason_contains"] in verdict.reason
    if "flags" in case:
        assert list(verdict.flags) == case["flags"]
    if "labels" in case:
        assert [check.mention.fact.label() for check in verdict.facts] == case["labels"]
    for check in verdict.facts:
        # Every matched claim fact points at the document and span that supported it.
        if check.matched:
            assert check.evidence_doc_id in documents
            assert check.evidence is not None
            span = check.evidence_span
            assert span is not None
            assert documents[check.evidence_doc_id].text[span.start : span.end] == (
                check.evidence.text
            )


def test_cases_are_well_formed() -> None:
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    for case in CASES:
        assert set(case) <= KNOWN_FIELDS, f"{case['id']}: unknown field"
        assert {"id", "rule", "claim", "evidence", "expected_status"} <= set(case)
        Status(case["expected_status"])


def test_at_least_120_cases() -> None:
    assert len(CASES) >= 120


def test_every_rule_has_a_passing_and_a_failing_case() -> None:
    outcomes: dict[str, set[bool]] = defaultdict(set)
    for case in CASES:
        outcomes[case["rule"]].add(case["expected_status"] == Status.SUPPORTED)
    lacking = sorted(rule for rule, seen in outcomes.items() if seen != {True, False})
    assert not lacking, f"rules without both a passing and a failing case: {lacking}"
