"""Extraction time on a megabyte of hostile text: the scan must stay linear.

Each input is about 1,000,000 characters built to defeat a naive pattern: a single run
of digits, "1-1-1-..." (ranges that never get a unit), unit words with no numbers, digit
groups split by commas and dots, month names and number words. Reports the median of
several runs per input, in both scopes (``all``, the default, and ``units``).

    .venv/bin/python -m bench.extract_adversarial [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics

from bench.common import timed, write_result
from quantcheck.quantities.categories import Scope
from quantcheck.quantities.extract import extract

SIZE = 1_000_000


def inputs() -> dict[str, str]:
    """The hostile texts, each about SIZE characters long."""

    def fill(unit: str) -> str:
        return (unit * (SIZE // len(unit) + 1))[:SIZE]

    return {
        "digit_run": "1" * SIZE,
        "hyphen_chain": fill("1-"),
        "unit_words": fill("seconds minutes MB °C "),
        "comma_groups": fill("1,"),
        "dot_groups": fill("1."),
        "month_names": fill("May June Sept. "),
        "number_words": fill("one two three "),
        "whitespace_gap": "1" + " " * (SIZE - 2) + "s",
        "dense_facts": fill("12 s, "),
    }


def main() -> None:
    """Run every input in both modes and write bench/results/extract_adversarial.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, dict[str, float | int]] = {}
    for name, text in inputs().items():
        for scope in Scope:
            key = f"{name}_{scope.value}"
            seconds = [
                timed(lambda t=text, s=scope: extract(t, scope=s)) for _ in range(args.rounds)
            ]
            facts = len(extract(text, scope=scope).mentions)
            results[key] = {"seconds_median": round(statistics.median(seconds), 3), "facts": facts}
            print(f"{key:24} {statistics.median(seconds):7.3f} s  {facts} facts")
    path = write_result("extract_adversarial", {"characters": SIZE, "inputs": results})
    print(f"written to {path}")


if __name__ == "__main__":
    main()
