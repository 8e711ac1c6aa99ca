"""The dictionary readings of English words: each part of speech a word may be, with its
lemmas ("employees": a noun, employee; "scoring": a noun, scoring, and a verb, score), and
whether a noun is written the same in the plural ("people", "sheep", "personnel").

The readings are lemminflect's, generated at build time into one sorted string
(:mod:`.lemma_table`, by ``python -m tools.lemma_table``) and searched by bisection: under a
megabyte per process, where lemminflect's own dictionaries held about 60 MB. One line a word:

    word:READING;READING...!

A reading is a part-of-speech letter (N noun, V verb, A adjective, R adverb, X auxiliary)
and its lemmas, separated by commas, each written against the word: empty for the word
itself, else how many letters to drop from its end and the letters to add
(``companies:N3y`` is a noun, company). A final ``!`` marks a noun that is its own lemma
and its own plural.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

Readings = Mapping[str, tuple[str, ...]]

_PARTS = {"N": "NOUN", "V": "VERB", "A": "ADJ", "R": "ADV", "X": "AUX"}
_EDIT = re.compile(r"(\d+)(.*)")
_NO_READINGS: Readings = {}


@lru_cache(maxsize=1)
def _table() -> str:
    # Imported on first use: a text without words to look up never pays for it.
    from quantcheck.quantities.lemma_table import TABLE  # noqa: PLC0415

    return TABLE


def _entry(word: str) -> str | None:
    """What the table holds after ``word:``; None when the dictionary does not hold it."""
    table = _table()
    # Both bounds stay at the start of a line (or the end of the table).
    low, high = 0, len(table)
    while low < high:
        start = table.rfind("\n", 0, (low + high) // 2) + 1
        end = table.index("\n", start)
        colon = table.index(":", start, end)
        key = table[start:colon]
        if key == word:
            return table[colon + 1 : end]
        if key < word:
            low = end + 1
        else:
            high = start
    return None


@lru_cache(maxsize=4096)
def lemmas(word: str) -> Readings:
    """Every dictionary reading of a lower-case word: part of speech to lemmas."""
    entry = _entry(word)
    if entry is None:
        return _NO_READINGS
    return {
        _PARTS[reading[0]]: tuple(_lemma(word, code) for code in reading[1:].split(","))
        for reading in entry.rstrip("!").split(";")
    }


def same_plural(word: str) -> bool:
    """Whether a lower-case noun that is its own lemma is also its own plural ("people",
    "sheep", "personnel"): "20 personnel" counts more than one."""
    entry = _entry(word)
    return entry is not None and entry.endswith("!")


def _lemma(word: str, code: str) -> str:
    if not code:
        return word
    edit = _EDIT.fullmatch(code)
    assert edit is not None, code
    return word[: len(word) - int(edit[1])] + edit[2]
