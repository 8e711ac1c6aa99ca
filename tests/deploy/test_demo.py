"""``make demo`` end to end: the same script the target runs, twice, leaving nothing behind."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

DEMO = ROOT / "deploy" / "local" / "demo.py"
SUMMARY = [
    "claims=16 matched_expected=16",
    "supported=7",
    "unsupported_quantity=5",
    "missing_citation=1",
    "unknown_citation=1",
    "citation_not_retrieved=1",
    "needs_review_no_quantity=1",
]


def test_the_make_target_runs_this_script() -> None:
    result = subprocess.run(
        ["make", "-n", "demo"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert "deploy/local/demo.py" in result.stdout


def processes_using(path: Path) -> list[str]:
    """Command lines of running processes that mention ``path``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if str(path) in command:
            found.append(command)
    return found


@pytest.mark.integration
def test_demo_runs_twice_and_leaves_nothing_running(tmp_path: Path) -> None:
    environment = {k: v for k, v in os.environ.items() if k != "KAFKA_BOOTSTRAP_SERVERS"}
    home = tmp_path / "demo"
    for run in (1, 2):
        result = subprocess.run(
            [sys.executable, str(DEMO), "--home", str(home)],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert result.returncode == 0, f"run {run}:\n{result.stdout}\n{result.stderr}"
        lines = result.stdout.splitlines()
        start = lines.index(SUMMARY[0])
        assert lines[start : start + len(SUMMARY)] == SUMMARY, result.stdout
        assert "C02  unsupported_quantity" in result.stdout
        assert "C13  unknown_citation" in result.stdout
        assert (home / "status-chart.png").read_bytes()[:4] == b"\x89PNG"
        assert processes_using(home) == [], f"left running after run {run}"
