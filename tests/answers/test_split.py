"""Answers into claims: IDs, citations per sentence, marker-free text, spans, gates."""

from __future__ import annotations

import pytest
from quantcheck.schemas.limits import MAX_CITED_DOC_IDS

from quantcheck.answers import SentenceClaim, split_answer
from quantcheck.answers.split import Uncited
from quantcheck.quantities.extract import extract
from tests.answers.samples import FOUR_SENTENCES, answer, has_quantity


def split(text: str, **overrides: object) -> tuple[SentenceClaim, ...]:
    return split_answer(answer(text, **overrides), has_quantity=has_quantity)


def test_four_sentences_with_mixed_markers() -> None:
    claims = split(FOUR_SENTENCES)
    assert [c.claim_id for c in claims] == ["A01:1", "A01:2", "A01:3", "A01:4"]
    assert [c.text for c in claims] == [
        "Here is what the handbook says.",
        "The logger records a reading every 15 seconds.",
        "On low battery it logs every 45 seconds.",
        "Calibrate the flow meter at 2.5 L/min, e.g. before each deployment.",
    ]
    assert [c.cited_doc_ids for c in claims] == [(), ("S01",), ("S01",), ("S02",)]
    assert [c.citation_gates for c in claims] == [False, True, True, True]
    spans = [FOUR_SENTENCES[c.span.start : c.span.end] for c in claims]
    assert spans[1] == "The logger records a reading every 15 seconds [1]."
    assert spans[3].endswith("deployment【2】.")


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        ("The logger logs every 15 seconds [1].", ("S01",)),
        ("The logger logs every 15 seconds [1, 2].", ("S01", "S02")),
        ("The logger logs every 15 seconds [1][2].", ("S01", "S02")),
        ("The logger logs every 15 seconds [S01].", ("S01",)),
        ("The logger logs every 15 seconds【2】.", ("S02",)),
        ("The logger logs every 15 seconds^[2].", ("S02",)),
        ("The logger logs every 15 seconds[^1].", ("S01",)),
        ("The logger logs every 15 seconds.[1][2]", ("S01", "S02")),
        ("The logger [1] logs every 15 seconds [1].", ("S01",)),
    ],
)
def test_each_marker_style(text: str, cited: tuple[str, ...]) -> None:
    (claim,) = split(text)
    assert claim.cited_doc_ids == cited
    assert claim.text == "The logger logs every 15 seconds."
    assert claim.citation_gates


def test_markers_belong_to_their_own_sentence() -> None:
    text = "Log every 15 seconds [1]. Calibrate at 2.5 L/min.[2] Upload at 25 MB [S05]."
    claims = split(text)
    assert [c.cited_doc_ids for c in claims] == [("S01",), ("S02",), ("S05",)]
    assert [c.text for c in claims] == [
        "Log every 15 seconds.",
        "Calibrate at 2.5 L/min.",
        "Upload at 25 MB.",
    ]


def test_a_label_missing_from_citations_is_a_document_id() -> None:
    (claim,) = split("Log every 15 seconds [7].")
    assert claim.cited_doc_ids == ("7",)


def test_a_sentence_with_a_number_and_no_marker_cites_nothing() -> None:
    first, second = split("Log every 15 seconds [1]. Upload files at 25 MB.")
    assert first.cited_doc_ids == ("S01",)
    assert second.cited_doc_ids == ()
    assert second.markers == ()
    assert second.citation_gates


def test_a_sentence_with_neither_number_nor_marker_skips_the_gates() -> None:
    claims = split("Good question. The logger logs every 15 seconds [1]. Thanks for asking!")
    assert [c.citation_gates for c in claims] == [False, True, False]


def test_a_sentence_with_a_marker_and_no_number_keeps_the_gates() -> None:
    (claim,) = split("The handbook covers this [1].")
    assert claim.citation_gates
    assert claim.cited_doc_ids == ("S01",)


def test_abbreviations_and_decimals_stay_in_one_sentence() -> None:
    text = (
        "Calibrate at 2.5 L/min, e.g. before each deployment [2]. The U.S. units log"
        " every 15 s [1]. J. Smith confirmed a 60-second interval on low battery [1]."
    )
    claims = split(text)
    assert [c.text for c in claims] == [
        "Calibrate at 2.5 L/min, e.g. before each deployment.",
        "The U.S. units log every 15 s.",
        "J. Smith confirmed a 60-second interval on low battery.",
    ]
    assert [c.claim_id for c in claims] == ["A01:1", "A01:2", "A01:3"]


def test_fact_spans_map_back_into_the_answer() -> None:
    text = "Upload [S05] files at 25 MB [S05]; split them above 100 MB [S05]."
    (claim,) = split(text)
    assert claim.text == "Upload files at 25 MB; split them above 100 MB."
    for mention in extract(claim.text).mentions:
        span = claim.span_in_answer(mention.span.start, mention.span.end)
        assert text[span.start : span.end] == mention.text
    assert claim.span_in_answer(0, len(claim.text)).start == 0
    with pytest.raises(ValueError, match="outside"):
        claim.span_in_answer(0, len(claim.text) + 1)


def test_lists_give_one_claim_per_item() -> None:
    text = (
        "The logger has two modes:\n- normal: every 15 seconds [1]\n"
        "- low battery: every 60 seconds [1]"
    )
    claims = split(text)
    assert [c.text for c in claims] == [
        "The logger has two modes:",
        "- normal: every 15 seconds",
        "- low battery: every 60 seconds",
    ]
    assert [c.cited_doc_ids for c in claims] == [(), ("S01",), ("S01",)]


@pytest.mark.parametrize("text", ["[1]", "[1][2] .", "  \n "])
def test_an_answer_without_sentences_has_no_claims(text: str) -> None:
    assert split(text) == ()


def test_brackets_that_are_not_markers_stay_in_the_text() -> None:
    (claim,) = split("The range [2.5, 3.0] L/min is fine [sic] [2].")
    assert claim.text == "The range [2.5, 3.0] L/min is fine [sic]."
    assert claim.cited_doc_ids == ("S02",)


def test_known_labels_without_digits_are_markers() -> None:
    (claim,) = split("Log every 15 seconds [a].", citations={"a": "S01"})
    assert claim.cited_doc_ids == ("S01",)


def test_the_longest_answer_of_markers_splits() -> None:
    text = ("Log 15 s [1]. " * 2000)[:20_000]
    claims = split(text)
    assert len(claims) == 1429
    assert all(c.cited_doc_ids == ("S01",) for c in claims[:-1])


def test_uncited_retrieved_cites_what_retrieval_supplied_where_there_is_no_marker() -> None:
    text = "Good question. Log every 15 seconds [1]. Upload files at 25 MB. Thanks!"
    claims = split_answer(
        answer(text, retrieved_doc_ids=["S05", "S02", "S05"]),
        has_quantity=has_quantity,
        uncited=Uncited.RETRIEVED,
    )
    assert [c.cited_doc_ids for c in claims] == [(), ("S01",), ("S05", "S02"), ()]
    assert [c.cites_retrieved for c in claims] == [False, False, True, False]
    # A sentence without a number is still no citation failure.
    assert [c.citation_gates for c in claims] == [False, True, True, False]


def test_uncited_retrieved_without_retrieved_documents_still_cites_nothing() -> None:
    (claim,) = split_answer(
        answer("Upload files at 25 MB.", retrieved_doc_ids=[]),
        has_quantity=has_quantity,
        uncited=Uncited.RETRIEVED,
    )
    assert claim.cited_doc_ids == ()
    assert not claim.cites_retrieved


def test_uncited_retrieved_refuses_more_documents_than_a_claim_may_cite() -> None:
    many = [f"D{n}" for n in range(MAX_CITED_DOC_IDS + 1)]
    with pytest.raises(ValueError, match=f"would cite all {len(many)} retrieved documents"):
        split_answer(
            answer("Upload files at 25 MB.", retrieved_doc_ids=many),
            has_quantity=has_quantity,
            uncited=Uncited.RETRIEVED,
        )
