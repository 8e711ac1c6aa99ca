"""The lemma table reads every word exactly as lemminflect, its source, does, and is what
lemminflect generates today."""

from __future__ import annotations

import lemminflect
import pytest

from quantcheck.quantities import lemmas
from tools import lemma_table


@pytest.fixture(scope="module")
def words() -> list[str]:
    return lemma_table.dictionary_words()


@pytest.mark.slow  # make lint runs the same comparison
def test_the_committed_table_is_what_lemminflect_generates() -> None:
    assert lemma_table.module_text() == lemma_table.TABLE_FILE.read_text(encoding="utf-8"), (
        "run python -m tools.lemma_table"
    )


def test_every_dictionary_word_reads_as_lemminflect_reads_it(words: list[str]) -> None:
    assert len(words) > 60_000
    differ = [w for w in words if dict(lemmas.lemmas(w)) != lemminflect.getAllLemmas(w)]
    assert differ == []


def test_a_noun_is_its_own_plural_exactly_when_lemminflect_inflects_it_so(
    words: list[str],
) -> None:
    own = [w for w in words if lemminflect.getAllLemmas(w).get("NOUN", ("",))[0] == w]
    expected = {w for w in own if lemminflect.getInflection(w, "NNS")[:1] == (w,)}
    assert {w for w in own if lemmas.same_plural(w)} == expected
    assert {"people", "sheep", "series", "personnel"} <= expected
    assert not lemmas.same_plural("employee")


@pytest.mark.parametrize(
    "word",
    # Before the first line, after the last, between two, and a prefix of a word.
    ["", "'", "aaaaa", "zzzzzzz", "employeez", "employe", "quantcheck", "é", "3d", "a:b"],
)
def test_a_word_the_dictionary_does_not_hold_has_no_readings(word: str) -> None:
    assert lemminflect.getAllLemmas(word) == {}
    assert lemmas.lemmas(word) == {}
    assert not lemmas.same_plural(word)


def test_lemmas_are_written_against_their_word() -> None:
    assert lemmas.lemmas("companies") == {"NOUN": ("company",)}
    assert lemmas.lemmas("went") == {"VERB": ("go",)}
    assert lemmas.lemmas("data") == {"NOUN": ("data", "datum")}
    assert lemmas.lemmas("scoring") == {"NOUN": ("scoring",), "VERB": ("score",)}
