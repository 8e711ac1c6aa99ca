"""Document lookups per second from the store, cold and through a warm cache, per backend.

Loads 100,000 generated documents into each backend, then times single-document lookups
(as a worker resolves a citation) in several rounds and reports the median of each:

* cold: a fresh cache every round, so every lookup is a query to the database;
* cold, batches of 10: ten IDs per call, one query each, counted per document;
* warm: every looked-up document already in the in-process cache;
* cold with facts, single and in batches: as a worker reads them, each document with the
  facts ``docs load`` stored for it, from a version of the first ``--fact-documents``
  documents loaded with their facts (how long that load took is reported too), up to
  ``--lookups`` of them per round.

PostgreSQL is the server at ``--postgres-url`` (or ``QUANTCHECK_BENCH_POSTGRES_URL``);
without one, a throwaway server is started with ``deploy/local/postgres`` and removed at
the end. Results go to ``bench/results/store_lookups.json``.

    .venv/bin/python bench/store_lookups.py [--documents 100000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from quantcheck.worker.store import CachingStore, DocumentStore, Indexer, open_store

from quantcheck.checker import Checker
from quantcheck.checker.model import Document

ROOT = Path(__file__).resolve().parent.parent
POSTGRES_SCRIPT = ROOT / "deploy" / "local" / "postgres"
DEFAULT_OUTPUT = ROOT / "bench" / "results" / "store_lookups.json"
URL_ENV = "QUANTCHECK_BENCH_POSTGRES_URL"
BATCH = 10


def documents(count: int) -> Iterator[Document]:
    """Handbook-like paragraphs of about 250 characters, one per ID."""
    for i in range(count):
        yield Document(
            f"DOC-{i:07d}",
            f"Section {i}: log a sensor reading every {i % 55 + 5} seconds during normal "
            f"operation; below {i % 30 + 10} percent battery switch to a {i % 9 + 1}-minute "
            f"interval. Calibrate at {i % 7 + 1}.5 liters per minute and recalibrate when "
            f"readings drift by more than {i % 5 + 1} percent.",
            topic=f"topic {i % 40}",
        )


@contextmanager
def postgres_url(given: str | None) -> Iterator[str]:
    """The server to measure: the one given, or a throwaway one for the run."""
    if given:
        yield given
        return
    with tempfile.TemporaryDirectory(prefix="quantcheck-bench-") as state:
        started = subprocess.run(
            [str(POSTGRES_SCRIPT), "start", "--state-dir", state],
            capture_output=True,
            text=True,
            check=False,
        )
        try:
            if started.returncode != 0:
                raise SystemExit(f"could not start PostgreSQL: {started.stderr.strip()}")
            yield started.stdout.strip()
        finally:
            subprocess.run(
                [str(POSTGRES_SCRIPT), "destroy", "--state-dir", state],
                capture_output=True,
                check=False,
            )


def rate(lookups: int, work: Callable[[], None]) -> float:
    """Lookups per second of one timed call of ``work``."""
    start = time.perf_counter()
    work()
    return lookups / (time.perf_counter() - start)


def measure(
    store: DocumentStore, kb_version: str, ids: list[str], args: argparse.Namespace
) -> dict[str, list[float]]:
    """Per-round rates for each mode."""
    rounds: dict[str, list[float]] = {"cold": [], f"cold, batches of {BATCH}": [], "warm": []}
    rng = random.Random(7)
    for _ in range(args.rounds):
        sample = rng.sample(ids, min(args.lookups, len(ids)))
        cache = CachingStore(store, max_documents=args.lookups)

        def single(cache: CachingStore = cache, sample: list[str] = sample) -> None:
            for doc_id in sample:
                if cache.get_documents(kb_version, (doc_id,)).get(doc_id) is None:
                    raise RuntimeError(f"{doc_id} did not resolve")

        rounds["cold"].append(rate(len(sample), single))
        rounds["warm"].append(rate(len(sample), single))
        batched_cache = CachingStore(store, max_documents=args.lookups)
        batches = [sample[i : i + BATCH] for i in range(0, len(sample), BATCH)]

        def batched(
            cache: CachingStore = batched_cache, batches: list[list[str]] = batches
        ) -> None:
            for batch in batches:
                if len(cache.get_documents(kb_version, batch)) != len(batch):
                    raise RuntimeError("a batch did not resolve")

        rounds[f"cold, batches of {BATCH}"].append(rate(len(sample), batched))
    return rounds


def bench_backend(name: str, url: str, args: argparse.Namespace) -> dict[str, Any]:
    """Load the documents into one backend and measure it."""
    kb_version = f"bench-{args.documents}"
    ids = [f"DOC-{i:07d}" for i in range(args.documents)]
    with open_store(url) as store:
        start = time.perf_counter()
        loaded = store.load_version(kb_version, documents(args.documents))
        load_s = time.perf_counter() - start
        rounds = measure(store, kb_version, ids, args)
        # The facts of every document are made at load: a smaller version keeps that short.
        indexed = args.fact_documents
        checker = Checker()
        start = time.perf_counter()
        store.load_version(
            f"bench-facts-{indexed}",
            documents(indexed),
            Indexer(checker.facts_stamp, checker.stored_facts),
        )
        facts_load_s = time.perf_counter() - start
    with open_store(url, facts_scope=checker.facts_stamp.scope) as reader:
        with_facts = measure(reader, f"bench-facts-{indexed}", ids[:indexed], args)
    rounds |= {f"{mode}, with facts": v for mode, v in with_facts.items() if mode != "warm"}
    return {
        "backend": name,
        "load_seconds": round(load_s, 2) if loaded.created else None,
        "facts_documents": indexed,
        "load_with_facts_seconds": round(facts_load_s, 2),
        "modes": {
            mode: {
                "median_lookups_per_s": round(statistics.median(values)),
                "rounds": [round(v) for v in values],
            }
            for mode, values in rounds.items()
        },
    }


def server_version(url: str) -> str:
    import psycopg  # noqa: PLC0415 - only when PostgreSQL is measured

    with psycopg.connect(url) as conn:
        row = conn.execute("SHOW server_version").fetchone()
    return str(row[0]) if row else "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--documents", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--lookups", type=int, default=5_000, help="lookups per round and mode")
    parser.add_argument(
        "--fact-documents", type=int, default=2_000, help="documents loaded with their facts"
    )
    parser.add_argument("--postgres-url", default=os.environ.get(URL_ENV))
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args()
    backends = args.backends.split(",")

    results: list[dict[str, Any]] = []
    environment: dict[str, str] = {
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
    }
    if "sqlite" in backends:
        with tempfile.TemporaryDirectory(prefix="quantcheck-bench-") as tmp:
            results.append(bench_backend("sqlite", f"sqlite:///{tmp}/bench.db", args))
    if "postgres" in backends:
        with postgres_url(args.postgres_url) as url:
            environment["postgresql"] = server_version(url)
            results.append(bench_backend("postgres", url, args))

    print(f"{args.documents} documents, {args.rounds} rounds of {args.lookups} lookups; medians")
    print(f"{'backend':<10} {'mode':<22} {'lookups/s':>10}")
    for result in results:
        for mode, figures in result["modes"].items():
            print(f"{result['backend']:<10} {mode:<22} {figures['median_lookups_per_s']:>10,}")
        if result["load_seconds"] is not None:
            print(f"{result['backend']:<10} {'load (seconds)':<22} {result['load_seconds']:>10}")
        load_facts = f"load {result['facts_documents']} with facts (s)"
        print(f"{result['backend']:<10} {load_facts:<22} {result['load_with_facts_seconds']:>10}")

    report = {
        "benchmark": "store_lookups",
        "measured_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "documents": args.documents,
        "rounds": args.rounds,
        "lookups_per_round": args.lookups,
        "environment": environment,
        "results": results,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    partial = args.output.with_suffix(".json.tmp")
    partial.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    partial.replace(args.output)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    sys.exit(main())
