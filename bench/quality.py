"""Verdict quality as a benchmark: every development set, beside the peer's figures, and
the kill rate of single-number edits of correct claims; what ``make quality`` runs.

Runs the panel (``../shared/tools/panel.py``: recall and false-alarm rate on each
human-labelled development set, with corroborate's figures on the same files) and the
mutation panel (``../shared/tools/mutants.py panel``: the share of one-number edits of
claims the checker supports that it no longer supports, by kind m1-m7, and with
``--swap`` the right number for the wrong thing, m8) against this checkout's
``quantcheck`` command, and writes ``bench/results/quality.json`` and ``quality.md``.

    .venv/bin/python -m bench.quality [--tools DIR]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.common import RESULTS, ROOT, write_result

TOOLS = ROOT.parent / "shared" / "tools"
QUANTCHECK = ROOT / ".venv" / "bin" / "quantcheck"
_PANEL_ROW = re.compile(
    r"^(?P<set>\S+-dev)\s+(?P<claims>\d+)\s+(?P<recall>[\d.]+|nan)\s+(?P<fa>[\d.]+|nan)"
    r"\s+(?P<peer_recall>[\d.]+|-)\s+(?P<peer_fa>[\d.]+|-)"
)
_KILL_ROW = re.compile(r"^\| (?P<set>\S+-dev) \|(?P<cells>.*)\|$")
_KILL_CELL = re.compile(r"(\d+)/(\d+) \(([\d.]+)\)")


def _run(tool: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(tool), *args, "--quantcheck", str(QUANTCHECK)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tool.name} failed: {done.stderr.strip().splitlines()[-1:]}")
    return done.stdout


def panel(tools: Path) -> dict[str, dict[str, Any]]:
    """Recall and false alarm per development set, with the peer's."""
    rows: dict[str, dict[str, Any]] = {}
    for line in _run(tools / "panel.py").splitlines():
        found = _PANEL_ROW.match(line)
        if found is None:
            continue
        rows[found["set"]] = {
            "claims": int(found["claims"]),
            "recall": float(found["recall"]),
            "false_alarm": float(found["fa"]),
            "peer_recall": None if found["peer_recall"] == "-" else float(found["peer_recall"]),
            "peer_false_alarm": None if found["peer_fa"] == "-" else float(found["peer_fa"]),
        }
    return rows


def kills(tools: Path, *extra: str) -> dict[str, dict[str, Any]]:
    """Kill rate per development set and mutation kind (the last column is all kinds)."""
    output = _run(tools / "mutants.py", "panel", *extra)
    lines = output.splitlines()
    header = next(line for line in lines if line.startswith("| set |"))
    kinds = [cell.strip() for cell in header.strip("|").split("|")][1:]
    rows: dict[str, dict[str, Any]] = {}
    for line in lines:
        found = _KILL_ROW.match(line)
        if found is None:
            continue
        cells = [cell.strip() for cell in found["cells"].split("|")]
        row: dict[str, Any] = {}
        for kind, cell in zip(kinds, cells, strict=True):
            numbers = _KILL_CELL.fullmatch(cell)
            if numbers is not None:
                killed, total = int(numbers[1]), int(numbers[2])
                row[kind] = {"killed": killed, "mutants": total, "rate": killed / total}
        rows[found["set"]] = row
    return rows


def render(result: dict[str, Any]) -> str:
    """The figures as the README quotes them."""
    lines = [
        "| set (dev half) | claims | recall | false alarm | peer recall | peer false alarm"
        " | kill m1-m7 | kill m8 (swap) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, row in result["panel"].items():
        kill = result["mutants"].get(name, {}).get("all", {})
        swap = result["swap_mutants"].get(name, {}).get("all", {})
        peer_recall, peer_fa = row["peer_recall"], row["peer_false_alarm"]
        lines.append(
            f"| {name} | {row['claims']} | {row['recall']:.3f} | {row['false_alarm']:.3f}"
            f" | {'-' if peer_recall is None else f'{peer_recall:.3f}'}"
            f" | {'-' if peer_fa is None else f'{peer_fa:.3f}'}"
            f" | {kill.get('rate', float('nan')):.3f} | {swap.get('rate', float('nan')):.3f} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tools", type=Path, default=TOOLS, help="where panel.py and mutants.py are"
    )
    args = parser.parse_args()
    if not (args.tools / "panel.py").exists():
        raise SystemExit(f"no panel.py in {args.tools}: the development tools are not here")
    result = {
        "panel": panel(args.tools),
        "mutants": kills(args.tools),
        "swap_mutants": kills(args.tools, "--swap"),
    }
    write_result("quality", result)
    table = render(result)
    (RESULTS / "quality.md").write_text(table, encoding="utf-8")
    print(table, end="")


if __name__ == "__main__":
    main()
