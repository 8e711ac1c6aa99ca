"""Throughput of the pure check (no Kafka, no store) on the sample claims replicated.

Reports claims per second on one core with the evidence cache warm (the steady state of
a worker) and cold (every claim's documents extracted afresh), each claim read and judged
afresh (no verdict cache: the sample repeats 16 claims, which the cache would answer from
memory), and the same claims through the tutorial-style membership baseline, alternating
in every round so machine noise hits all alike. The figure of merit is the median ratio.

    .venv/bin/python -m bench.check_throughput [--claims 100000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import csv
import statistics
from collections.abc import Callable

from bench import tutorial_reference
from bench.common import EXAMPLES, timed, write_result
from quantcheck.checker import Checker, CheckOptions, Claim, Document
from quantcheck.inputs.claims import split_ids


def sample() -> tuple[list[Claim], dict[str, Document]]:
    """The 16 sample claims and the 8-document handbook."""
    with (EXAMPLES / "field_sensor_handbook.csv").open(encoding="utf-8", newline="") as handle:
        documents = {
            r["doc_id"]: Document(r["doc_id"], r["text"], r["topic"])
            for r in csv.DictReader(handle)
        }
    with (EXAMPLES / "rag_numeric_claims.csv").open(encoding="utf-8", newline="") as handle:
        claims = [
            Claim(
                r["claim_text"],
                tuple(split_ids(r["cited_doc_id"])),
                frozenset(split_ids(r["retrieved_doc_ids"])),
            )
            for r in csv.DictReader(handle)
        ]
    return claims, documents


def main() -> None:
    """Run the benchmark and write bench/results/check_throughput.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    claims, documents = sample()
    work = [claims[i % len(claims)] for i in range(args.claims)]
    texts = {doc_id: doc.text for doc_id, doc in documents.items()}
    afresh = CheckOptions(claim_cache_size=0)
    warm_checker = Checker(afresh)

    def warm() -> None:
        for claim in work:
            warm_checker.check(claim, documents)

    def cold() -> None:
        checker = Checker(afresh)
        for claim in work[: args.claims // 10]:
            checker.evidence_cache.clear()
            checker.check(claim, documents)

    def reference() -> None:
        for claim in work:
            tutorial_reference.check(
                claim.text, claim.cited_doc_ids, claim.retrieved_doc_ids, texts
            )

    warm()  # fill the cache and warm the interpreter before measuring
    rates: dict[str, list[float]] = {"warm": [], "cold": [], "reference": []}
    sizes: dict[str, int] = {"warm": len(work), "cold": len(work) // 10, "reference": len(work)}
    runs: dict[str, Callable[[], None]] = {"warm": warm, "cold": cold, "reference": reference}
    for _ in range(args.rounds):
        for name, action in runs.items():
            rates[name].append(sizes[name] / timed(action))
    ratios = [w / r for w, r in zip(rates["warm"], rates["reference"], strict=True)]
    result = {
        "claims": args.claims,
        "rounds": args.rounds,
        "claims_per_second_warm": round(statistics.median(rates["warm"])),
        "claims_per_second_cold": round(statistics.median(rates["cold"])),
        "reference_claims_per_second": round(statistics.median(rates["reference"])),
        "ratio_warm_to_reference": round(statistics.median(ratios), 3),
        "rounds_warm": [round(r) for r in rates["warm"]],
        "rounds_reference": [round(r) for r in rates["reference"]],
    }
    path = write_result("check_throughput", result)
    for key, value in result.items():
        print(f"{key}: {value}")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
