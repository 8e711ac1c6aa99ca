"""The codec stored facts are written with is derived from the dataclasses themselves: every
field of every class is stored and read back, sharing and exact decimals included; a
field it cannot store is refused when the plan is made; and a change to any class
changes the plan's fingerprint, so data written before is not misread."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

import pytest

from quantcheck.checker.anchors import DocumentAnchors
from quantcheck.checker.dataclass_codec import CodecError, Plan
from quantcheck.checker.index import EvidenceIndex, Occurrence
from quantcheck.quantities.extract import Extraction
from quantcheck.quantities.facts import Fact, Literal, Mention, SetAside, Span
from quantcheck.quantities.listings import Listing
from tests.checker.graphs import assert_same_graph


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, slots=True)
class Leaf:
    name: str
    amount: Decimal


@dataclass(frozen=True, slots=True)
class Node:
    leaf: Leaf
    spare: Leaf | None
    colour: Colour
    count: int
    flag: bool
    note: str | None
    level: int | None
    value: Decimal | str
    upper: Decimal | str | None
    pair: tuple[str, int]
    leaves: tuple[Leaf, ...]
    tags: frozenset[str]
    by_leaf: Mapping[Leaf, tuple[Leaf, ...]]
    by_pair: dict[tuple[str, int], Leaf]
    ordered: Sequence[Leaf]
    nested: dict[str, list[int]] = field(default_factory=dict)


# Two versions of a class, as code might change it: a field added, a field retyped, an
# enum member added.
@dataclass(frozen=True, slots=True)
class Before:
    name: str


@dataclass(frozen=True, slots=True)
class After:
    name: str
    unit: str | None = None


@dataclass(frozen=True, slots=True)
class Retyped:
    name: Decimal


class MoreColours(StrEnum):
    RED = "red"
    BLUE = "blue"
    GREEN = "green"


@dataclass(frozen=True, slots=True)
class Painted:
    colour: Colour


@dataclass(frozen=True, slots=True)
class Repainted:
    colour: MoreColours


def sample() -> Node:
    one, two = Leaf("one", Decimal("1.50")), Leaf("two", Decimal("-0"))
    twin = Leaf("one", Decimal("1.50"))  # equal to ``one`` but another object
    return Node(
        leaf=one,
        spare=None,
        colour=Colour.BLUE,
        count=-7,
        flag=True,
        note=None,
        level=3,
        value=Decimal("6E+2"),
        upper="2024-02-29",
        pair=("a", 1),
        leaves=(one, two, twin, one),
        tags=frozenset({"x", "y"}),
        by_leaf={one: (two,), two: ()},
        by_pair={("k", 2): twin},
        ordered=[two, one],
        nested={"n": [1, 2, 3]},
    )


def round_trip(plan: Plan, value: object) -> object:
    # Through JSON text, as stored.
    return plan.decode(json.loads(json.dumps(plan.encode(value))))


def test_every_kind_of_field_round_trips_with_sharing_and_exact_decimals() -> None:
    node = sample()
    back = round_trip(Plan(Node), node)
    assert isinstance(back, Node)
    assert back == node
    assert_same_graph(node, back)
    assert [str(leaf.amount) for leaf in back.leaves] == ["1.50", "-0", "1.50", "1.50"]
    assert str(back.value) == "6E+2"
    assert back.leaves[0] is back.leaves[3] is back.leaf
    assert back.leaves[2] is not back.leaf  # equal, but not the same object
    assert back.by_pair[("k", 2)] is back.leaves[2]
    assert type(back.ordered) is list


def test_the_text_is_left_out_and_given_back() -> None:
    plan = Plan(Leaf)
    text = "a long document " * 100
    tables = plan.encode(Leaf(text, Decimal(1)), text=text)
    assert text not in json.dumps(tables)
    back = plan.decode(tables, text="another text")
    assert isinstance(back, Leaf)
    assert back.name == "another text"


def test_the_plan_stores_every_field_of_every_class_of_the_index() -> None:
    plan = Plan(EvidenceIndex)
    planned = {p.cls for p in plan.classes}
    expected = {
        EvidenceIndex,
        Extraction,
        Mention,
        Fact,
        Span,
        Literal,
        SetAside,
        Listing,
        Occurrence,
        DocumentAnchors,
    }
    assert expected <= planned
    for cls in planned:
        assert plan.fields(cls) == tuple(f.name for f in dataclasses.fields(cls))


def test_a_field_added_to_a_class_is_stored_and_changes_the_fingerprint() -> None:
    after = After("x", "kg")
    assert round_trip(Plan(After), after) == after
    assert Plan(After).fingerprint != Plan(Before).fingerprint


def test_any_change_to_the_classes_changes_the_fingerprint() -> None:
    assert Plan(Before).fingerprint == Plan(Before).fingerprint
    assert Plan(Before).fingerprint != Plan(Retyped).fingerprint
    assert Plan(Painted).fingerprint != Plan(Repainted).fingerprint


@pytest.mark.parametrize("hint", [float, object, list[float], dict[str, object]])
def test_a_field_that_cannot_be_stored_is_refused_by_name(hint: object) -> None:
    unstorable = dataclasses.make_dataclass("Unstorable", [("ok", int), ("bad", hint)])
    with pytest.raises(TypeError, match=r"cannot store Unstorable\.bad"):
        Plan(unstorable)


def test_a_value_of_the_wrong_type_is_refused_when_encoding() -> None:
    plan = Plan(Leaf)
    with pytest.raises(TypeError, match="expected"):
        plan.encode(Leaf("name", 1.5))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected"):
        plan.encode(Node)


def test_data_that_does_not_fit_the_plan_is_refused() -> None:
    plan = Plan(Node)
    good = plan.encode(sample())
    other = Plan(Leaf).encode(Leaf("x", Decimal(1)))
    fewer_rows = {**good, "classes": [[count + 1, columns] for count, columns in good["classes"]]}
    for bad in (other, fewer_rows, {**good, "strings": []}, {}):
        with pytest.raises(CodecError):
            plan.decode(bad)
