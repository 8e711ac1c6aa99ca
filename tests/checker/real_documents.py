"""Real documents to test stored facts on: the sample handbook, and the development sets'
documents where they are (``../shared/data/external/*-dev``, beside the project on the
machines it is developed and checked on)."""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import EXAMPLES, ROOT

DEVELOPMENT_SETS = ROOT.parent / "shared" / "data" / "external"


def _rows(path: Path) -> Iterator[dict[str, str]]:
    # Data documents run to megabytes in one field, past the csv module's default limit.
    csv.field_size_limit(sys.maxsize)
    with path.open(encoding="utf-8", newline="") as handle:
        yield from csv.DictReader(handle)


def sample_documents() -> dict[str, str]:
    """The sample handbook's texts by document ID."""
    return {row["doc_id"]: row["text"] for row in _rows(EXAMPLES / "field_sensor_handbook.csv")}


def sample_claims() -> list[dict[str, str]]:
    """The sample claims' rows."""
    return list(_rows(EXAMPLES / "rag_numeric_claims.csv"))


def development_documents(every: int = 1) -> dict[str, str]:
    """Every ``every``-th document of each development set, by ID."""
    found: dict[str, str] = {}
    for path in sorted(DEVELOPMENT_SETS.glob("*-dev/*_documents.csv")):
        for n, row in enumerate(_rows(path)):
            if n % every == 0:
                found[row["doc_id"]] = row["text"]
    return found


def development_claims(every: int = 1) -> list[dict[str, str]]:
    """Every ``every``-th claim row of each development set."""
    found: list[dict[str, str]] = []
    for path in sorted(DEVELOPMENT_SETS.glob("*-dev/*_claims.csv")):
        found += [row for n, row in enumerate(_rows(path)) if n % every == 0]
    return found
