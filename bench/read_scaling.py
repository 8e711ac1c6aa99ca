"""Reading evidence must stay linear: time per megabyte at 0.1, 1 and 2 MB, per format.

Each document is built from real records of the Quintd development set
(``bench/data/read_scaling_seeds.json``), repeated with their numbers and dates changed
so that no two records are alike: prose (sentences of model outputs), JSON (phone spec
sheets), a Python literal (an OpenWeather forecast), CSV (an Our World in Data series
with its ``#`` metadata) and a markdown table (ice-hockey results). The largest size is
just under the two-million-character cut-off above which a document is read as prose.
Reports the median seconds per megabyte of ``extract_document`` at each size and the
ratio of the largest to the smallest: a reader that is not linear shows it there.

    .venv/bin/python -m bench.read_scaling [--rounds 3]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
import statistics
from collections.abc import Callable, Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.common import timed, write_result
from quantcheck.quantities import structured
from quantcheck.quantities.evidence import extract_document

SEEDS = Path(__file__).resolve().parent / "data" / "read_scaling_seeds.json"
SIZES: dict[str, int] = {
    "0.1": 100_000,
    "1": 1_000_000,
    "2": structured.MAX_CHARACTERS - 10_000,
}
MEGABYTE = 1_000_000
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def seeds() -> dict[str, Any]:
    """The real records the documents are built from."""
    loaded: dict[str, Any] = json.loads(SEEDS.read_text(encoding="utf-8"))
    return loaded


def _varied_number(written: str, rng: random.Random) -> str:
    """Another number written like ``written``: as many decimals, about the same size."""
    decimals = len(written.split(".")[1]) if "." in written else 0
    value = float(written) * rng.uniform(0.5, 1.5) + rng.randint(0, 9)
    return f"{value:.{decimals}f}"


def _vary(value: Any, rng: random.Random) -> Any:
    """A copy of a record with every number changed (strings of digits too)."""
    if isinstance(value, dict):
        return {key: _vary(item, rng) for key, item in value.items()}
    if isinstance(value, list):
        return [_vary(item, rng) for item in value]
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return max(0, value + rng.randint(-3, 3))
    if isinstance(value, float):
        return round(value * rng.uniform(0.8, 1.2), 2)
    if isinstance(value, str):
        return _NUMBER.sub(lambda m: _varied_number(m.group(), rng), value)
    return value


def _fill(size: int, head: str, items: Iterator[str], separator: str, tail: str) -> str:
    """``head``, then as many items as fit under ``size`` characters, then ``tail``."""
    pieces = [head]
    length = len(head) + len(tail)
    for item in items:
        if length + len(item) + len(separator) > size:
            break
        pieces.append(item if len(pieces) == 1 else separator + item)
        length += len(item) + len(separator)
    return "".join(pieces) + tail


def prose(size: int, rng: random.Random) -> str:
    """Paragraphs of model-output sentences with their numbers changed."""
    sentences = seeds()["prose"]

    def paragraphs() -> Iterator[str]:
        while True:
            picked = rng.sample(sentences, rng.randint(4, 8))
            yield " ".join(_vary(sentence, rng) for sentence in picked)

    return _fill(size, "", paragraphs(), "\n\n", "")


def json_document(size: int, rng: random.Random) -> str:
    """A JSON array of phone spec sheets."""
    phone = seeds()["phone"]

    def phones() -> Iterator[str]:
        for number in range(10**9):
            varied = _vary(phone, rng)
            varied["id"] = f"{phone['id']}-{number}"
            yield json.dumps(varied, ensure_ascii=False)

    return _fill(size, "[", phones(), ", ", "]")


def python_literal(size: int, rng: random.Random) -> str:
    """An OpenWeather forecast as a Python dict: one record every three hours."""
    forecast = seeds()["forecast"]
    head = copy.deepcopy(forecast)
    head["list"] = []
    opening = repr(head)[: -len("[]}")] + "["
    start = datetime(2024, 1, 3, 19)

    def records() -> Iterator[str]:
        for number in range(10**9):
            varied = _vary(rng.choice(forecast["list"]), rng)
            varied["dt_txt"] = f"{start + timedelta(hours=3 * number):%Y-%m-%d %H:%M:%S}"
            yield repr(varied)

    return _fill(size, opening, records(), ", ", "]}")


def csv_document(size: int, rng: random.Random) -> str:
    """An Our World in Data series: its metadata lines, then one value a day."""
    series = seeds()["series"][0]
    head = "\n".join(series["metadata"]) + "\ndate,value\n"
    values = [float(value) for _, value in series["rows"]]
    first = date(1900, 1, 1)

    def rows() -> Iterator[str]:
        value = values[0]
        for number in range(10**9):
            value = max(0.0, value + rng.uniform(-0.5, 0.5))
            yield f"{first + timedelta(days=number)},{value:.4f}"

    return _fill(size, head, rows(), "\n", "\n")


def markdown_table(size: int, rng: random.Random) -> str:
    """Ice-hockey results as a markdown table under a title line."""
    games = seeds()["hockey"]
    head = (
        "Results of the night (goals per period)\n\n"
        "| Season | Date | Home | Away | Home score | Away score | P1 | P2 | P3 |\n"
        "|---|---|---|---|---:|---:|---:|---:|---:|\n"
    )
    start = datetime(2023, 11, 28, 18)

    def rows() -> Iterator[str]:
        for number in range(10**9):
            game = rng.choice(games)
            periods = [rng.randint(0, 4) for _ in range(3)]
            away = rng.randint(0, 7)
            when = start + timedelta(minutes=15 * number)
            yield (
                f"| {game['season']['name']} | {when:%Y-%m-%d %H:%M} "
                f"| {game['homeTeam']['name']} | {game['awayTeam']['name']} "
                f"| {sum(periods)} | {away} | {periods[0]} | {periods[1]} | {periods[2]} |"
            )

    return _fill(size, head, rows(), "\n", "\n")


FORMATS: dict[str, Callable[[int, random.Random], str]] = {
    "prose": prose,
    "json": json_document,
    "python_literal": python_literal,
    "csv": csv_document,
    "markdown_table": markdown_table,
}


def document(name: str, size: int) -> str:
    """The document of format ``name`` just under ``size`` characters (always the same)."""
    return FORMATS[name](size, random.Random(f"{name}-{size}"))


def seconds_per_megabyte(text: str, rounds: int) -> float:
    """Median seconds ``extract_document`` takes per megabyte of ``text``, after one
    round that warms the extractor's caches (discarded)."""
    extract_document(text)
    seconds = [timed(lambda: extract_document(text)) for _ in range(rounds)]
    return statistics.median(seconds) / (len(text) / MEGABYTE)


def main() -> None:
    """Time every format at every size and write bench/results/read_scaling.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, dict[str, Any]] = {}
    print(f"{'format':16}" + "".join(f"{mb + ' MB s/MB':>14}" for mb in SIZES) + f"{'ratio':>8}")
    for name in FORMATS:
        figures: dict[str, Any] = {}
        for label, size in SIZES.items():
            text = document(name, size)
            cells = len(structured.read(text).cells)
            figures[label] = {
                "characters": len(text),
                "cells": cells,
                "seconds_per_mb": round(seconds_per_megabyte(text, args.rounds), 3),
            }
        smallest, largest = figures[next(iter(SIZES))], figures[list(SIZES)[-1]]
        ratio = round(largest["seconds_per_mb"] / smallest["seconds_per_mb"], 2)
        results[name] = {"sizes": figures, "ratio_largest_to_smallest": ratio}
        print(
            f"{name:16}"
            + "".join(f"{figures[label]['seconds_per_mb']:>14.3f}" for label in SIZES)
            + f"{ratio:>8.2f}"
        )
    path = write_result("read_scaling", {"rounds": args.rounds, "formats": results})
    print(f"written to {path}")


if __name__ == "__main__":
    main()
