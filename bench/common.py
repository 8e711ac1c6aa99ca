"""Shared helpers for the benchmark scripts: timing rounds, machine facts, result files."""

from __future__ import annotations

import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
EXAMPLES = ROOT / "examples"


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def timed(action: Callable[[], object]) -> float:
    """Seconds one call of ``action`` took."""
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def cpu_timed(action: Callable[[], object]) -> float:
    """CPU seconds this process spent on one call of ``action``, with the garbage collector
    paused: unlike :func:`timed`, not lengthened while other processes hold the cores, nor
    by a full collection over objects the caller holds (a test run's whole heap), so a
    ratio of two such times shows the code's growth and not its surroundings."""
    gc.disable()
    try:
        start = time.process_time()
        action()
        return time.process_time() - start
    finally:
        gc.enable()


@dataclass(frozen=True, slots=True)
class ProcessRun:
    """What one run of a program took."""

    seconds: float
    """Wall-clock seconds."""
    cpu_seconds: float
    """User and system CPU seconds: less than the wall clock's when others share the cores."""
    peak_rss_mib: float


def run_process(command: list[str]) -> ProcessRun:
    """Run ``command``, which must succeed, and say what it took."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise subprocess.CalledProcessError(process.returncode, command)
    # ru_maxrss is in KiB on Linux.
    return ProcessRun(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds (user and system) used so far by process ``pid`` and every descendant,
    living or reaped, from ``/proc`` (Linux): a supervisor's children count with it."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    ticks = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text(encoding="ascii", errors="replace")
        except OSError:  # the process ended while the table was read
            continue
        # The command name is in parentheses and may hold spaces: split after it.
        fields = text[text.rindex(")") + 2 :].split()
        process = int(stat.parent.name)
        parents[process] = int(fields[1])
        # utime, stime, and the same of the children it has reaped.
        times[process] = sum(int(value) for value in fields[11:15]) / ticks
    tree: set[int] = set()
    frontier = {pid}
    while frontier:
        tree |= frontier
        frontier = {child for child, parent in parents.items() if parent in frontier} - tree
    return sum(times.get(process, 0.0) for process in tree)


def median_rate(action: Callable[[], object], items: int, rounds: int) -> tuple[float, list[float]]:
    """Median items per second over ``rounds`` calls, and every round's rate."""
    rates = [items / timed(action) for _ in range(rounds)]
    return statistics.median(rates), rates


def write_result(name: str, payload: dict[str, Any], directory: Path = RESULTS) -> Path:
    """Write ``NAME.json`` (in ``bench/results/`` unless told) with the machine facts added."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.json"
    payload = {"benchmark": name, "machine": machine(), **payload}
    path.write_text(json.dumps(payload, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    return path
