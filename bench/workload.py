"""Claims and documents for the broker-backed benchmarks, built from the shipped samples.

Every workload is the 16 sample claims of ``examples/rag_numeric_claims.csv`` replicated
under unique claim IDs, checked against the 8-document handbook or a variant of it:

* the handbook as shipped (knowledge-base version ``v1``);
* many copies of the handbook under distinct IDs and contents, so that a fresh worker finds
  none of them cached (``copies``);
* the handbook with each document padded to a given length with handbook-like paragraphs
  (``len-200``, ``len-2k``, ``len-20k``);
* the handbook plus filler documents that claims cite next to their own, so that a claim
  cites 1, 4 or 16 documents (``cited``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from quantcheck.schemas import ClaimEvent
from quantcheck.worker.store import open_store
from quantcheck.worker.stream.publish import claim_message

from bench.common import EXAMPLES
from quantcheck.checker import Document
from quantcheck.inputs.claims import ClaimDefaults, iter_claims
from quantcheck.inputs.documents import iter_documents

HANDBOOK = EXAMPLES / "field_sensor_handbook.csv"
CLAIMS = EXAMPLES / "rag_numeric_claims.csv"
LENGTHS: dict[str, int] = {"len-200": 200, "len-2k": 2_000, "len-20k": 20_000}
CITED_COUNTS: tuple[int, ...] = (1, 4, 16)

_PARTS = (
    "pump seal",
    "antenna mount",
    "pressure sensor",
    "solar panel",
    "backup cell",
    "cable gland",
    "rain gauge",
    "data card",
)
_SENTENCES = (
    "Inspect the {part} every {a} days and replace it after {b} months of service.",
    "Keep the {part} between {a} and {c} degrees Celsius while it is in storage.",
    "Charge the {part} for {a} hours before a deployment longer than {b} days.",
    "Tighten the {part} to {a} newton metres and check it again after {b} weeks.",
    "Record the serial number of the {part} in the field log before each visit.",
    "A {part} that reads more than {a} percent off the reference is sent for repair.",
)


@dataclass(frozen=True, slots=True)
class Workload:
    """Claims ready to publish, and the ones a worker checks in advance to warm its caches."""

    name: str
    messages: list[tuple[bytes, bytes]]
    warm: list[bytes]


def paragraph(index: int) -> str:
    """A handbook-like sentence with quantities; ``index`` varies the part and the numbers."""
    template = _SENTENCES[index % len(_SENTENCES)]
    return template.format(
        part=_PARTS[index // len(_SENTENCES) % len(_PARTS)],
        a=index % 40 + 5,
        b=index % 11 + 2,
        c=index % 40 + 50,
    )


def padded(text: str, length: int, start: int) -> str:
    """``text`` followed by handbook-like paragraphs until it is about ``length`` characters."""
    pieces = [text]
    size = len(text)
    for index in itertools.count(start):
        if size >= length:
            break
        sentence = paragraph(index)
        pieces.append(sentence)
        size += len(sentence) + 1
    return " ".join(pieces)[: max(length, len(text))]


def letters(number: int) -> str:
    """``number`` spelt in lowercase letters (a, b, ..., ba, ...): distinct text with no digits,
    so the extraction finds no extra facts in it."""
    digits = []
    while True:
        number, rest = divmod(number, 26)
        digits.append(chr(ord("a") + rest))
        if number == 0:
            return "".join(reversed(digits))


def handbook() -> list[Document]:
    """The 8 shipped handbook documents."""
    return list(iter_documents(HANDBOOK))


def sample_events(kb_version: str) -> list[ClaimEvent]:
    """The 16 sample claims as claim events of ``kb_version``."""
    defaults = ClaimDefaults(kb_version=kb_version, model="bench-model", retriever="bm25")
    return [row.event for row in iter_claims(CLAIMS, defaults=defaults)]


def filler_ids(count: int) -> list[str]:
    """The IDs of the filler documents of version ``cited``."""
    return [f"F{i:02d}" for i in range(1, count + 1)]


def documents_by_version(copies: int) -> dict[str, list[Document]]:
    """Every knowledge-base version the workloads cite, with its documents."""
    base = handbook()
    versions: dict[str, list[Document]] = {"v1": base}
    versions["copies"] = [
        Document(f"{doc.doc_id}-{copy}", f"{doc.text} Copy {letters(copy)}.", doc.topic)
        for copy in range(copies)
        for doc in base
    ]
    for name, length in LENGTHS.items():
        versions[name] = [
            Document(doc.doc_id, padded(doc.text, length, start=i * 97), doc.topic)
            for i, doc in enumerate(base)
        ]
    fillers = [
        Document(doc_id, padded(paragraph(i), 200, start=i * 13 + 500), "filler")
        for i, doc_id in enumerate(filler_ids(max(CITED_COUNTS) - 1))
    ]
    versions["cited"] = base + fillers
    return versions


def load_store(url: str, copies: int) -> dict[str, int]:
    """Load every version into the store at ``url``; the number of documents of each."""
    versions = documents_by_version(copies)
    with open_store(url) as store:
        for kb_version, documents in versions.items():
            store.load_version(kb_version, documents)
    return {kb_version: len(documents) for kb_version, documents in versions.items()}


def _replicated(
    name: str, events: Sequence[ClaimEvent], count: int, variant: str = ""
) -> Iterator[ClaimEvent]:
    for i in range(count):
        event = events[i % len(events)]
        yield event.model_copy(update={"claim_id": f"{name}-{i:07d}-{event.claim_id}{variant}"})


def _workload(name: str, events: list[ClaimEvent], warm: list[ClaimEvent]) -> Workload:
    return Workload(
        name,
        [claim_message(event) for event in events],
        [claim_message(event)[1] for event in warm],
    )


def sample_workload(name: str, count: int, kb_version: str = "v1") -> Workload:
    """``count`` sample claims against the shipped handbook (or a padded variant of it)."""
    events = sample_events(kb_version)
    return _workload(name, list(_replicated(name, events, count)), events)


def copies_workload(name: str, count: int, copies: int) -> Workload:
    """``count`` sample claims, replica ``r`` citing copy ``r % copies`` of the handbook.

    Every document of version ``copies`` is cited about ``count / (8 * copies)`` times, the
    first time by a claim the worker has never seen a document of. The warm list is all of
    them, so a worker warmed with it starts with every document cached.
    """
    events = sample_events("copies")
    out: list[ClaimEvent] = []
    for i in range(count):
        event = events[i % len(events)]
        copy = i // len(events) % copies
        out.append(
            event.model_copy(
                update={
                    "claim_id": f"{name}-{i:07d}-{event.claim_id}",
                    "cited_doc_ids": [f"{d}-{copy}" for d in event.cited_doc_ids],
                    "retrieved_doc_ids": [f"{d}-{copy}" for d in event.retrieved_doc_ids],
                }
            )
        )
    return _workload(name, out, out)


def cited_workload(name: str, count: int, cited: int) -> Workload:
    """``count`` sample claims that each cite (and retrieved) ``cited`` documents: their own
    and filler documents; a claim that cites nothing still cites nothing."""
    events = []
    for event in sample_events("cited"):
        extra = filler_ids(cited - 1) if event.cited_doc_ids else []
        events.append(
            event.model_copy(
                update={
                    "cited_doc_ids": [*event.cited_doc_ids, *extra],
                    "retrieved_doc_ids": [*event.retrieved_doc_ids, *extra],
                }
            )
        )
    return _workload(name, list(_replicated(name, events, count)), events)


def write_lines(path: str, values: Sequence[bytes]) -> None:
    """Claim values one per line (JSON never holds a raw newline)."""
    with open(path, "wb") as handle:
        handle.writelines(value + b"\n" for value in values)
