"""What a value is said of: anchors of claim and evidence values, and the binding rule."""

from __future__ import annotations

import json

from quantcheck import check
from quantcheck.checker.anchors import anchor_words, claim_anchors, key_words
from quantcheck.checker.index import EvidenceIndex
from quantcheck.quantities.evidence import extract_document
from quantcheck.quantities.extract import extract
from schemas import VerdictEvent

MENU = {"D": "A small pizza costs $12 and the large $18."}


def anchors_of(text: str) -> list[tuple[str, list[str]]]:
    """Each claim value of ``text`` with its anchors, sorted."""
    mentions = extract(text).mentions
    return [(m.text, sorted(claim_anchors(text, m, mentions))) for m in mentions]


def test_words_are_lemmatized_and_function_and_unit_words_dropped() -> None:
    assert anchor_words("saves") == ("save",)
    assert anchor_words("the") == ()
    assert anchor_words("kg") == ()
    assert anchor_words("March") == ()
    assert anchor_words("sales") == ("revenue",)
    assert "score" in anchor_words("scoring")


def test_key_paths_split_at_case_and_underscores() -> None:
    assert key_words("main > temp_max") == {"main", "temperature", "maximum"}
    assert key_words("homeScore > period1") == {"home", "score"}


def test_words_between_values_change_hands_at_a_conjunction() -> None:
    found = dict(anchors_of("A small pizza costs $12 and the large $18."))
    assert found["$12"] == ["cost", "pizza", "small"]
    assert found["$18"] == ["large"]


def test_a_value_of_another_category_is_passed_over() -> None:
    found = dict(anchors_of("Revenue rose 5% to $3.1 billion."))
    assert "revenue" in found["$3.1 billion"]


def test_listed_values_share_their_words() -> None:
    found = dict(anchors_of("Revenue and earnings rose 19% and 38% respectively."))
    assert found["19%"] == found["38%"]
    assert {"revenue", "income"} <= set(found["38%"])


def test_a_counted_noun_anchors_its_count() -> None:
    assert "save" in dict(anchors_of("Lehner made 25 saves."))["25 saves"]


def test_a_data_cell_gives_a_trailing_word_to_the_nearer_value() -> None:
    text = "{'Memory': {'Internal': '32GB 3GB RAM'}}"
    index = EvidenceIndex.build(extract_document(text), text)
    by_text = {m.text: sorted(index.anchors.of(m)) for m in index.by_category["size_mb"]}
    assert by_text == {"32GB": ["internal", "memory"], "3GB": ["internal", "memory", "ram"]}


def test_values_under_an_identifier_key_are_never_rivals() -> None:
    text = "{'homeTeam': {'id': 2}, 'homeScore': {'period1': 2, 'period2': 3}}"
    index = EvidenceIndex.build(extract_document(text), text)
    rivals = {m.key for m in index.anchors.rivals("number", frozenset({"home", "team"}))}
    assert "homeTeam > id" not in rivals
    assert "homeScore > period1" in rivals


def test_the_reason_names_what_each_value_is_said_of() -> None:
    verdict = check("The small pizza costs $18.", MENU)
    assert verdict.status == "unsupported_quantity"
    assert verdict.reason == (
        "in cited evidence said of something else: money_usd=18 (evidence: money_usd=18 of"
        " large; the claim's cost pizza small is money_usd=12)"
    )


def test_the_verdict_fact_carries_its_binding_in_the_contract() -> None:
    verdict = check("The small pizza costs $18.", MENU)
    payload = verdict.to_dict()
    binding = payload["facts"][0]["binding"]
    assert binding == {
        "claim": ["cost", "pizza", "small"],
        "evidence": ["large"],
        "rival": "money_usd=12",
        "rival_words": ["cost", "pizza", "small"],
    }
    VerdictEvent.model_validate_json(json.dumps(payload))


def test_a_value_said_of_what_the_claim_names_is_supported_with_its_binding() -> None:
    verdict = check("The large pizza costs $18.", MENU)
    assert verdict.status == "supported"
    assert verdict.to_dict()["facts"][0]["binding"]["rival"] is None


def test_without_anchors_the_value_first_verdict_stands() -> None:
    assert check("The small pizza costs $18.", {"D": "$12, $18"}).status == "supported"
