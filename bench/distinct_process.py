"""Distinct claims over real documents: ``quantcheck check`` beside its two peers, whole processes.

The realistic case: 100,000 claims from every development set, each made unique by a
trailing word (``bench.distinct_workload``), over the sets' own documents, so no verdict
cache can answer a check and every check reads documents written by others. Three
programs, each a process of its own reading the same two CSV files and writing a results
CSV, in rounds whose order rotates so that machine noise hits all alike:

* ``quantcheck check``, doing all it always does (citation gates, every rule, reasons,
  spans, the results file);
* the tutorial-style checker (``bench/tutorial_process.py``: set difference, the cited
  document re-extracted for every claim);
* corroborate 0.1.0, pinned, in an environment of its own (``bench.peer_env``), driven
  by ``bench/corroborate_process.py``: it looks each number up as text.

Reports each program's median wall-clock seconds, claims per second (and per CPU second,
the rate of a core of its own) and peak resident set size, the ratios of quantcheck's time
to each peer's in the same run, the goals those ratios are held to, each program's count
of claims by status (every program must write a row for every claim), and the machine's
load average after each program's run (the median), since on a shared machine the seconds
depend on what else runs. The repeated-sample run of ``bench.check_process`` is the cache
case beside it.

    .venv/bin/python -m bench.distinct_process [--claims 100000] [--rounds 3] [--out DIR]
                                               [--data DIR]
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import RESULTS, ROOT, run_process, write_result
from bench.distinct_workload import DATA, MissingDataError, development_sets, write_workload
from bench.peer_env import PEER, PEER_VERSION, PeerSetupError, peer_python

NAME = "distinct_process"
# The goals of the realistic case, as fractions of each peer's time in the same run.
MAX_TIME_TO_TUTORIAL = 0.5
MAX_TIME_TO_CORROBORATE = 0.2
MAX_PEAK_RSS_MIB = 80.0


@dataclass(frozen=True, slots=True)
class Program:
    """One checker as a command: it is given DOCUMENTS, CLAIMS and RESULTS paths."""

    name: str
    label: str
    prefix: tuple[str, ...]
    named_options: bool = False

    def command(self, documents: Path, claims: Path, results: Path) -> list[str]:
        if self.named_options:
            files = ["--documents", documents, "--claims", claims, "--out", results]
        else:
            files = [documents, claims, results]
        return [*self.prefix, *map(str, files)]


def programs(peer: Path) -> tuple[Program, ...]:
    """The three programs, each run by its own interpreter; the peers in isolated mode, so
    they import nothing of this checkout's but their own file."""
    return (
        Program(
            "quantcheck",
            "quantcheck check",
            (sys.executable, "-m", "quantcheck.worker", "check"),
            named_options=True,
        ),
        Program(
            "tutorial",
            "tutorial-style checker",
            (sys.executable, "-I", str(ROOT / "bench" / "tutorial_process.py")),
        ),
        Program(
            "corroborate",
            f"{PEER} {PEER_VERSION}",
            (str(peer), "-I", str(ROOT / "bench" / "corroborate_process.py")),
        ),
    )


def statuses(results: Path) -> tuple[int, dict[str, int]]:
    """The rows of a results file and its count of claims by status."""
    with results.open(encoding="utf-8", newline="") as handle:
        counts = Counter(row["status"] for row in csv.DictReader(handle))
    return sum(counts.values()), dict(counts.most_common())


def measure(claims: int, rounds: int, data: Path = DATA) -> dict[str, Any]:
    """Run the three programs ``rounds`` times each on ``claims`` distinct claims made from
    the development sets in ``data``."""
    sets = development_sets(data)
    with tempfile.TemporaryDirectory(prefix="quantcheck-distinct-") as scratch:
        directory = Path(scratch)
        workload = write_workload(directory, claims, data)
        chosen = programs(peer_python())
        seconds: dict[str, list[float]] = {p.name: [] for p in chosen}
        cpu: dict[str, list[float]] = {p.name: [] for p in chosen}
        peaks = dict.fromkeys(seconds, 0.0)
        counted: dict[str, dict[str, int]] = {}
        # What else ran: on a shared machine the seconds depend on it, the ratios less so.
        loads: list[float] = []
        for round_number in range(rounds):
            shift = round_number % len(chosen)
            for program in chosen[shift:] + chosen[:shift]:
                results = directory / f"{program.name}.csv"
                measured = run_process(
                    program.command(workload.documents, workload.claims, results)
                )
                seconds[program.name].append(measured.seconds)
                cpu[program.name].append(measured.cpu_seconds)
                peaks[program.name] = max(peaks[program.name], measured.peak_rss_mib)
                rows, counts = statuses(results)
                if rows != claims:
                    raise SystemExit(f"{program.label} wrote {rows} rows for {claims} claims")
                counted[program.name] = counts
                loads.append(os.getloadavg()[0])
    medians = {name: statistics.median(times) for name, times in seconds.items()}
    to_tutorial = medians["quantcheck"] / medians["tutorial"]
    to_corroborate = medians["quantcheck"] / medians["corroborate"]
    return {
        "claims": claims,
        "rounds": rounds,
        "documents": workload.document_count,
        "original_claims": workload.original_count,
        "development_sets": [dev.name for dev in sets],
        "programs": {
            program.name: {
                "label": program.label,
                "seconds_median": round(medians[program.name], 3),
                "claims_per_second": round(claims / medians[program.name]),
                # One process on one core: the claims each second of that core checks.
                "claims_per_cpu_second": round(claims / statistics.median(cpu[program.name])),
                "peak_rss_mib": round(peaks[program.name], 1),
                "rounds_seconds": [round(s, 2) for s in seconds[program.name]],
                "statuses": counted[program.name],
            }
            for program in chosen
        },
        "load_average_1m_median": round(statistics.median(loads), 2),
        "time_ratio_to_tutorial": round(to_tutorial, 3),
        "time_ratio_to_corroborate": round(to_corroborate, 3),
        "goals": {
            "max_time_ratio_to_tutorial": MAX_TIME_TO_TUTORIAL,
            "max_time_ratio_to_corroborate": MAX_TIME_TO_CORROBORATE,
            "max_peak_rss_mib": MAX_PEAK_RSS_MIB,
            "time_to_tutorial_met": to_tutorial <= MAX_TIME_TO_TUTORIAL,
            "time_to_corroborate_met": to_corroborate <= MAX_TIME_TO_CORROBORATE,
            "peak_rss_met": peaks["quantcheck"] <= MAX_PEAK_RSS_MIB,
        },
    }


def main() -> None:
    """Measure and write ``distinct_process.json``; one line and status 1 on missing data."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS, help="folder of the result file")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of the *-dev sets")
    args = parser.parse_args()
    try:
        result = measure(args.claims, args.rounds, args.data)
    except (MissingDataError, PeerSetupError) as exc:
        raise SystemExit(f"{NAME}: {exc}") from None
    for key, value in result.items():
        print(f"{key}: {value}")
    print(f"written to {write_result(NAME, result, args.out)}")


if __name__ == "__main__":
    main()
