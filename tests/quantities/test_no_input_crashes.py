"""No input can crash a check: every text of every development set, as a claim and as
evidence, random slices of them, and hostile structured documents, read without an
exception and with every span inside its text.

The development sets live beside the project (``../shared/data/external/*-dev``) on the
machines it is developed and checked on; the texts the repository ships (the sample, the
labelled cases, the benchmark seeds) are read in any case.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quantcheck.checker import Checker, CheckOptions, Claim, Document
from quantcheck.quantities.categories import Scope
from quantcheck.quantities.evidence import extract_document
from quantcheck.quantities.extract import Extraction, extract
from tests.conftest import EXAMPLES, ROOT

DEVELOPMENT_SETS = ROOT.parent / "shared" / "data" / "external"
csv.field_size_limit(sys.maxsize)


def _csv_texts(path: Path, *columns: str) -> Iterator[str]:
    with path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            for column in columns:
                if row.get(column):
                    yield row[column]


def corpus() -> list[str]:
    """Every claim and document text the project can read here, each once."""
    texts: list[str] = []
    for folder in sorted(DEVELOPMENT_SETS.glob("*-dev")):
        for path in folder.glob("*_documents.csv"):
            texts += _csv_texts(path, "text")
        for path in folder.glob("*_claims.csv"):
            texts += _csv_texts(path, "claim_text")
    texts += _csv_texts(EXAMPLES / "field_sensor_handbook.csv", "text")
    texts += _csv_texts(EXAMPLES / "rag_numeric_claims.csv", "claim_text")
    cases = yaml.safe_load((ROOT / "tests" / "data" / "quantity_cases.yaml").read_text("utf-8"))
    for case in cases:
        texts.append(case["claim"])
        evidence = case["evidence"]
        texts += [evidence] if isinstance(evidence, str) else evidence
    seeds = json.loads((ROOT / "bench" / "data" / "read_scaling_seeds.json").read_text("utf-8"))
    texts += [json.dumps(seed) for seed in _leaves(seeds)]
    return list(dict.fromkeys(texts))


def _leaves(value: object) -> Iterator[object]:
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        yield value
        for item in value:
            yield from _leaves(item)


CORPUS = corpus()


def spans_inside(text: str, read: Extraction) -> None:
    for mention in read.mentions:
        assert 0 <= mention.span.start <= mention.span.end <= len(text)
        assert text[mention.span.start : mention.span.end] == mention.text
    for item in read.set_aside:
        assert text[item.span.start : item.span.end] == item.text


@pytest.mark.slow
def test_every_text_reads_as_claim_and_as_evidence_in_both_scopes() -> None:
    # The labelled cases alone number hundreds; with the development sets, thousands.
    assert len(CORPUS) > 500
    for text in CORPUS:
        for scope in Scope:
            spans_inside(text, extract(text, scope=scope))
            spans_inside(text, extract_document(text, scope=scope))


# Claims are sentences and short answers; a whole web page read as one claim only repeats
# what reading it as evidence already covers.
CLAIM_LENGTH = 5_000


@pytest.mark.slow
def test_every_text_checks_against_itself() -> None:
    checker = Checker(CheckOptions(claim_cache_size=0))
    for number, text in enumerate(t for t in CORPUS if len(t) <= CLAIM_LENGTH):
        document = Document(f"D{number}", text)
        verdict = checker.check(
            Claim(text, (document.doc_id,), frozenset({document.doc_id})),
            {document.doc_id: document},
        )
        for check in verdict.facts:
            if check.evidence is not None and check.evidence_doc_id is not None:
                span = check.evidence.span
                assert text[span.start : span.end] == check.evidence.text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_slice_of_any_text_checks_against_any_other(data: st.DataObject) -> None:
    claim_text = data.draw(st.sampled_from(CORPUS))
    evidence_text = data.draw(st.sampled_from(CORPUS))
    start = data.draw(st.integers(0, len(claim_text)))
    end = data.draw(st.integers(start, min(len(claim_text), start + 400)))
    cut = data.draw(st.integers(0, len(evidence_text)))
    claim, evidence = claim_text[start:end], evidence_text[cut : cut + 5000]
    spans_inside(claim, extract(claim))
    spans_inside(evidence, extract_document(evidence))
    document = Document("D", evidence or " ")
    Checker().check(Claim(claim, ("D",), frozenset({"D"})), {"D": document})


HOSTILE = [
    "[" * 1000 + "]" * 1000,
    "{'a': " * 1000 + "1" + "}" * 1000,
    '{"a": ' * 3000 + "1" + "}" * 3000,
    "[" * 5000,
    "{'units': {'temp': '°C'}, 'list': [" + ", ".join(f"{{'temp': {n}.5}}" for n in range(20000)),
    "| a | b |\n|---|---|\n" + "| 1 | 2 \\| 3 |\n" * 5000,
    "# unit: years\ndate,value\n" + "\n".join(f"{1900 + n % 120},{n}.5" for n in range(20000)),
    "<table>" + "<tr><td>1</td><td>" * 5000,
    "- key: value\n" * 5000 + "1:1:1:" * 2000,
    "'" * 10000 + '"' * 10000 + "\\u" * 5000,
]


@pytest.mark.parametrize("text", HOSTILE, ids=[f"hostile-{n}" for n in range(len(HOSTILE))])
def test_hostile_structured_documents_are_read(text: str) -> None:
    spans_inside(text, extract_document(text))
    document = Document("D", text)
    Checker().check(
        Claim("The value is 12.5 °C in 1950.", ("D",), frozenset({"D"})), {"D": document}
    )
