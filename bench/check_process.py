"""The whole ``quantcheck check`` process against the tutorial-style checker's, side by side.

Both run as processes of their own on the same 100,000 claims (the 16 sample claims with
fresh IDs, repeated) and the 8-document handbook, each reading the CSV files and writing a
results CSV; rounds alternate so that machine noise hits both alike. quantcheck does all it
always does: the citation gates, every rule, reasons, spans and the results file. Also
measures start-up, ``quantcheck --help`` and ``quantcheck check`` on one claim, and each
program's peak resident set size.

    .venv/bin/python -m bench.check_process [--claims 100000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import tempfile
from pathlib import Path

from bench.common import EXAMPLES, run_process, write_result

QUANTCHECK = [sys.executable, "-m", "quantcheck.worker"]
TUTORIAL = [sys.executable, "-m", "bench.tutorial_process"]
STARTUP_ROUNDS = 10


def claims_file(directory: Path, count: int) -> Path:
    """``count`` sample claims with unique IDs, as the sample CSV layout."""
    with (EXAMPLES / "rag_numeric_claims.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    path = directory / f"claims-{count}.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        for n in range(count):
            writer.writerow({**rows[n % len(rows)], "claim_id": f"C{n:07d}"})
    return path


def seconds(command: list[str]) -> float:
    """Wall-clock seconds of one run of ``command``, which must succeed."""
    return run_process(command).seconds


def main() -> None:
    """Run both checkers and the start-up probes; write bench/results/check_process.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    documents = EXAMPLES / "field_sensor_handbook.csv"
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        claims = claims_file(directory, args.claims)
        one = claims_file(directory, 1)
        ours = [*QUANTCHECK, "check", "--documents", str(documents), "--claims", str(claims)]
        ours += ["--out", str(directory / "quantcheck.csv")]
        theirs = [*TUTORIAL, str(documents), str(claims), str(directory / "tutorial.csv")]
        quantcheck_s: list[float] = []
        tutorial_s: list[float] = []
        peaks = {"quantcheck": 0.0, "tutorial": 0.0}
        for _ in range(args.rounds):
            for name, command, times in (
                ("quantcheck", ours, quantcheck_s),
                ("tutorial", theirs, tutorial_s),
            ):
                measured = run_process(command)
                times.append(measured.seconds)
                peaks[name] = max(peaks[name], measured.peak_rss_mib)
        help_s = [seconds([*QUANTCHECK, "--help"]) for _ in range(STARTUP_ROUNDS)]
        single = [*QUANTCHECK, "check", "--documents", str(documents), "--claims", str(one)]
        one_s = [seconds(single) for _ in range(STARTUP_ROUNDS)]
    ours_median = statistics.median(quantcheck_s)
    theirs_median = statistics.median(tutorial_s)
    result = {
        "claims": args.claims,
        "rounds": args.rounds,
        "quantcheck_seconds_median": round(ours_median, 2),
        "tutorial_seconds_median": round(theirs_median, 2),
        "quantcheck_claims_per_second": round(args.claims / ours_median),
        "tutorial_claims_per_second": round(args.claims / theirs_median),
        "speed_ratio_to_tutorial": round(theirs_median / ours_median, 2),
        "quantcheck_peak_rss_mib": round(peaks["quantcheck"], 1),
        "tutorial_peak_rss_mib": round(peaks["tutorial"], 1),
        "startup_help_seconds_median": round(statistics.median(help_s), 3),
        "startup_check_one_claim_seconds_median": round(statistics.median(one_s), 3),
        "rounds_quantcheck_seconds": [round(s, 2) for s in quantcheck_s],
        "rounds_tutorial_seconds": [round(s, 2) for s in tutorial_s],
    }
    for key, value in result.items():
        print(f"{key}: {value}")
    print(f"written to {write_result('check_process', result)}")


if __name__ == "__main__":
    main()
