"""The bound on one document's facts: how far a checking process's memory grows on the
largest document the store accepts, written to yield as many facts as text can.

Each input is 32 MiB (the store's largest document) of one hostile shape: dense numbers
separated by colons or commas, numbers with units, a hyphen chain that is one token, a
text with a combining accent in every word, and a table of single digits within the size
read cell by cell. Each runs in a fresh process that holds the text, has checked one
claim (imports and tables loaded), then checks a claim citing the document under the
default ``--document-facts-mib``. Reports, per input, how far the process's peak RSS
(``VmHWM``, reset once the text is held) grew, as a share of the bound, whether the
document was refused, and how long the check took to refuse it.

    .venv/bin/python -m bench.document_bound
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from bench.common import ROOT, write_result
from quantcheck.inputs.rows import MAX_ROW_BYTES
from quantcheck.quantities import structured
from quantcheck.quantities.budget import DEFAULT_DOCUMENT_FACTS_MIB, MIB

# name: (the text repeated, how many characters)
SHAPES: dict[str, tuple[str, int]] = {
    "colons": ("1:", MAX_ROW_BYTES),
    "commas": ("1, ", MAX_ROW_BYTES),
    "units": ("12 s, ", MAX_ROW_BYTES),
    "hyphen_chain": ("1-", MAX_ROW_BYTES),
    "accents": ("caf\u00e9 e\u0301 1 ", MAX_ROW_BYTES),
    "digit_table": ("1,1,1,1\n", structured.MAX_CHARACTERS - 100),
}

_MEASURE = """
import json, sys, time
from quantcheck.checker import Checker, CheckOptions, Claim, Document
from quantcheck.quantities.budget import MIB, TooManyFacts

unit, size, bound = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def status(name):
    for line in open("/proc/self/status"):
        if line.startswith(name + ":"):
            return int(line.split()[1]) * 1024

checker = Checker(CheckOptions(document_facts_bytes=bound * MIB))
small = {"small": Document("small", "The logger records a reading every 15 seconds.")}
checker.check(Claim("Every 15 seconds.", ("small",), frozenset({"small"})), small)
dense = {"dense": Document("dense", (unit * (size // len(unit) + 1))[:size])}
with open("/proc/self/clear_refs", "w") as handle:
    handle.write("5")
before = status("VmHWM")
started = time.perf_counter()
try:
    checker.check(Claim("The value is 2.", ("dense",), frozenset({"dense"})), dense)
    refused = False
except TooManyFacts:
    refused = True
seconds = time.perf_counter() - started
print(json.dumps({"grew": status("VmHWM") - before, "refused": refused, "seconds": seconds,
                  "held": before}))
"""


def measure(unit: str, size: int, bound_mib: int) -> dict[str, Any]:
    """One input in a fresh process: its growth, outcome and time."""
    argv = [sys.executable, "-c", _MEASURE, unit, str(size), str(bound_mib)]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=True)
    found: dict[str, Any] = json.loads(done.stdout)
    return {
        "characters": size,
        "peak_growth_mib": round(found["grew"] / MIB, 1),
        "share_of_bound": round(found["grew"] / (bound_mib * MIB), 2),
        "refused": found["refused"],
        "seconds": round(found["seconds"], 2),
        "process_before_mib": round(found["held"] / MIB, 1),
    }


def main() -> None:
    """Measure every input and write bench/results/document_bound.json."""
    bound = DEFAULT_DOCUMENT_FACTS_MIB
    results: dict[str, dict[str, Any]] = {}
    for name, (unit, size) in SHAPES.items():
        results[name] = figures = measure(unit, size, bound)
        print(
            f"{name:14} {figures['peak_growth_mib']:7.1f} MiB ({figures['share_of_bound']:.2f}"
            f" of {bound} MiB)  refused={figures['refused']}  {figures['seconds']:.1f} s"
        )
    path = write_result("document_bound", {"bound_mib": bound, "inputs": results})
    print(f"written to {path}")


if __name__ == "__main__":
    main()
