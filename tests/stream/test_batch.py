"""A batch of claim messages becomes verdicts and dead letters, with one lookup per version."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from quantcheck.schemas import read_dead_letter_headers
from quantcheck.worker.stream.batch import BatchProcessor, Checked, DeadLettered
from quantcheck.worker.stream.records import InputRecord, first_offsets, next_offsets

from quantcheck.checker import Checker, CheckOptions, Document
from quantcheck.errors import StoreUnavailableError
from quantcheck.quantities.budget import MIB
from tests.schemas.samples import claim_bytes
from tests.stream.samples import (
    CITATION_FAILURES,
    EXPECTED_STATUSES,
    KB_VERSION,
    SETTINGS,
    Versions,
    as_records,
    handbook,
    sample_claims,
)

CHECKED_AT = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def versions() -> Versions:
    return Versions({KB_VERSION: handbook()})


def processor(versions: Versions) -> BatchProcessor:
    return BatchProcessor(Checker(), versions, SETTINGS, timer=iter(range(1000)).__next__)


def test_the_sample_claims_give_the_expected_verdicts(versions: Versions) -> None:
    records = as_records(sample_claims())
    result = processor(versions).process(records, checked_at=CHECKED_AT)
    statuses: dict[str, int] = {}
    for outcome in result.outcomes:
        assert isinstance(outcome, Checked)
        statuses[outcome.verdict.status.value] = statuses.get(outcome.verdict.status.value, 0) + 1
    assert statuses == EXPECTED_STATUSES
    verdicts = [o for o in result.outputs if o.topic == "verdicts"]
    assert [o.key for o in verdicts] == [r.key for r in records]
    assert {json.loads(o.value or b"")["checked_at"] for o in verdicts} == {"2024-06-01T12:00:00Z"}


def test_outcomes_follow_message_order_and_citation_failures_also_dead_letter(
    versions: Versions,
) -> None:
    records = as_records(sample_claims())
    result = processor(versions).process(records, checked_at=CHECKED_AT)
    assert [o.record for o in result.outcomes] == records
    letters = [o for o in result.outputs if o.topic == "dlq"]
    assert len(letters) == 3
    by_key = {r.key: r for r in records}
    kinds = []
    for letter in letters:
        info = read_dead_letter_headers(letter.headers)
        source = by_key[letter.key]
        assert letter.value == source.value
        assert (info.partition, info.offset) == (source.partition, source.offset)
        assert info.claim_id == (letter.key or b"").decode()
        kinds.append(info.kind)
    assert sorted(kinds) == sorted(CITATION_FAILURES)
    # A verdict always comes before its claim's dead letter.
    order = [(o.topic, o.key) for o in result.outputs]
    for letter in letters:
        assert order.index(("verdicts", letter.key)) < order.index(("dlq", letter.key))


def test_one_lookup_per_version_for_every_cited_id_of_the_batch(versions: Versions) -> None:
    versions.versions["v2"] = handbook()
    claims = sample_claims()
    second = [
        c.model_copy(update={"kb_version": "v2", "claim_id": c.claim_id + "b"}) for c in claims
    ]
    processor(versions).process(as_records([*claims, *second]), checked_at=CHECKED_AT)
    assert sorted(version for version, _ in versions.lookups) == ["v1", "v2"]
    cited = sorted({doc_id for c in claims for doc_id in c.cited_doc_ids})
    for _, ids in versions.lookups:
        assert sorted(ids) == cited


def test_an_unknown_version_is_dead_lettered_without_a_verdict(versions: Versions) -> None:
    claim = sample_claims()[0].model_copy(update={"kb_version": "v9"})
    (record,) = as_records([claim])
    result = processor(versions).process([record], checked_at=CHECKED_AT)
    (outcome,) = result.outcomes
    assert isinstance(outcome, DeadLettered)
    assert (outcome.kind, outcome.claim_id) == ("unknown_kb_version", "C01")
    (letter,) = result.outputs
    assert letter.topic == "dlq"
    info = read_dead_letter_headers(letter.headers)
    assert info.kind == "unknown_kb_version"
    assert "'v9'" in info.message
    assert versions.lookups == []


def test_unreadable_messages_are_dead_lettered_and_the_rest_checked(versions: Versions) -> None:
    good = as_records(sample_claims()[:2])
    bad = [
        InputRecord("claims", 0, 10, 5, b"k1", b"{not json", (("trace", b"t"),)),
        InputRecord("claims", 0, 11, 5, b"k2", b"x" * 10_001),
        InputRecord("claims", 0, 12, 5, b"k3", None),
        InputRecord("claims", 0, 13, 5, b"k4", claim_bytes(schema_version=2)),
    ]
    result = processor(versions).process([good[0], *bad, good[1]], checked_at=CHECKED_AT)
    kinds = [o.kind if isinstance(o, DeadLettered) else "verdict" for o in result.outcomes]
    assert kinds == [
        "verdict",
        "invalid_json",
        "oversize",
        "invalid_json",
        "unsupported_schema_version",
        "verdict",
    ]
    letters = [o for o in result.outputs if o.topic == "dlq"]
    assert [(o.key, o.value) for o in letters] == [(r.key, r.value) for r in bad]
    assert letters[0].headers[0] == ("trace", b"t")


def test_a_store_outage_propagates_before_anything_is_produced(versions: Versions) -> None:
    versions.available = False
    with pytest.raises(StoreUnavailableError):
        processor(versions).process(as_records(sample_claims()), checked_at=CHECKED_AT)


def test_claims_without_citations_need_no_document_lookup(versions: Versions) -> None:
    claim = sample_claims()[11]
    assert claim.cited_doc_ids == []
    result = processor(versions).process(as_records([claim]), checked_at=CHECKED_AT)
    (outcome,) = result.outcomes
    assert isinstance(outcome, Checked)
    assert outcome.verdict.status.value == "missing_citation"
    assert versions.lookups == []


def test_check_time_is_measured_per_claim(versions: Versions) -> None:
    result = processor(versions).process(as_records(sample_claims()[:3]), checked_at=CHECKED_AT)
    assert [o.check_seconds for o in result.outcomes if isinstance(o, Checked)] == [1, 1, 1]


def test_offsets_to_rewind_to_and_to_commit() -> None:
    records = [
        InputRecord("t", 0, 7, 0, None, b""),
        InputRecord("t", 1, 3, 0, None, b""),
        InputRecord("t", 0, 8, 0, None, b""),
    ]
    assert first_offsets(records) == {("t", 0): 7, ("t", 1): 3}
    assert next_offsets(records) == {("t", 0): 9, ("t", 1): 4}


class _RaisingChecker(Checker):
    """A checker with a bug on one input, to show such a claim cannot stall the stream."""

    def check(self, claim, documents):  # type: ignore[no-untyped-def]
        if "45 seconds" in claim.text:
            raise ArithmeticError("boom")
        return super().check(claim, documents)


def test_a_claim_the_checker_fails_on_is_dead_lettered_and_the_rest_verdicted(
    versions: Versions,
) -> None:
    records = as_records(sample_claims())
    result = BatchProcessor(_RaisingChecker(), versions, SETTINGS).process(
        records, checked_at=CHECKED_AT
    )
    failed = [o for o in result.outcomes if isinstance(o, DeadLettered)]
    assert [(o.kind, o.claim_id) for o in failed] == [("check_failed", "C02")]
    assert "ArithmeticError: boom" in failed[0].message
    assert sum(isinstance(o, Checked) for o in result.outcomes) == len(records) - 1
    letter = next(o for o in result.outputs if o.topic == "dlq" and o.key == b"C02")
    assert letter.value == next(r.value for r in records if r.key == b"C02")
    assert read_dead_letter_headers(letter.headers).kind == "check_failed"


def test_a_claim_citing_a_document_over_its_bound_is_dead_lettered_naming_it() -> None:
    """A document loaded before the bound existed: its claims cost a dead letter each,
    the worker stays within its memory, and every other claim is checked."""
    documents = {**handbook(), "TABLE-7": Document("TABLE-7", "1:" * 50_000)}
    events = sample_claims()
    over = events[0].model_copy(
        update={"claim_id": "C99", "cited_doc_ids": ["TABLE-7"], "retrieved_doc_ids": ["TABLE-7"]}
    )
    records = as_records([*events, over])
    checker = Checker(CheckOptions(document_facts_bytes=MIB))
    result = BatchProcessor(checker, Versions({KB_VERSION: documents}), SETTINGS).process(
        records, checked_at=CHECKED_AT
    )
    failed = [o for o in result.outcomes if isinstance(o, DeadLettered)]
    assert [(o.kind, o.claim_id) for o in failed] == [("check_failed", "C99")]
    assert "TooManyFacts: document 'TABLE-7' yields more facts than the bound of 1 MiB" in (
        failed[0].message
    )
    assert sum(isinstance(o, Checked) for o in result.outcomes) == len(events)
    letter = next(o for o in result.outputs if o.topic == "dlq" and o.key == b"C99")
    assert letter.value == records[-1].value
