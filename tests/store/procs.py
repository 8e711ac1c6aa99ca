"""Code the store tests run in child processes (spawned, so importable by module path)."""

from __future__ import annotations

import csv
import hashlib
import time
import traceback
from collections.abc import Iterator
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier, Event
from pathlib import Path
from typing import Any

from quantcheck.worker.store import open_store

from quantcheck.checker.model import Document
from quantcheck.inputs.documents import iter_documents


def generated_text(tag: str, index: int) -> str:
    """A deterministic document text, different per tag, about 200 characters long."""
    digest = hashlib.sha256(f"{tag}:{index}".encode()).hexdigest()
    return (
        f"Document {index} of {tag}. Log a reading every {index % 59 + 1} seconds and "
        f"calibrate at {index % 7 + 1}.5 liters per minute. Reference {digest}."
    )


def generated(tag: str, count: int) -> Iterator[Document]:
    """``count`` documents D000000, D000001, ... whose texts depend on ``tag``."""
    for index in range(count):
        yield Document(f"D{index:06d}", generated_text(tag, index), topic=f"topic {index % 10}")


def load(url: str, kb_version: str, tag: str, count: int, ready: Barrier | None = None) -> None:
    """Load a generated version; with ``ready``, open the store once every loader waits."""
    if ready is not None:
        ready.wait(60)
    with open_store(url) as store:
        store.load_version(kb_version, generated(tag, count))


def write_csv(path: Path, tag: str, count: int) -> Path:
    """Write a generated version as a document CSV file."""
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["doc_id", "topic", "text"])
        for doc in generated(tag, count):
            writer.writerow([doc.doc_id, doc.topic, doc.text])
    return path


def load_file_and_hang(
    url: str, kb_version: str, path: Path, signal_after: int | None, staged: Event
) -> None:
    """Start loading ``path``, then stop forever once ``signal_after`` rows (or all) are staged.

    The event is set only when the store asks for the row after them, that is once it has
    taken those rows; the parent then kills this process.
    """

    def documents() -> Iterator[Document]:
        for index, doc in enumerate(iter_documents(path)):
            if index == signal_after:
                staged.set()
                time.sleep(3600)
            yield doc
        staged.set()
        time.sleep(3600)

    with open_store(url) as store:
        store.load_version(kb_version, documents())


def read_loop(
    url: str,
    versions: dict[str, tuple[str, int]],
    ready: Barrier,
    stop: Event,
    results: Queue[dict[str, Any]],
) -> None:
    """Resolve every document of every version until ``stop``; report what was seen.

    ``versions`` maps a version to the tag and count it is (or will be) loaded with. A
    version must be either absent (nothing resolves) or complete (every document
    resolves, with its expected text); anything in between is reported as an error.
    """
    seen = {version: {"absent": 0, "complete": 0} for version in versions}
    errors: list[str] = []
    ids = {version: [f"D{i:06d}" for i in range(count)] for version, (_, count) in versions.items()}
    try:
        with open_store(url) as store:
            for iteration in range(1_000_000):
                for version, (tag, count) in versions.items():
                    info = store.get_version(version)
                    docs = store.get_documents(version, ids[version])
                    if info is not None and info.document_count != count:
                        errors.append(f"{version}: count {info.document_count}, want {count}")
                    if info is not None and len(docs) != count:
                        errors.append(f"{version}: listed but {len(docs)} of {count} resolve")
                    if len(docs) not in (0, count):
                        errors.append(f"{version}: partial read, {len(docs)} of {count}")
                    if len(docs) == count:
                        seen[version]["complete"] += 1
                        for index in (0, count // 2, count - 1):
                            doc = docs[ids[version][index]]
                            if doc.text != generated_text(tag, index):
                                errors.append(f"{version}: wrong text for {doc.doc_id}")
                    else:
                        seen[version]["absent"] += 1
                if iteration == 0:
                    ready.wait(60)
                if stop.is_set() or len(errors) > 10:
                    break
    except Exception:
        errors.append(traceback.format_exc())
    results.put({"seen": seen, "errors": errors})


def reindex_until(url: str, kb_version: str, count: int, reached: Event) -> None:
    """Reindex a version, stopping for good inside the indexing of its ``count + 1``-th
    text (after ``count`` were written): where the parent kills it."""
    import threading  # noqa: PLC0415

    from quantcheck.worker.store import Indexer  # noqa: PLC0415

    from quantcheck.checker import Checker  # noqa: PLC0415

    checker = Checker()
    made = 0

    def facts_of(text: str) -> bytes:
        nonlocal made
        if made == count:
            reached.set()
            # A local event nobody sets: the process stays here until it is killed.
            threading.Event().wait(300)
        made += 1
        return checker.stored_facts(text)

    with open_store(url) as store:
        store.reindex(kb_version, Indexer(checker.facts_stamp, facts_of))
