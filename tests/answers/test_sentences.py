"""Sentence boundaries on the labelled cases, and the rules added to sentencex."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from quantcheck.answers import sentence_spans

CASES_FILE = Path(__file__).resolve().parents[1] / "data" / "sentence_cases.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))


def sentences(text: str) -> list[str]:
    return [text[span.start : span.end] for span in sentence_spans(text)]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["sentences"][0][:40])
def test_labelled_case(case: dict[str, Any]) -> None:
    expected: list[str] = case["sentences"]
    assert sentences(case.get("separator", " ").join(expected)) == expected


def test_the_set_covers_what_the_splitter_must_survive() -> None:
    texts = "\n".join(case.get("separator", " ").join(case["sentences"]) for case in CASES)
    for needed in ("e.g.", "U.S.", "2.5 L/min", "J. Smith", "15 s.", "approx.", "\n- "):
        assert needed in texts, needed


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "The cable is 3 m. Longer ones need a repeater.",
            ["The cable is 3 m.", "Longer ones need a repeater."],
        ),
        (
            "The cable is 3 m. long in the U.S. model.",
            ["The cable is 3 m. long in the U.S. model."],
        ),
        ("Signed by J. Smith. He agreed.", ["Signed by J. Smith.", "He agreed."]),
        ("It holds ca. 5 L. Refill it.", ["It holds ca. 5 L.", "Refill it."]),
        ("Limits:\nhigh is 45 °C.", ["Limits:", "high is 45 °C."]),
        ("", []),
        ("  \n\n  ", []),
        ("...", []),
        ("No terminator at all", ["No terminator at all"]),
        ("First.\n\nSecond paragraph.", ["First.", "Second paragraph."]),
    ],
)
def test_rules(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


def test_spans_index_code_points() -> None:
    text = "Café 😀 runs at 5 °C. Ünïcode is fine."
    assert sentences(text) == ["Café 😀 runs at 5 °C.", "Ünïcode is fine."]


def test_long_hostile_text_is_split() -> None:
    text = ("1 s. A " * 3000)[:20_000]
    spans = sentence_spans(text)
    assert len(spans) > 2000
    assert all(text[s.start : s.end].strip() == text[s.start : s.end] for s in spans)
