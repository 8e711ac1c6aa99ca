"""The distinct-claims workload: every claim's text is unique, yet its verdict, facts and
bindings included, is the original claim's, so the benchmark times real checks of the
development sets' claims and nothing a cache could answer."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from bench import distinct_workload as workload
from quantcheck.checker import Checker, Claim, Document


def test_every_word_is_distinct_and_holds_no_digit() -> None:
    count = 20_000
    words = [workload.unique_word(n) for n in range(count)]
    assert len(set(words)) == count
    last = workload.unique_word(len(workload.ALPHABET) ** workload.WORD_LENGTH - 1)
    assert all(re.fullmatch(f"[{workload.ALPHABET}]{{6}}", w) for w in [*words, last])
    with pytest.raises(ValueError, match="outside"):
        workload.unique_word(len(workload.ALPHABET) ** workload.WORD_LENGTH)


def test_written_claims_are_distinct_and_keep_their_citations(tmp_path: Path) -> None:
    written = workload.write_workload(tmp_path, 5_000)
    with written.claims.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    originals = workload.load_workload(workload.development_sets()).originals
    assert written.document_count >= 800
    assert written.original_count == len(originals)
    assert len(rows) == written.claim_count == 5_000
    assert len({row["claim_text"] for row in rows}) == len(rows)
    assert len({row["claim_id"] for row in rows}) == len(rows)
    for n, row in enumerate(rows):
        original = originals[n % len(originals)]
        assert row["claim_text"].startswith(original.text)
        assert (row["cited_doc_id"], row["retrieved_doc_ids"]) == (
            original.cited_doc_id,
            original.retrieved_doc_ids,
        )
    with written.documents.open(encoding="utf-8", newline="") as handle:
        assert {row["doc_id"] for row in csv.DictReader(handle)} >= {
            row["cited_doc_id"] for row in rows
        }


def test_a_missing_data_folder_is_named_in_one_line(tmp_path: Path) -> None:
    absent = tmp_path / "external"
    with pytest.raises(workload.MissingDataError) as raised:
        workload.development_sets(absent)
    assert str(absent) in str(raised.value)
    assert "\n" not in str(raised.value)


def _claim(text: str, original: workload.OriginalClaim) -> Claim:
    return Claim(
        text,
        tuple(d for d in original.cited_doc_id.split("|") if d),
        frozenset(d for d in original.retrieved_doc_ids.split("|") if d),
    )


@pytest.mark.slow
def test_the_trailing_word_changes_no_verdict_of_any_original_claim() -> None:
    data = workload.load_workload(workload.development_sets())
    documents = {doc_id: Document(doc_id, text) for doc_id, text in data.documents.items()}
    checker = Checker()
    largest = len(workload.ALPHABET) ** workload.WORD_LENGTH - 1
    changed = []
    for n, original in enumerate(data.originals):
        expected = checker.check(_claim(original.text, original), documents)
        # The first and the last words of the alphabet's range, so every letter is tried.
        for claim in (workload.distinct(original, n), workload.distinct(original, largest - n)):
            if checker.check(_claim(claim.text, original), documents) != expected:
                changed.append(claim.text)
    assert changed == []
