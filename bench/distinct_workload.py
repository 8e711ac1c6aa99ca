"""Distinct claims over real documents: the workload of the realistic benchmarks.

The claims of every development set (``../shared/data/external/*-dev/*_claims.csv`` beside
the repository) cycled to any count, each made unique by a trailing word that holds no
number, over the documents those claims cite (``*_documents.csv``). Every claim's text
differs from every other's, so no verdict cache can answer a check, while its facts,
citations and verdict stay those of the original claim: the word is built from letters
that no number, unit, scale, Roman numeral or number word is written with, and stands
after a semicolon, in a clause of its own, so that it is not one of the words a value of
the claim is said of (a word in the claim's last clause would be).

The API other benchmarks build on:

* :func:`development_sets` finds the sets (one clear line when the folder is absent);
* :func:`load_workload` reads them into originals and documents;
* :func:`distinct_claims` makes ``count`` distinct claims from the originals;
* :func:`write_workload` writes both as the sample CSV layout, ready for ``quantcheck
  check --documents ... --claims ...``.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.common import ROOT

DATA = ROOT.parent / "shared" / "data" / "external"
"""Where the development sets live on the machines the project is developed on."""

ALPHABET = "fgjnpqrwz"
"""Consonants outside every Roman numeral (c d i l m v x), scale letter (k m b) and unit
abbreviation a claim could end on (s h t), and no vowel, so no word of them is a number
word: the trailing word adds nothing a checker could read as a fact."""

WORD_LENGTH = 6
"""Enough letters for ``len(ALPHABET) ** WORD_LENGTH`` (531,441) distinct claims."""

CLAIM_FIELDS = ("claim_id", "claim_text", "cited_doc_id", "retrieved_doc_ids")
"""The sample CSV layout's claim columns; ``expected_status`` is left out, since the
benchmarks time checking, not agreement with the labels."""


class MissingDataError(Exception):
    """The development sets are not where the workload reads them from."""


@dataclass(frozen=True, slots=True)
class DevelopmentSet:
    """One development set: its name and its two files."""

    name: str
    claims: Path
    documents: Path


@dataclass(frozen=True, slots=True)
class OriginalClaim:
    """A claim as its development set states it."""

    claim_id: str
    text: str
    cited_doc_id: str
    retrieved_doc_ids: str


@dataclass(frozen=True, slots=True)
class DistinctClaim:
    """A claim of the workload: an original with a unique trailing word."""

    claim_id: str
    text: str
    cited_doc_id: str
    retrieved_doc_ids: str
    original_id: str

    def row(self) -> dict[str, str]:
        """The claim as a row of the sample CSV layout."""
        return {
            "claim_id": self.claim_id,
            "claim_text": self.text,
            "cited_doc_id": self.cited_doc_id,
            "retrieved_doc_ids": self.retrieved_doc_ids,
        }


@dataclass(frozen=True, slots=True)
class Workload:
    """The originals of every development set and the documents they cite, by ID."""

    originals: tuple[OriginalClaim, ...]
    documents: dict[str, str]


@dataclass(frozen=True, slots=True)
class WrittenWorkload:
    """A workload written as files: what ``quantcheck check`` reads."""

    claims: Path
    documents: Path
    claim_count: int
    document_count: int
    original_count: int


def development_sets(data: Path = DATA) -> tuple[DevelopmentSet, ...]:
    """Every ``*-dev`` folder of ``data`` holding a claims and a documents file."""
    if not data.is_dir():
        raise MissingDataError(f"no development sets: folder {data} does not exist")
    found = []
    for folder in sorted(data.glob("*-dev")):
        claims = sorted(folder.glob("*_claims.csv"))
        documents = sorted(folder.glob("*_documents.csv"))
        if claims and documents:
            found.append(DevelopmentSet(folder.name, claims[0], documents[0]))
    if not found:
        raise MissingDataError(f"no development sets: no *-dev folder with both files in {data}")
    return tuple(found)


def _rows(path: Path) -> Iterator[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        yield from csv.DictReader(handle)


def load_workload(sets: Sequence[DevelopmentSet]) -> Workload:
    """The claims and documents of ``sets``, claims in file order."""
    originals: list[OriginalClaim] = []
    documents: dict[str, str] = {}
    for dev in sets:
        for row in _rows(dev.documents):
            documents[row["doc_id"]] = row["text"]
        originals += [
            OriginalClaim(
                row["claim_id"], row["claim_text"], row["cited_doc_id"], row["retrieved_doc_ids"]
            )
            for row in _rows(dev.claims)
        ]
    return Workload(tuple(originals), documents)


def unique_word(n: int) -> str:
    """The ``n``-th word of ``WORD_LENGTH`` letters of ``ALPHABET``: distinct for every
    ``n`` below ``len(ALPHABET) ** WORD_LENGTH``."""
    base = len(ALPHABET)
    if not 0 <= n < base**WORD_LENGTH:
        raise ValueError(f"claim number {n} is outside 0..{base**WORD_LENGTH - 1}")
    letters = []
    for _ in range(WORD_LENGTH):
        n, digit = divmod(n, base)
        letters.append(ALPHABET[digit])
    return "".join(reversed(letters))


def distinct(original: OriginalClaim, n: int) -> DistinctClaim:
    """The ``n``-th claim of a workload, made from ``original``."""
    return DistinctClaim(
        f"D{n:07d}",
        f"{original.text}; {unique_word(n)}",
        original.cited_doc_id,
        original.retrieved_doc_ids,
        original.claim_id,
    )


def distinct_claims(originals: Sequence[OriginalClaim], count: int) -> Iterator[DistinctClaim]:
    """``count`` distinct claims, cycling through ``originals`` in order."""
    for n in range(count):
        yield distinct(originals[n % len(originals)], n)


def write_workload(directory: Path, count: int, data: Path = DATA) -> WrittenWorkload:
    """``count`` distinct claims and every document of the development sets in ``data``,
    written to ``directory`` as ``distinct-claims-COUNT.csv`` and ``documents.csv``."""
    workload = load_workload(development_sets(data))
    documents = directory / "documents.csv"
    with documents.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["doc_id", "text"])
        writer.writerows(workload.documents.items())
    claims = directory / f"distinct-claims-{count}.csv"
    with claims.open("w", encoding="utf-8", newline="") as handle:
        rows = csv.DictWriter(handle, fieldnames=CLAIM_FIELDS)
        rows.writeheader()
        rows.writerows(claim.row() for claim in distinct_claims(workload.originals, count))
    return WrittenWorkload(
        claims, documents, count, len(workload.documents), len(workload.originals)
    )
