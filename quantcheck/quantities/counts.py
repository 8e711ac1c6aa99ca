"""The noun a number counts: "3,400 people", "25 new stores", "over 100 USA pre-owned stores".

A count is a number that quantifies a noun, with modifiers allowed between them. The noun
is the head of the short phrase after the number: the words are read left to right until
a function word, a verb or punctuation ends the phrase, and the last noun read is the
head, except that a plural noun ends the phrase at once ("20 customers sign up"). Nouns are
compared by lemma from lemminflect's dictionary (:mod:`.lemmas`), so "employees" and
"employee", "people" and "people", "children" and "child" name the same thing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from quantcheck.quantities.lemmas import lemmas, same_plural
from quantcheck.quantities.phrases import (
    COMPARED_WORDS,
    FUNCTION_WORDS,
    NOUN_ABBREVIATIONS,
    YEARLY_NOUNS,
)

# How many words after the number the head noun may sit: enough for "3,400 full-time
# hourly warehouse employees", short enough not to wander into the next phrase.
_MAX_WORDS = 5
_WORD = re.compile(r"[ \t]*+([A-Za-z][A-Za-z'’\-]*+)")
# "3-bedroom", "10-story": a lower-case word joined to the number by a hyphen.
_JOINED = re.compile(r"-([a-z]++)(?![A-Za-z'’\-])")
_YEARLY = frozenset(YEARLY_NOUNS)
_COMPARED = frozenset(COMPARED_WORDS)


@dataclass(frozen=True, slots=True)
class CountedNoun:
    """The head noun after a number: its lemma, where its phrase ends, and whether the word
    was written in a plural form."""

    lemma: str
    end: int
    plural: bool
    yearly: bool


@dataclass(frozen=True, slots=True)
class _Word:
    kind: str  # "noun", "modifier" or "stop"
    lemma: str = ""
    plural: bool = False
    verb: bool = False


def counted_noun(text: str, start: int) -> CountedNoun | None:
    """The noun counted by a number that ends at ``start`` in ``text``, if there is one."""
    joined = _JOINED.match(text, start)
    if joined is not None:
        # "a 3-bedroom house", "a 10-story hotel": the number counts the noun it is joined
        # to, not the head of the phrase after it.
        word = joined.group(1)
        reading = _classify(word)
        if reading.kind != "noun":
            return None
        return CountedNoun(reading.lemma, joined.end(), reading.plural, word in _YEARLY)
    head: CountedNoun | None = None
    position = start
    for number in range(_MAX_WORDS):
        match = _WORD.match(text, position)
        if match is None:
            break
        word = match.group(1)
        if number == 0 and word.casefold() in _COMPARED:
            position = match.end()  # "5 fewer games" counts games
            continue
        reading = _classify(word)
        # A word that may also be a verb ends the phrase once a noun has been read:
        # "5 people work" counts people.
        if reading.kind == "stop" or (head is not None and reading.verb):
            break
        position = match.end()
        if reading.kind == "noun":
            head = CountedNoun(reading.lemma, position, reading.plural, word.casefold() in _YEARLY)
            if reading.plural:
                break
    return head


@lru_cache(maxsize=8192)
def _classify(word: str) -> _Word:
    folded = word.casefold().strip("'’-")
    if not folded or folded in FUNCTION_WORDS:
        return _Word("stop")
    spelled = NOUN_ABBREVIATIONS.get(folded)
    if spelled is not None:
        return _Word("noun", spelled, True, False)  # "64 pts": of any number
    readings = lemmas(folded)
    nouns = readings.get("NOUN")
    # A word that may be an adjective modifies the noun after it ("10m long", "3 light
    # bulbs"); adjectives have no plural, so "totals" stays a noun.
    if nouns and "ADJ" not in readings:
        lemma = nouns[0]
        verb = "VERB" in readings or "AUX" in readings
        return _Word("noun", lemma, _is_plural(folded, lemma), verb)
    if "ADJ" in readings or "-" in folded or word[0].isupper():
        # adjectives, compounds ("pre-owned", "full-time") and names ("AutoNation USA")
        return _Word("modifier")
    if readings:
        return _Word("stop")  # a verb or adverb: the noun phrase is over
    # A word the dictionary does not hold: read it as a noun, the likeliest reading.
    return _Word("noun", folded, folded.endswith("s") and not folded.endswith("ss"))


def _is_plural(word: str, lemma: str) -> bool:
    # "people", "sheep", "personnel": the plural form is also the dictionary form.
    return word != lemma or same_plural(word)
