"""JSON documents and Python literals, read value by value with their key paths.

Two passes over the tokens, both flat loops over an explicit stack (no recursion on
nesting depth). The first finds what the document says about its own keys: its units
maps (``"units": {"temp": "°C"}``, Open-Meteo's ``"hourly_units"``) and the objects that
name a sibling (``{"name": "Internal", "value": "32GB"}``). The second emits one cell per
string or number value.

A record is one element of an array (or the root): an object under a key belongs to the
record of the object holding it, so a forecast's ``main.temp_max`` shares the record of
its ``dt_txt``. The scalars at one index of sibling arrays (``"time": [...]``,
``"temperature_2m": [...]``) share a record of their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from quantcheck.quantities.phrases import PERCENT_KEY_WORDS
from quantcheck.quantities.structured import tokens as tk
from quantcheck.quantities.structured.cells import Cell, Records, Region

# A key holding a units map: "units", "hourly_units"; the part before "_units" scopes it.
_UNITS_KEY_SUFFIX = "units"
# Keys whose string value names the value-like sibling of the same object, in order of
# preference, and the keys of such a sibling: {"category": "Memory", "specifications":
# [...]} and {"name": "Internal", "value": "32GB"}.
NAME_KEYS = ("name", "label", "title", "category", "field", "attribute", "parameter", "metric")
VALUE_KEYS = frozenset(
    {"value", "values", "specifications", "specs", "spec", "items", "entries", "data"}
)
# "lab_report = {": a literal assigned to a name.
_ASSIGNMENT = re.compile(r"\s*[A-Za-z_]\w{0,63}\s*=\s*(?=[\[{(])")
# A name longer than this is text, not a name.
_MAX_NAME = 100

# A units map: its scope (the "hourly" of "hourly_units", None for "units") and entries.
_UnitsMap = tuple[str | None, dict[str, str]]


def read(text: str, records: Records) -> Region | None:
    """The cells of ``text`` when the whole of it is one JSON or Python literal, or one
    assigned to a name as code writes it (``forecast = {...}``)."""
    assignment = _ASSIGNMENT.match(text)
    if assignment is not None:
        # Blanked rather than cut, so that every offset stays the document's own.
        text = " " * assignment.end() + text[assignment.end() :]
    return _region(text, 0, len(text), records)


def embedded(text: str, records: Records) -> Region | None:
    """The cells of the first JSON or Python literal of ``text`` that stands on lines of
    its own after other text (a title, a "Source:" line) and may have more after it
    (field notes): an export pasted into a page. Its offsets are the document's."""
    for tries, opening in enumerate(_OPENING_LINE.finditer(text)):
        if tries == MAX_EMBEDDED_TRIES:
            break
        start = opening.start(1)
        end = _closing(text, start)
        if end is None or _REST_OF_LINE.match(text, end) is None:
            continue
        # Blanked around rather than cut out, so that every offset stays the document's.
        region = _region(
            " " * start + text[start:end] + " " * (len(text) - end), start, end, records
        )
        if region is not None:
            return region
    return None


# A line that opens a literal: a bracket first on its line, or after a name assigned to
# ("fleet = ["), then a string, another bracket or the line's end ("[Section] Key:
# value" opens none).
_OPENING_LINE = re.compile(
    r"^[ \t]*+(?:[A-Za-z_]\w{0,63}[ \t]*+=[ \t]*+)?([\[{])(?=[ \t]*+(?:[\"\[{]|\r?$))",
    re.MULTILINE,
)
# The strings and brackets of a literal, to find where it closes.
_NESTING = re.compile(r'"(?:[^"\\\n]|\\.)*+"|[\[\]{}]')
# What may follow a literal's close on its line.
_REST_OF_LINE = re.compile(r"[ \t]*+(?:\r?\n|$)")
# Openings looked at in one document: a page holds one export, not dozens of tries.
MAX_EMBEDDED_TRIES = 3


def _closing(text: str, start: int) -> int | None:
    """Where the brackets opened at ``start`` close, strings skipped; None if never."""
    depth = 0
    for found in _NESTING.finditer(text, start):
        bracket = found.group()
        if bracket in "[{":
            depth += 1
        elif bracket in "]}":
            depth -= 1
            if depth == 0:
                return found.end()
    return None


def _region(text: str, start: int, end: int, records: Records) -> Region | None:
    """The cells of the literal that is all of ``text`` but blanks, as ``[start, end)``."""
    tokens = tk.tokenize(text)
    if tokens is None:
        return None
    names, maps = _survey(tokens)
    elements: set[int] = set()
    owners: list[int] = []
    nested: set[int] = set()
    cells = _walk(
        tokens, names, _Units(maps), records, elements=elements, owners=owners, nested=nested
    )
    return Region(start, end, tuple(_labelled(text, cells, elements, owners, nested)))


@dataclass(slots=True)
class _Open:
    """An open object or array in the first pass."""

    is_object: bool
    identity: int
    key: str = ""
    units: dict[str, str] | None = None


def _survey(tokens: tk.Tokens) -> tuple[dict[int, str], list[_UnitsMap]]:
    """Per object (numbered in order of opening) the name of its value-like sibling,
    and every units map of the document."""
    candidates: dict[int, tuple[int, str]] = {}
    has_value: set[int] = set()
    maps: list[_UnitsMap] = []
    stack: list[_Open] = []
    objects = 0
    kinds = tokens.kinds
    for index, kind in enumerate(kinds):
        top = stack[-1] if stack else None
        if kind & tk.KEY:
            assert top is not None
            top.key = tokens.decoded(index)
        elif kind in (tk.OPEN_OBJECT, tk.OPEN_ARRAY):
            opened = _Open(kind == tk.OPEN_OBJECT, objects if kind == tk.OPEN_OBJECT else -1)
            objects += kind == tk.OPEN_OBJECT
            if top is not None and top.is_object:
                if top.key.casefold() in VALUE_KEYS:
                    has_value.add(top.identity)
                scope = _units_scope(top.key)
                if opened.is_object and scope is not None:
                    opened.units = {}
                    maps.append((scope or None, opened.units))
            stack.append(opened)
        elif kind == tk.CLOSE:
            stack.pop()
        elif kind in (tk.STRING, tk.NUMBER, tk.CONSTANT) and top is not None and top.is_object:
            folded = top.key.casefold()
            if folded in VALUE_KEYS:
                has_value.add(top.identity)
            if kind == tk.STRING:
                if top.units is not None:
                    top.units[top.key] = tokens.decoded(index)
                if folded in NAME_KEYS:
                    rank = NAME_KEYS.index(folded)
                    held = candidates.get(top.identity)
                    name = tokens.decoded(index).strip()
                    if name and len(name) <= _MAX_NAME and (held is None or rank < held[0]):
                        candidates[top.identity] = (rank, name)
    names = {identity: name for identity, (_, name) in candidates.items() if identity in has_value}
    return names, maps


def _units_scope(key: str) -> str | None:
    """The scope of a units key: "hourly" for "hourly_units", the empty string for
    "units", None for a key that holds no units map."""
    folded = key.casefold()
    if folded == _UNITS_KEY_SUFFIX:
        return ""
    if folded.endswith("_" + _UNITS_KEY_SUFFIX):
        return key[: -len(_UNITS_KEY_SUFFIX) - 1]
    return None


class _Units:
    """The unit a document's units maps state for a value at a key path.

    A units key states the unit of the same key (``temp``), of a key that starts with it
    and an underscore (``temp_max``, ``temp_min``), and of every value below a path
    component of that name (``wind`` for ``wind.speed``, ``wind.gust``). Maps scoped to a
    path component (``hourly_units`` for ``hourly``) are asked first.
    """

    def __init__(self, maps: list[_UnitsMap]):
        self.maps = maps
        self.cache: dict[tuple[str, ...], str | None] = {}

    def of(self, path: tuple[str, ...]) -> str | None:
        if not self.maps or not path:
            return None
        if path not in self.cache:
            self.cache[path] = self._find(path)
        return self.cache[path]

    def _find(self, path: tuple[str, ...]) -> str | None:
        above = set(path[:-1])
        ordered = [m for scope, m in self.maps if scope is not None and scope in above]
        ordered += [m for scope, m in self.maps if scope is None]
        ordered += [m for scope, m in self.maps if scope is not None and scope not in above]
        key = path[-1]
        for entries in ordered:
            if key in entries:
                return entries[key]
            cut = key.rfind("_")
            while cut > 0:
                # "precip_prob" is a probability, whatever unit "precip" is in.
                head, rest = key[:cut], key[cut + 1 :].casefold()
                if not PERCENT_KEY_WORDS.isdisjoint(rest.split("_")):
                    break
                if head in entries:
                    return entries[head]
                # "precip_total" under {"precipitation": "mm"}: a key may shorten the
                # word the map spells out.
                spelled = [name for name in entries if _abbreviates(head, name)]
                if len(spelled) == 1:
                    return entries[spelled[0]]
                cut = key.rfind("_", 0, cut)
            for component in reversed(path[:-1]):
                if component in entries:
                    return entries[component]
        return None


# A shortened key is at least this long: "temp" for "temperature", never "t".
_SHORTEST_ABBREVIATION = 4


def _abbreviates(short: str, name: str) -> bool:
    """Whether a key is a shortening of a units map's key: "precip" of "precipitation"."""
    return (
        len(short) >= _SHORTEST_ABBREVIATION
        and len(name) > len(short)
        and name.casefold().startswith(short.casefold())
    )


@dataclass(slots=True)
class _Frame:
    """An open object or array in the second pass: its own key path and record; for an
    object the key of the member being read and the name that resolves value-like
    members; for an array the index of the element being read and whether the array is
    itself an element (a row, whose scalars share its record) or a column of values."""

    is_object: bool
    identity: int
    path: tuple[str, ...]
    record: int
    name: str | None = None
    key: str = ""
    index: int = 0
    is_row: bool = False
    owner: int = -1


# What names an element of an array of objects: its short strings of words without digits
# ("name": "Dana Ruiz"; with strings such as model numbers among the labels, 10 more of
# quintd-dev's 158 swap mutants passed), at most this many, of at most this many words.
_LABEL_STRINGS = 3
_LABEL_WORDS = 4
# A name and a number a space apart ("Fiat 500", "Route 12"): a model's name, which labels
# its record as one of words does; model codes ("SM-G991B") and readings ("32GB") do not.
_NAMED_MODEL = re.compile(r"[A-Za-z][A-Za-z\-]{1,20}(?: [A-Za-z][A-Za-z\-]{1,20})? \d{1,4}")


def _labelled(
    text: str, cells: list[Cell], elements: set[int], owners: list[int], nested: set[int]
) -> list[Cell]:
    """The cells of each object that is an element of an array, labelled like a table's
    row by its short strings: a list of candidates is a table whose rows are its objects,
    and "Tom Bexley received 18,233 votes" names the row that holds the other count. An
    object that is a member of another ("home": {"team": "Portland Pioneers", ...}) is
    labelled so too, though its values stay in its parent's record (see _walk): "Salt
    Lake shot 47.9%" names the other team's object."""
    labels: dict[tuple[bool, int], list[str]] = {}
    places = [
        _labelled_by(cell, owner, elements, nested)
        for cell, owner in zip(cells, owners, strict=True)
    ]
    for cell, place in zip(cells, places, strict=True):
        if place is None:
            continue
        words = text[cell.start : cell.end]
        named = labels.setdefault(place, [])
        if (
            len(named) < _LABEL_STRINGS
            and len(words.split()) <= _LABEL_WORDS
            and any(c.isalpha() for c in words)
            and (not any(c.isdigit() for c in words) or _NAMED_MODEL.fullmatch(words))
        ):
            named.append(words)
    labelled = []
    for cell, place in zip(cells, places, strict=True):
        label = labels.get(place) if place is not None else None
        labelled.append(replace(cell, row=" ".join(label)) if label else cell)
    return labelled


def _labelled_by(
    cell: Cell, owner: int, elements: set[int], nested: set[int]
) -> tuple[bool, int] | None:
    """What labels a cell: its record when that is an array's element, else the object
    holding it when that is a member of another object; None for neither."""
    if cell.record in elements:
        return (True, cell.record)
    if owner in nested:
        return (False, owner)
    return None


def _walk(
    tokens: tk.Tokens,
    names: dict[int, str],
    units: _Units,
    records: Records,
    *,
    elements: set[int],
    owners: list[int],
    nested: set[int],
) -> list[Cell]:
    """Every scalar of the literal as a cell; ``elements`` collects the records of the
    objects that are elements of an array, ``owners`` the object each cell is a member of
    (-1 for an array's), ``nested`` the objects that are members of another object."""
    found: list[Cell] = []
    stack: list[_Frame] = []
    # (object holding the sibling arrays, index) -> record of that index.
    parallel: dict[tuple[int, int], int] = {}
    objects = 0
    kinds, starts, ends = tokens.kinds, tokens.starts, tokens.ends
    for index, kind in enumerate(kinds):
        top = stack[-1] if stack else None
        if kind & tk.KEY:
            assert top is not None
            top.key = tokens.decoded(index)
        elif kind in (tk.OPEN_OBJECT, tk.OPEN_ARRAY):
            is_object = kind == tk.OPEN_OBJECT
            identity = objects if is_object else -1
            objects += is_object
            if top is None:
                frame = _Frame(is_object, identity, (), next(records))
            elif top.is_object:
                frame = _Frame(is_object, identity, _member_path(top), top.record)
                frame.owner = top.identity
                if is_object:
                    nested.add(identity)
            else:
                frame = _Frame(is_object, identity, top.path, next(records), is_row=True)
                if is_object:
                    elements.add(frame.record)
            frame.name = names.get(identity)
            stack.append(frame)
        elif kind == tk.CLOSE:
            stack.pop()
        elif kind == tk.COMMA:
            assert top is not None
            top.index += 1
        elif kind in (tk.STRING, tk.NUMBER):
            assert top is not None
            start, end = starts[index], ends[index]
            if kind == tk.STRING:
                start, end = start + 1, end - 1
                if start == end:
                    continue
            if top.is_object:
                path = _member_path(top)
                record = top.record
            else:
                path = top.path
                if top.is_row:
                    record = top.record
                else:
                    slot = (top.owner, top.index)
                    if slot not in parallel:
                        parallel[slot] = next(records)
                    record = parallel[slot]
            found.append(Cell(path[-1] if path else "", path, start, end, record, units.of(path)))
            owners.append(top.identity if top.is_object else -1)
    return found


def _member_path(frame: _Frame) -> tuple[str, ...]:
    """The path of the member an object is reading: its key, or the name of its
    value-like member ("Internal" for the "value" beside "name": "Internal")."""
    key = frame.key
    if frame.name is not None and key.casefold() in VALUE_KEYS:
        key = frame.name
    return (*frame.path, key)
