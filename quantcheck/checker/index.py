"""One cited document's facts, indexed for matching: by fact, by category, by family, and
by every plain value its numbers could be read as.

The last index is what makes matching value-first: a claimed number is looked up among
all the numbers the document writes, whatever reading extraction committed them to, and
each occurrence carries the fact that covers it (if any) so the semantics can decide
whether it supports the claim or only looks like it.
"""

from __future__ import annotations

import bisect
import datetime
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from quantcheck.checker.anchors import DocumentAnchors
from quantcheck.quantities import dates, identifiers
from quantcheck.quantities.categories import (
    COUNT_PREFIX,
    IDENTIFIER,
    NUMBER,
    TIME_OF_DAY,
    has_unit,
)
from quantcheck.quantities.extract import Extraction
from quantcheck.quantities.facts import Fact, Literal, Mention, Relation, Span
from quantcheck.quantities.readings import Writing, written_numbers
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
class Occurrence:
    """A number the document writes, and the fact extraction read it into (None when no
    fact covers it: a list marker, or a number outside the scope)."""

    value: Decimal
    # Offsets rather than a Span: a large document has hundreds of thousands of these.
    start: int
    end: int
    covering: Mention | None
    writing: Writing = Writing.DIGITS

    @property
    def span(self) -> Span:
        """Where the number is written."""
        return Span(self.start, self.end)


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

    def mention_at(self, span: Span, fact: Fact) -> Mention:
        """``fact`` as a mention of the document at ``span``: how a code or a number read
        under no fact is reported."""
        return Mention(fact, span, self.text[span.start : span.end])

    def number_at(self, occurrence: Occurrence) -> Mention:
        """A number that no fact covers, as a plain number of its own."""
        return self.mention_at(occurrence.span, Fact(NUMBER, Relation.EQ, occurrence.value))

    @classmethod
    def build(cls, extraction: Extraction, text: str = "") -> EvidenceIndex:
        """Index the usable facts of an extraction of ``text`` (invalid dates are left out),
        the identifiers the text names without their number ("COVID" for COVID-19), every
        number the text writes and every code it names."""
        by_fact: dict[Fact, list[Mention]] = {}
        by_category: dict[str, list[Mention]] = {}
        by_family: dict[str, list[Mention]] = {}
        named = [
            Mention(Fact(IDENTIFIER, Relation.EQ, value), span, text[span.start : span.end])
            for value, span in identifiers.aliases_in(text)
        ]
        usable = [m for m in (*extraction.mentions, *named) if m.problem is None]
        for mention in usable:
            category = mention.fact.category
            by_fact.setdefault(mention.fact, []).append(mention)
            by_category.setdefault(category, []).append(mention)
            kind = family(category)
            if kind is not None:
                by_family.setdefault(kind, []).append(mention)
        codes = identifiers.codes_in(text)
        for mention in usable:
            # Data names a code by key and value: {"name": "Bluetooth", "value": "5.0, LE"}.
            if mention.key is not None and (number := _LEADING_NUMBER.match(mention.text)):
                name = mention.key.rpartition(" > ")[2]
                codes.setdefault(identifiers.canonical(name, number.group()), mention.span)
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
        categories = {k: tuple(v) for k, v in by_category.items()}
        return cls(
            extraction,
            {k: tuple(v) for k, v in by_fact.items()},
            categories,
            {k: tuple(v) for k, v in by_family.items()},
            _by_value(text, usable),
            codes,
            code_names,
            _scores(text),
            *_together(text, usable),
            _moments(extraction.mentions),
            _data_units(usable),
            text,
            DocumentAnchors(text, sorted(usable, key=lambda m: m.span.start), categories),
        )


_LEADING_NUMBER = re.compile(r"\d+(?:\.\d+)*")
# Two whole numbers of at most three digits joined as scores are written; the ends may
# not continue a longer number ("3.5-4", "1,200-1,300").
_SCORE = re.compile(r"(?<![\d.,])(\d{1,3})\s*(?:[-–—:]|-to-|\s+to\s+)\s*(\d{1,3})(?!\d|[.,]\d)")


# A sentence ends at a full stop, question or exclamation mark before a space, or a line;
# not where a lower-case word follows ("leaves at 6:05 a.m. and reaches").
_SENTENCE_END = re.compile(r"[.!?](?=\s++(?![a-z]))|\n")


def _together(
    text: str, mentions: Sequence[Mention]
) -> tuple[dict[tuple[str, int], tuple[Mention, ...]], dict[str, tuple[Mention, ...]]]:
    """The mentions of each sentence or record, and of each data key."""
    ends = [match.end() for match in _SENTENCE_END.finditer(text)]
    groups: dict[tuple[str, int], list[Mention]] = {}
    series: dict[str, list[Mention]] = {}
    for mention in sorted(mentions, key=lambda m: m.span.start):
        if mention.record is not None:
            groups.setdefault(("record", mention.record), []).append(mention)
        else:
            sentence = bisect.bisect_right(ends, mention.span.start)
            groups.setdefault(("sentence", sentence), []).append(mention)
        if mention.key is not None and mention.fact.category not in dates.PERIOD_CATEGORIES:
            series.setdefault(mention.key, []).append(mention)
    return (
        {k: tuple(v) for k, v in groups.items() if len(v) > 1},
        {k: tuple(v) for k, v in series.items() if len(v) > 1},
    )


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


def _scores(text: str) -> dict[tuple[int, int], Span]:
    norm = normalize(text)
    found: dict[tuple[int, int], Span] = {}
    for match in _SCORE.finditer(norm.text):
        pair = (int(match.group(1)), int(match.group(2)))
        found.setdefault(pair, Span(*norm.original_span(*match.span())))
    return found


def _by_value(text: str, mentions: Sequence[Mention]) -> dict[Decimal, tuple[Occurrence, ...]]:
    """Every number of ``text`` by its plain value, each with the fact whose span holds it
    (the shortest such span: a date inside a range is read as the date)."""
    numbers = sorted(written_numbers(text, evidence=True), key=lambda w: w.span.start)
    starts = [w.span.start for w in numbers]
    covering: list[Mention | None] = [None] * len(numbers)
    # Each mention visits only the numbers inside its own span, so the cost stays linear
    # in the text: mentions are short and rarely overlap.
    for mention in mentions:
        first = bisect.bisect_left(starts, mention.span.start)
        for position in range(first, len(numbers)):
            if numbers[position].span.start >= mention.span.end:
                break
            if numbers[position].span.end > mention.span.end:
                continue
            held = covering[position]
            if held is None or _length(mention) < _length(held):
                covering[position] = mention
    found: dict[Decimal, list[Occurrence]] = {}
    values: dict[Decimal, Decimal] = {}
    for number, held in zip(numbers, covering, strict=True):
        span = number.span
        # Equal values share one Decimal: a document repeats its numbers.
        value = values.setdefault(number.value, number.value)
        occurrence = Occurrence(value, span.start, span.end, held, number.writing)
        found.setdefault(value, []).append(occurrence)
    return {k: tuple(v) for k, v in found.items()}


def _length(mention: Mention) -> int:
    return mention.span.end - mention.span.start
