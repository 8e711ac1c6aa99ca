"""One cited document's facts, indexed for matching: by fact, by category, by family, and
by every plain value its numbers could be read as.

The last index is what makes matching value-first: a claimed number is looked up among
all the numbers the document writes, whatever reading extraction committed them to, and
each occurrence carries the fact that covers it (if any) so the semantics can decide
whether it supports the claim or only looks like it.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from quantcheck.checker.anchors import DocumentAnchors
from quantcheck.checker.deferred import Deferred
from quantcheck.checker.nearby import ValueOrder
from quantcheck.checker.occurrences import Occurrence, Occurrences
from quantcheck.checker.periods import years_of
from quantcheck.checker.sharing import SharedParts
from quantcheck.quantities import dates, identifiers
from quantcheck.quantities.budget import NUMBER_BYTES, FactBudget
from quantcheck.quantities.categories import (
    COUNT_PREFIX,
    IDENTIFIER,
    NUMBER,
    TIME_OF_DAY,
    has_unit,
)
from quantcheck.quantities.extract import Extraction
from quantcheck.quantities.facts import Fact, Literal, Mention, Relation, Span
from quantcheck.quantities.readings import Written, in_text_order
from quantcheck.quantities.text import normalize

# The evidence facts a plain number may be found among: the same value counting anything.
PLAIN = "plain"
PERIOD = "period"


def family(category: str) -> str | None:
    """The wider group a claim fact may be matched in beyond its own category."""
    if category in dates.PERIOD_CATEGORIES:
        return PERIOD
    if category == NUMBER or category.startswith(COUNT_PREFIX):
        return PLAIN
    return None


@dataclass(frozen=True, slots=True)
class EvidenceIndex:
    """One document's extracted facts, indexed for exact, per-category, per-family and
    per-value lookups, and the codes its text names."""

    extraction: Extraction
    by_fact: Mapping[Fact, tuple[Mention, ...]] = field(default_factory=dict)
    by_category: Mapping[str, tuple[Mention, ...]] = field(default_factory=dict)
    by_family: Mapping[str, tuple[Mention, ...]] = field(default_factory=dict)
    by_value: Mapping[Decimal, tuple[Occurrence, ...]] = field(default_factory=dict)
    # Every code the text can be read as naming ("Android 13", "8 MP", "MIL-STD-810H"),
    # canonical, with where it is first written; and the same for the letter parts of
    # those codes ("TIER" of "Tier 1").
    codes: Mapping[str, Span] = field(default_factory=dict)
    code_names: Mapping[tuple[str, ...], tuple[str, Span]] = field(default_factory=dict)
    # Every pair of small whole numbers the text joins as a score could be written
    # ("2-1", "5–4", "5 to 4", "3:2"), with where it is written.
    scores: Mapping[tuple[int, int], Span] = field(default_factory=dict)
    # The facts that sit together, for numbers the evidence implies (see .derived): by
    # sentence in prose, by record in data; and each data key's values across records.
    groups: Mapping[tuple[str, int], tuple[Mention, ...]] = field(default_factory=dict)
    series: Mapping[str, tuple[Mention, ...]] = field(default_factory=dict)
    # Every moment a date (and its time of day) names, in seconds since the epoch, sorted.
    moments: tuple[int, ...] = ()
    # The unit data states for each category of unit it uses, as the literal of one value
    # in it: a value of the document written without a unit may be in that unit.
    data_units: Mapping[str, Literal] = field(default_factory=dict)
    # The document itself (the same string the caller holds, not a copy), so that a
    # number read under no fact can still be quoted with its span.
    text: str = ""
    # What each value is said of (see .anchors), read on first use.
    anchors: DocumentAnchors = field(default_factory=lambda: DocumentAnchors("", (), {}))
    # For each year, where in ``by_family[PERIOD]`` the periods that cover it stand; under
    # WIDE, those that cover too many years to list under each.
    period_years: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    # Its values of each kind in value order, built when a claim first asks for the kind.
    value_order: ValueOrder = field(default_factory=ValueOrder)

    def periods_meeting(self, fact: Fact) -> Sequence[Mention]:
        """The periods of the document whose years meet those of ``fact`` (all of them
        when it names no year or many years), in index order: the only ones that can hold
        it or lie inside it. A document of hundreds of dates is then not compared date by
        date with every claimed year."""
        periods = self.by_family.get(PERIOD, ())
        years = years_of(fact)
        if years is None or len(years) > _WIDE_YEARS:
            return periods
        found = self.period_years
        positions = {p for year in (*years, WIDE) for p in found.get(year, ())}
        return [periods[p] for p in sorted(positions)]

    def mention_at(self, span: Span, fact: Fact) -> Mention:
        """``fact`` as a mention of the document at ``span``: how a code or a number read
        under no fact is reported."""
        return Mention(fact, span, self.text[span.start : span.end])

    def number_at(self, occurrence: Occurrence) -> Mention:
        """A number that no fact covers, as a plain number of its own."""
        return self.mention_at(occurrence.span, Fact(NUMBER, Relation.EQ, occurrence.value))

    @classmethod
    def build(
        cls, extraction: Extraction, text: str = "", budget: FactBudget | None = None
    ) -> EvidenceIndex:
        """Index the usable facts of an extraction of ``text`` (invalid dates are left out),
        the identifiers the text names without their number ("COVID" for COVID-19), every
        number the text writes and every code it names, spending ``budget`` on each
        identifier, number and code (the extraction's facts are spent already)."""
        budget = budget or FactBudget(None)
        by_fact: dict[Fact, list[Mention]] = {}
        by_category: dict[str, list[Mention]] = {}
        by_family: dict[str, list[Mention]] = {}
        shared = SharedParts()
        extraction = replace(
            extraction, mentions=tuple(shared.mention(m) for m in extraction.mentions)
        )
        named: list[Mention] = []
        for value, span in identifiers.aliases_in(text):
            budget.spend()
            fact = Fact(IDENTIFIER, Relation.EQ, value)
            named.append(shared.mention(Mention(fact, span, text[span.start : span.end])))
        usable = [m for m in (*extraction.mentions, *named) if m.problem is None]
        for mention in usable:
            category = mention.fact.category
            by_fact.setdefault(mention.fact, []).append(mention)
            by_category.setdefault(category, []).append(mention)
            kind = family(category)
            if kind is not None:
                by_family.setdefault(kind, []).append(mention)
        codes = Deferred(lambda: _codes(text, usable, budget))
        categories = {k: tuple(v) for k, v in by_category.items()}
        families = {k: tuple(v) for k, v in by_family.items()}
        return cls(
            extraction,
            {k: tuple(v) for k, v in by_fact.items()},
            categories,
            families,
            _by_value(text, usable, shared, budget),
            codes,
            Deferred(lambda: _code_names(codes, named)),
            _scores(text, budget),
            Deferred(lambda: _groups(text, usable)),
            Deferred(lambda: _series(usable)),
            _moments(extraction.mentions),
            _data_units(usable),
            text,
            DocumentAnchors(text, sorted(usable, key=lambda m: m.span.start), categories),
            Deferred(lambda: _period_years(families.get(PERIOD, ()))),
            ValueOrder(),
        )


# A period covering more years than this is listed once, under WIDE, and met by every
# claimed period: listed under each of its years, a century would cost a hundred entries.
_WIDE_YEARS = 12
WIDE = -1


def _period_years(periods: Sequence[Mention]) -> dict[int, tuple[int, ...]]:
    """Where in ``periods`` the periods covering each year stand (see
    :meth:`EvidenceIndex.periods_meeting`)."""
    found: dict[int, list[int]] = {}
    for position, mention in enumerate(periods):
        years = years_of(mention.fact)
        if years is None:
            continue  # a period of no year never holds nor lies inside one of a year
        for year in years if len(years) <= _WIDE_YEARS else (WIDE,):
            found.setdefault(year, []).append(position)
    return {k: tuple(v) for k, v in found.items()}


def _codes(text: str, mentions: Sequence[Mention], budget: FactBudget | None) -> dict[str, Span]:
    """Every code the text names (see :func:`identifiers.codes_in`), and the codes data
    names by key and value: {"name": "Bluetooth", "value": "5.0, LE"}."""
    codes = identifiers.codes_in(text, budget)
    for mention in mentions:
        if mention.key is not None and (number := _LEADING_NUMBER.match(mention.text)):
            name = mention.key.rpartition(" > ")[2]
            codes.setdefault(identifiers.canonical(name, number.group()), mention.span)
    return codes


def _code_names(
    codes: Mapping[str, Span], named: Sequence[Mention]
) -> dict[tuple[str, ...], tuple[str, Span]]:
    """The letter parts of every code, each with the first code and span that has them."""
    code_names: dict[tuple[str, ...], tuple[str, Span]] = {}
    for mention in named:
        code_names.setdefault(
            tuple(identifiers.names_of(str(mention.fact.value))),
            (str(mention.fact.value), mention.span),
        )
    for code, span in codes.items():
        names = tuple(identifiers.names_of(code))
        if names:
            code_names.setdefault(names, (code, span))
    return code_names


_LEADING_NUMBER = re.compile(r"\d+(?:\.\d+)*")
# Two whole numbers of at most three digits joined as scores are written; the ends may
# not continue a longer number ("3.5-4", "1,200-1,300").
_SCORE = re.compile(r"(?<![\d.,])(\d{1,3})\s*(?:[-–—:]|-to-|\s+to\s+)\s*(\d{1,3})(?!\d|[.,]\d)")


# A sentence ends at a full stop, question or exclamation mark before a space, or a line;
# not where a lower-case word follows ("leaves at 6:05 a.m. and reaches").
_SENTENCE_END = re.compile(r"[.!?](?=\s++(?![a-z]))|\n")


def _groups(text: str, mentions: Sequence[Mention]) -> dict[tuple[str, int], tuple[Mention, ...]]:
    """The mentions of each sentence or record that has more than one."""
    # The sentence ends are counted off as the mentions pass them, never listed: a text of
    # tens of megabytes may have millions.
    ends = _SENTENCE_END.finditer(text)
    end = next(ends, None)
    sentence = 0
    groups: dict[tuple[str, int], list[Mention]] = {}
    for mention in sorted(mentions, key=lambda m: m.span.start):
        if mention.record is not None:
            groups.setdefault(("record", mention.record), []).append(mention)
        else:
            while end is not None and end.end() <= mention.span.start:
                sentence += 1
                end = next(ends, None)
            groups.setdefault(("sentence", sentence), []).append(mention)
    return {k: tuple(v) for k, v in groups.items() if len(v) > 1}


def _series(mentions: Sequence[Mention]) -> dict[str, tuple[Mention, ...]]:
    """The values of each data key that has more than one, in text order."""
    series: dict[str, list[Mention]] = {}
    for mention in sorted(mentions, key=lambda m: m.span.start):
        if mention.key is not None and mention.fact.category not in dates.PERIOD_CATEGORIES:
            series.setdefault(mention.key, []).append(mention)
    return {k: tuple(v) for k, v in series.items() if len(v) > 1}


def _moments(mentions: Sequence[Mention]) -> tuple[int, ...]:
    """The moments the full dates name, each with the time of day written right after it
    ("2024-01-04 06:00:00"), else at midnight."""
    ordered = sorted(mentions, key=lambda m: m.span.start)
    found: set[int] = set()
    for position, mention in enumerate(ordered):
        fact = mention.fact
        if fact.category != dates.DATE or fact.relation is not Relation.EQ or mention.problem:
            continue
        text = str(fact.value)
        if text.startswith("-"):
            continue
        seconds = 0
        after = ordered[position + 1] if position + 1 < len(ordered) else None
        if (
            after is not None
            and after.fact.category == TIME_OF_DAY
            and after.fact.relation is Relation.EQ
            and after.problem is None
            and 0 <= after.span.start - mention.span.end <= 1
        ):
            hour, minute, *rest = (int(part) for part in str(after.fact.value).split(":"))
            seconds = hour * 3600 + minute * 60 + (rest[0] if rest else 0)
        day = datetime.date.fromisoformat(text)
        found.add((day.toordinal() - _EPOCH) * 86400 + seconds)
    return tuple(sorted(found))


_EPOCH = datetime.date(1970, 1, 1).toordinal()


def _data_units(mentions: Sequence[Mention]) -> dict[str, Literal]:
    """For each unit category data values are stated in, the literal of the first."""
    found: dict[str, Literal] = {}
    for mention in mentions:
        if (
            mention.key is not None
            and mention.literal is not None
            and has_unit(mention.fact.category)
        ):
            found.setdefault(mention.fact.category, mention.literal)
    return found


def _scores(text: str, budget: FactBudget) -> dict[tuple[int, int], Span]:
    norm = normalize(text, budget)
    found: dict[tuple[int, int], Span] = {}
    for match in _SCORE.finditer(norm.text):
        pair = (int(match.group(1)), int(match.group(2)))
        found.setdefault(pair, Span(*norm.original_span(*match.span())))
    return found


def _by_value(
    text: str, mentions: Sequence[Mention], shared: SharedParts, budget: FactBudget
) -> Occurrences:
    """Every number of ``text`` by its plain value, each with the fact whose span holds it
    (the shortest such span, the first of equals: a date inside a range is read as the
    date)."""
    numbers = _spent(in_text_order(text, evidence=True, budget=budget), budget)
    return Occurrences(
        Occurrence(
            shared.decimal(number.value),
            number.span.start,
            number.span.end,
            covering,
            number.writing,
        )
        for number, covering in _covered(numbers, mentions)
    )


def _spent(numbers: Iterator[Written], budget: FactBudget) -> Iterator[Written]:
    """``numbers``, each spent as it is read."""
    for number in numbers:
        budget.spend(1, NUMBER_BYTES)
        yield number


def _covered(
    numbers: Iterator[Written], mentions: Sequence[Mention]
) -> Iterator[tuple[Written, Mention | None]]:
    """Each of ``numbers`` (in text order) with the mention covering it, if any. The
    mentions whose spans reach the number are kept at hand as the numbers pass: mentions
    are short and rarely overlap, so each number looks at a few."""
    ordered = sorted(range(len(mentions)), key=lambda n: mentions[n].span.start)
    upcoming = 0
    reaching: list[int] = []
    for number in numbers:
        start, end = number.span.start, number.span.end
        while upcoming < len(ordered) and mentions[ordered[upcoming]].span.start <= start:
            reaching.append(ordered[upcoming])
            upcoming += 1
        reaching = [n for n in reaching if mentions[n].span.end > start]
        held: int | None = None
        for n in reaching:
            if mentions[n].span.end < end:
                continue
            if held is None or (_length(mentions[n]), n) < (_length(mentions[held]), held):
                held = n
        yield number, None if held is None else mentions[held]


def _length(mention: Mention) -> int:
    return mention.span.end - mention.span.start
