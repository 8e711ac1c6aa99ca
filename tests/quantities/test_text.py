"""Normalization keeps a way back to every original offset, remembering only the clusters
that do not become one character each."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from quantcheck.quantities.text import VULGAR_FRACTIONS, normalize

# Characters whose NFKC form is longer, shorter, composed or unchanged, marks alone, and
# Hangul jamo (which compose across clusters in whole-text NFKC, not cluster by cluster).
PIECES = ["a", "1", " ", "é", "e\u0301", "\u0301", "ﬁ", "℃", "１", "\u00a0", "ß", "ᄀ", "ᅡ"]
PIECES += ["x\u0323\u0307", "Å", "ǅ", "\u2126", "½", "¾", "⅓"]


def offsets(text: str) -> tuple[str, list[int], list[int]]:
    """Normalization cluster by cluster, with every normalized character's original
    cluster: the plain statement of what normalize must compute."""
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    index = 0
    while index < len(text):
        end = index + 1
        while end < len(text) and unicodedata.combining(text[end]):
            end += 1
        piece = unicodedata.normalize("NFKC", text[index:end])
        if text[index:end] in VULGAR_FRACTIONS:
            # "2½" is 2.5 and "½" alone 0.5, where NFKC would write "21⁄2" and "1⁄2".
            after_digit = index > 0 and text[index - 1].isdecimal()
            spaced = index > 1 and text[index - 1].isspace() and text[index - 2].isdecimal()
            if not spaced:
                piece = ("" if after_digit else "0") + VULGAR_FRACTIONS[text[index:end]]
        pieces.append(piece)
        starts += [index] * len(piece)
        ends += [end] * len(piece)
        index = end
    return "".join(pieces), starts, ends


@given(st.lists(st.sampled_from(PIECES), max_size=60), st.integers(1, 200), st.data())
def test_every_span_maps_back_to_the_clusters_it_came_from(
    pieces: list[str], repeat: int, data: st.DataObject
) -> None:
    text = "".join(pieces) * repeat  # long enough to span several runs of normalization
    norm = normalize(text)
    if text.isascii() or unicodedata.is_normalized("NFKC", text):
        assert norm.text == text
        assert norm.original_span(2, 5) == (2, 5)
        return
    expected, starts, ends = offsets(text)
    assert norm.text == expected
    for _ in range(20):
        start = data.draw(st.integers(0, len(expected)))
        end = data.draw(st.integers(start, len(expected)))
        if start == end:
            at = starts[start] if start < len(starts) else len(text)
            assert norm.original_span(start, end) == (at, at)
        else:
            assert norm.original_span(start, end) == (starts[start], ends[end - 1])


def test_a_long_text_with_one_accent_remembers_one_cluster() -> None:
    text = "x" * 100_000 + "e\u0301" + "y" * 100_000
    norm = normalize(text)
    assert norm.text == "x" * 100_000 + "é" + "y" * 100_000
    assert norm.original_span(100_000, 100_001) == (100_000, 100_002)
    assert norm.original_span(100_001, 100_003) == (100_002, 100_004)
    assert norm._clusters is not None
    assert [len(part) for part in norm._clusters] == [1, 1, 1, 1]


def test_a_character_reference_reads_as_its_character_and_maps_back_whole() -> None:
    text = "Child &pound;7.00, 21&deg;C, A &amp; B, &#8364;5, &lt;b&gt; &bogus;"
    norm = normalize(text)
    assert norm.text == "Child £7.00, 21°C, A & B, €5, &lt;b&gt; &bogus;"
    pound = norm.text.index("£")
    assert norm.original_span(pound, pound + 5) == (6, 17)  # "&pound;7.00" as written
    euro = norm.text.index("€")
    assert text[slice(*norm.original_span(euro, euro + 2))] == "&#8364;5"


def test_an_ascii_text_without_references_is_kept_as_it_is() -> None:
    text = "Fish & chips for 2 at 7 pm"
    norm = normalize(text)
    assert norm.text == text
    assert norm._clusters is None
