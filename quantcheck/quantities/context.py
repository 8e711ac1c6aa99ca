"""The words before a value that qualify it: a bound, a hedge, a negation, a verb of change.

Everything is read backwards from the value on the reversed text of a bounded window,
never beyond the value's clause, so the cost per value is constant however long the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from quantcheck.quantities import patterns
from quantcheck.quantities.facts import Relation
from quantcheck.quantities.phrases import (
    LIMIT_NOUN_BREAKS,
    LIMIT_NOUNS,
    NEGATED_AMOUNT_VERBS,
    PRICE_PERIOD_ADVERBS,
    PRICE_PERIODS,
)

# How far back from a value the bound, hedge and negation cues are looked for.
_PREFIX_WINDOW = 40
_CLAUSE_WINDOW = 120
_PREVIOUS_WORD = re.compile(r"\s*+([A-Za-z.'’]+)")


@dataclass(frozen=True, slots=True)
class Context:
    """How the words before a value qualify it, and where its mention starts."""

    start: int
    relation: Relation
    approximate: bool
    negated: bool


def read_context(scan: str, start: int, *, allow_bound: bool) -> Context:
    """Read the bound, hedge and negation that qualify the value starting at ``start``."""
    behind, clause_length = _behind(scan, start)
    prefix_length = min(clause_length, _PREFIX_WINDOW)
    prefix = patterns.REVERSED_PREFIX.match(behind, 0, prefix_length + 1)
    assert prefix is not None  # every part is optional
    if prefix.end() == 0 and (of := patterns.REVERSED_OF.match(behind, 0, prefix_length)):
        prefix = patterns.REVERSED_PREFIX.match(behind, of.end(), prefix_length + 1)
        assert prefix is not None
    relation = Relation.EQ
    approximate = False
    fact_start = start
    bound = prefix["bound"]
    if bound is not None and allow_bound:
        relation = patterns.BOUND_OF[" ".join(bound[::-1].split()).casefold()]
        fact_start = start - prefix.end("bound")
    elif bound is None and allow_bound and prefix["hedge"] is None:
        clause = scan[start - min(clause_length, _CLAUSE_WINDOW) : start]
        limit = patterns.LIMIT_NOUN_BEFORE.search(clause)
        if limit is not None and LIMIT_NOUN_BREAKS.isdisjoint(
            word.casefold() for word in clause[limit.end("noun") :].split()
        ):
            relation = LIMIT_NOUNS[limit["noun"].casefold()]  # "a minimum deposit of $500"
    if prefix["hedge"] is not None:
        approximate = True
        fact_start = min(fact_start, start - prefix.end("hedge"))
    negation_end = start - prefix.end()
    cues = [
        cue
        for cue in patterns.NEGATION.finditer(scan, start - clause_length, negation_end)
        if cue["cue"] is not None
    ]
    negated = False
    if cues:
        # A negation reaches only the facts of its own predicate: "is not waterproof and
        # lasts 10 hours" negates nothing numeric.
        after = patterns.REVERSED_PREDICATE_BREAK.search(behind, prefix.end(), clause_length)
        predicate_start = start - (clause_length if after is None else after.start())
        negated = cues[-1].start() >= predicate_start
    if negated and relation in _NEGATED_STRICT and bound is not None:
        # "must not take more than 3 g", "did not fall below 5%": a strict comparative
        # right after its negation, or after a verb of an amount, is the inclusive bound
        # the other way, as "no more than" is.
        between = scan[cues[-1].end() : fact_start].split()
        if not between or (len(between) == 1 and between[0].casefold() in NEGATED_AMOUNT_VERBS):
            relation, negated = _NEGATED_STRICT[relation], False
    return Context(fact_start, relation, approximate, negated)


_NEGATED_STRICT = {Relation.GT: Relation.LE, Relation.LT: Relation.GE}


def after_change_word(scan: str, start: int, *, from_written: bool = True) -> bool:
    """Whether a verb of change ("rose", "fell", "cut") shortly precedes ``start`` in its
    clause: "fell from 5% to 3%" then states two values rather than an interval. "up" and
    "down" count only when "from" follows them (``from_written``): "sales to be up 2% to
    4%" is a range."""
    behind, clause_length = _behind(scan, start)
    found = patterns.REVERSED_CHANGE.match(behind, 0, clause_length)
    if found is None:
        # "rose by $200, from $1,000 to $1,200": a "from" that opens a clause of its own
        # right after a comma spells out the change of the clause before it.
        if (
            from_written
            and not behind[:clause_length].strip()
            and behind[clause_length : clause_length + 1] == ","
        ):
            return after_change_word(scan, start - clause_length - 1, from_written=False)
        return False
    return from_written or found["word"][::-1].casefold() not in patterns.CHANGE_ADVERBS


def estimate_before(scan: str, start: int) -> bool:
    """Whether a word of forecasting ("expects", "guidance", "projected") stands in the
    clause before ``start``, or an interval's name ("95% CI,", "IQR") right before it: a
    range there is an estimate, not a limit."""
    behind, clause_length = _behind(scan, start)
    if patterns.REVERSED_INTERVAL.match(behind) is not None:
        return True
    return patterns.REVERSED_ESTIMATE.search(behind, 0, clause_length) is not None


def previous_words(scan: str, start: int, *, count: int) -> list[str]:
    """Up to ``count`` words right before ``start``, nearest first, casefolded; the list
    stops at the first thing that is not a word (punctuation, a digit)."""
    behind = scan[max(0, start - 16 * count) : start][::-1]
    words: list[str] = []
    position = 0
    while len(words) < count and (match := _PREVIOUS_WORD.match(behind, position)):
        words.append(match.group(1)[::-1].casefold())
        position = match.end()
    return words


def _behind(scan: str, start: int) -> tuple[str, int]:
    """The clause window before ``start``, reversed, and the length of its clause part.

    The window has one more character than the clause so that a phrase at its far edge
    can be told apart from the tail of a longer word.
    """
    window_start = max(0, start - _CLAUSE_WINDOW)
    behind = scan[max(0, window_start - 1) : start][::-1]
    clause_length = start - window_start
    brk = patterns.REVERSED_CLAUSE_BREAK.search(behind, 0, clause_length)
    if brk is not None:
        clause_length = brk.start()
    return behind, clause_length


_PRICE_PERIOD = re.compile(
    rf"\s*+(?:(?:(?i:per|an?|every|each)\s++|/\s*+)(?P<per>(?i:{patterns.alternation(PRICE_PERIODS)}))s?"
    rf"|,?\s*+(?P<adverb>(?i:{patterns.alternation(PRICE_PERIOD_ADVERBS)})))(?![\w/])"
)


def price_period(text: str, end: int) -> str | None:
    """The period an amount ending at ``end`` is stated per ("$120 per month", "£9 an
    hour", "$1,440 annually"), as its table name; None when none is written."""
    found = _PRICE_PERIOD.match(text, end)
    if found is None:
        return None
    if found["per"] is not None:
        return PRICE_PERIODS[found["per"].casefold()]
    return PRICE_PERIOD_ADVERBS[found["adverb"].casefold()]
