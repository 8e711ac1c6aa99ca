"""The reliability table: per fault kind, runs, claims, lost, duplicated, time to recover.

``python -m bench.reliability --runs N`` runs the fault tests that report figures N times
(fresh fault seeds each time) with ``QUANTCHECK_RELIABILITY_OUT`` set, then writes
``bench/results/reliability.json`` and ``.md``; ``--from FILE`` only tabulates figures
already collected.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
FAULT_TESTS = (
    "tests/faults/test_eviction.py",
    "tests/faults/test_broker_stalls.py",
    "tests/faults/test_refusals.py",
    "tests/faults/test_store_outage.py",
)


def collect(runs: int, out: Path) -> None:
    """Run the fault tests ``runs`` times, appending their figures to ``out``."""
    env = {**os.environ, "QUANTCHECK_RELIABILITY_OUT": str(out)}
    env.pop("QUANTCHECK_FAULT_SEED", None)
    for _ in range(runs):
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *FAULT_TESTS],
            cwd=ROOT,
            env=env,
            check=True,
        )


def tabulate(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per fault kind, the runs of it added up."""
    by_fault: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in lines:
        by_fault[line["fault"]].append(line)
    rows = []
    for fault, runs in sorted(by_fault.items()):
        rows.append(
            {
                "fault": fault,
                "runs": len(runs),
                "faults_injected": sum(r["faults"] for r in runs),
                "claims": sum(r["claims"] for r in runs),
                "lost": sum(r["lost"] for r in runs),
                "duplicated": sum(r["duplicated"] for r in runs),
                "recover_median_s": round(
                    statistics.median(r["recover_median_s"] for r in runs), 1
                ),
                "recover_max_s": round(max(r["recover_max_s"] for r in runs), 1),
            }
        )
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    """The rows as the README's table."""
    head = (
        "| fault | runs | faults injected | claims | lost | duplicated | time to recover, "
        "median / max |\n| --- | --- | --- | --- | --- | --- | --- |\n"
    )
    body = "".join(
        f"| {r['fault']} | {r['runs']} | {r['faults_injected']} | {r['claims']:,} | {r['lost']} "
        f"| {r['duplicated']} | {r['recover_median_s']} s / {r['recover_max_s']} s |\n"
        for r in rows
    )
    return head + body


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--from", dest="source", type=Path)
    args = parser.parse_args()
    if args.source is None:
        with tempfile.TemporaryDirectory() as scratch:
            source = Path(scratch) / "figures.jsonl"
            collect(args.runs, source)
            lines = [json.loads(x) for x in source.read_text().splitlines() if x.strip()]
    else:
        lines = [json.loads(x) for x in args.source.read_text().splitlines() if x.strip()]
    rows = tabulate(lines)
    (RESULTS / "reliability.json").write_text(json.dumps(rows, indent=2) + "\n")
    (RESULTS / "reliability.md").write_text(
        "# Reliability under injected faults\n\n"
        "Figures from the fault tests (`python -m bench.reliability`); lost and duplicated\n"
        "are counted per claim by a read_committed reader.\n\n" + markdown(rows)
    )
    print(markdown(rows))


if __name__ == "__main__":
    main()
