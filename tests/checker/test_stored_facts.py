"""A checker reads the facts stored with a document instead of extracting its text, only
when they bear its own stamp, and its verdicts are then byte for byte the verdicts it
gives extracting: over the sample and the development sets' claims and documents."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from quantcheck.schemas import ClaimEvent
from quantcheck.worker.stream.verdicts import verdict_json

from quantcheck.api import IN_PROCESS
from quantcheck.checker import Checker, CheckOptions, Claim, Document, Status
from quantcheck.checker.model import FactsStamp, StoredFacts
from quantcheck.inputs.claims import split_ids
from quantcheck.quantities.categories import Scope
from tests.checker.real_documents import (
    development_claims,
    development_documents,
    sample_claims,
    sample_documents,
)

CHECKED_AT = datetime(2024, 5, 1, tzinfo=UTC)


def with_facts(documents: Mapping[str, str], scope: Scope) -> dict[str, Document]:
    writer = Checker(CheckOptions(scope=scope))
    return {
        doc_id: Document(
            doc_id, text, facts=StoredFacts(writer.facts_stamp, writer.stored_facts(text))
        )
        for doc_id, text in documents.items()
    }


def verdicts(
    rows: Iterable[Mapping[str, str]], documents: Mapping[str, Document], scope: Scope
) -> list[bytes]:
    """The verdict events' JSON of a fresh checker, as the worker publishes them."""
    checker = Checker(CheckOptions(scope=scope, claim_cache_size=0))
    found = []
    for n, row in enumerate(rows):
        event = ClaimEvent.model_validate(
            {
                "schema_version": 1,
                "claim_id": row["claim_id"] or f"c{n}",
                "claim_text": row["claim_text"],
                "cited_doc_ids": split_ids(row["cited_doc_id"]),
                "retrieved_doc_ids": split_ids(row["retrieved_doc_ids"]),
                "kb_version": "v1",
                "produced_at": CHECKED_AT,
            }
        )
        claim = Claim(
            event.claim_text, tuple(event.cited_doc_ids), frozenset(event.retrieved_doc_ids)
        )
        verdict = checker.check(claim, documents)
        found.append(verdict_json(verdict, event, IN_PROCESS, checked_at=CHECKED_AT))
    return found


def assert_identical(rows: list[dict[str, str]], texts: Mapping[str, str], scope: Scope) -> None:
    plain = {doc_id: Document(doc_id, text) for doc_id, text in texts.items()}
    extracted = verdicts(rows, plain, scope)
    stored = verdicts(rows, with_facts(texts, scope), scope)
    assert len(extracted) == len(rows)
    for row, one, two in zip(rows, extracted, stored, strict=True):
        assert one == two, row["claim_id"]


@pytest.mark.parametrize("scope", list(Scope))
def test_verdicts_on_the_sample_are_identical_with_stored_facts(scope: Scope) -> None:
    assert_identical(sample_claims(), sample_documents(), scope)


def test_verdicts_on_some_development_claims_are_identical_with_stored_facts() -> None:
    rows = development_claims(every=8)
    texts = development_documents()
    cited = {doc_id for row in rows for doc_id in split_ids(row["cited_doc_id"])}
    assert len(rows) > 200
    assert_identical(rows, {d: t for d, t in texts.items() if d in cited}, Scope.ALL)


def test_verdicts_on_a_hard_wrapped_document_are_identical_with_stored_facts() -> None:
    text = (
        "Staff on the night shift must acknowledge every incident report within\n"
        "15 minutes of it being filed and close it within two working days. The\n"
        "warehouse on Harbour Road was first opened to tenants in June\n"
        "2021 and extended with a second loading bay in the spring of 2023.\n"
    )
    rows = [
        {"claim_id": f"w{n}", "claim_text": claim, "cited_doc_id": "W1", "retrieved_doc_ids": "W1"}
        for n, claim in enumerate(
            [
                "Reports are acknowledged within 15 minutes.",
                "The warehouse opened in June 2021.",
                "The warehouse opened in July 2021.",
            ]
        )
    ]
    assert_identical(rows, {"W1": text}, Scope.ALL)
    # The evidence is quoted as the document writes it, line break and all.
    assert (
        b'"text":"June\\n2021"' in verdicts(rows[1:2], {"W1": Document("W1", text)}, Scope.ALL)[0]
    )


@pytest.mark.slow
def test_verdicts_on_every_development_claim_are_identical_with_stored_facts() -> None:
    rows = development_claims()
    assert len(rows) > 1500
    assert_identical(rows, development_documents(), Scope.ALL)


# Two texts of one length: facts of the second given as the first's tell which were read.
SIXTY = "Log a reading every 60 seconds."
FORTY_FIVE = "Log a reading every 45 seconds."
CLAIM = Claim("Readings are logged every 60 seconds.", ("S1",), frozenset({"S1"}))


def checked_with(stamp: FactsStamp, data: bytes) -> Status:
    document = Document("S1", SIXTY, facts=StoredFacts(stamp, data))
    return Checker().check(CLAIM, {"S1": document}).status


def test_facts_are_read_only_under_the_checkers_own_stamp() -> None:
    checker = Checker()
    wrong = checker.stored_facts(FORTY_FIVE)
    # Under its own stamp the checker trusts what is stored (here, deliberately, facts of
    # another text of the same length), which shows the stamp is what decides.
    assert checked_with(checker.facts_stamp, wrong) is Status.UNSUPPORTED_QUANTITY
    for other in (
        replace(checker.facts_stamp, checker_version="0.0.1"),
        replace(checker.facts_stamp, encoding="qcix1-0000000000000000"),
        replace(checker.facts_stamp, scope=Scope.UNITS.value),
    ):
        assert checked_with(other, wrong) is Status.SUPPORTED


def test_unreadable_facts_are_extracted_again() -> None:
    checker = Checker()
    data = checker.stored_facts(SIXTY)
    assert checked_with(checker.facts_stamp, data) is Status.SUPPORTED
    assert checked_with(checker.facts_stamp, data[: len(data) // 2]) is Status.SUPPORTED
    assert checked_with(checker.facts_stamp, b"not facts") is Status.SUPPORTED
