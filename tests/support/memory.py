"""Measuring the memory a piece of code holds, in a fresh interpreter, by Python's traced
allocations: RSS proved too noisy on a machine running the broker and PostgreSQL beside the
tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def traced_mib(script: str, *args: object) -> float:
    """Run ``script`` with ``args`` in a fresh interpreter from the repository root; the
    script prints the most memory it held over its own baseline, in KiB. Returns it in MiB."""
    done = subprocess.run(
        [sys.executable, "-c", script, *map(str, args)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return int(done.stdout) / 1024
