"""Comparing two object graphs exactly: the same classes, the same values (decimals as
written, not only equal), and the same sharing, each object of one standing for one
object of the other."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from decimal import Decimal

_ATOMS = (str, int, bool, type(None), enum.Enum)


def assert_same_graph(one: object, two: object) -> None:
    """Fail unless ``two`` is ``one`` rebuilt: same types, values and sharing."""
    _Walk().same(one, two, "root")


class _Walk:
    def __init__(self) -> None:
        self.forward: dict[int, int] = {}
        self.backward: dict[int, int] = {}
        # Keeps every visited object alive, so that no id is reused during the walk.
        self.kept: list[object] = []

    def same(self, one: object, two: object, where: str) -> None:
        # A mapping may be held compactly on one side (computed on first use, numbers in
        # arrays) and as a dict on the other: its items are what must agree.
        alike = isinstance(one, Mapping) and isinstance(two, Mapping)
        assert alike or type(one) is type(two), (
            f"{where}: {type(one).__name__} != {type(two).__name__}"
        )
        if isinstance(one, Decimal):
            assert str(one) == str(two), f"{where}: {one!r} != {two!r}"
        elif isinstance(one, _ATOMS):
            assert one == two, f"{where}: {one!r} != {two!r}"
        elif dataclasses.is_dataclass(one):
            if self._paired(one, two, where):
                for field in dataclasses.fields(one):
                    name = field.name
                    self.same(getattr(one, name), getattr(two, name), f"{where}.{name}")
        elif isinstance(one, (frozenset, set)):
            assert one == two, f"{where}: {one!r} != {two!r}"
        elif isinstance(one, Mapping):
            assert isinstance(two, Mapping)
            assert len(one) == len(two), f"{where}: {len(one)} != {len(two)} entries"
            for n, ((k1, v1), (k2, v2)) in enumerate(zip(one.items(), two.items(), strict=True)):
                self.same(k1, k2, f"{where}[key {n}]")
                self.same(v1, v2, f"{where}[{k1!r}]")
        elif isinstance(one, (tuple, list)):
            assert isinstance(two, (tuple, list))
            assert len(one) == len(two), f"{where}: {len(one)} != {len(two)} items"
            for n, (a, b) in enumerate(zip(one, two, strict=True)):
                self.same(a, b, f"{where}[{n}]")
        else:
            raise AssertionError(f"{where}: cannot compare a {type(one).__name__}")

    def _paired(self, one: object, two: object, where: str) -> bool:
        """Record that ``one`` stands for ``two``; False when it already did."""
        seen = self.forward.get(id(one))
        if seen is not None:
            assert seen == id(two), f"{where}: one object became two"
            return False
        assert id(two) not in self.backward, f"{where}: two objects became one"
        self.forward[id(one)] = id(two)
        self.backward[id(two)] = id(one)
        self.kept += [one, two]
        return True
