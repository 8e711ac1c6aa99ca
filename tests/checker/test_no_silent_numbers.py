"""The guardrail's promise: a claim is ``supported`` only when every number in it was
verified. For any claim and evidence, a supported verdict must account for each digit and
each number word of the claim: it lies inside a matched fact's span or a span set aside
with a reason. Claims are generated from pieces of realistic answers glued at random, and
checked against evidence equal to the claim (so most come out supported and the property
is tested on them) and against evidence changed at random."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from quantcheck.checker import Checker, Claim, Document, Status, Verdict
from quantcheck.quantities import phrases

# Written independently of the extractor's tables: digits, and number words that
# quantify ("one" is left out, as it is mostly a pronoun: "one of them").
_NUMBER_WORDS = sorted(
    (*phrases.SMALL_NUMBER_WORDS, *phrases.TENS_WORDS, *phrases.MULTIPLIER_WORDS),
    key=len,
    reverse=True,
)
NUMBERS = re.compile(
    r"\d|\b(?:" + "|".join(w for w in _NUMBER_WORDS if w != "one") + r")\b", re.IGNORECASE
)

PIECES = [
    "Revenue grew 5% in 2021",
    "The company has 1,200 employees",
    "Seven people were killed",
    "around 12:30 AM local time",
    "Version 3.1 adds 4 GB of storage",
    "Section 5 A covers heaters",
    "between 5 and 10 million dollars",
    "fell from 5% to 3%",
    "in the fourth quarter of 2019",
    "Q4 2020",
    "4Q20",
    "FY2023",
    "the late 1970s",
    "the '90s",
    "on March 5, 2024",
    "December 24",
    "a 2-1 victory",
    "14:30 hrs",
    "took 2:05 hours",
    "10m users",
    "$1.5-2 million",
    "5+ years",
    "12 hours maximum",
    "Kafka 3.7",
    "COVID-19",
    "IP68",
    "X-200",
    "737 MAX 9",
    "3.2.1",
    "1,5 MB",
    "1 000 MB",
    "one two three",
    "twenty-five stores",
    "a dozen eggs",
    "[2]",
    "24/7",
    "+44 20 7946 0958",
    "$50/month",
    "3x",
    "2nd",
    "A-1x",
    "9/30/2026",
    "1.",
    "-18 °C",
    "60-second",
    "pre-2020",
    "H1 2024",
    "from 8 a.m. to 6 p.m.",
]
JOINERS = [" ", ", ", ". ", " and ", "\n", "; ", " (", ") ", " - ", "\n1. "]
DIGITS = st.integers(min_value=0, max_value=99999).map(str)
WORDS = st.sampled_from(["in", "the", "of", "stores", "Revenue", "about", "not", "over", "to"])

claims = st.lists(
    st.one_of(st.sampled_from(PIECES), DIGITS, WORDS, st.sampled_from(_NUMBER_WORDS)),
    min_size=1,
    max_size=7,
).flatmap(
    lambda parts: st.lists(st.sampled_from(JOINERS), min_size=len(parts), max_size=len(parts)).map(
        lambda joins: "".join(p + j for p, j in zip(parts, joins, strict=True)).strip()
    )
)


def unaccounted(text: str, verdict: Verdict) -> list[str]:
    """The numbers of ``text`` that no matched fact and no set-aside span covers."""
    spans = [(c.mention.span.start, c.mention.span.end) for c in verdict.facts if c.matched]
    spans += [(s.span.start, s.span.end) for s in verdict.set_aside]
    return [
        f"{m.group()}@{m.start()}"
        for m in NUMBERS.finditer(text)
        if not any(start <= m.start() and m.end() <= end for start, end in spans)
    ]


CHECKER = Checker()


def check(claim: str, evidence: str) -> Verdict:
    documents = {"D1": Document("D1", evidence)}
    return CHECKER.check(Claim(claim, ("D1",), frozenset({"D1"})), documents)


@settings(max_examples=600, deadline=None)
@given(claim=claims)
def test_a_supported_claim_accounts_for_every_number(claim: str) -> None:
    verdict = check(claim, claim)
    if verdict.status is Status.SUPPORTED:
        assert unaccounted(claim, verdict) == [], verdict.reason


@settings(max_examples=400, deadline=None)
@given(claim=claims, evidence=claims)
def test_against_other_evidence_too(claim: str, evidence: str) -> None:
    verdict = check(claim, evidence)
    if verdict.status is Status.SUPPORTED:
        assert unaccounted(claim, verdict) == [], verdict.reason


def test_the_generator_reaches_supported_claims() -> None:
    # The property is only as good as the supported verdicts it sees.
    supported = [p for p in PIECES if check(p, p).status is Status.SUPPORTED]
    assert len(supported) >= len(PIECES) * 3 // 4, sorted(set(PIECES) - set(supported))


def test_an_unread_number_blocks_supported() -> None:
    verdict = check("Log 45 seconds, id 7.", "Log 45 seconds.")
    assert verdict.status is Status.UNSUPPORTED_QUANTITY
    assert "number=7" in verdict.reason
