"""Matching one claim fact against the facts of the cited evidence, value first.

First, semantics: a claim fact is supported by an evidence fact of the same category
when, in order of preference: the signatures are equal (exact); the claimed value lies
inside an evidence interval that states what is allowed or possible (within_range); the
claim names a period that holds the evidence's date, as "April 2015" holds "April 14,
2015" (period_match); one side came through an inexact conversion and both agree at the
precision of the less precise literal (converted_match); or the claim is hedged ("about
96 percent") and the evidence rounds to it at the claim's written precision
(approximate_match). Bounds only match the same relation and value. A plain number is
supported by the same number counting anything. A count is supported by a count of its
noun; where the evidence counts no such thing, by the same number counting something
else (noun_differs). A match whose polarity differs (one side negated) is kept, but only
when no same-polarity match exists, and is reported as a negation conflict. An
occurrence said of something else than the claim names ("the small pizza costs $18"
where $18 is the large one's) supports nothing (see :mod:`.anchors`).

Then, when nothing supports it, the claim's numbers are looked up as written among every
number of the evidence (see :mod:`.index`): a number found nowhere is absent; one found
inside a differing fact is present but different, and :mod:`.policy` decides whether
that difference still supports the claim.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_DOWN, ROUND_UP, Decimal, localcontext

from quantcheck.checker.anchors import (
    anchor_words,
    claim_anchors,
    named_records,
    said_of_something_else,
    text_words,
)
from quantcheck.checker.derived import derive
from quantcheck.checker.derived import pair as derived_pair
from quantcheck.checker.earlier import claims_now, said_as_earlier
from quantcheck.checker.index import PERIOD, PLAIN, EvidenceIndex, family
from quantcheck.checker.model import Binding, FactCheck, MatchKind
from quantcheck.checker.periods import period_match, periods_agree
from quantcheck.checker.policy import CLOSENESS, POLICY, Difference
from quantcheck.checker.rows import period_beside, row_named_instead
from quantcheck.quantities import dates, identifiers
from quantcheck.quantities.categories import (
    COUNT_PREFIX,
    IDENTIFIER,
    MONEY_PREFIX,
    NUMBER,
    ORDINAL,
    PERCENT,
    SCORE,
    TEMPERATURE,
    TIME_OF_DAY,
    count_category,
    has_unit,
    same_dimension,
)
from quantcheck.quantities.context import previous_words, price_period
from quantcheck.quantities.facts import (
    CONTEXT,
    Fact,
    Literal,
    Mention,
    Relation,
    Span,
    format_decimal,
)
from quantcheck.quantities.patterns import alternation
from quantcheck.quantities.phrases import (
    CODE_LETTER_WORDS,
    DECREASE_WORDS,
    EVENT_WORDS,
    INCLUSION_WORDS,
    PERIOD_WORDS,
    RANGE_END_WORDS,
)
from quantcheck.quantities.readings import Writing, values_of

_PREFERENCE = {
    MatchKind.EXACT: 0,
    MatchKind.WITHIN_RANGE: 1,
    MatchKind.PERIOD: 2,
    MatchKind.CONVERTED: 3,
    MatchKind.APPROXIMATE: 4,
    MatchKind.NOUN_DIFFERS: 5,
    MatchKind.OTHER_READING: 6,
}
_OTHER_READINGS = frozenset({SCORE, ORDINAL, TIME_OF_DAY})
_UNBOUND = frozenset({IDENTIFIER, SCORE, TIME_OF_DAY, ORDINAL})
_EVENT_WORDS = frozenset(EVENT_WORDS)
# Bounds a value equal to their own satisfies: "at least 5" holds 5, "more than 5" not.
_INCLUSIVE = frozenset({Relation.GE, Relation.LE})
_BOUNDS = _INCLUSIVE | {Relation.GT, Relation.LT}
_STRICT = frozenset({Relation.GT, Relation.LT})
# From "million" up, a figure with a scale word is a rounded one.
_ROUNDING_SCALE = Decimal(1000000)
# A data value written as a number alone: its unit, if any, is stated elsewhere.
_BARE = re.compile(r"[-−]?[\d,]+(?:\.\d+)?")


@dataclass(frozen=True, slots=True)
class _Found:
    """An evidence mention and how it relates to the claim fact."""

    doc_id: str
    mention: Mention
    kind: MatchKind | None = None
    difference: Difference | None = None


def find_support(
    claim: Mention,
    evidence: Sequence[tuple[str, EvidenceIndex]],
    wording: str = "",
    companions: Sequence[Mention] = (),
) -> FactCheck:
    """The best evidence match for one claim fact across the given documents; failing
    that, a computation over them that gives it; failing that, what the evidence holds of
    its numbers. ``wording`` is the claim's text and ``companions`` its facts, which say
    what a claimed value may be computed from (see :mod:`.derived`)."""
    if claim.problem is not None:
        return FactCheck(claim, matched=False)
    best: tuple[tuple[bool, int], str, Mention, MatchKind, Binding | None] | None = None
    # The first evidence value that matched but for another period, and the first that
    # matched but is said of something else.
    elsewhere: tuple[str, Mention] | None = None
    other_thing: tuple[str, Mention, Binding] | None = None
    # The claim's own words, read once and only when some occurrence needs them.
    claimed: frozenset[str] | None = None
    unread = True

    dated = family(claim.fact.category) == PERIOD

    def bind(mention: Mention, index: EvidenceIndex) -> Binding | None:
        nonlocal claimed, unread
        if unread:
            claimed, unread = _claim_anchors(claim, wording, companions), False
        if claimed is None:
            return None
        if _per_amount(wording, claim) and _per_amount(index.text, mention):
            # "14.5 g of sugars per 100 g" against "Per 100 g": the amount everything is
            # stated per, said of no one thing.
            return None
        if not (dated and mention.key is None):
            return _binding(claim, mention, index, claimed, companions)
        # A date of prose is another event's only where the words that set it apart name
        # an event: "married in 1823" where 1827 is the marriage's year; a claim that
        # names none is not looked into. A date that opens its line dates what is written
        # above or after it (a dateline under a headline), whatever words follow.
        if _EVENT_WORDS.isdisjoint(claimed):
            return None
        found = _binding(claim, mention, index, claimed, companions)
        if found.rival is None or _EVENT_WORDS.isdisjoint(found.naming):
            return None
        return None if _opens_line(index.text, mention.span) else found

    claimed_per = _price_period(claim, wording)
    now = claims_now(wording)
    for doc_id, index in evidence:
        for candidate, kind in _candidates(claim, index):
            if not periods_agree(claim, candidate) or (
                now and said_as_earlier(candidate, index.text)
            ):
                # "$268 million a year earlier" is no reading of this year's $268 million
                elsewhere = elsewhere or (doc_id, candidate)
                continue
            if period_beside(claim, candidate, index):
                # "9M 2024" holds the third quarter, but the row's "Q3 2024" column is the
                # quarter's own value: the nine months' is another period's.
                elsewhere = elsewhere or (doc_id, candidate)
                continue
            if claimed_per is not None and _price_period(candidate, index.text) not in (
                None,
                claimed_per,
            ):
                # "$120 per year" is no reading of "$120 per month": another period.
                elsewhere = elsewhere or (doc_id, candidate)
                continue
            if kind is MatchKind.WITHIN_RANGE and _names_an_end(claim, candidate, wording):
                continue
            rank = (candidate.negated != claim.negated, _PREFERENCE[kind])
            if best is not None and rank >= best[0]:
                continue
            binding = bind(candidate, index)
            if not _may_count(claim, candidate, binding, wording):
                continue
            if binding is not None and binding.rival is not None:
                other_thing = other_thing or (doc_id, candidate, binding)
                continue
            named = row_named_instead(claim, candidate, index, wording, companions)
            if named is not None:
                other_thing = other_thing or (doc_id, candidate, named)
                continue
            best = (rank, doc_id, candidate, kind, binding)
            if rank == (False, 0):
                break
        if best is not None and best[0] == (False, 0):
            break
    if best is not None:
        (conflict, _), doc_id, candidate, kind, binding = best
        return FactCheck(
            claim,
            matched=True,
            match_kind=kind,
            evidence_doc_id=doc_id,
            evidence=candidate,
            negation_conflict=conflict,
            binding=binding,
        )
    if other_thing is not None:
        return _said_of_something_else(claim, *other_thing)
    ends = _stated_ends(claim, evidence, wording, companions) if dated else None
    if ends is not None:
        return ends
    for doc_id, index in evidence:
        derivation = derive(claim, index, wording, companions)
        if derivation is not None:
            source = (
                derivation.sources[0]
                if derivation.sources
                else index.mention_at(Span(0, 0), claim.fact)
            )
            return FactCheck(
                claim,
                matched=True,
                match_kind=MatchKind.DERIVED,
                evidence_doc_id=doc_id,
                evidence=source,
                derivation=derivation.computation,
                sources=derivation.sources,
            )
    if elsewhere is not None:
        doc_id, candidate = elsewhere
        return FactCheck(
            claim,
            matched=False,
            evidence_doc_id=doc_id,
            evidence=candidate,
            other_period=candidate.period,
            difference=Difference.OTHER_PERIOD,
        )
    found = _present(claim, evidence, now=now)
    if found is None:
        return FactCheck(claim, matched=False)
    if found.difference is Difference.OTHER_SIGN and _DECREASE.search(_near(wording, claim)):
        found = replace(found, difference=Difference.SIGN_IN_WORDS)
    if found.difference is Difference.IN_CODE and (
        _writes_code(claim, wording, found.mention) or _spells_code(claim, wording, found.mention)
    ):
        found = replace(found, difference=Difference.SAME_CODE)
    assert found.difference is not None
    if POLICY[found.difference].accepted:
        index = next(index for doc_id, index in evidence if doc_id == found.doc_id)
        binding = bind(found.mention, index)
        if binding is not None and binding.rival is not None:
            return _said_of_something_else(claim, found.doc_id, found.mention, binding)
        return FactCheck(
            claim,
            matched=True,
            match_kind=MatchKind.OTHER_READING,
            evidence_doc_id=found.doc_id,
            evidence=found.mention,
            negation_conflict=found.mention.negated != claim.negated,
            difference=found.difference,
            binding=binding,
        )
    return FactCheck(
        claim,
        matched=False,
        evidence_doc_id=found.doc_id,
        evidence=found.mention,
        other_period=found.mention.period if found.difference is Difference.OTHER_PERIOD else None,
        difference=found.difference,
    )


def _stated_ends(
    claim: Mention,
    evidence: Sequence[tuple[str, EvidenceIndex]],
    wording: str,
    companions: Sequence[Mention],
) -> FactCheck | None:
    """A claimed span of dates or years whose two ends one document states, each as a
    claimed date of its own would be supported: "served from 1983 to 2011" where one
    sentence dates her election 1983 and another her retirement 2011, or a record's
    `first_title: 2003` and `last_title: 2018`. A range of other values is an estimate,
    and its ends stated apart are no support."""
    fact = claim.fact
    if fact.relation is not Relation.RANGE or fact.category not in _SPAN_ENDS:
        return None
    assert fact.upper is not None
    for doc_id, index in evidence:
        found = []
        for end in (fact.value, fact.upper):
            one = replace(claim, fact=Fact(fact.category, Relation.EQ, end))
            check = find_support(one, [(doc_id, index)], wording, companions)
            if not check.matched or check.evidence is None or check.match_kind in _NOT_STATED:
                break
            found.append(check.evidence)
        if len(found) == 2:
            return FactCheck(
                claim,
                matched=True,
                match_kind=MatchKind.PERIOD,
                evidence_doc_id=doc_id,
                evidence=found[0],
                sources=tuple(found),
            )
    return None


_SPAN_ENDS = frozenset({dates.DATE, dates.MONTH, dates.YEAR})
_NOT_STATED = frozenset({MatchKind.DERIVED, MatchKind.OTHER_READING})


def _writes_code(claim: Mention, wording: str, code: Mention) -> bool:
    """Whether the claim writes its number as the evidence's code, with the same word
    before it: "Scope 1 emissions were..." opens a sentence, where "Scope" may be a verb
    and the number is read as a count, but it names what the evidence's "Scope 1" names."""
    span = identifiers.codes_in(wording).get(str(code.fact.value))
    return span is not None and span.start == claim.span.start


# Hours, minutes and seconds of a time of day: "02:08:41".
_CLOCK_READING = re.compile(r"(\d{2}):(\d{2}):(\d{2})")
_TIME_SECONDS = "time_seconds"


def _same_clock(claim: Mention, found: Mention) -> bool:
    """Whether a time taken and a time of day of hours, minutes and seconds are the same
    clock reading, one on each side: a race time read as a time of day ("4:21:37" in a
    results table's Time column, "4 hours, 21 minutes and 37 seconds" in the claim)."""
    kinds = {claim.fact.category, found.fact.category}
    if kinds != {_TIME_SECONDS, TIME_OF_DAY}:
        return False
    clock, taken = (claim, found) if claim.fact.category == TIME_OF_DAY else (found, claim)
    reading = _CLOCK_READING.fullmatch(str(clock.fact.value))
    if reading is None or taken.fact.relation is not Relation.EQ:
        return False
    hours, minutes, seconds = map(int, reading.groups())
    return taken.fact.value == Decimal(hours * 3600 + minutes * 60 + seconds)


def _spells_code(claim: Mention, wording: str, code: Mention) -> bool:
    """Whether the claim writes the word a code's letter stands for right before its
    number: "a magnitude 6.2 quake" for the evidence's "M6.2"."""
    written = str(code.fact.value)
    letter, number = written[:1], written[1:]
    words = CODE_LETTER_WORDS.get(letter)
    if not words or not number or not isinstance(claim.fact.value, Decimal):
        return False
    if number != format_decimal(claim.fact.value):
        return False
    before = previous_words(wording, claim.span.start, count=1)
    return bool(before) and before[0] in words


def _price_period(mention: Mention, text: str) -> str | None:
    """The period an amount of money is stated per in ``text`` ("$120 per month"). Other
    amounts state theirs in their category ("5 GB per month" is ``size_mb/month``)."""
    if not mention.fact.category.startswith(MONEY_PREFIX):
        return None
    return price_period(text, mention.span.end)


# Words that say a value is a decrease, which data writes with a minus sign.
_DECREASE = re.compile(rf"\b(?i:{'|'.join(map(re.escape, DECREASE_WORDS))})\b")
# How far from a value its words are read.
_NEAR = 40


def _near(wording: str, claim: Mention) -> str:
    """The words just before and after a claimed value."""
    return wording[max(0, claim.span.start - _NEAR) : claim.span.end + _NEAR]


# --- binding: what a value is said of -------------------------------------------------------


def _claim_anchors(
    claim: Mention, wording: str, companions: Sequence[Mention]
) -> frozenset[str] | None:
    """The words a claim fact is bound to, for the categories whose values are bound to
    things (not codes, scores, ranks or times of day; dates only in data, see
    find_support); None where none are read."""
    category = claim.fact.category
    if not wording or category in _UNBOUND:
        return None
    words = claim_anchors(wording, claim, companions) - _included_words(wording)
    return (words | named_records(claim, companions)) if words else None


def _included_words(wording: str) -> frozenset[str]:
    """The words a claim says its amount includes or leaves out ("Including 19% VAT, the
    rental came to €704.27"): another amount's thing (the VAT's €112.45), which must not
    name that amount as the rival of the total."""
    return frozenset(
        anchor
        for found in _INCLUDED.finditer(wording)
        for word in found["words"].split()
        for anchor in anchor_words(word)
    )


_INCLUDED = re.compile(
    rf"\b(?i:{alternation(INCLUSION_WORDS)})\.?\s+(?:[\d.,]+\s*%\s+)?"
    r"(?P<words>[A-Za-z][A-Za-z\-]*(?:\s+[A-Za-z][A-Za-z\-]*){0,2})"
)


def _said_of_something_else(
    claim: Mention, doc_id: str, occurrence: Mention, binding: Binding
) -> FactCheck:
    """A claim fact whose value the evidence says of another thing than the claim does."""
    return FactCheck(
        claim,
        matched=False,
        evidence_doc_id=doc_id,
        evidence=occurrence,
        difference=Difference.OTHER_THING,
        binding=binding,
    )


def _binding(
    claim: Mention,
    candidate: Mention,
    index: EvidenceIndex,
    claimed: frozenset[str],
    companions: Sequence[Mention],
) -> Binding:
    """What an evidence occurrence of the claimed value is said of, and the rival the
    claim's words name instead, if they name one (see :mod:`.anchors`). A value the claim
    states too is no rival: in "revenue and earnings rose 19% and 38%" the words of both
    are the claim's."""
    anchors = index.anchors
    found = anchors.of(candidate)
    if not found:
        return Binding(claimed, found)  # what cannot be read is never said of another
    stated = {m.fact.value for m in companions}
    # A data value read in another category than the claim's (a share "6.241" for
    # "6.241%") has rivals in both: the next column may have been read with its unit.
    categories = dict.fromkeys(
        (candidate.fact.category, claim.fact.category)
        if candidate.key is not None
        else (candidate.fact.category,)
    )
    if candidate.key is not None:
        # A count's rival may count the same thing by another word: "Beds" 5 is the
        # rival of "Baths" 4 for "4 bedrooms".
        categories.update(dict.fromkeys(_counts_of_the_same(claim.fact.category, index)))
    rivals = [
        (rival, anchors.of(rival))
        for category in categories
        for rival in anchors.rivals(category, claimed)
        if rival.fact != candidate.fact
        and rival.fact.value not in stated
        and periods_agree(claim, rival)
    ]
    if _shares_a_record(claim, candidate, index, companions):
        # Another value of the claim sits in the candidate's record ("a 5 kg parcel ...
        # costs £6.80" in the row of 5 kg and £6.80): the record is what the claim speaks
        # of, and prose around the data ("Parcels over 30 kg are not accepted") names no
        # rival of it; the data's own values still may.
        rivals = [pair for pair in rivals if pair[0].key is not None]
    # The rival the claim's words name best is the one a reason should name.
    rivals.sort(key=lambda pair: (-len(claimed & pair[1]), pair[0].span.start))
    rival = said_of_something_else(
        claimed,
        candidate,
        found,
        rivals,
        lambda word: sum(anchors.spread(category, word) for category in categories),
        topic=anchors.topic,
    )
    if rival is None:
        return Binding(claimed, found)
    return Binding(claimed, found, rival, anchors.of(rival))


def _names_an_end(claim: Mention, candidate: Mention, wording: str) -> bool:
    """Whether the claim says its value is an end ("tops out at $89,450") of what the
    evidence states as a range it lies inside but does not end: no reading of it."""
    fact, found = claim.fact, candidate.fact
    if fact.relation is not Relation.EQ or found.relation is not Relation.RANGE:
        return False
    if fact.value in (found.value, found.upper):
        return False
    start = claim.span.start
    return _END_BEFORE.search(wording, max(0, start - _END_REACH), start) is not None


# An end word and what may stand between it and the value ("tops out at", "a maximum of").
_END_BEFORE = re.compile(rf"\b(?i:{alternation(RANGE_END_WORDS)})\b[^\d.,;:!?]{{0,16}}$")
_END_REACH = 40


def _per_amount(text: str, mention: Mention) -> bool:
    """Whether a value is the amount something is stated per ("per 100 g")."""
    return (
        _PER_BEFORE.search(text, max(0, mention.span.start - _PER_REACH), mention.span.start)
        is not None
    )


_PER_BEFORE = re.compile(r"\b(?i:per)\s+$")
_PER_REACH = 8


def _shares_a_record(
    claim: Mention, candidate: Mention, index: EvidenceIndex, companions: Sequence[Mention]
) -> bool:
    """Whether another fact of the claim is stated in the data record ``candidate`` is in."""
    if candidate.key is None or candidate.record is None:
        return False
    return any(
        found.record == candidate.record and found.key is not None
        for other in companions
        if other is not claim
        for found in index.by_fact.get(other.fact, ())
    )


def _opens_line(text: str, span: Span) -> bool:
    """Whether nothing but spaces and marks stands before ``span`` on its line."""
    cut = max(0, span.start - _LINE_OPENING)
    newline = text.rfind("\n", cut, span.start)
    if newline < 0 and cut > 0:
        return False  # a long line's words before it
    return _LETTERS.search(text, newline + 1, span.start) is None


_LINE_OPENING = 80
_LETTERS = re.compile(r"[A-Za-z0-9]")


def _counts_of_the_same(category: str, index: EvidenceIndex) -> list[str]:
    """The document's categories of counts whose noun names what a claimed count's does
    (by lemma or listed synonym), other than the claim's own."""
    if not category.startswith(COUNT_PREFIX):
        return []
    noun = set(anchor_words(category[len(COUNT_PREFIX) : -1]))
    return [
        other
        for other in index.by_category
        if other != category
        and other.startswith(COUNT_PREFIX)
        and not noun.isdisjoint(anchor_words(other[len(COUNT_PREFIX) : -1]))
    ]


# --- value first: what the evidence holds of a claim's numbers ---------------------------


def _present(
    claim: Mention, evidence: Sequence[tuple[str, EvidenceIndex]], *, now: bool = False
) -> _Found | None:
    """How the evidence holds the claim's numbers when no fact supports it: the closest
    difference, an accepted one where every number has one; None when some number of the
    claim is written nowhere in the evidence."""
    category = claim.fact.category
    if category == IDENTIFIER:
        return _code(claim, evidence)
    if category == TIME_OF_DAY:
        # Its digits as written ("6:00 PM") are not its value (18:00); only a clock of
        # hours, minutes and seconds may be a time taken that the evidence reads so.
        return next(
            (
                _Found(doc_id, mention, None, Difference.SAME_CLOCK)
                for doc_id, index in evidence
                for mention in index.by_category.get(_TIME_SECONDS, ())
                if _same_clock(claim, mention)
            ),
            None,
        )
    values = values_of(claim.text)
    if not values:
        return None
    bounded = _bounded_in_another_unit(claim, evidence, now=now)
    if bounded is not None:
        return bounded
    per_value: list[list[_Found]] = []
    for value in values:
        found = [
            _Found(doc_id, occurrence.covering or index.number_at(occurrence), None, how)
            for doc_id, index in evidence
            for occurrence in index.by_value.get(value, ())
            if (
                how := difference(
                    claim,
                    occurrence.covering,
                    occurrence.writing,
                    index.data_units.get(category),
                )
            )
            is not None
        ]
        if not found:
            return None
        per_value.append(found)
    accepted = [
        [f for f in found if f.difference is not None and POLICY[f.difference].accepted]
        for found in per_value
    ]
    if all(accepted):
        return accepted[0][0]
    every = [f for found in per_value for f in found]
    order = {d: n for n, d in enumerate(CLOSENESS)}
    return min(every, key=lambda f: order[f.difference] if f.difference else len(order))


def _bounded_in_another_unit(
    claim: Mention, evidence: Sequence[tuple[str, EvidenceIndex]], *, now: bool
) -> _Found | None:
    """The claimed value as an evidence bound written in another unit ("1.1 kW" against
    "up to 1,100 W"), or a claimed bound on a value the evidence states plainly so: the
    digits differ, so only the value finds it."""
    fact = claim.fact
    if not has_unit(fact.category) or fact.relation is Relation.RANGE:
        return None
    for doc_id, index in evidence:
        for mention in index.by_category.get(fact.category, ()):
            other = mention.fact
            if other.value != fact.value or mention.text == claim.text:
                continue
            plain_at_bound = fact.relation is Relation.EQ and other.relation in _INCLUSIVE
            bound_at_plain = fact.relation in _INCLUSIVE and other.relation is Relation.EQ
            if not (plain_at_bound and not claim.approximate) and not bound_at_plain:
                continue
            if now and said_as_earlier(mention, index.text):
                continue
            how = difference(claim, mention)
            if how is not None and POLICY[how].accepted:
                return _Found(doc_id, mention, None, how)
    return None


def difference(
    claim: Mention,
    found: Mention | None,
    writing: Writing = Writing.DIGITS,
    document_unit: Literal | None = None,
) -> Difference | None:
    """How an evidence fact holding one of the claim's numbers differs from the claim
    fact (None when it is the claim fact itself: nothing to report). ``document_unit`` is
    the unit the evidence's data states for the claim's category, if it states one."""
    fact = claim.fact
    if found is None:
        if writing is Writing.LOOSE and family(fact.category) == PLAIN:
            return Difference.LOOSE_WORD
        if writing is Writing.ORDINAL and fact.category == ORDINAL:
            return Difference.RANK
        if fact.category == ORDINAL:
            return Difference.RANK  # "3rd period" for a key "period3"
        return Difference.UNREAD
    other = found.fact
    if fact.category == ORDINAL and (
        family(other.category) == PLAIN or other.category in (IDENTIFIER, ORDINAL)
    ):
        # A rank is its number however the evidence writes it: "No. 4", "grade 9".
        return Difference.RANK
    claim_dated = fact.category in dates.PERIOD_CATEGORIES
    found_dated = other.category in dates.PERIOD_CATEGORIES
    if claim_dated:
        return Difference.OTHER_DATE if found_dated else Difference.OTHER_READING
    if found_dated:
        return Difference.IN_DATE
    if other.category == IDENTIFIER:
        return Difference.IN_CODE
    if _same_clock(claim, found) and found.key is not None:
        # A results table writes no word that says a time was taken; prose that writes
        # none ("breaking the course record of 2:21:05") may be giving a time of day.
        return Difference.SAME_CLOCK
    if other.category in _OTHER_READINGS or fact.category in _OTHER_READINGS:
        return Difference.OTHER_READING
    if other.category == fact.category:
        if not periods_agree(claim, found):
            return Difference.OTHER_PERIOD
        signed = isinstance(other.value, Decimal) and isinstance(fact.value, Decimal)
        if signed and fact.value and other.value == -fact.value:  # type: ignore[operator]
            return Difference.OTHER_SIGN
        if other.value == fact.value and other.upper == fact.upper:
            if other.relation is fact.relation:
                return None
            if fact.relation is Relation.EQ and (
                other.relation in _INCLUSIVE or (claim.approximate and other.relation in _STRICT)
            ):
                # "estimated at $105 million" against "more than $105 million": a value
                # the claim itself gives as approximate sits at the evidence's bound.
                return Difference.EVIDENCE_BOUND
            if other.relation is Relation.EQ and fact.relation in _INCLUSIVE:
                return Difference.CLAIM_BOUND
            return Difference.OTHER_BOUND
        return Difference.OTHER_VALUE
    claimed_unit, found_unit = has_unit(fact.category), has_unit(other.category)
    if _degrees_of_a_scale(claim, found) or _degrees_of_a_scale(found, claim):
        return Difference.SCALE_UNSTATED
    if fact.category == PERCENT and other.category == NUMBER and found.key is not None:
        # Data writes shares without their sign ("humidity": 87, "value": 39.54).
        return Difference.DATA_SHARE
    if claimed_unit and not found_unit:
        if found.key is not None and _in_unit(found, document_unit, claim):
            # "feels_like": 4.96 where the document's units map gives "temp" in °C: data
            # states a unit once for several keys.
            return Difference.DOCUMENT_UNIT
        return Difference.WITHOUT_UNIT
    if found_unit and not claimed_unit:
        if fact.category == NUMBER and found.key is not None and _BARE.fullmatch(found.text):
            # Quoted as written, but for its own period: the 13 June column's 11.2935 is
            # no reading of "11.2935 on 14 June".
            if not periods_agree(claim, found):
                return Difference.OTHER_PERIOD
            return Difference.UNIT_STATED_APART
        if fact.category == NUMBER and claim.literal and claim.literal.scale >= _ROUNDING_SCALE:
            return Difference.UNIT_LEFT_OUT
        return Difference.UNIT_NOT_CLAIMED
    if not claimed_unit:
        if other.value == fact.value and other.upper == fact.upper:
            # Two counts of the same number, bounded differently: "up to 200 contacts"
            # against "200 entries".
            if fact.relation is Relation.EQ and other.relation in _INCLUSIVE:
                return Difference.EVIDENCE_BOUND
            if other.relation is Relation.EQ and fact.relation in _INCLUSIVE:
                return Difference.CLAIM_BOUND
        return Difference.OTHER_NOUN
    if same_dimension(fact.category, other.category):
        return Difference.OTHER_UNIT
    return Difference.OTHER_DIMENSION


_DEGREES = count_category("degree")


def _degrees_of_a_scale(bare: Mention, scaled: Mention) -> bool:
    """Whether ``bare`` counts degrees ("30 degrees") and ``scaled`` is a temperature
    written with the same number in a scale ("30 °C", "30 °F")."""
    return (
        bare.fact.category == _DEGREES
        and scaled.fact.category == TEMPERATURE
        and bare.fact.relation is scaled.fact.relation
        and bare.fact.upper is None
        and scaled.literal is not None
        and scaled.literal.value == bare.fact.value
    )


def _in_unit(found: Mention, unit: Literal | None, claim: Mention) -> bool:
    """Whether a bare data value, read in the unit ``unit`` describes, is the claimed value
    (at the claim's written precision)."""
    value, target = found.fact.value, claim.fact.value
    if unit is None or not isinstance(value, Decimal) or not isinstance(target, Decimal):
        return False
    in_unit = replace(unit, value=value)
    base = in_unit.to_base()
    literal = claim.literal
    return base == target or (literal is not None and literal.rounds_to(base))


def _code(claim: Mention, evidence: Sequence[tuple[str, EvidenceIndex]]) -> _Found | None:
    """A claimed identifier whose name the evidence gives with another number ("Tier 1"
    for "Tier 2"); None when it gives none: the code is absent."""
    code = str(claim.fact.value)
    names = tuple(identifiers.names_of(code))
    for doc_id, index in evidence:
        named = index.code_names.get(names) if names else None
        if named is not None:
            other, span = named
            found = index.mention_at(span, Fact(IDENTIFIER, Relation.EQ, other))
            return _Found(doc_id, found, None, Difference.OTHER_CODE)
    return None


# --- semantics: evidence facts that support a claim fact -----------------------------------


def _candidates(claim: Mention, index: EvidenceIndex) -> Iterator[tuple[Mention, MatchKind]]:
    fact = claim.fact
    for mention in index.by_fact.get(fact, ()):
        yield mention, MatchKind.EXACT
    group = family(fact.category)
    if group == PERIOD:
        for mention in index.periods_meeting(fact):
            kind = period_match(fact, mention.fact)
            if kind is not None:
                yield mention, kind
        if fact.category == dates.YEAR and fact.relation is Relation.EQ:
            # The same four digits read otherwise in the evidence ("for 2021 remains",
            # "COLREGs 1972", a table cell): a year is its digits, unless they belong to
            # a date, whose year the containment above has already compared.
            for occurrence in index.by_value.get(Decimal(str(fact.value)), ()):
                covering = occurrence.covering
                if covering is None or covering.fact.category not in dates.PERIOD_CATEGORIES:
                    yield covering or index.number_at(occurrence), MatchKind.EXACT
        return
    if fact.category == IDENTIFIER:
        # The same code, however the evidence's own extraction read it ("Android 13" read
        # there as a number, "8 MP" as two words).
        for code in identifiers.readings_of(str(fact.value)):
            span = index.codes.get(code)
            if span is not None:
                yield index.mention_at(span, fact), MatchKind.EXACT
                break
        return
    if fact.category == SCORE:
        # The same two numbers joined as a score anywhere in the evidence, in either order
        # ("a 2-1 win" for "Belgium 2-1 Algeria", "a vote of 5-4" for "5 to 4").
        first, _, second = str(fact.value).partition("-")
        pair = (int(first), int(second))
        span = index.scores.get(pair) or index.scores.get(pair[::-1])
        if span is not None:
            yield index.mention_at(span, fact), MatchKind.EXACT
        return
    if isinstance(fact.value, str):
        if fact.category == TIME_OF_DAY:
            yield from _clock_candidates(fact, index.by_category.get(TIME_OF_DAY, ()))
        return  # identifiers and scores match exactly or not at all
    reach = _reach(claim)
    assert isinstance(fact.value, Decimal)
    near = index.value_order.near
    if group != PLAIN:
        same_kind = index.by_category.get(fact.category, ())
        for mention in near(fact.category, same_kind, fact.value, reach):
            if mention.fact != fact and not _beyond(reach, fact, mention):
                kind = _loose_match(claim, mention, fact, mention.fact)
                if kind is not None:
                    yield mention, kind
        base, per, period = fact.category.partition("/")
        if per and (words := _PERIOD_WORDS.get(period)) is not None:
            # "2,000 mg a day" against "2,000 mg once daily": the amount, where its own
            # words say it is stated per that period.
            amount = Fact(base, fact.relation, fact.value, fact.upper)
            for mention in near(base, index.by_category.get(base, ()), fact.value, reach):
                if _beyond(reach, amount, mention) or not _says_per(index.text, mention, words):
                    continue
                kind = _loose_match(claim, mention, amount, mention.fact)
                if kind is not None:
                    yield mention, kind
        if fact.category == PERCENT:
            # Data writes shares as bare numbers ("value": 39.54 for "over 39%").
            for mention in index.by_category.get(NUMBER, ()):
                if mention.key is not None:
                    share = replace(mention.fact, category=PERCENT)
                    kind = _loose_match(claim, mention, fact, share)
                    if kind is not None:
                        yield mention, kind
        return
    if fact.relation is Relation.RANGE and _small_whole(fact):
        # "4-6, 7-6" unitless: two small whole numbers written as a pair, perhaps a score
        # with no word to say so, matched by the same pair written in the evidence.
        assert isinstance(fact.value, Decimal)
        assert isinstance(fact.upper, Decimal)
        pair = (int(fact.value), int(fact.upper))
        span = index.scores.get(pair) or index.scores.get(pair[::-1])
        if span is not None:
            yield index.mention_at(span, fact), MatchKind.EXACT
        else:
            siblings = derived_pair(fact, index)
            if siblings is not None:
                yield siblings.sources[0], MatchKind.EXACT
    # Evidence that counts the claimed noun settles the count; evidence that does not may
    # still state the number, counting something else ("1,200 people" for "1,200
    # employees"): that match is reported as noun_differs.
    counts_it = fact.category != NUMBER and fact.category in index.by_category
    for mention in near(PLAIN, index.by_family.get(PLAIN, ()), fact.value, reach):
        other = mention.fact
        if other == fact or _beyond(reach, fact, mention):
            continue
        same = other.category == fact.category or NUMBER in (other.category, fact.category)
        if not same and counts_it:
            continue
        kind = _loose_match(claim, mention, fact, other)
        if kind is not None:
            yield mention, kind if same else MatchKind.NOUN_DIFFERS


_PERIOD_WORDS = {
    period: re.compile(rf"\b(?i:{alternation(words)})\b") for period, words in PERIOD_WORDS.items()
}
_NEAR_REACH = 40
_NEAR_WORDS = 3
_NEAR_STOP = re.compile(r"[.,;:!?()\n]|\d")


def _says_per(text: str, mention: Mention, words: re.Pattern[str]) -> bool:
    """Whether the words right around ``mention`` (at most three on each side, short of a
    punctuation mark or another number) name the period ``words`` name: "2,000 mg once
    daily", "the daily maximum is 4,000 mg"; not "1,000 mg, and the daily maximum..." nor
    "500 mg on the first day". Data states a period by its keys, not here."""
    if mention.key is not None:
        return False
    low = max(0, mention.span.start - _NEAR_REACH)
    high = min(len(text), mention.span.end + _NEAR_REACH)
    before = _NEAR_STOP.split(text[low : mention.span.start])[-1].split()[-_NEAR_WORDS:]
    after = _NEAR_STOP.split(text[mention.span.end : high])[0].split()[:_NEAR_WORDS]
    return any(words.fullmatch(word) for word in (*before, *after)) or bool(
        words.search(" ".join(after[:2]))
    )


# From here on a bare number is specific enough to be the count it equals ("has shifted
# 132,000 combined sales" for "sold 132,000 units"); below, it is one of many.
_SPECIFIC_COUNT = Decimal(100)


def _may_count(claim: Mention, mention: Mention, binding: Binding | None, wording: str) -> bool:
    """Whether a small number of the evidence's prose that counts nothing, or counts
    another thing, may stand for the claim's count: only among words of the claim ("all
    three should be present" for "all three elements ... should be present"), never on an
    unrelated line ("a three-bedroom house" for "three older brothers", "closes three
    roads" for "three new heroes"). Data binds its values by key, so it is left alone;
    "one" is too common a word to tell anything."""
    fact = claim.fact
    if (
        not fact.category.startswith(COUNT_PREFIX)
        or mention.fact.category == fact.category
        or mention.key is not None
        or mention.row is not None
        or binding is None
    ):
        return True
    assert isinstance(fact.value, Decimal)
    if not 1 < abs(fact.value) < _SPECIFIC_COUNT:
        return True
    if fact.value % 1 and mention.fact.category == NUMBER:
        # A value with a fraction ("4.5 stars" for a rating "4.5/5") is as specific as a
        # large one; a count of another noun ("2.5 bathrooms") still counts something else.
        return True
    return not text_words(wording).isdisjoint(binding.found)


def _small_whole(fact: Fact) -> bool:
    values = (fact.value, fact.upper)
    return all(
        isinstance(v, Decimal) and v == v.to_integral_value() and 0 <= v < 1000 for v in values
    )


def _loose_match(claim: Mention, evidence: Mention, fact: Fact, other: Fact) -> MatchKind | None:
    if other.relation is Relation.RANGE:
        # A value inside a range the evidence states as a limit of what is allowed or
        # possible ("store between 2 and 8 °C", "3-5 loggers per site"). Not inside an
        # estimate ("expects $45 million to $50 million"), nor inside a range of plain
        # numbers (ages, years, a phone number's digits), and a narrower range is never
        # the range stated.
        if fact.category != other.category or fact.category == NUMBER or evidence.estimate:
            return None
        if fact.relation is Relation.EQ and _inside(fact.value, other):
            return MatchKind.WITHIN_RANGE
        # An inclusive bound at one end of a range ("measures up to 120 °C" against "-20 to
        # 120 °C", "at least 2 GB" against "2-8 GB"): the claim names the end it bounds.
        if (fact.relation is Relation.LE and fact.value == other.upper) or (
            fact.relation is Relation.GE and fact.value == other.value
        ):
            return MatchKind.WITHIN_RANGE
        return None
    if fact.relation is Relation.RANGE:
        return None
    if other.relation is Relation.EQ and _rounded_bound(
        claim, other, in_data=evidence.key is not None
    ):
        return MatchKind.APPROXIMATE
    if other.relation is not fact.relation and not (
        # A value the claim gives as approximate, at a bound the evidence states: "roughly
        # 15.5 mph" against "up to 25 km/h".
        fact.relation is Relation.EQ and claim.approximate and other.relation in _INCLUSIVE
    ):
        return None
    if other.value == fact.value:
        return MatchKind.EXACT  # the same value in a comparable category
    if (not claim.exact or not evidence.exact) and _agree_at_coarser_precision(claim, evidence):
        return MatchKind.CONVERTED
    literal = claim.literal
    # A hedged claim rounds at its written precision ("about 96 percent" for 96.4), and
    # so does one that writes decimals, fewer than the evidence ("55.89 years" for data's
    # 55.8928), or a scale word ("$654 million" for 654,060 thousand): how it is written
    # says how precise it means to be. A bound rounds the same way ("up to about 33 feet"
    # against "up to 10 m").
    if literal is not None and (
        claim.approximate or literal.exponent < 0 or literal.scale >= _ROUNDING_SCALE
    ):
        assert isinstance(other.value, Decimal)
        if (
            literal.rounds_near(other.value, among_many=evidence.key is not None)
            if claim.approximate
            else literal.rounds_to(other.value)
        ):
            return MatchKind.APPROXIMATE
    return None


def _reach(claim: Mention) -> Decimal | None:
    """How far from the claimed value an exactly converted evidence value may lie and
    still read as it at any precision the claim allows (its last written digit; a
    twentieth of a hedged round number, twice over); None where that is not known. A
    document holds many values of a claim's kind and few near it: the rest are passed
    over without a closer look."""
    literal, value = claim.literal, claim.fact.value
    if literal is None or not claim.exact or not isinstance(value, Decimal):
        return None
    with localcontext(CONTEXT):
        share = abs(value) * _ROUND_NUMBER_SHARE if claim.approximate else Decimal(0)
        if claim.fact.relation in _BOUNDS:
            # A bound reaches as far as the place it is cut at (see _rounded_bound).
            step = Decimal(1).scaleb(_bound_exponent(literal)) * literal.scale
            return abs(step * literal.numerator / literal.denominator) + share
        return _quantum(claim) + share


def _beyond(reach: Decimal | None, fact: Fact, mention: Mention) -> bool:
    """Whether an evidence value lies beyond a claim's reach (see :func:`_reach`)."""
    other = mention.fact
    if reach is None or not mention.exact or other.relation is Relation.RANGE:
        return False
    value, found = fact.value, other.value
    assert isinstance(value, Decimal)
    return isinstance(found, Decimal) and abs(found - value) > reach


# A hedged round number may stand a twentieth from what it rounds (Literal.rounds_near);
# a tenth is surely beyond it.
_ROUND_NUMBER_SHARE = Decimal("0.1")


def _rounded_bound(claim: Mention, other: Fact, *, in_data: bool) -> bool:
    """Whether a claimed bound is an evidence value cut at the claim's written precision:
    "over 39%" for 39.54%, "over 16,000" for 16,243, "below 0.03%" for 0.0283%. Any larger
    value would satisfy "over 39%", but a claim that means another value would be another
    number: only the value the bound rounds is support. A round bound is cut at its last
    digit that is not zero ("over 2,300" for 2,310) against a value of prose, which states
    few; data holds series of many values, one of which lies under any round bound, so
    there it is cut at its last written digit."""
    literal, relation = claim.literal, claim.fact.relation
    value = other.value
    if literal is None or not isinstance(value, Decimal) or relation is Relation.EQ:
        return False
    step = Decimal(1).scaleb(literal.exponent if in_data else _bound_exponent(literal))
    with localcontext(CONTEXT):
        written = literal.from_base(value)
        # Strictly beyond the bound: a value equal to it is the claim bounding a value the
        # evidence states plainly (see policy.Difference.CLAIM_BOUND).
        if relation in (Relation.GT, Relation.GE):
            holds = written > literal.value and written.quantize(step, ROUND_DOWN) == literal.value
        else:
            holds = written < literal.value and written.quantize(step, ROUND_UP) == literal.value
    return holds


def _bound_exponent(literal: Literal) -> int:
    """The place a bound is written to: its last written digit, or for a whole number of
    two significant digits or more its last digit that is not zero ("over 16,000" is cut
    at thousands, "over 2,300" at hundreds), since a round bound is round on purpose. A
    bound of one significant digit ("over $100", "within 10 days") is a threshold as
    written: cut at thousands, "over $1,000" would be any price from $1,000 to $1,999."""
    place = literal.round_place
    return place if abs(literal.value).scaleb(-place) >= 10 else literal.exponent


def _clock_candidates(fact: Fact, times: Sequence[Mention]) -> Iterator[tuple[Mention, MatchKind]]:
    """Evidence times of day that hold a claimed one: a span that holds it; the same
    minute with seconds ("7:07 p.m." for "19:07:12"); for a claimed span, each end
    written on its own ("from 2:00 to 3:15 p.m." where a row has start 14:00, end 15:15).
    A time inside a span is held by it only where the evidence gives no time on its own:
    "the first bus is at 8:30" is no reading of "buses run between 07:00 and 19:00. On
    Sundays the first departure is at 07:30", where the span is the service's and the
    single time the event's."""
    singles = [m for m in times if m.fact.relation is Relation.EQ]
    for mention in times:
        if _clock_inside(fact, mention.fact) and (
            not singles or str(fact.value) in (mention.fact.value, mention.fact.upper)
        ):
            yield mention, MatchKind.WITHIN_RANGE
    if fact.relation is Relation.EQ:
        for mention in times:
            if mention.fact.relation is Relation.EQ and _same_minute(
                fact.value, mention.fact.value
            ):
                yield mention, MatchKind.APPROXIMATE
    elif fact.relation is Relation.RANGE and fact.upper is not None:
        ends = [
            next((m for m in singles if _same_minute(end, m.fact.value)), None)
            for end in (fact.value, fact.upper)
        ]
        if ends[0] is not None and ends[1] is not None:
            yield ends[0], MatchKind.WITHIN_RANGE


def _same_minute(claimed: object, found: object) -> bool:
    """Whether an evidence time is a claimed one at the claim's precision: "08:14" is
    "08:14:22"; "08:14:22" is only itself."""
    written, other = str(claimed), str(found)
    return other == written or (len(written) == len("HH:MM") and other[:5] == written)


def _clock_inside(claimed: Fact, found: Fact) -> bool:
    """A claimed time of day inside an evidence span of the clock ("from 8 a.m. to 6 p.m.";
    "10 p.m. to 6 a.m." crosses midnight)."""
    if found.relation is not Relation.RANGE or claimed.relation is not Relation.EQ:
        return False
    value, low, high = str(claimed.value), str(found.value), str(found.upper)
    if low <= high:
        return low <= value <= high
    return value >= low or value <= high


def _inside(value: Decimal | str | None, interval: Fact) -> bool:
    assert isinstance(value, Decimal)
    assert isinstance(interval.value, Decimal)
    assert isinstance(interval.upper, Decimal)
    return interval.value <= value <= interval.upper


def _agree_at_coarser_precision(a: Mention, b: Mention) -> bool:
    """Whether two values read the same in the unit and precision of the coarser literal."""
    if a.literal is None or b.literal is None:
        return False
    coarse, fine = (a, b) if _quantum(a) >= _quantum(b) else (b, a)
    assert coarse.literal is not None
    assert isinstance(fine.fact.value, Decimal)
    return coarse.literal.rounds_to(fine.fact.value)


def _quantum(mention: Mention) -> Decimal:
    """The size of one step in the literal's last written digit, in base units."""
    literal = mention.literal
    assert literal is not None
    step = Decimal(1).scaleb(literal.exponent) * literal.scale
    return abs(step * literal.numerator / literal.denominator)
