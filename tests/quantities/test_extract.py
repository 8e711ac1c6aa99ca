"""Extraction: what is read from a text, how it is labelled, and where it sits in the text."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bench.common import cpu_timed
from quantcheck.quantities.categories import Scope
from quantcheck.quantities.extract import Extraction, extract
from quantcheck.quantities.facts import Relation
from quantcheck.quantities.text import normalize


def labels(text: str, *, scope: Scope = Scope.UNITS) -> list[str]:
    return [m.fact.label() for m in extract(text, scope=scope).mentions]


def spans_are_faithful(text: str, result: Extraction) -> None:
    for mention in result.mentions:
        assert text[mention.span.start : mention.span.end] == mention.text


# --- spans in the original text -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected_text", "label"),
    [
        ("Log every １５ seconds.", "１５ seconds", "time_seconds=15"),
        ("Shut down at 60 ℃ at once.", "60 ℃", "temperature_c=60"),
        ("Wait ﬁve minutes.", "ﬁve minutes", "time_seconds=300"),
        ("Keep ２５\u00a0MB free.", "２５\u00a0MB", "size_mb=25"),
        ("Store at １，５００ MB.", "１，５００ MB", "size_mb=1500"),
        ("Freeze at \u221218 °C.", "\u221218 °C", "temperature_c=-18"),
    ],
)
def test_span_maps_back_through_nfkc(text: str, expected_text: str, label: str) -> None:
    result = extract(text, scope=Scope.UNITS)
    assert [m.fact.label() for m in result.mentions] == [label]
    mention = result.mentions[0]
    assert mention.text == expected_text
    spans_are_faithful(text, result)


def test_spans_after_length_changing_characters() -> None:
    # ℃ and ﬁ each grow by one character under NFKC; ㎒ (one character) becomes "MHz".
    text = "℃ ﬁ ㎒ café\u0301 then 15 seconds and ２ ㎒."
    result = extract(text, scope=Scope.UNITS)
    assert [m.fact.label() for m in result.mentions] == [
        "time_seconds=15",
        "frequency_hz=2000000",
    ]
    assert [m.text for m in result.mentions] == ["15 seconds", "２ ㎒"]
    spans_are_faithful(text, result)


def test_normalize_is_identity_on_ascii() -> None:
    norm = normalize("15 seconds")
    assert norm.text == norm.original
    assert norm.original_span(3, 10) == (3, 10)


def test_normalize_keeps_combining_clusters_together() -> None:
    norm = normalize("e\u0301 5 ℃")
    assert norm.text == "é 5 °C"
    # é (one character) covers the two original ones; °C both map to the one ℃
    assert norm.original_span(0, 1) == (0, 2)
    assert norm.original_span(4, 6) == (5, 6)
    assert norm.original_span(2, 3) == (3, 4)


def test_bound_and_hedge_are_inside_the_span() -> None:
    text = "Drift by more than 3% and about 96 percent."
    result = extract(text, scope=Scope.UNITS)
    assert [m.text for m in result.mentions] == ["more than 3%", "about 96 percent"]
    spans_are_faithful(text, result)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A bound word on the next line is that line's: a listing of one value a line.
        ("Height: 6 ft\nMinimum: 5 kg", ["length_m=1.8288", "mass_kg=5"]),
        ("Dose: 500 mg\nmax 2 doses", ["mass_kg=0.0005"]),
        # On the value's own line it bounds the value.
        ("Height: 6 ft minimum", ["length_m>=1.8288"]),
        ("Dose: 500 mg max", ["mass_kg<=0.0005"]),
    ],
)
def test_a_trailing_bound_stays_on_its_line(text: str, expected: list[str]) -> None:
    assert labels(text) == expected


# --- labels -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("every 15 seconds", ["time_seconds=15"]),
        ("a 60-second interval", ["time_seconds=60"]),
        ("every 1.5 minutes", ["time_seconds=90"]),
        ("2.5 liters per minute", ["flow_l_per_min=2.5"]),
        ("more than 3 percent", ["percent>3"]),
        ("at most 2 GB", ["size_mb<=2000"]),
        ("at least 95%", ["percent>=95"]),
        ("no less than 5 s", ["time_seconds>=5"]),
        ("below 20 percent", ["percent<20"]),
        ("2–8 °C", ["temperature_c=2..8"]),
        ("from 30 seconds to 2 minutes", ["time_seconds=30..120"]),
        ("2026-09-30", ["date=2026-09-30"]),
        ("Q3 2026", ["date_quarter=2026-Q3"]),
        ("September 2026", ["date_month=2026-09"]),
        ("$4.2 million", ["money_usd=4200000"]),
        ("1 year", ["time_months=12"]),
        ("100 °F", ["temperature_c=37.777777778"]),
        ("0.000001 MB", ["size_mb=0.000001"]),
    ],
)
def test_labels(text: str, expected: list[str]) -> None:
    assert labels(text) == expected


def test_labels_never_use_exponents() -> None:
    for text in ("100 seconds", "1000 MB", "1,000,000 bytes", "0.00001 s", "20 GB"):
        label = labels(text)[0]
        assert "E" not in label
        assert "e" not in label.split("=")[1]


def test_fact_value_is_exact_decimal() -> None:
    mention = extract("every 1.5 minutes", scope=Scope.UNITS).mentions[0]
    assert mention.fact.value == Decimal(90)
    assert mention.fact.relation is Relation.EQ
    assert mention.exact


def test_exactness_does_not_depend_on_earlier_conversions() -> None:
    # An inexact conversion (°F) must not make a later exact one (60 L/h = 1 L/min) inexact.
    first = extract("60 L/h", scope=Scope.UNITS).mentions[0]
    extract("100 °F", scope=Scope.UNITS)
    again = extract("60 L/h", scope=Scope.UNITS).mentions[0]
    assert first.exact
    assert again.exact


# --- number words, fractions, ambiguous numbers -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("six hours", "time_seconds=21600"),
        ("two weeks", "time_seconds=1209600"),
        ("one hundred twenty seconds", "time_seconds=120"),
        ("one hundred and twenty seconds", "time_seconds=120"),
        ("ninety-nine days", "time_seconds=8553600"),
        ("Twelve hours", "time_seconds=43200"),
        ("two thousand litres", "volume_l=2000"),
        ("three million bytes", "size_mb=3"),
        ("zero seconds", "time_seconds=0"),
        ("half an hour", "time_seconds=1800"),
        ("half a day", "time_seconds=43200"),
        ("a quarter of an hour", "time_seconds=900"),
        ("every half-hour", "time_seconds=1800"),
    ],
)
def test_number_words(text: str, expected: str) -> None:
    assert labels(text) == [expected]


def test_between_word_numbers_is_a_range() -> None:
    assert labels("between one and two seconds") == ["time_seconds=1..2"]


def test_adjacent_number_words_are_ambiguous() -> None:
    result = extract("one two seconds", scope=Scope.UNITS)
    assert result.mentions == ()
    assert result.flags == ("ambiguous_number",)


def test_long_run_of_number_words_is_not_misread() -> None:
    words = " ".join(["one", "two", "three", "four", "five"] * 4)
    assert labels(f"{words} seconds") == []


@pytest.mark.parametrize("text", ["1,5 MB", "1,50 MB", "1,5000 MB", "12,34,567 MB"])
def test_comma_that_is_not_a_thousands_separator_is_flagged(text: str) -> None:
    result = extract(text, scope=Scope.UNITS)
    assert result.mentions == ()
    assert result.flags == ("ambiguous_number",)


def test_space_grouped_thousands_is_not_read_as_zero() -> None:
    result = extract("Keep 1 000 MB free.", scope=Scope.UNITS)
    assert result.mentions == ()
    assert result.flags == ("ambiguous_number",)


@pytest.mark.parametrize(("text", "value"), [("1,500 MB", 1500), ("1,500,000 bytes", "1.5")])
def test_thousands_separators(text: str, value: int | str) -> None:
    assert extract(text, scope=Scope.UNITS).mentions[0].fact.value == Decimal(value)


# --- ranges -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["2-8 °C", "2–8 °C", "2 to 8 °C", "between 2 and 8 °C", "from 2 to 8 °C", "2 °C to 8 °C"],
)
def test_range_forms_are_one_interval(text: str) -> None:
    assert labels(text) == ["temperature_c=2..8"]


def test_range_with_negative_ends() -> None:
    assert labels("-20 to -10 °C") == ["temperature_c=-20..-10"]


def test_hyphen_in_a_range_never_makes_a_negative_value() -> None:
    for text in ("3-4 s", "10-20 seconds"):
        mention = extract(text, scope=Scope.UNITS).mentions[0]
        assert mention.fact.relation is Relation.RANGE
        assert isinstance(mention.fact.value, Decimal)
        assert mention.fact.value > 0


def test_values_of_different_categories_are_not_a_range() -> None:
    assert labels("5 MB to 10 seconds") == ["size_mb=5", "time_seconds=10"]


def test_and_without_between_is_not_a_range() -> None:
    assert labels("3 and 5 seconds") == ["time_seconds=5"]


# --- units that must not be read ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "5 pounds",  # currency or mass: not read
        "10K resistors",  # K only after a space
        "q=30%25%2020%",  # URL escapes
        "Q5 2026",
        "scp-173 m",
        "24703 m212",
    ],
)
def test_not_a_quantity(text: str) -> None:
    assert labels(text) == []


def test_a_currency_sign_glued_to_a_letter_is_another_currency() -> None:
    assert labels("A$5 or C$7 or $9") == ["money_aud=5", "money_cad=7", "money_usd=9"]


# --- versions, identifiers, list markers ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "identifier"),
    [
        ("version 3.2", "V3.2"),
        ("v3.2", "V3.2"),
        ("ver. 3.2", "V3.2"),
        ("3.2.1", "3.2.1"),
        ("P-7", "P7"),
        ("S01", "S01"),
        ("the Firmware 3.2", "FIRMWARE3.2"),
        ("section 4", "SECTION4"),
        ("Section 5 A", "SECTION5A"),
        ("Kafka 3.7", "KAFKA3.7"),
        ("a Cessna 414", "CESSNA414"),
        ("the X-200", "X200"),
        ("ISO 9001", "ISO9001"),
        ("Flight 448", "FLIGHT448"),
        ("COVID-19", "COVID19"),
        ("IP68", "IP68"),
        ("737 MAX 9", "737MAX9"),
    ],
)
def test_versions_and_identifiers_are_identifiers_never_quantities(
    text: str, identifier: str
) -> None:
    assert labels(text) == []
    assert labels(text, scope=Scope.ALL) == [f"identifier={identifier}"]


@pytest.mark.parametrize(
    "text", ["In 2019", "Keep 1,500 MB free", "Includes 5 users", "10m", "5GB", "60-second", "1st"]
)
def test_capitalized_words_and_glued_units_are_not_identifiers(text: str) -> None:
    assert not any(label.startswith("identifier") for label in labels(text, scope=Scope.ALL))


def test_version_beside_a_real_quantity() -> None:
    assert labels("Install version 3.2 after 2 weeks.") == ["time_seconds=1209600"]
    assert labels("Version 3.1 adds 4 GB.", scope=Scope.ALL) == ["identifier=V3.1", "size_mb=4000"]


def test_counts_only_in_the_all_scope() -> None:
    assert labels("The site has 40 loggers.") == []
    assert labels("The site has 40 loggers.", scope=Scope.ALL) == ["count[logger]=40"]
    assert labels("It has 40.", scope=Scope.ALL) == ["number=40"]


def test_list_markers_are_set_aside() -> None:
    text = "1. Deploy 40 loggers\n  2) Check 3 seals\nStep 4 of it"
    result = extract(text, scope=Scope.ALL)
    assert [m.fact.label() for m in result.mentions] == [
        "count[logger]=40",
        "count[seal]=3",
        "identifier=STEP4",
    ]
    assert [(s.text, s.reason) for s in result.set_aside] == [
        ("1", "list_marker"),
        ("2", "list_marker"),
    ]
    assert "list_marker" in result.flags


def test_references_to_sources_are_set_aside() -> None:
    text = "Sources 1 and 3 agree; as passage 2 says, see Passage ID 4. The source 12 km away."
    result = extract(text, scope=Scope.ALL)
    assert [m.fact.label() for m in result.mentions] == ["length_m=12000"]
    assert [(s.text, s.reason) for s in result.set_aside] == [
        ("Sources 1 and 3", "source_reference"),
        ("passage 2", "source_reference"),
        ("Passage ID 4", "source_reference"),
    ]


def test_idioms_are_set_aside_but_scores_and_dates_are_not() -> None:
    text = "Open 24/7 and 24 / 7. They won 24-7 on 24/7/2019 with a 24x7 inch board."
    result = extract(text, scope=Scope.ALL)
    assert [(s.text, s.reason) for s in result.set_aside] == [
        ("24/7", "idiom"),
        ("24 / 7", "idiom"),
    ]
    assert "idiom" in result.flags
    labels = [m.fact.label() for m in result.mentions]
    assert "score=24-7" in labels
    assert "date=2019-07-24" in labels
    assert "identifier=24X7" in labels


def test_the_top_of_a_rating_scale_is_set_aside_but_not_a_share() -> None:
    text = (
        "Rated 4.6 out of 5, a rating of 8/10, 4 stars out of 5; 4 out of 5 dentists agree,"
        " he scored 8 out of 10 free throws."
    )
    result = extract(text, scope=Scope.ALL)
    assert [(s.text, s.reason) for s in result.set_aside] == [
        ("5", "rating_scale"),
        ("10", "rating_scale"),
        ("5", "rating_scale"),
    ]
    labels = [m.fact.label() for m in result.mentions]
    assert "count[dentist]=5" in labels
    assert "count[throw]=10" in labels


def test_dates_are_not_bare_numbers() -> None:
    text = "By 2026-09-30, September 30, 2026 or 30 Sep 2026, not Q3 2026."
    found = labels(text, scope=Scope.ALL)
    assert found == [
        "date=2026-09-30",
        "date=2026-09-30",
        "date=2026-09-30",
        "date_quarter=2026-Q3",
    ]


def test_bare_range_is_one_interval() -> None:
    assert labels("3-5 loggers", scope=Scope.ALL) == ["count[logger]=3..5"]
    assert labels("between 3 and 5 loggers", scope=Scope.ALL) == ["count[logger]=3..5"]
    assert labels("between 3 and 5", scope=Scope.ALL) == ["number=3..5"]


# --- bounds, hedges, negation -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phrase", "relation"),
    [
        ("below", "<"),
        ("under", "<"),
        ("less than", "<"),
        ("fewer than", "<"),
        ("<", "<"),
        ("at most", "<="),
        ("no more than", "<="),
        ("not more than", "<="),
        ("up to", "<="),
        ("maximum", "<="),
        ("not exceed", "<="),
        ("never exceed", "<="),
        ("at or below", "<="),
        ("≤", "<="),
        ("above", ">"),
        ("over", ">"),
        ("more than", ">"),
        ("greater than", ">"),
        ("exceeds", ">"),
        ("larger than", ">"),
        (">", ">"),
        ("at least", ">="),
        ("no less than", ">="),
        ("minimum", ">="),
        ("at or above", ">="),
        ("≥", ">="),
    ],
)
def test_bound_phrases(phrase: str, relation: str) -> None:
    mention = extract(f"Keep it {phrase} 5 MB.", scope=Scope.UNITS).mentions[0]
    assert mention.fact.label() == f"size_mb{relation}5"
    assert not mention.negated
    assert mention.text.startswith(phrase)


@pytest.mark.parametrize(
    "hedge",
    ["about", "approximately", "approx.", "around", "roughly", "nearly", "almost", "some", "~"],
)
def test_hedges(hedge: str) -> None:
    mention = extract(f"It takes {hedge} 5 minutes.", scope=Scope.UNITS).mentions[0]
    assert mention.approximate
    assert mention.fact.label() == "time_seconds=300"


def test_hedge_inside_a_word_is_not_a_hedge() -> None:
    assert not extract("a handsome 5 MB", scope=Scope.UNITS).mentions[0].approximate


@pytest.mark.parametrize(
    "text",
    [
        "Do not wait 5 minutes.",
        "You must not wait 5 minutes.",
        "Never wait 5 minutes.",
        "It cannot wait 5 minutes.",
        "You should not wait 5 minutes.",
        "It doesn't wait 5 minutes.",
        "There is no 5 minute wait.",
    ],
)
def test_negation_cues(text: str) -> None:
    assert extract(text, scope=Scope.UNITS).mentions[0].negated


@pytest.mark.parametrize(
    "text",
    [
        "Do not panic; wait 5 minutes.",
        "Do not panic. Wait 5 minutes.",
        "It must not exceed 5 minutes.",
        "Take no more than 5 minutes.",
        "Uploads must not exceed 100 MB and take at most 5 minutes.",
        "It can’t exceed 2 MB, nor take 5 minutes.",
    ],
)
def test_not_negated(text: str) -> None:
    mention = extract(text, scope=Scope.UNITS).mentions[-1]
    assert mention.fact.category in {"time_seconds", "size_mb"}
    assert not mention.negated


def test_negation_reaches_only_later_facts_of_its_clause() -> None:
    result = extract("Log 5 MB but do not wait 10 minutes, and keep 2 GB.", scope=Scope.UNITS)
    assert [m.negated for m in result.mentions] == [False, True, False]


# --- dates ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["2026-09-30", "September 30, 2026", "Sept. 30, 2026", "30 September 2026", "30 Sep 2026"],
)
def test_date_forms(text: str) -> None:
    assert labels(f"Due {text}.") == ["date=2026-09-30"]


def test_impossible_date_is_kept_with_its_problem() -> None:
    result = extract("Due 2027-02-31.", scope=Scope.UNITS)
    mention = result.mentions[0]
    assert mention.fact.label() == "date=2027-02-31"
    assert mention.problem == "not a calendar date"
    assert result.flags == ("invalid_date",)


def test_quarters() -> None:
    assert labels("third quarter of 2026, Q2, 4th quarter 2027") == [
        "date_quarter=2026-Q3",
        "date_quarter=Q2",
        "date_quarter=2027-Q4",
    ]


def test_lowercase_may_is_not_a_month() -> None:
    assert labels("it may 2026 be late") == []


# --- linear time ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "unit",
    [
        "1-",
        "1 -",
        "1,",
        "1.",
        "one two three ",
        "between 1 and ",
        "1 000 ",
        "1. \n",
        "September ",
        "about ",
        "no more than not ",
        "5 MB, ",
        "Kafka 3",
        "in 2019 ",
        "12:30 ",
        "Q3 ",
        "2 employees ",
        "[1] ",
        "X-1",
    ],
)
@pytest.mark.parametrize("scope", list(Scope))
def test_time_grows_linearly(unit: str, scope: Scope) -> None:
    def seconds(size: int) -> float:
        text = unit * (size // len(unit))
        return min(cpu_timed(lambda: extract(text, scope=scope)) for _ in range(3))

    small, large = seconds(20_000), seconds(80_000)
    # Four times the text: linear work takes about four times as long, quadratic sixteen.
    assert large < 10 * small + 0.02
