"""One document's facts with their equal parts held once.

A document repeats itself: the same value ("1", "2023"), the same fact, the same unit
literal, the same key path on every record of a table. Extraction builds each mention's
parts afresh, so a document's facts held about 700 bytes per mention. Facts are immutable,
so equal parts can be one object: the index keeps the mentions rebuilt on shared parts.

Parts are shared only when they are written alike, not merely equal: ``Decimal("60")``
and ``Decimal("60.0")`` are equal but print differently, and a verdict prints them as
written.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal

from quantcheck.quantities.facts import Fact, Literal, Mention, Span


@dataclass(slots=True)
class SharedParts:
    """The parts seen so far in one document, each kept once by how it is written."""

    _decimals: dict[str, Decimal] = field(default_factory=dict)
    _strings: dict[str, str] = field(default_factory=dict)
    _spans: dict[tuple[int, int], Span] = field(default_factory=dict)
    _facts: dict[tuple[object, ...], Fact] = field(default_factory=dict)
    _literals: dict[tuple[object, ...], Literal] = field(default_factory=dict)

    def decimal(self, value: Decimal) -> Decimal:
        """The one decimal written as ``value`` is."""
        return self._decimals.setdefault(str(value), value)

    def string(self, text: str) -> str:
        """The one string equal to ``text``."""
        return self._strings.setdefault(text, text)

    def span(self, span: Span) -> Span:
        """The one span with the same offsets."""
        return self._spans.setdefault((span.start, span.end), span)

    def fact(self, fact: Fact) -> Fact:
        """The one fact written as ``fact`` is."""
        key = (fact.category, fact.relation, _written(fact.value), _written(fact.upper))
        found = self._facts.get(key)
        if found is None:
            found = self._facts[key] = Fact(
                self.string(fact.category),
                fact.relation,
                self._value(fact.value),
                None if fact.upper is None else self._value(fact.upper),
            )
        return found

    def literal(self, literal: Literal) -> Literal:
        """The one literal written as ``literal`` is."""
        parts = (
            literal.value,
            literal.scale,
            literal.shift,
            literal.numerator,
            literal.denominator,
        )
        key = (literal.exponent, *map(str, parts))
        found = self._literals.get(key)
        if found is None:
            value, scale, shift, numerator, denominator = map(self.decimal, parts)
            found = self._literals[key] = Literal(
                value, literal.exponent, scale, shift, numerator, denominator
            )
        return found

    def mention(self, mention: Mention) -> Mention:
        """``mention`` rebuilt on shared parts."""
        return replace(
            mention,
            fact=self.fact(mention.fact),
            span=self.span(mention.span),
            text=self.string(mention.text),
            literal=None if mention.literal is None else self.literal(mention.literal),
            period=None if mention.period is None else self.fact(mention.period),
            key=None if mention.key is None else self.string(mention.key),
            row=None if mention.row is None else self.string(mention.row),
        )

    def _value(self, value: Decimal | str) -> Decimal | str:
        return self.string(value) if isinstance(value, str) else self.decimal(value)


def _written(value: Decimal | str | None) -> object:
    """A value as it is written: a date and a number that print alike stay apart."""
    if value is None or isinstance(value, str):
        return value
    return (str(value),)
