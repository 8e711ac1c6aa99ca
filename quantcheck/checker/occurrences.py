"""Every number a document writes, by its plain value: the lookup of value-first matching,
held compactly.

A document writes more numbers than anything else (a table has one a cell), and each is
looked up only when a claim names its value. So each is held as a few machine integers in
arrays shared by the whole document, grouped by value, and becomes an :class:`Occurrence`
only when its value is looked up: about 25 bytes a number, where an object a number took
about 190.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal

from quantcheck.quantities.facts import Mention, Span
from quantcheck.quantities.readings import Writing

_WRITINGS = tuple(Writing)
_WRITING_BITS = 4
_NO_MENTION = -1


@dataclass(frozen=True, slots=True)
class Occurrence:
    """A number the document writes, and the fact extraction read it into (None when no
    fact covers it: a list marker, or a number outside the scope)."""

    value: Decimal
    # Offsets rather than a Span: an occurrence is made for every lookup of its value.
    start: int
    end: int
    covering: Mention | None
    writing: Writing = Writing.DIGITS

    @property
    def span(self) -> Span:
        """Where the number is written."""
        return Span(self.start, self.end)


class Occurrences(Mapping[Decimal, tuple[Occurrence, ...]]):
    """The numbers of one document by value, each value's in text order; equal values
    (``60`` and ``60.0``) are one value, written as the document first writes it."""

    __slots__ = ("_coverings", "_ends", "_firsts", "_mentions", "_runs", "_starts", "_values")

    def __init__(self, numbers: Iterable[Occurrence]) -> None:
        """Hold ``numbers``, given in text order, one at a time."""
        # Per value: its place among the values and the value as first written.
        self._runs: dict[Decimal, int] = {}
        self._values: list[Decimal] = []
        # The covering mentions, each once, and their places.
        self._mentions: list[Mention] = []
        places: dict[int, int] = {}
        # Per number, in text order: its value's place, its offsets, and its covering
        # mention's place (or -1) with its writing.
        runs, starts, ends, coverings = array("I"), array("I"), array("I"), array("q")
        for number in numbers:
            run = self._runs.setdefault(number.value, len(self._values))
            if run == len(self._values):
                self._values.append(number.value)
            covering = _NO_MENTION
            if number.covering is not None:
                covering = places.setdefault(id(number.covering), len(self._mentions))
                if covering == len(self._mentions):
                    self._mentions.append(number.covering)
            runs.append(run)
            starts.append(number.start)
            ends.append(number.end)
            coverings.append(covering << _WRITING_BITS | _WRITINGS.index(number.writing))
        # The numbers of one value side by side, in text order: where each value's run
        # starts (and the last ends), then each number moved to its place in its run.
        self._firsts = array("I", bytes(4 * (len(self._values) + 1)))
        for run in runs:
            self._firsts[run + 1] += 1
        for run in range(len(self._values)):
            self._firsts[run + 1] += self._firsts[run]
        free = self._firsts[:-1]
        self._starts, self._ends = array("I", starts), array("I", ends)
        self._coverings = array("q", coverings)
        for index, run in enumerate(runs):
            place = free[run]
            free[run] += 1
            self._starts[place] = starts[index]
            self._ends[place] = ends[index]
            self._coverings[place] = coverings[index]

    def __getitem__(self, value: Decimal) -> tuple[Occurrence, ...]:
        run = self._runs[value]
        written = self._values[run]
        return tuple(
            self._occurrence(written, n) for n in range(self._firsts[run], self._firsts[run + 1])
        )

    def __contains__(self, value: object) -> bool:
        return value in self._runs

    def _occurrence(self, value: Decimal, n: int) -> Occurrence:
        covering, writing = divmod(self._coverings[n], 1 << _WRITING_BITS)
        return Occurrence(
            value,
            self._starts[n],
            self._ends[n],
            None if covering == _NO_MENTION else self._mentions[covering],
            _WRITINGS[writing],
        )

    def __iter__(self) -> Iterator[Decimal]:
        return iter(self._runs)

    def __len__(self) -> int:
        return len(self._runs)
