"""A document's facts are bounded: counted as they are made, refused past the bound, and
a refused document is remembered, not read again for every claim that cites it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quantcheck.checker import Checker, CheckOptions, Claim, Document
from quantcheck.quantities import structured
from quantcheck.quantities.budget import CLUSTER_BYTES, FACT_BYTES, MIB, FactBudget, TooManyFacts
from quantcheck.quantities.evidence import extract_document
from quantcheck.quantities.text import normalize
from tests.stream.samples import handbook, sample_claims

DENSE = "1:" * 75_000  # 75,000 facts in 150 kB: far more than a MiB's worth


def claim(doc_id: str) -> Claim:
    return Claim("The sensor logs every 15 seconds.", (doc_id,), frozenset({doc_id}))


def test_a_budget_refuses_what_goes_past_its_bound_and_nothing_before() -> None:
    facts = 2 * MIB // FACT_BYTES
    budget = FactBudget(2 * MIB)
    budget.spend(facts - 1)
    budget.require(1)  # one more fits: nothing is spent
    budget.spend()
    budget.spend_bytes(2 * MIB - budget.spent_bytes)  # the bound itself is allowed
    with pytest.raises(
        TooManyFacts, match=r"^the document yields more facts than the bound of 2 MiB"
    ):
        budget.spend_bytes(1)
    with pytest.raises(TooManyFacts):
        FactBudget(2 * MIB).require(facts + 1)


def test_without_a_bound_a_budget_counts_and_never_refuses() -> None:
    budget = FactBudget(None)
    budget.spend(10**9)
    budget.require(10**9)
    assert budget.spent_bytes == 10**9 * FACT_BYTES


def test_extraction_stops_at_the_bound() -> None:
    budget = FactBudget(MIB)
    with pytest.raises(TooManyFacts):
        extract_document(DENSE, budget=budget)
    # It stopped at the first fact past the bound, not after reading everything.
    assert MIB < budget.spent_bytes <= MIB + FACT_BYTES


def test_a_document_over_its_bound_fails_its_claims_naming_it_and_is_read_once() -> None:
    checker = Checker(CheckOptions(document_facts_bytes=MIB))
    documents = {"dense": Document("dense", DENSE)}
    for _ in range(3):
        with pytest.raises(TooManyFacts, match=r"^document 'dense' yields more facts than"):
            checker.check(claim("dense"), documents)
    assert (checker.evidence_cache.misses, checker.evidence_cache.hits) == (1, 2)


def test_under_its_bound_a_document_is_read_as_without_one() -> None:
    documents = handbook()
    bounded = Checker(CheckOptions(claim_cache_size=0))
    unbounded = Checker(CheckOptions(claim_cache_size=0, document_facts_bytes=None))
    for event in sample_claims():
        one = Claim(
            event.claim_text, tuple(event.cited_doc_ids), frozenset(event.retrieved_doc_ids)
        )
        assert bounded.check(one, documents) == unbounded.check(one, documents)


def test_a_bound_large_enough_reads_the_dense_document() -> None:
    checker = Checker(CheckOptions(document_facts_bytes=256 * MIB))
    verdict = checker.check(claim("dense"), {"dense": Document("dense", DENSE)})
    assert verdict.status == "unsupported_quantity"


# --- the cells a data document can hold, known before it is read ----------------------------

_VALUES = st.sampled_from(["1", "2.5", "x", "", "a b", "1,200", "(3)", "[4]", "|", ";", "é"])


@st.composite
def _data(draw: st.DrawFn) -> str:
    rows = draw(st.lists(st.lists(_VALUES, min_size=1, max_size=5), min_size=1, max_size=8))
    width = len(rows[0])
    kind = draw(st.sampled_from(["csv", "tsv", "markdown", "keyvalue", "json", "html"]))
    if kind in ("csv", "tsv"):
        sep = "," if kind == "csv" else "\t"
        header = sep.join(f"c{n}" for n in range(width))
        return "\n".join([header, *(sep.join((r + [""] * width)[:width]) for r in rows)])
    if kind == "markdown":
        lines = ["| " + " | ".join(f"c{n}" for n in range(width)) + " |", "|---" * width + "|"]
        return "\n".join(
            lines + ["| " + " | ".join((r + [""] * width)[:width]) + " |" for r in rows]
        )
    if kind == "keyvalue":
        return "\n".join(f"key {n}: {' '.join(r)}" for n, r in enumerate(rows))
    if kind == "json":
        return json.dumps([{f"k{n}": v for n, v in enumerate(r)} for r in rows])
    cells = "".join("<tr>" + "".join(f"<td>{v}</td>" for v in r) + "</tr>" for r in rows)
    return f"<table>{cells}</table>"


@given(_data())
def test_no_reader_finds_more_cells_than_most_cells_counts(text: str) -> None:
    assert len(structured.read(text).cells) <= structured.most_cells(text)


def test_a_data_document_too_dense_for_its_bound_is_refused_before_it_is_read() -> None:
    text = "a,b\n" + "1,1\n" * 100_000
    budget = FactBudget(MIB)
    with pytest.raises(TooManyFacts):
        extract_document(text, budget=budget)
    assert budget.spent_bytes == 0, "refused on the count of its separators alone"


def test_a_long_unbroken_run_must_fit_before_it_is_read() -> None:
    # One token of a million characters: the pattern engine would keep state for each.
    budget = FactBudget(16 * MIB)
    with pytest.raises(TooManyFacts):
        extract_document("Codes: " + "1-" * 500_000, budget=budget)
    assert budget.spent_bytes == 0
    # Spaces between the same characters make short runs, each cheap to read.
    extract_document("Codes: " + "1- " * 1_000, budget=FactBudget(16 * MIB))


def test_normalizing_a_text_is_spent_from_the_budget() -> None:
    text = "caf\u00e9 e\u0301 " * 200_000  # a combining accent in every word
    with pytest.raises(TooManyFacts):
        normalize(text, FactBudget(MIB))
    budget = FactBudget(None)
    normalize(text, budget)
    assert budget.spent_bytes >= 200_000 * CLUSTER_BYTES
