"""One tokenizer for JSON and Python literals, keeping each token's span.

A Python literal is what an LLM prompt holds when a dict is pasted in: single-quoted
strings, ``True``/``False``/``None``, tuples, trailing commas. Tokens are found by one
anchored pattern moving forward through the text (never slicing the rest of it), the
nesting is tracked on an explicit stack with a depth limit, and the result is validated
by ``json.loads``: the document itself when it is JSON, else its JSON skeleton (every
string replaced by ``""``, every constant by its JSON spelling, tuples by arrays), so
that a Python literal is checked by a real parser in linear time and memory without
``eval`` or ``ast.literal_eval`` on the whole document.
"""

from __future__ import annotations

import ast
import json
import re
from array import array
from dataclasses import dataclass

# Deeper nesting is not data anyone writes by hand; such a document is read as prose.
MAX_DEPTH = 200

STRING = 1
NUMBER = 2
CONSTANT = 3
OPEN_OBJECT = 4
OPEN_ARRAY = 5
CLOSE = 6
COLON = 7
COMMA = 8
# Added to a scalar's kind when it stands where an object expects a key.
KEY = 16

# Every position of a literal matches one alternative; the last one catches anything
# else, so that one finditer walks the whole text and stops at the first stray character.
_TOKEN = re.compile(
    r"[ \t\r\n\f]*+(?:"
    r'("[^"\\\n]*+(?:\\.[^"\\\n]*+)*+")'
    r"|('[^'\\\n]*+(?:\\.[^'\\\n]*+)*+')"
    r"|(-?\d++(?:\.\d++)?(?:[eE][+-]?\d++)?)"
    r"|(true|false|null|True|False|None)"
    r"|([{\[(])|([}\])])|(:)|(,)|(.))",
    re.DOTALL,
)
# The kind of token each group of _TOKEN matches (0 for the stray character).
_GROUP_KINDS = (0, STRING, STRING, NUMBER, CONSTANT, OPEN_ARRAY, CLOSE, COLON, COMMA, 0)
_OPEN_OBJECT_CHAR = "{"
_SPACE = " \t\r\n\f"
_CLOSERS = {"{": "}", "[": "]", "(": ")"}
_JSON_CONSTANTS = {"True": "true", "False": "false", "None": "null"}
_SKELETON = {OPEN_OBJECT: "{", OPEN_ARRAY: "[", COLON: ":", COMMA: ","}
_NOT_READABLE = (ValueError, SyntaxError, RecursionError, MemoryError)


@dataclass(frozen=True, slots=True)
class Tokens:
    """The tokens of one literal document: parallel arrays of kind, start and end (far
    smaller than a list of tuples for a two-megabyte document), and whether the document
    is JSON (its strings then use JSON's escapes, else Python's)."""

    text: str
    kinds: bytearray
    starts: array[int]
    ends: array[int]
    is_json: bool

    def decoded(self, index: int) -> str:
        """The value of a string token (or the text of any other scalar)."""
        start, end = self.starts[index], self.ends[index]
        if self.kinds[index] & ~KEY != STRING:
            return self.text[start:end]
        inner = self.text[start + 1 : end - 1]
        if "\\" not in inner:
            return inner
        written = self.text[start:end]
        try:
            value = json.loads(written) if self.is_json else ast.literal_eval(written)
        except _NOT_READABLE:
            return inner
        return value if isinstance(value, str) else inner


def tokenize(text: str) -> Tokens | None:
    """The tokens of ``text`` when the whole of it is one JSON or Python literal
    (an object, array or tuple); None when it is not, or nests deeper than MAX_DEPTH."""
    kinds = bytearray()
    starts = array("q")
    ends = array("q")
    openers: list[str] = []
    # Per open container: whether the next scalar is a key (only ever true in objects).
    expect_key: list[bool] = []
    # Trailing whitespace is cut off first: a search that failed there would be retried
    # from every one of its positions.
    stop = len(text.rstrip(_SPACE))
    for match in _TOKEN.finditer(text, 0, stop):
        group = match.lastindex
        assert group is not None
        kind = _GROUP_KINDS[group]
        start, end = match.span(group)
        if kind == OPEN_ARRAY:
            if (not openers and kinds) or len(openers) >= MAX_DEPTH:
                return None  # a second root value, or nesting too deep
            char = text[start]
            openers.append(char)
            expect_key.append(char == _OPEN_OBJECT_CHAR)
            if char == _OPEN_OBJECT_CHAR:
                kind = OPEN_OBJECT
        elif kind == CLOSE:
            if not openers or _CLOSERS[openers.pop()] != text[start]:
                return None
            expect_key.pop()
        elif kind == COMMA:
            if openers and openers[-1] == _OPEN_OBJECT_CHAR:
                expect_key[-1] = True
        elif kind == COLON:
            if expect_key:
                expect_key[-1] = False
        elif kind == 0 or not openers:
            return None  # a stray character, or a scalar outside the root container
        elif expect_key[-1]:
            kind |= KEY
        kinds.append(kind)
        starts.append(start)
        ends.append(end)
    if openers or not kinds:
        return None
    if _parses(text):
        return Tokens(text, kinds, starts, ends, is_json=True)
    tokens = Tokens(text, kinds, starts, ends, is_json=False)
    return tokens if _parses(_skeleton(tokens)) else None


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except _NOT_READABLE:
        return False
    return True


def _skeleton(tokens: Tokens) -> str:
    """The document in JSON with every string emptied: what json.loads can check for a
    Python literal. A key of another type becomes a string key; a trailing comma is
    dropped, as Python allows it and JSON does not."""
    pieces: list[str] = []
    text = tokens.text
    for index, kind in enumerate(tokens.kinds):
        if kind & KEY or kind == STRING:
            pieces.append('""')
        elif kind == NUMBER:
            pieces.append(text[tokens.starts[index] : tokens.ends[index]])
        elif kind == CONSTANT:
            written = text[tokens.starts[index] : tokens.ends[index]]
            pieces.append(_JSON_CONSTANTS.get(written, written))
        elif kind == CLOSE:
            if pieces and pieces[-1] == ",":
                pieces.pop()
            pieces.append("}" if text[tokens.starts[index]] == "}" else "]")
        else:
            pieces.append(_SKELETON[kind])
    return "".join(pieces)
