"""A cold worker against a loaded version: its first distinct claims with the facts stored
at load time, and with every document extracted from its text.

The claims are the first ``--claims`` distinct claims of the development sets
(:mod:`bench.distinct_workload`), published once. Each run is a fresh
``bench.worker_process`` (the worker as ``quantcheck worker`` assembles it) with empty
caches, as after a deployment or a restart, reading the claims exactly-once with a
consumer group of its own, against one of two SQLite stores holding the same version of
the sets' documents:

* facts: loaded as ``quantcheck docs load`` loads, each document's facts stored;
* text: the same documents without facts, as a version loaded before an upgrade stays
  until ``quantcheck docs reindex``: every document is extracted on first sight.

Per run: seconds from the worker's first poll until the last verdict arrives at a
read_committed consumer; claims per second over the first minute of that (over the whole
run when it is shorter); CPU per claim; peak RSS. The two kinds of run alternate for
``--rounds`` rounds, so machine noise hits both alike; the speed-up is the median over
rounds of text seconds / facts seconds, against a goal of 2. Also measured: each load's
time, the bytes of the stored facts beside those of the texts, and, in this process, the
CPU time a checker takes to read every document's facts from the stored bytes and to
extract them from the texts. Results go to ``bench/results/cold_worker.json``.

    .venv/bin/python -m bench.cold_worker [--claims 10000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from quantcheck.schemas import ClaimEvent
from quantcheck.worker.store import Indexer, open_store
from quantcheck.worker.stream.publish import claim_message
from quantcheck.worker.stream.topics import DEFAULT_PARTITIONS, worker_topics

from bench import distinct_workload, workload
from bench.broker import Receiver, make_topics, shared_broker, unique_name
from bench.common import write_result
from bench.kafka_throughput import STALL_TIMEOUT_S, Bench, Published, StalledRunError
from quantcheck.checker import Checker, Document
from quantcheck.checker.model import StoredFacts
from quantcheck.inputs.claims import split_ids
from quantcheck.inputs.documents import iter_documents

KB_VERSION = "v1"
MINUTE_S = 60.0
SPEEDUP_GOAL = 2.0
KINDS = ("facts", "text")


@dataclass(frozen=True, slots=True)
class ColdRun:
    """One cold worker's run over every published claim."""

    seconds: float
    first_minute_claims_per_s: float
    cpu_us_per_claim: float
    peak_rss_bytes: int


class ColdBench(Bench):
    """Runs fresh, cold workers against one store and times every verdict's arrival."""

    def cold(self, published: Published) -> ColdRun:
        """A fresh worker with empty caches over the published claims."""
        return self._retried_cold(published)

    def _retried_cold(self, published: Published) -> ColdRun:
        try:
            return self._cold_once(published)
        except StalledRunError as exc:
            self.stalls.append(str(exc).splitlines()[0])
            return self._cold_once(published)

    def _cold_once(self, published: Published) -> ColdRun:
        verdicts, dlq = unique_name("verdicts"), unique_name("dlq")
        specs = worker_topics(claims=published.topic, verdicts=verdicts, dlq=dlq)
        make_topics(self.bootstrap, specs[1:])
        report = self._report_path("cold")
        argv = self.worker_argv(published.topic, verdicts, dlq, "exactly-once", report)
        receiver = Receiver(self.bootstrap, verdicts, DEFAULT_PARTITIONS)
        process = self._start(argv, report)
        arrivals: list[float] = []
        try:
            deadline = time.monotonic() + STALL_TIMEOUT_S
            while len(arrivals) < published.claims:
                polled = receiver.poll(100)
                if polled:
                    arrivals += [at for _, at in polled]
                    deadline = time.monotonic() + STALL_TIMEOUT_S
                elif time.monotonic() > deadline or process.poll() is not None:
                    raise StalledRunError(
                        f"cold worker: {len(arrivals)} of {published.claims} verdicts"
                    )
        finally:
            self._stop(process)
            receiver.close()
        reported = json.loads(report.read_text(encoding="utf-8"))
        first = float(reported["first_poll_at"])
        seconds = max(arrivals) - first
        window = min(MINUTE_S, seconds)
        within = sum(1 for at in arrivals if at - first <= window)
        return ColdRun(
            seconds,
            within / window,
            float(reported["cpu_seconds"]) * 1e6 / published.claims,
            int(reported["peak_rss_bytes"]),
        )


def claims_workload(count: int) -> workload.Workload:
    """The first ``count`` distinct claims, as claim messages of version ``KB_VERSION``."""
    sets = distinct_workload.load_workload(distinct_workload.development_sets())
    produced_at = datetime.now(UTC)
    messages = [
        claim_message(
            ClaimEvent(
                schema_version=1,
                claim_id=claim.claim_id,
                claim_text=claim.text,
                cited_doc_ids=split_ids(claim.cited_doc_id),
                retrieved_doc_ids=split_ids(claim.retrieved_doc_ids),
                kb_version=KB_VERSION,
                produced_at=produced_at,
                model="bench-model",
                retriever="bm25",
            )
        )
        for claim in distinct_workload.distinct_claims(sets.originals, count)
    ]
    return workload.Workload("distinct", messages, [])


def load_stores(workdir: Path, documents: Path) -> tuple[dict[str, str], dict[str, Any]]:
    """The two stores, by kind, and what loading them took."""
    urls = {kind: f"sqlite:///{workdir / kind / 'store.db'}" for kind in KINDS}
    checker = Checker()
    indexers = {"facts": Indexer(checker.facts_stamp, checker.stored_facts), "text": None}
    seconds: dict[str, float] = {}
    for kind, url in urls.items():
        (workdir / kind).mkdir()
        started = time.perf_counter()
        with open_store(url) as store:
            store.load_version(KB_VERSION, iter_documents(str(documents)), indexers[kind])
        seconds[kind] = time.perf_counter() - started
    with sqlite3.connect(workdir / "facts" / "store.db") as db:
        texts, facts = db.execute(
            "SELECT (SELECT sum(length(CAST(text AS BLOB))) FROM doc_contents),"
            " (SELECT sum(length(facts)) FROM doc_facts)"
        ).fetchone()
    return urls, {
        "texts_only_seconds": round(seconds["text"], 2),
        "with_facts_seconds": round(seconds["facts"], 2),
        "text_mib": round(texts / 2**20, 2),
        "facts_mib": round(facts / 2**20, 2),
    }


def reading(texts: list[str]) -> dict[str, Any]:
    """CPU seconds a fresh checker takes to index every text, from its stored facts and
    from the text itself."""
    writer = Checker()
    stored = [Document(str(n), text) for n, text in enumerate(texts)]
    with_facts = [
        Document(
            doc.doc_id,
            doc.text,
            facts=StoredFacts(writer.facts_stamp, writer.stored_facts(doc.text)),
        )
        for doc in stored
    ]
    seconds: dict[str, float] = {}
    for kind, documents in (("decode", with_facts), ("extract", stored)):
        checker = Checker()
        started = time.process_time()
        for doc in documents:
            checker.evidence(doc)
        seconds[kind] = time.process_time() - started
    return {
        "documents": len(texts),
        "extract_cpu_seconds": round(seconds["extract"], 2),
        "decode_cpu_seconds": round(seconds["decode"], 2),
        "ratio": round(seconds["extract"] / seconds["decode"], 1),
    }


def _figures(runs: list[ColdRun], claims: int) -> dict[str, Any]:
    seconds = statistics.median(r.seconds for r in runs)
    return {
        "seconds": round(seconds, 2),
        "claims_per_s": round(claims / seconds),
        "first_minute_claims_per_s": round(
            statistics.median(r.first_minute_claims_per_s for r in runs)
        ),
        "cpu_us_per_claim": round(statistics.median(r.cpu_us_per_claim for r in runs)),
        "peak_rss_mib": round(max(r.peak_rss_bytes for r in runs) / 2**20, 1),
        "rounds_seconds": [round(r.seconds, 2) for r in runs],
    }


def measure(bootstrap: str, args: argparse.Namespace) -> dict[str, Any]:
    """Load both stores, publish the claims, and run the cold workers in turn."""
    with tempfile.TemporaryDirectory(prefix="quantcheck-bench-") as tmp:
        workdir = Path(tmp)
        written = distinct_workload.write_workload(workdir, 1)
        urls, load = load_stores(workdir, written.documents)
        texts = [doc.text for doc in iter_documents(str(written.documents))]
        benches = {kind: ColdBench(bootstrap, workdir / kind, urls[kind]) for kind in KINDS}
        published = benches["facts"].publish(claims_workload(args.claims))
        runs: dict[str, list[ColdRun]] = {kind: [] for kind in KINDS}
        for round_number in range(args.rounds):
            for kind in KINDS:
                print(f"round {round_number + 1}: {kind} ...", flush=True)
                runs[kind].append(benches[kind].cold(published))
        speedups = [t.seconds / f.seconds for f, t in zip(runs["facts"], runs["text"], strict=True)]
        minute = [
            f.first_minute_claims_per_s / t.first_minute_claims_per_s
            for f, t in zip(runs["facts"], runs["text"], strict=True)
        ]
        speedup = statistics.median(speedups)
        return {
            "claims": args.claims,
            "documents": written.document_count,
            "rounds": args.rounds,
            "store": "sqlite",
            "delivery": "exactly-once",
            "load": load,
            "reading": reading(texts),
            "facts": _figures(runs["facts"], args.claims),
            "text": _figures(runs["text"], args.claims),
            "speedup": round(speedup, 2),
            "rounds_speedup": [round(s, 2) for s in speedups],
            "first_minute_speedup": round(statistics.median(minute), 2),
            "goal": {"min_speedup": SPEEDUP_GOAL, "met": speedup >= SPEEDUP_GOAL},
            "stalled_runs_repeated": benches["facts"].stalls + benches["text"].stalls,
        }


def main() -> None:
    """Run the benchmark and write bench/results/cold_worker.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=10_000, help="distinct claims per run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each kind")
    args = parser.parse_args()
    with shared_broker() as bootstrap:
        result = measure(bootstrap, args)
    path = write_result("cold_worker", result)
    print(json.dumps(result, indent=2))
    print(f"written to {path}")


if __name__ == "__main__":
    main()
