"""The offset map between an answer and its text with markers removed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quantcheck.answers import OffsetMap, Span


def test_removing_and_mapping_back() -> None:
    original = "ab [1]cd [2]."
    offsets = OffsetMap.removing(original, [Span(2, 6), Span(8, 12)])
    assert offsets.text == "abcd."
    assert [offsets.to_original(i) for i in range(6)] == [0, 1, 6, 7, 12, 13]
    assert offsets.span_to_original(0, 4) == Span(0, 8)
    assert offsets.span_to_original(2, 4) == Span(6, 8)
    assert offsets.span_to_original(3, 3) == Span(7, 7)
    assert [offsets.to_text(i) for i in (0, 2, 4, 6, 9, 12, 13)] == [0, 2, 2, 2, 4, 4, 5]


def test_removing_everything_and_nothing() -> None:
    assert OffsetMap.removing("[1]", [Span(0, 3)]).text == ""
    whole = OffsetMap.removing("abc", [])
    assert (whole.text, whole.to_original(3)) == ("abc", 3)


def test_overlapping_ranges_are_refused() -> None:
    with pytest.raises(ValueError, match="overlap"):
        OffsetMap.removing("abcdef", [Span(1, 4), Span(3, 5)])


def test_offsets_outside_the_text_are_refused() -> None:
    with pytest.raises(ValueError, match="outside"):
        OffsetMap.removing("abc", []).to_original(4)


@given(st.text(max_size=40), st.lists(st.integers(0, 40), max_size=8))
def test_every_kept_character_maps_to_itself(original: str, cuts: list[int]) -> None:
    points = sorted({min(c, len(original)) for c in cuts})
    removed = [Span(a, b) for a, b in zip(points[::2], points[1::2], strict=False)]
    offsets = OffsetMap.removing(original, removed)
    for index, char in enumerate(offsets.text):
        assert original[offsets.to_original(index)] == char
        assert offsets.to_text(offsets.to_original(index)) == index
