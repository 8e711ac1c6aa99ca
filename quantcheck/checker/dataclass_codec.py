"""Dataclasses as JSON-ready tables and back, by their fields' type hints: how the facts
extracted from a document are stored beside its text (see :mod:`.index_codec`).

The encoding is derived from the classes, not written out per class: a field added to
any of them is stored and read back with no change here, and a field whose type this
cannot store is refused when the plan is made, never silently dropped. The plan's
fingerprint names every class, field, field type and enum member it was made from, so
data written under other classes is told apart rather than misread.

Objects are grouped by class and stored column by column, the classes an object refers
to before it: a column of strings, decimals, enum members or references decodes in one
``map`` over a table, which is what makes reading facts much cheaper than extracting
them again. An object reached twice is stored once and read back as one object, so
lookups by identity (anchors compare mentions with ``is``) behave as on the original.

Only data is read: JSON values, decimal strings, and indexes into tables of strings,
decimals, enum members and objects of the planned classes. Stored data names no class
and runs no code. Pure: no I/O.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import operator
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

# How the values of a field are stored: a tag and what it needs (see Plan._kind_of).
#   ("plain", int|bool)   the value itself         ("str",), ("decimal",)   a table index
#   ("enum", E)           the member's position    ("object", C)            C's table index
#   ("optional", k)       k, or None (-1 for a table index)
#   ("union", (k, ...))   [which kind, its value]  ("fixed", (k, ...))      [each value]
#   ("sequence", container, k)  [each item]        ("mapping", k, k)        [key, value, ...]
Kind = tuple[Any, ...]
# Turns one stored value into the value it stands for; None where they are the same.
Decoder = Callable[[Any], Any] | None

# What each sequence is read back as; an abstract Sequence as a list, what code builds.
_SEQUENCES: Mapping[Any, type] = {
    tuple: tuple,
    list: list,
    frozenset: frozenset,
    set: set,
    Sequence: list,
}
_MAPPINGS = frozenset({dict, Mapping})
# Kinds stored as a table index, whose None is stored as -1: the table's last entry.
_INDEXED = frozenset({"str", "decimal", "enum", "object"})


class CodecError(ValueError):
    """Stored data that does not decode under this plan."""


@dataclass(frozen=True, slots=True)
class _Class:
    """One planned dataclass: its fields and how each is stored."""

    cls: type
    names: tuple[str, ...]
    kinds: tuple[Kind, ...]


class Plan:
    """How the dataclasses reachable from ``root`` are stored; made once per root."""

    def __init__(self, root: type):
        self.root = root
        self._classes: dict[type, _Class] = {}
        self._visiting: set[type] = set()
        self._visit(root)
        # Dependencies first: each class is decoded after every class it refers to.
        self.classes = tuple(self._classes.values())
        described = [
            (_name(p.cls), [(n, _describe(k)) for n, k in zip(p.names, p.kinds, strict=True)])
            for p in self.classes
        ]
        self.fingerprint = hashlib.sha256(repr(described).encode()).hexdigest()[:16]

    def fields(self, cls: type) -> tuple[str, ...]:
        """The fields of ``cls`` that are stored, in order."""
        return self._classes[cls].names

    def _visit(self, cls: type) -> None:
        if cls in self._classes:
            return
        if cls in self._visiting:
            raise TypeError(f"cannot store {cls.__qualname__}: it refers back to itself")
        self._visiting.add(cls)
        hints = typing.get_type_hints(cls)
        names: list[str] = []
        kinds: list[Kind] = []
        for field in dataclasses.fields(cls):
            where = f"{cls.__qualname__}.{field.name}"
            if not field.init:
                raise TypeError(f"cannot store {where}: it is not set by __init__")
            try:
                kinds.append(self._kind_of(hints[field.name]))
            except TypeError as exc:
                raise TypeError(f"cannot store {where}: {exc}") from None
            names.append(field.name)
        self._visiting.discard(cls)
        self._classes[cls] = _Class(cls, tuple(names), tuple(kinds))

    def _kind_of(self, hint: Any) -> Kind:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if hint in (int, bool):
            return ("plain", hint)
        if hint is str:
            return ("str",)
        if hint is Decimal:
            return ("decimal",)
        if isinstance(hint, enum.EnumMeta):
            return ("enum", hint)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            self._visit(hint)
            return ("object", hint)
        if origin in (typing.Union, types.UnionType):
            options = tuple(self._kind_of(arg) for arg in args if arg is not type(None))
            union = options[0] if len(options) == 1 else ("union", options)
            return union if len(options) == len(args) else ("optional", union)
        if origin is tuple and args[-1:] != (Ellipsis,):
            return ("fixed", tuple(self._kind_of(arg) for arg in args))
        if origin in _SEQUENCES:
            return ("sequence", _SEQUENCES[origin], self._kind_of(args[0]))
        if origin in _MAPPINGS:
            return ("mapping", self._kind_of(args[0]), self._kind_of(args[1]))
        raise TypeError(f"no stored form for {hint!r}")

    def encode(self, root: object, *, text: str = "") -> dict[str, Any]:
        """``root``, an instance of the plan's root class, as JSON-ready tables; ``text``
        is left out (stored as string 0), to be given again when decoding."""
        encoder = _Encoder(self, text)
        encoder.add(root, self.root)
        return encoder.tables()

    def decode(self, tables: Mapping[str, Any], *, text: str = "") -> Any:
        """The root object ``tables`` (from :meth:`encode`) stand for; raises
        :class:`CodecError` when they do not fit the plan."""
        try:
            return _Decoder(self, tables, text).root()
        except CodecError:
            raise
        except (TypeError, ValueError, IndexError, KeyError, ArithmeticError) as exc:
            raise CodecError(f"stored data does not fit: {type(exc).__name__}: {exc}") from None


def _name(cls: type) -> str:
    members = (
        [m.name for m in typing.cast(type[enum.Enum], cls)]
        if isinstance(cls, enum.EnumMeta)
        else ""
    )
    return f"{cls.__module__}.{cls.__qualname__}{members}"


def _describe(kind: Kind) -> tuple[Any, ...]:
    return tuple(
        _name(part) if isinstance(part, type) else _describe(part) if type(part) is tuple else part
        for part in kind
    )


Encoder = Callable[[Any], Any]


class _Encoder:
    """Collects the string, decimal and object tables of one root object."""

    def __init__(self, plan: Plan, text: str):
        self._plan = plan
        self._strings: dict[str, int] = {text: 0}
        self._decimals: dict[str, int] = {}
        self._seen: dict[type, dict[int, int]] = {p.cls: {} for p in plan.classes}
        self._kept: list[object] = []
        self._columns: dict[type, list[list[Any]]] = {
            p.cls: [[] for _ in p.names] for p in plan.classes
        }
        self._encoders: dict[Kind, Encoder] = {}
        # Per class: all its fields read in one call, and how each is stored.
        self._fields = {
            p.cls: (operator.attrgetter(*p.names), [self._encoder(k) for k in p.kinds])
            for p in plan.classes
            if p.names
        }

    def tables(self) -> dict[str, Any]:
        strings = list(self._strings)
        strings[0] = ""
        return {
            "strings": strings,
            "decimals": list(self._decimals),
            "classes": [[len(self._seen[c]), self._columns[c]] for c in self._seen],
        }

    def add(self, obj: object, cls: type) -> int:
        """The position of ``obj`` in its class's table, storing it (and what it refers
        to) the first time it is met."""
        if type(obj) is not cls:
            raise TypeError(f"expected {cls.__qualname__}, got {type(obj).__qualname__}")
        seen = self._seen[cls]
        found = seen.get(id(obj))
        if found is not None:
            return found
        if cls in self._fields:
            read, encoders = self._fields[cls]
            values = read(obj)
            if len(encoders) == 1:
                values = (values,)
            for column, encode, value in zip(self._columns[cls], encoders, values, strict=True):
                column.append(encode(value))
        seen[id(obj)] = position = len(seen)
        # Held until the encoding ends: an object made for the lookup (an occurrence of a
        # compactly held number) would otherwise free its id for the next one.
        self._kept.append(obj)
        return position

    def _encoder(self, kind: Kind) -> Encoder:
        # Made once per kind and root object: kinds recur across classes and fields.
        if kind not in self._encoders:
            self._encoders[kind] = self._make(kind)
        return self._encoders[kind]

    def _make(self, kind: Kind) -> Encoder:
        tag = kind[0]
        if tag == "object":
            cls = kind[1]
            return lambda value: self.add(value, cls)
        if tag == "optional":
            inner = self._encoder(kind[1])
            none = -1 if kind[1][0] in _INDEXED else None
            return lambda value: none if value is None else inner(value)
        if tag == "union":
            options = [(_checker(option), self._encoder(option)) for option in kind[1]]

            def which(value: Any) -> Any:
                for number, (fits, encode) in enumerate(options):
                    if fits(value):
                        return [number, encode(value)]
                return _refuse(value, kind)

            return which
        if tag in ("sequence", "fixed"):
            parts = [self._encoder(part) for part in kind[1]] if tag == "fixed" else []
            each = self._encoder(kind[2]) if tag == "sequence" else None

            def items(value: Any) -> Any:
                if not isinstance(value, (tuple, list, frozenset, set)):
                    return _refuse(value, kind)
                if each is not None:
                    return [each(item) for item in value]
                if len(value) != len(parts):
                    return _refuse(value, kind)
                return [encode(item) for encode, item in zip(parts, value, strict=True)]

            return items
        if tag == "mapping":
            key, item = self._encoder(kind[1]), self._encoder(kind[2])

            def pairs(value: Any) -> Any:
                if not isinstance(value, Mapping):
                    return _refuse(value, kind)
                return [part for k, v in value.items() for part in (key(k), item(v))]

            return pairs
        fits = _checker(kind)
        if tag in ("str", "decimal"):
            table = self._strings if tag == "str" else self._decimals
            written = str if tag == "decimal" else None

            def position(value: Any) -> Any:
                if not fits(value):
                    return _refuse(value, kind)
                key = value if written is None else written(value)
                found = table.get(key)
                if found is None:
                    found = table[key] = len(table)
                return found

            return position
        if tag == "enum":
            members = {member: n for n, member in enumerate(kind[1])}
            return lambda value: members[value] if fits(value) else _refuse(value, kind)
        return lambda value: value if fits(value) else _refuse(value, kind)


def _checker(kind: Kind) -> Callable[[Any], bool]:
    """Whether a value is one of ``kind`` (a kind stored as it is or as a table index)."""
    tag = kind[0]
    expected = {"str": str, "decimal": Decimal}.get(tag) or kind[1]
    if tag not in _INDEXED and tag != "plain":
        raise TypeError(f"no stored form for a union with {_describe(kind)}")
    return lambda value: type(value) is expected


def _refuse(value: Any, kind: Kind) -> Any:
    raise TypeError(f"expected {_describe(kind)}, got {type(value).__qualname__}")


class _Decoder:
    """Rebuilds the objects of one set of tables, class by class."""

    def __init__(self, plan: Plan, tables: Mapping[str, Any], text: str):
        self._plan = plan
        strings = list(tables["strings"])
        if not strings:
            raise CodecError("the string table is empty")
        strings[0] = text
        # Each lookup table ends with None, which a missing optional (-1) picks.
        self._strings: list[Any] = [*strings, None]
        self._decimals: list[Any] = [*map(Decimal, tables["decimals"]), None]
        self._objects: dict[type, list[Any]] = {}
        self._decoders: dict[Kind, Decoder] = {}
        self._stored = tables["classes"]
        if len(self._stored) != len(plan.classes):
            raise CodecError(f"{len(self._stored)} classes stored, {len(plan.classes)} planned")

    def root(self) -> Any:
        for planned, (count, columns) in zip(self._plan.classes, self._stored, strict=True):
            if len(columns) != len(planned.names) or any(len(c) != count for c in columns):
                raise CodecError(f"the columns of {planned.cls.__qualname__} are malformed")
            values = [self._column(k, c) for k, c in zip(planned.kinds, columns, strict=True)]
            if values:
                made = list(map(planned.cls, *values))
            else:
                made = [planned.cls() for _ in range(count)]
            self._objects[planned.cls] = [*made, None]
        roots = self._objects[self._plan.root]
        if len(roots) != 2:
            raise CodecError(f"{len(roots) - 1} objects stored at the root, not one")
        return roots[0]

    def _column(self, kind: Kind, column: list[Any]) -> list[Any]:
        decoder = self._decoder(kind)
        if decoder is not None:
            return list(map(decoder, column))
        optional = kind[0] == "optional"
        plain = kind[1][1] if optional else kind[1]
        if not all(type(v) is plain or (optional and v is None) for v in column):
            raise CodecError(f"a column of {plain.__name__} holds something else")
        return column

    def _decoder(self, kind: Kind) -> Decoder:
        # Made once per kind and payload: kinds recur across classes and fields.
        if kind not in self._decoders:
            self._decoders[kind] = self._make(kind)
        return self._decoders[kind]

    def _make(self, kind: Kind) -> Decoder:
        tag = kind[0]
        if tag == "plain":
            return None
        # A table's __getitem__ runs at C speed in map(). Indexes are not checked one by
        # one: the payload's checksum (see index_codec) refuses damaged data.
        if tag == "str":
            return self._strings.__getitem__
        if tag == "decimal":
            return self._decimals.__getitem__
        if tag == "enum":
            return [*kind[1], None].__getitem__
        if tag == "object":
            # The plan orders every class before the classes that refer to it.
            return self._objects[kind[1]].__getitem__
        if tag == "optional":
            inner = self._decoder(kind[1])
            if kind[1][0] in _INDEXED or inner is None:
                return inner
            return lambda value: None if value is None else inner(value)
        if tag == "union":
            options = [self._decoder(option) for option in kind[1]]
            return lambda value: _apply(options[value[0]], value[1])
        if tag == "fixed":
            parts = [self._decoder(part) for part in kind[1]]
            return lambda value: tuple(map(_apply, parts, value))
        if tag == "sequence":
            container: type = kind[1]
            each = self._decoder(kind[2])
            if each is None:
                return container
            return lambda value: container(map(each, value))
        key, item = self._decoder(kind[1]), self._decoder(kind[2])
        return lambda value: dict(
            zip(_each(key, value[0::2]), _each(item, value[1::2]), strict=True)
        )


def _apply(decoder: Decoder, value: Any) -> Any:
    return value if decoder is None else decoder(value)


def _each(decoder: Decoder, values: list[Any]) -> typing.Iterable[Any]:
    return values if decoder is None else map(decoder, values)
