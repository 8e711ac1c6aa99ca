"""The narrowed lookups of a document's index leave out nothing a full scan would find:
periods by the years they cover, values by their distance from a claimed one."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from quantcheck.checker.index import PERIOD, EvidenceIndex
from quantcheck.checker.nearby import ValueOrder
from quantcheck.checker.periods import period_match
from quantcheck.quantities import dates
from quantcheck.quantities.evidence import extract_document
from quantcheck.quantities.facts import Fact, Mention, Relation, Span

_PERIOD_TEXTS = [
    "2019",
    "March 2019",
    "5 March 2019",
    "March 5",
    "the 2010s",
    "the 19th century",
    "Q2 2020",
    "fiscal 2021",
    "from 2017 to 2019",
    "1867-1934",
    "the 2003-04 season",
    "May 11-22, 2016",
    "2023-11-30",
    "1999",
    "the 1990s",
]


@given(st.lists(st.sampled_from(_PERIOD_TEXTS), min_size=1, max_size=12))
def test_periods_meeting_a_claim_are_every_period_that_can_match_it(texts: list[str]) -> None:
    text = ". ".join(f"It happened in {t}" for t in texts) + "."
    index = EvidenceIndex.build(extract_document(text), text)
    periods = index.by_family.get(PERIOD, ())
    for claimed in {m.fact for m in periods}:
        meeting = index.periods_meeting(claimed)
        # In index order, and a part of the whole.
        positions = [periods.index(m) for m in meeting]
        assert positions == sorted(positions)
        matching = [m for m in periods if period_match(claimed, m.fact) is not None]
        assert all(any(m is n for n in meeting) for m in matching), claimed


def test_periods_meeting_a_year_leave_out_other_years() -> None:
    text = "Founded in 1901. Rebuilt in 1950. Closed on 3 May 1950. Sold in 2001."
    index = EvidenceIndex.build(extract_document(text), text)
    meeting = index.periods_meeting(Fact(dates.YEAR, Relation.EQ, "1950"))
    assert [m.text for m in meeting] == ["1950", "3 May 1950"]
    # A claim of no year may be placed in any: every period is looked at.
    anyday = index.periods_meeting(Fact(dates.DATE, Relation.EQ, "--05-03"))
    assert len(anyday) == len(index.by_family[PERIOD])


def _number(value: str, *, exact: bool = True, upper: str | None = None) -> Mention:
    relation = Relation.EQ if upper is None else Relation.RANGE
    fact = Fact("number", relation, Decimal(value), None if upper is None else Decimal(upper))
    return Mention(fact, Span(0, 1), value, exact=exact)


_VALUES = st.decimals(min_value=-1000, max_value=1000, places=2, allow_nan=False)


@given(
    st.lists(st.tuples(_VALUES, st.booleans(), st.booleans()), max_size=30),
    _VALUES,
    st.decimals(min_value=0, max_value=50, places=3, allow_nan=False),
)
def test_values_near_a_claim_are_every_value_within_reach(
    drawn: list[tuple[Decimal, bool, bool]], value: Decimal, reach: Decimal
) -> None:
    mentions = [
        _number(str(v), exact=exact, upper=str(v + 1) if ranged else None)
        for v, exact, ranged in drawn
    ]
    near = ValueOrder().near("number", mentions, value, reach)
    positions = [next(n for n, m in enumerate(mentions) if m is found) for found in near]
    assert positions == sorted(positions)
    for mention in mentions:
        fact = mention.fact
        single = mention.exact and fact.relation is Relation.EQ
        assert isinstance(fact.value, Decimal)
        within = abs(fact.value - value) <= reach
        assert any(mention is n for n in near) == (within or not single)


def test_values_near_a_claim_with_no_known_reach_are_all() -> None:
    mentions = [_number("5"), _number("500")]
    assert ValueOrder().near("number", mentions, Decimal(5), None) is mentions
    assert [m.text for m in ValueOrder().near("number", mentions, Decimal(5), Decimal(1))] == ["5"]
