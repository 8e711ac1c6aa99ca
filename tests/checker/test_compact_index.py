"""A document's index held compactly reads exactly as the plain structures it replaces."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from quantcheck.checker.deferred import Deferred
from quantcheck.checker.evidence_cache import retained_bytes
from quantcheck.checker.index import EvidenceIndex
from quantcheck.checker.occurrences import Occurrence, Occurrences
from quantcheck.checker.sharing import SharedParts
from quantcheck.quantities.evidence import extract_document
from quantcheck.quantities.facts import Fact, Mention, Relation, Span
from quantcheck.quantities.readings import Writing

_MENTIONS = [
    Mention(Fact("number", Relation.EQ, Decimal(n)), Span(n, n + 1), str(n)) for n in range(3)
]
_VALUES = [Decimal("60"), Decimal("60.0"), Decimal("5"), Decimal("0.5"), Decimal("-0"), Decimal(0)]


@st.composite
def _numbers(draw: st.DrawFn) -> list[Occurrence]:
    found = []
    for start in sorted(draw(st.lists(st.integers(0, 10_000), max_size=40))):
        found.append(
            Occurrence(
                draw(st.sampled_from(_VALUES)),
                start,
                start + draw(st.integers(1, 5)),
                draw(st.sampled_from([None, *_MENTIONS])),
                draw(st.sampled_from(list(Writing))),
            )
        )
    return found


@given(_numbers())
def test_occurrences_read_as_a_dict_of_tuples_by_value(numbers: list[Occurrence]) -> None:
    plain: dict[Decimal, list[Occurrence]] = {}
    first: dict[Decimal, Decimal] = {}
    for number in numbers:
        value = first.setdefault(number.value, number.value)
        plain.setdefault(value, []).append(
            Occurrence(value, number.start, number.end, number.covering, number.writing)
        )
    held = Occurrences(iter(numbers))
    assert dict(held) == {value: tuple(found) for value, found in plain.items()}
    assert list(held) == list(plain)  # in the order the text first writes each value
    for value, found in held.items():
        # The value as the document first writes it ("60.0" stays "60.0"), each covering
        # mention the very object given.
        assert all(str(o.value) == str(first[value]) for o in found)
        assert [o.covering for o in found] == [o.covering for o in plain[value]]
        assert all(a.covering is b.covering for a, b in zip(found, plain[value], strict=True))
    assert Decimal(7) not in held
    assert held.get(Decimal(7)) is None


def test_a_deferred_mapping_is_computed_once_on_first_read_and_not_by_measuring() -> None:
    calls: list[int] = []

    def compute() -> dict[str, int]:
        calls.append(1)
        return {"a": 1}

    deferred = Deferred(compute)
    retained_bytes(deferred)
    assert calls == []
    assert deferred.get("a") == 1
    assert dict(deferred.items()) == {"a": 1}
    assert "b" not in deferred
    assert calls == [1]


def test_parts_are_shared_only_when_written_alike() -> None:
    shared = SharedParts()
    sixty, sixty_point_zero = Decimal("60"), Decimal("60.0")
    assert shared.decimal(Decimal("60")) is shared.decimal(sixty)
    assert shared.decimal(sixty_point_zero) is sixty_point_zero
    one = Fact("time_seconds", Relation.EQ, Decimal("60"))
    other = Fact("time_seconds", Relation.EQ, Decimal("60.0"))
    assert one == other, "equal facts"
    assert shared.fact(one) is shared.fact(Fact("time_seconds", Relation.EQ, Decimal(60)))
    assert str(shared.fact(other).value) == "60.0", "not shared: they print differently"
    date = Fact("date", Relation.EQ, "2024-01-05")
    assert shared.fact(date).value == "2024-01-05"


def test_an_index_holds_its_mentions_on_shared_parts_and_equal_to_them() -> None:
    text = "Each of the 3 rooms holds 3 beds; 3 more rooms are planned, each of 40 m2."
    extraction = extract_document(text)
    index = EvidenceIndex.build(extraction, text)
    assert index.extraction.mentions == extraction.mentions
    threes = [m for m in index.extraction.mentions if m.fact.value == 3]
    assert len(threes) == 3
    assert len({id(m.fact.value) for m in threes}) == 1
    assert len({id(m.literal) for m in threes if m.literal is not None}) == 1
