"""The distinct-claims benchmark runs end to end, tiny: all three programs, the peer in its
own environment, a result of the shape ``make bench`` renders. Structure only, no times."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.distinct_workload import development_sets, load_workload
from bench.run_all import md_distinct_process
from tests.conftest import ROOT

CLAIMS = 300


def _benchmark(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bench.distinct_process", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.slow
def test_a_tiny_run_measures_every_program_on_every_claim(tmp_path: Path) -> None:
    done = _benchmark("--claims", str(CLAIMS), "--rounds", "1", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    result = json.loads((tmp_path / "distinct_process.json").read_text(encoding="utf-8"))
    workload = load_workload(development_sets())
    assert (result["claims"], result["rounds"]) == (CLAIMS, 1)
    assert result["documents"] == len(workload.documents)
    assert result["original_claims"] == len(workload.originals)
    programs = result["programs"]
    assert list(programs) == ["quantcheck", "tutorial", "corroborate"]
    for program in programs.values():
        assert sum(program["statuses"].values()) == CLAIMS
        assert len(program["rounds_seconds"]) == 1
        assert program["seconds_median"] > 0
        assert program["peak_rss_mib"] > 0
        assert program["claims_per_cpu_second"] > 0
    # Each program judged the claims itself: quantcheck alone has a status for a negation.
    assert set(programs["corroborate"]["statuses"]) <= {"supported", "unsupported_quantity"}
    # The ratio is of unrounded medians; the file's medians are rounded to the millisecond.
    quantcheck = programs["quantcheck"]["seconds_median"]
    tutorial = programs["tutorial"]["seconds_median"]
    half_ms = 0.0005
    low, high = (
        (quantcheck - half_ms) / (tutorial + half_ms),
        (quantcheck + half_ms) / (tutorial - half_ms),
    )
    assert low - half_ms <= result["time_ratio_to_tutorial"] <= high + half_ms
    assert set(result["goals"]) >= {"time_to_tutorial_met", "time_to_corroborate_met"}
    assert result["load_average_1m_median"] >= 0
    page = "\n".join(md_distinct_process(result))
    assert all(p["label"] in page for p in programs.values())


def test_missing_data_ends_the_benchmark_with_one_line(tmp_path: Path) -> None:
    absent = tmp_path / "external"
    done = _benchmark("--claims", "10", "--out", str(tmp_path), "--data", str(absent))
    assert done.returncode == 1
    assert (
        done.stderr.strip()
        == f"distinct_process: no development sets: folder {absent} does not exist"
    )
    assert not (tmp_path / "distinct_process.json").exists()
