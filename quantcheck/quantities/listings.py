"""What a document enumerates, so that a count can be checked against it: "It has two
parts" against a record listing two values under "has part", "three members" against a
bulleted list of three under "Members:".

A listing is only worth something beside the words that say what it lists: a count of
two supports nothing by itself (every document has lists of two). So each listing keeps
the lemmas of its key, of the line that introduces it, or of the words right before it,
and a claimed count must name one of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from quantcheck.quantities.facts import Span
from quantcheck.quantities.lemmas import lemmas
from quantcheck.quantities.structured import Cell


@dataclass(frozen=True, slots=True)
class Listing:
    """``count`` items listed at ``span``, under words whose noun lemmas are ``nouns``;
    ``where`` is how a reason names it (a key path, or the words introducing it)."""

    count: int
    span: Span
    nouns: frozenset[str]
    where: str


def in_data(cells: Iterable[Cell]) -> list[Listing]:
    """The values data lists under one key path (the elements of an array, one key
    repeated in a list such as "- has part: ...", a column of a table), and the sibling
    keys that name one thing apart ("homeTeam" and "awayTeam" are two teams,
    "period1" to "period3" three periods)."""
    by_path: dict[tuple[str, ...], list[Cell]] = {}
    siblings: dict[tuple[tuple[str, ...], str], dict[str, Cell]] = {}
    for cell in cells:
        if not cell.path:
            continue
        by_path.setdefault(cell.path, []).append(cell)
        for depth, key in enumerate(cell.path):
            noun = _key_noun(key)
            if noun is not None:
                siblings.setdefault((cell.path[:depth], noun), {}).setdefault(key, cell)
    found = []
    for path, alike in by_path.items():
        if len(alike) < 2:
            continue
        span = Span(alike[0].start, alike[-1].end)
        found.append(Listing(len(alike), span, _nouns(" ".join(path)), " > ".join(path)))
    for (parent, noun), keys in siblings.items():
        if len(keys) < 2:
            continue
        first = min(cell.start for cell in keys.values())
        last = max(cell.end for cell in keys.values())
        where = " > ".join((*parent, "/".join(keys)))
        found.append(Listing(len(keys), Span(first, last), frozenset({noun}), where))
    return found


# The last word of a key, and what stands before or after it: "homeTeam", "period2".
_KEY_PARTS = re.compile(r"^(?:[a-z]+(?=[A-Z])|[A-Za-z]+_)?([A-Za-z]+?)_?(\d*)$")


def _key_noun(key: str) -> str | None:
    """The noun lemma a key names beside a qualifier or a number: "team" for
    "homeTeam" and "away_team", "period" for "period2"; None for a key of one word
    alone, which names no item apart from others."""
    match = _KEY_PARTS.match(key)
    if match is None or (match.group(1) == key):
        return None
    return _noun_lemma(match.group(1).casefold())


# A bullet or number opening a line of a list: "- ", "* ", "• ", "1. ", "2) ".
_ITEM = re.compile(r"[ \t]*(?:[-*•‣▪]|\d{1,2}[.)])[ \t]+\S")
# Names joined as a list: "Anna, Ben and Carl", "Oslo, Bergen, or Tromsø". Possessive
# and bounded, so that a long run of names without "and" is read in linear time.
_NAME = r"[A-Z][\w'’-]*+(?:[ \t][A-Z][\w'’-]*+){0,3}+"
_NAMES = re.compile(
    rf"(?<!,[ \t])(?<![\w'’-]){_NAME}(?:,[ \t]{_NAME}){{0,30}}+,?[ \t](?:and|or)[ \t]{_NAME}"
)
_SPLIT = re.compile(r",[ \t](?:(?:and|or)[ \t])?|[ \t](?:and|or)[ \t]")
# How far back the words that say what the names are may stand ("its members were").
_WORDS_BEFORE = 5
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def in_prose(text: str, start: int = 0, end: int | None = None) -> list[Listing]:
    """Bulleted or numbered lists with the line before them, and lists of names with the
    few words before them, in ``text[start:end]``."""
    stop = len(text) if end is None else end
    return [*_bullets(text, start, stop), *_names(text, start, stop)]


def _bullets(text: str, start: int, stop: int) -> Iterable[Listing]:
    intro: tuple[int, int] | None = None
    items: list[tuple[int, int]] = []
    position = start
    while position < stop:
        newline = text.find("\n", position, stop)
        line_end = stop if newline < 0 else newline
        line = (position, line_end)
        if _ITEM.match(text, position, line_end):
            items.append(line)
        elif text[position:line_end].strip():
            yield from _listed(text, intro, items)
            intro, items = line, []
        position = line_end + 1
    yield from _listed(text, intro, items)


def _listed(
    text: str, intro: tuple[int, int] | None, items: list[tuple[int, int]]
) -> Iterable[Listing]:
    if intro is None or len(items) < 2:
        return
    # Items indented deeper than the first belong to an item, not to the list.
    depth = _indent(text, items[0][0])
    own = [item for item in items if _indent(text, item[0]) == depth]
    words = text[intro[0] : intro[1]].strip()
    span = Span(own[0][0], own[-1][1])
    yield Listing(len(own), span, _nouns(words), words.rstrip(":"))


def _indent(text: str, start: int) -> int:
    position = start
    while position < len(text) and text[position] in " \t":
        position += 1
    return position - start


def _names(text: str, start: int, stop: int) -> Iterable[Listing]:
    for match in _NAMES.finditer(text, start, stop):
        count = len(_SPLIT.split(match.group()))
        line_start = text.rfind("\n", start, match.start()) + 1
        before = _WORD.findall(text, line_start, match.start())[-_WORDS_BEFORE:]
        if count >= 2 and before:
            words = " ".join(before)
            yield Listing(count, Span(match.start(), match.end()), _nouns(words), words)


_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _nouns(words: str) -> frozenset[str]:
    """The noun lemmas of ``words`` (a key path, a heading): "has part" gives "part"."""
    found = set()
    for word in _WORD.findall(_CAMEL.sub(" ", words.replace("_", " "))):
        lemma = _noun_lemma(word.casefold())
        if lemma is not None:
            found.add(lemma)
    return frozenset(found)


@lru_cache(maxsize=8192)
def _noun_lemma(word: str) -> str | None:
    nouns = lemmas(word).get("NOUN")
    return nouns[0] if nouns else None
