"""The citation gates, in their fixed order, naming the offending IDs."""

from __future__ import annotations

from quantcheck.checker import Claim, Document, Status
from quantcheck.checker.gates import citation_failure

DOCS = {d: Document(d, f"text of {d}") for d in ("S01", "S02", "S03")}


def claim(cited: tuple[str, ...], retrieved: set[str]) -> Claim:
    return Claim("Log every 15 seconds.", cited, frozenset(retrieved))


def test_all_gates_pass() -> None:
    assert citation_failure(claim(("S01", "S02"), {"S01", "S02", "S03"}), DOCS) is None


def test_missing_citation() -> None:
    assert citation_failure(claim((), {"S01"}), DOCS) == (
        Status.MISSING_CITATION,
        "claim has no citation",
    )


def test_unknown_citation_names_the_id() -> None:
    assert citation_failure(claim(("S01", "S09"), {"S01", "S09"}), DOCS) == (
        Status.UNKNOWN_CITATION,
        "S09 is not in the knowledge base",
    )


def test_several_unknown_ids_are_all_named() -> None:
    assert citation_failure(claim(("S10", "S01", "S09"), set()), DOCS) == (
        Status.UNKNOWN_CITATION,
        "S10, S09 are not in the knowledge base",
    )


def test_not_retrieved_names_the_id() -> None:
    assert citation_failure(claim(("S01", "S02"), {"S01"}), DOCS) == (
        Status.CITATION_NOT_RETRIEVED,
        "S02 was not supplied in retrieved_doc_ids",
    )


def test_several_not_retrieved_ids_are_all_named() -> None:
    assert citation_failure(claim(("S03", "S01", "S02"), {"S01"}), DOCS) == (
        Status.CITATION_NOT_RETRIEVED,
        "S03, S02 were not supplied in retrieved_doc_ids",
    )


def test_unknown_is_checked_before_not_retrieved() -> None:
    # S02 was not retrieved and S09 is unknown: the unknown ID is the one reported.
    status, reason = citation_failure(claim(("S02", "S09"), {"S01"}), DOCS) or (None, "")
    assert status is Status.UNKNOWN_CITATION
    assert reason == "S09 is not in the knowledge base"


def test_gate_statuses_are_citation_failures() -> None:
    failures = {s for s in Status if s.is_citation_failure}
    assert failures == {
        Status.MISSING_CITATION,
        Status.UNKNOWN_CITATION,
        Status.CITATION_NOT_RETRIEVED,
    }
