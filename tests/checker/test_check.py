"""The whole check: the tutorial's sample claims, citations, flags and the evidence cache."""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from quantcheck.checker import (
    Checker,
    CheckOptions,
    CitationMode,
    Claim,
    Document,
    EvidenceRef,
    MatchKind,
    Status,
)
from quantcheck.checker.evidence_cache import LruCache
from quantcheck.checker.model import sha256_text
from quantcheck.quantities.categories import Scope


@pytest.fixture(scope="module")
def handbook() -> dict[str, Document]:
    path = Path(__file__).resolve().parents[2] / "examples" / "field_sensor_handbook.csv"
    with path.open(encoding="utf-8", newline="") as source:
        return {
            r["doc_id"]: Document(r["doc_id"], r["text"], r["topic"])
            for r in csv.DictReader(source)
        }


@pytest.fixture(scope="module")
def sample_claims() -> list[dict[str, str]]:
    path = Path(__file__).resolve().parents[2] / "examples" / "rag_numeric_claims.csv"
    with path.open(encoding="utf-8", newline="") as source:
        return list(csv.DictReader(source))


def as_claim(row: dict[str, str]) -> Claim:
    cited = tuple(d for d in row["cited_doc_id"].split("|") if d)
    retrieved = frozenset(d for d in row["retrieved_doc_ids"].split("|") if d)
    return Claim(row["claim_text"], cited, retrieved)


@pytest.mark.parametrize("scope", list(Scope))
def test_every_sample_claim_gets_its_expected_status(
    handbook: dict[str, Document], sample_claims: list[dict[str, str]], scope: Scope
) -> None:
    checker = Checker(CheckOptions(scope=scope))
    assert len(sample_claims) == 16
    wrong = {}
    for row in sample_claims:
        verdict = checker.check(as_claim(row), handbook)
        if verdict.status != row["expected_status"]:
            wrong[row["claim_id"]] = (verdict.status.value, verdict.reason)
    assert wrong == {}


@pytest.mark.parametrize(
    ("claim_id", "reason"),
    [
        ("C01", "matched cited evidence: time_seconds=15"),
        ("C02", "not in cited evidence: time_seconds=45"),
        ("C03", "matched cited evidence: time_seconds=60"),
        ("C16", "not in cited evidence: date=2026-10-31"),
    ],
)
@pytest.mark.parametrize("scope", list(Scope))
def test_sample_reasons(
    handbook: dict[str, Document],
    sample_claims: list[dict[str, str]],
    claim_id: str,
    reason: str,
    scope: Scope,
) -> None:
    row = next(r for r in sample_claims if r["claim_id"] == claim_id)
    checker = Checker(CheckOptions(scope=scope))
    assert checker.check(as_claim(row), handbook).reason == reason


@pytest.mark.parametrize("scope", list(Scope))
def test_sample_summary_counts(
    handbook: dict[str, Document], sample_claims: list[dict[str, str]], scope: Scope
) -> None:
    checker = Checker(CheckOptions(scope=scope))
    counts = Counter(checker.check(as_claim(r), handbook).status for r in sample_claims)
    assert counts == {
        Status.SUPPORTED: 7,
        Status.UNSUPPORTED_QUANTITY: 5,
        Status.NEEDS_REVIEW_NO_QUANTITY: 1,
        Status.MISSING_CITATION: 1,
        Status.UNKNOWN_CITATION: 1,
        Status.CITATION_NOT_RETRIEVED: 1,
    }


def test_sample_gate_reasons(
    handbook: dict[str, Document], sample_claims: list[dict[str, str]]
) -> None:
    reasons = {
        r["claim_id"]: Checker().check(as_claim(r), handbook).reason
        for r in sample_claims
        if r["claim_id"] in {"C12", "C13", "C14"}
    }
    assert reasons == {
        "C12": "claim has no citation",
        "C13": "S09 is not in the knowledge base",
        "C14": "S07 was not supplied in retrieved_doc_ids",
    }


# --- the verdict's contents ------------------------------------------------------------------


def test_verdict_carries_each_fact_with_its_evidence() -> None:
    evidence = Document("S01", "Log every 15 seconds. Below 20 percent, log every 60 seconds.")
    claim = Claim(
        "Log every 15 seconds, and every 2 minutes on low battery.", ("S01",), frozenset({"S01"})
    )
    verdict = Checker().check(claim, {"S01": evidence})
    assert verdict.status is Status.UNSUPPORTED_QUANTITY
    assert verdict.reason == "not in cited evidence: time_seconds=120"
    first, second = verdict.facts
    assert first.mention.fact.label() == "time_seconds=15"
    assert claim.text[first.mention.span.start : first.mention.span.end] == "15 seconds"
    assert first.matched
    assert first.match_kind is MatchKind.EXACT
    assert first.evidence_doc_id == "S01"
    assert first.evidence_span is not None
    assert evidence.text[first.evidence_span.start : first.evidence_span.end] == "15 seconds"
    assert not second.matched
    assert second.evidence_doc_id is None
    assert second.evidence_span is None
    assert verdict.evidence == (EvidenceRef("S01", sha256_text(evidence.text)),)


def test_no_quantity_is_reported_with_evidence_refs() -> None:
    evidence = Document("S03", "Rinse each probe.")
    verdict = Checker().check(
        Claim("Rinse probes.", ("S03",), frozenset({"S03"})), {"S03": evidence}
    )
    assert verdict.status is Status.NEEDS_REVIEW_NO_QUANTITY
    assert verdict.reason == "no recognized quantity or date"
    assert verdict.facts == ()
    assert verdict.evidence == (EvidenceRef("S03", evidence.sha256),)


def test_gate_failure_reads_no_evidence() -> None:
    checker = Checker()
    verdict = checker.check(Claim("Log every 15 s.", ("S09",), frozenset({"S09"})), {})
    assert verdict.status is Status.UNKNOWN_CITATION
    assert verdict.facts == ()
    assert verdict.evidence == ()
    assert checker.evidence_cache.misses == 0


@pytest.mark.parametrize(
    ("claim", "evidence", "flags"),
    [
        ("Store at 5 °C.", "Store at 2-8 °C.", ("within_range",)),
        ("About 96 percent arrive.", "96.4 percent arrive.", ("approximate_match",)),
        ("Shut down at 100 °F.", "Shut down at 37.8 °C.", ("converted_match",)),
        ("Use 1.5 MB.", "Use 1,5 MB or 1.5 MB.", ("evidence_ambiguous_number",)),
        ("Due 2026-03-01.", "Due 2026-02-30, or 2026-03-01.", ("evidence_invalid_date",)),
        ("Use 15 MB.", "Use 15 MB.", ()),
    ],
)
def test_flags_explain_non_obvious_passes(
    claim: str, evidence: str, flags: tuple[str, ...]
) -> None:
    verdict = Checker().check(
        Claim(claim, ("D",), frozenset({"D"})), {"D": Document("D", evidence)}
    )
    assert verdict.status is Status.SUPPORTED
    assert verdict.flags == flags


# --- several citations ------------------------------------------------------------------------

DOCS = {
    "A": Document("A", "Log a reading every 15 seconds."),
    "B": Document("B", "Upload files when they reach 25 MB."),
    "AB": Document("AB", "Log every 15 seconds and upload at 25 MB."),
}
BOTH = "Log every 15 seconds and upload at 25 MB."


def check(
    text: str, cited: tuple[str, ...], mode: CitationMode
) -> tuple[Status, str, list[str | None]]:
    verdict = Checker(CheckOptions(citation_mode=mode)).check(
        Claim(text, cited, frozenset(cited)), DOCS
    )
    return verdict.status, verdict.reason, [c.evidence_doc_id for c in verdict.facts]


def test_combined_mode_lets_each_fact_use_any_cited_document() -> None:
    assert check(BOTH, ("A", "B"), CitationMode.COMBINED) == (
        Status.SUPPORTED,
        "matched cited evidence: size_mb=25, time_seconds=15",
        ["A", "B"],
    )


def test_combined_is_the_default() -> None:
    assert CheckOptions().citation_mode is CitationMode.COMBINED


def test_single_mode_needs_one_document_for_every_fact() -> None:
    status, reason, _ = check(BOTH, ("A", "B"), CitationMode.SINGLE)
    assert status is Status.UNSUPPORTED_QUANTITY
    assert reason == "not in cited evidence: size_mb=25"


def test_single_mode_picks_the_document_that_supports_everything() -> None:
    assert check(BOTH, ("A", "AB"), CitationMode.SINGLE) == (
        Status.SUPPORTED,
        "matched cited evidence: size_mb=25, time_seconds=15",
        ["AB", "AB"],
    )


def test_single_mode_with_one_citation_is_like_combined() -> None:
    assert check(BOTH, ("AB",), CitationMode.SINGLE) == check(BOTH, ("AB",), CitationMode.COMBINED)


def test_every_cited_id_passes_the_gates() -> None:
    verdict = Checker().check(Claim(BOTH, ("A", "B"), frozenset({"A"})), DOCS)
    assert verdict.status is Status.CITATION_NOT_RETRIEVED
    assert verdict.reason == "B was not supplied in retrieved_doc_ids"


def test_repeated_citation_is_read_once() -> None:
    verdict = Checker().check(Claim(BOTH, ("AB", "AB"), frozenset({"AB"})), DOCS)
    assert verdict.status is Status.SUPPORTED
    assert [ref.doc_id for ref in verdict.evidence] == ["AB"]


# --- evidence cache -----------------------------------------------------------------------------


def test_cache_extracts_each_document_once() -> None:
    checker = Checker(CheckOptions(claim_cache_size=0))
    for _ in range(3):
        checker.check(Claim(BOTH, ("A", "B"), frozenset({"A", "B"})), DOCS)
    cache = checker.evidence_cache
    assert (cache.misses, cache.hits, len(cache)) == (2, 4, 2)


def test_a_repeated_claim_is_judged_once_per_distinct_evidence() -> None:
    checker = Checker()
    claim = Claim(BOTH, ("A", "B"), frozenset({"A", "B"}))
    first = checker.check(claim, DOCS)
    assert checker.check(claim, DOCS) is first
    assert (
        checker.check(replace(claim, retrieved_doc_ids=frozenset({"A", "B", "C"})), DOCS) is first
    )
    changed = {**DOCS, "B": Document("B", DOCS["B"].text + " Keep 9 MB free.")}
    assert checker.check(claim, changed) is not first
    assert checker.check(replace(claim, retrieved_doc_ids=frozenset({"A"})), DOCS).status is (
        Status.CITATION_NOT_RETRIEVED
    )
    assert checker.claim_cache is not None
    assert (checker.claim_cache.misses, checker.claim_cache.hits) == (2, 2)


def test_cache_is_keyed_by_content_not_by_id() -> None:
    checker = Checker()
    same = {"X": Document("X", DOCS["A"].text), "Y": Document("Y", DOCS["A"].text)}
    checker.check(Claim("Log every 15 seconds.", ("X", "Y"), frozenset({"X", "Y"})), same)
    assert (checker.evidence_cache.misses, checker.evidence_cache.hits) == (1, 1)


def test_cache_is_bounded_and_evicts_the_least_recently_used() -> None:
    checker = Checker(CheckOptions(evidence_cache_size=2, claim_cache_size=0))
    docs = {d: Document(d, f"Log every {n} seconds.") for n, d in enumerate("PQR", start=1)}

    def cite(doc_id: str) -> None:
        checker.check(Claim("Log every 1 seconds.", (doc_id,), frozenset({doc_id})), docs)

    cite("P")
    cite("Q")
    cite("P")  # P is now the most recently used
    cite("R")  # evicts Q
    assert len(checker.evidence_cache) == 2
    assert (checker.evidence_cache.misses, checker.evidence_cache.hits) == (3, 1)
    cite("P")
    assert checker.evidence_cache.hits == 2
    cite("Q")
    assert checker.evidence_cache.misses == 4


def test_lru_cache_computes_only_on_a_miss() -> None:
    cache: LruCache[str, int] = LruCache(3)
    calls: list[str] = []

    def compute(key: str) -> int:
        calls.append(key)
        return len(calls)

    assert cache.get_or_compute("a", lambda: compute("a")) == 1
    assert cache.get_or_compute("a", lambda: compute("a")) == 1
    assert calls == ["a"]
    for key in "bcdefg":
        cache.get_or_compute(key, lambda k=key: compute(k))
    assert len(cache) == 3
    cache.clear()
    assert len(cache) == 0
    assert (cache.hits, cache.misses) == (1, 7)


def test_lru_cache_needs_room() -> None:
    with pytest.raises(ValueError, match="at least one entry"):
        LruCache[str, int](0)
