"""Citation markers: every supported style, and brackets that are not citations."""

from __future__ import annotations

import pytest

from quantcheck.answers import Marker, find_markers


@pytest.mark.parametrize(
    ("text", "markers"),
    [
        ("every 15 s [1].", [("[1]", ("1",))]),
        ("every 15 s [1, 3].", [("[1, 3]", ("1", "3"))]),
        ("every 15 s [1;3].", [("[1;3]", ("1", "3"))]),
        ("every 15 s [1][2].", [("[1]", ("1",)), ("[2]", ("2",))]),
        ("every 15 s [S01].", [("[S01]", ("S01",))]),
        ("every 15 s【2】.", [("【2】", ("2",))]),
        ("every 15 s【1、2】.", [("【1、2】", ("1", "2"))]),
        ("every 15 s^[3].", [("^[3]", ("3",))]),
        ("every 15 s[^2].", [("[^2]", ("2",))]),
        ("every 15 s [2-4].", [("[2-4]", ("2", "3", "4"))]),
        ("every 15 s [ 7 ].", [("[ 7 ]", ("7",))]),
    ],
)
def test_marker_styles(text: str, markers: list[tuple[str, tuple[str, ...]]]) -> None:
    found = find_markers(text)
    assert [(text[m.start : m.end], m.labels) for m in found] == markers


@pytest.mark.parametrize(
    "text",
    [
        "as written [sic] in the log",
        "the interval [2.5, 3.0] holds",
        "see [the manual]",
        "a list []",
        "a years span [1990-2030]",
        "unclosed [1 bracket",
        "split over lines [1\n]",
    ],
)
def test_brackets_that_are_not_citations(text: str) -> None:
    assert find_markers(text) == ()


def test_known_labels_count_whatever_they_look_like() -> None:
    text = "as the manual says [manual] and [doc a]"
    (marker,) = find_markers(text, known={"manual"})
    assert marker == Marker(19, 27, ("manual",))


def test_one_bad_label_leaves_the_bracket_as_text() -> None:
    assert find_markers("values [1, see above]") == ()
