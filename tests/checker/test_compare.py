"""Matching one claim fact against indexed evidence facts."""

from __future__ import annotations

from quantcheck.checker.compare import find_support
from quantcheck.checker.index import EvidenceIndex
from quantcheck.checker.model import FactCheck, MatchKind
from quantcheck.quantities.extract import extract
from quantcheck.quantities.facts import Mention


def index(text: str) -> EvidenceIndex:
    return EvidenceIndex.build(extract(text))


def claim_fact(text: str) -> Mention:
    mentions = extract(text).mentions
    assert len(mentions) == 1, mentions
    return mentions[0]


def support(claim: str, *evidence: str) -> FactCheck:
    docs = [(f"D{n}", index(text)) for n, text in enumerate(evidence, start=1)]
    return find_support(claim_fact(claim), docs)


def test_index_groups_by_fact_and_category() -> None:
    built = index("Log every 15 seconds, then every 15 s, then 60 s; store 5 MB.")
    assert len(built.by_category["time_seconds"]) == 3
    assert len(built.by_category["size_mb"]) == 1
    fifteen = built.by_category["time_seconds"][0].fact
    assert len(built.by_fact[fifteen]) == 2


def test_index_leaves_out_impossible_dates() -> None:
    built = index("Due 2027-02-31 or 2027-03-01.")
    assert [m.fact.label() for m in built.by_category["date"]] == ["date=2027-03-01"]
    assert built.extraction.flags == ("invalid_date",)


def test_exact_match() -> None:
    check = support("every 60 seconds", "every 1 minute")
    assert check.matched
    assert check.match_kind is MatchKind.EXACT
    assert check.evidence_doc_id == "D1"
    assert check.evidence is not None
    assert check.evidence.text == "1 minute"


def test_no_match_in_other_category() -> None:
    assert not support("60 seconds", "60 MB").matched


def test_exact_is_preferred_over_within_range() -> None:
    check = support("5 °C", "2-8 °C, or exactly 5 °C")
    assert check.match_kind is MatchKind.EXACT


def test_earlier_document_wins_a_tie() -> None:
    check = support("5 °C", "at 5 °C", "at 5 °C too")
    assert check.evidence_doc_id == "D1"


def test_better_match_in_a_later_document_wins() -> None:
    check = support("5 °C", "2-8 °C", "5 °C")
    assert (check.match_kind, check.evidence_doc_id) == (MatchKind.EXACT, "D2")


def test_within_range_point_but_not_a_narrower_interval() -> None:
    assert support("2 °C", "2-8 °C").match_kind is MatchKind.WITHIN_RANGE
    # A narrower range is not the range the evidence states, nor a wider one.
    assert not support("3-8 °C", "2-8 °C").matched
    assert not support("1-8 °C", "2-8 °C").matched
    assert support("2-8 °C", "between 2 and 8 °C").match_kind is MatchKind.EXACT


def test_a_value_inside_an_estimate_is_not_within_it() -> None:
    assert support("revenue of $47 million", "revenue of $45 million to $50 million").matched
    check = support("revenue of $47 million", "we expect revenue of $45 million to $50 million")
    assert not check.matched


def test_a_plain_number_inside_a_plain_range_is_not_within_it() -> None:
    # "123-4567" may be a phone number: its digits support no count between them.
    assert not support("the 500 items", "call 123-4567").matched
    assert support("4 loggers", "3-5 loggers").match_kind is MatchKind.WITHIN_RANGE


def test_range_claim_needs_range_evidence() -> None:
    assert not support("2-8 °C", "2 °C and 8 °C").matched


def test_bound_claim_is_not_supported_by_a_range() -> None:
    assert not support("below 8 °C", "2-8 °C").matched


def test_bounds_need_same_relation_and_value() -> None:
    assert support("below 3 MB", "under 3 MB").match_kind is MatchKind.EXACT
    assert not support("below 3 MB", "at most 3 MB").matched
    assert not support("below 3 MB", "3 MB").matched
    assert not support("3 MB", "below 3 MB").matched
    assert not support("about 3 MB", "below 3 MB").matched


def test_approximate_needs_a_hedged_claim() -> None:
    assert support("about 96 percent", "96.4 percent").match_kind is MatchKind.APPROXIMATE
    assert not support("96 percent", "96.4 percent").matched
    assert not support("96 percent", "about 96.4 percent").matched


def test_approximate_rounds_at_the_claims_written_precision() -> None:
    assert support("about 96.4 percent", "96.44 percent").matched
    assert not support("about 96.4 percent", "96.46 percent").matched
    assert support("about 2 GB", "2100 MB").matched
    assert not support("about 2 GB", "2600 MB").matched


def test_converted_match_at_the_coarser_precision() -> None:
    assert support("100 °F", "37.8 °C").match_kind is MatchKind.CONVERTED
    assert support("100 °F", "38 °C").match_kind is MatchKind.CONVERTED
    assert not support("100 °F", "37 °C").matched
    assert support("100 °F", "37.7 °C").matched  # 99.86 °F reads as 100 °F
    assert not support("100 °F", "37.2 °C").matched  # 98.96 °F reads as 99 °F


def test_exact_conversions_get_no_leeway() -> None:
    assert not support("1 GiB", "1074 MB").matched
    assert support("1 GiB", "1073.741824 MB").match_kind is MatchKind.EXACT


def test_a_date_supports_the_periods_that_hold_it_and_never_the_reverse() -> None:
    assert support("on 2026-09-30", "on September 30, 2026").match_kind is MatchKind.EXACT
    assert not support("about 2026-09-30", "2026-09-29").matched
    assert support("September 2026", "2026-09-30").match_kind is MatchKind.PERIOD
    assert support("in 2026", "2026-09-30").match_kind is MatchKind.PERIOD
    assert support("Q3 2026", "2026-09-30").match_kind is MatchKind.PERIOD
    assert support("the 2020s", "in 2026").match_kind is MatchKind.PERIOD
    assert not support("2026-09-30", "September 2026").matched
    assert not support("in 2026", "Q3 2025").matched


def test_a_period_without_a_year_is_held_by_the_same_parts_in_any_year() -> None:
    assert support("the second quarter", "fiscal 2022 second quarter").matched
    assert support("on March 5", "March 5, 2024").match_kind is MatchKind.PERIOD
    assert not support("March 5, 2024", "on March 5").matched
    assert not support("on March 6", "March 5, 2024").matched
    assert not support("on February 29", "February 28, 2025").matched


def test_a_date_inside_an_evidence_range_is_not_supported_by_it() -> None:
    # The range says when something ran, not that the claimed day is the one.
    assert not support("on 2026-10-05", "from 2026-10-01 to 2026-10-14").matched
    assert not support("on 2026-10-15", "from 2026-10-01 to 2026-10-14").matched
    assert not support("on 12 March 2004", "in the 2003-04 season").matched
    # An end of the range is stated, and a claimed period may hold the whole range.
    check = support("on 2026-10-01", "from 2026-10-01 to 2026-10-14")
    assert check.match_kind is MatchKind.WITHIN_RANGE
    assert (
        support("in October 2026", "from 2026-10-01 to 2026-10-14").match_kind is MatchKind.PERIOD
    )


def test_a_value_stated_for_another_period_is_not_matched() -> None:
    evidence = index(
        "EPS was $3.69 for the third quarter of 2021, up from $2.75 in the third quarter of 2020."
    )
    right, wrong = (
        extract(f"EPS was $3.69 in the third quarter of {year}.").mentions[0]
        for year in (2021, 2020)
    )
    assert find_support(right, [("D1", evidence)]).matched
    check = find_support(wrong, [("D1", evidence)])
    assert not check.matched
    assert wrong.period is not None
    assert wrong.period.label() == "date_quarter=2020-Q3"
    assert check.other_period is not None
    assert check.other_period.label() == "date_quarter=2021-Q3"


def test_impossible_claim_date_never_matches() -> None:
    check = support("2027-02-31", "2027-02-31")
    assert not check.matched
    assert check.mention.problem == "not a calendar date"


def test_polarity_conflict_is_kept_but_flagged() -> None:
    check = support("do not wait 5 minutes", "wait 5 minutes")
    assert check.matched
    assert check.negation_conflict


def test_same_polarity_is_preferred_even_if_looser() -> None:
    check = support("store at 5 °C", "never store at 5 °C; store at 2-8 °C")
    assert check.matched
    assert not check.negation_conflict
    assert check.match_kind is MatchKind.WITHIN_RANGE


def test_same_polarity_in_a_later_document_is_preferred() -> None:
    check = support("wait 5 minutes", "do not wait 5 minutes", "wait 5 minutes")
    assert (check.negation_conflict, check.evidence_doc_id) == (False, "D2")
