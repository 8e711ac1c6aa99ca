"""Every benchmark in one run, with a summary: what ``make bench`` runs.

Runs the benchmarks of ``bench/`` one after the other, each as ``python -m bench.NAME`` in a
process of its own with sizes chosen so that the whole run takes about twenty minutes on a
two-core machine, most of it the realistic case (``distinct_process``: three checkers,
100,000 distinct claims, three rounds). One local Kafka broker is started for the run (unless
``KAFKA_BOOTSTRAP_SERVERS`` names one) and handed to every benchmark through that
variable; benchmarks that need PostgreSQL start their own throwaway server.

A benchmark that fails or overruns its time limit is recorded as such and the run goes
on. Each benchmark writes ``bench/results/NAME.json``;
this collects the ones written during the run into ``bench/results/latest.json`` and
renders ``bench/results/latest.md``: the figures, the ratios, and the machine they were
measured on.

    .venv/bin/python -m bench.run_all [--only NAME[,NAME...]]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.broker import BOOTSTRAP_ENV, shared_broker
from bench.common import RESULTS, ROOT, machine

LATEST_JSON = RESULTS / "latest.json"
LATEST_MD = RESULTS / "latest.md"
POM = ROOT / "deploy" / "local" / "pom.xml"
KILL_GRACE_S = 10.0


@dataclass(frozen=True, slots=True)
class Benchmark:
    """One benchmark module, the arguments it runs with and how long it may take."""

    name: str
    args: tuple[str, ...]
    timeout_s: float


BENCHMARKS: tuple[Benchmark, ...] = (
    Benchmark("check_throughput", ("--claims", "100000", "--rounds", "3"), 240),
    Benchmark("extract_adversarial", ("--rounds", "1"), 150),
    Benchmark("document_bound", (), 150),
    Benchmark("read_scaling", ("--rounds", "1"), 400),
    Benchmark("distinct_process", ("--claims", "100000", "--rounds", "3"), 1500),
    Benchmark("check_process", ("--claims", "100000", "--rounds", "3"), 240),
    Benchmark("store_lookups", (), 150),
    Benchmark("replay_throughput", ("--claims", "100000"), 300),
    Benchmark("cold_worker", ("--claims", "10000", "--rounds", "2"), 420),
    Benchmark(
        "kafka_throughput",
        ("--claims", "20000", "--rounds", "5", "--variant-rounds", "2"),
        480,
    ),
)
"""In running order: the pure-Python ones first, the broker-backed ones last."""


def run(benchmark: Benchmark, env: dict[str, str]) -> dict[str, Any]:
    """Run one benchmark; its status, duration and (when it wrote one) result."""
    output = RESULTS / f"{benchmark.name}.json"
    started = time.time()
    print(f"== {benchmark.name} {' '.join(benchmark.args)}", flush=True)
    # A session of its own, so that on a timeout the benchmark and every process it
    # started (workers, relays, database servers) are stopped together.
    process = subprocess.Popen(
        [sys.executable, "-m", f"bench.{benchmark.name}", *benchmark.args],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    try:
        code = process.wait(timeout=benchmark.timeout_s)
    except subprocess.TimeoutExpired:
        _stop_group(process)
        code = None
    entry: dict[str, Any] = {
        "args": list(benchmark.args),
        "seconds": round(time.time() - started, 1),
    }
    # A result file older than this run belongs to an earlier one and is not reported.
    fresh = output.exists() and output.stat().st_mtime >= started
    if code is None:
        entry["status"] = f"timed out after {benchmark.timeout_s:g}s"
    elif code != 0:
        entry["status"] = f"failed with exit status {code}"
    elif not fresh:
        entry["status"] = f"wrote no {output.relative_to(ROOT)}"
    else:
        entry["status"] = "ok"
    if code == 0 and fresh:
        entry["result"] = json.loads(output.read_text(encoding="utf-8"))
    return entry


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=KILL_GRACE_S)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def environment() -> dict[str, Any]:
    """The machine and the software versions the figures depend on."""
    facts = machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                facts["cpu_model"] = line.split(":", 1)[1].strip()
                break
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        first = meminfo.read_text(encoding="utf-8").splitlines()[0].split()
        facts["memory_gib"] = round(int(first[1]) / 2**20, 1)
    facts["implementation"] = platform.python_implementation()
    for package in ("kafka-python", "pydantic", "crc32c"):
        try:
            facts[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            facts[package] = None
    pom = POM.read_text(encoding="utf-8") if POM.exists() else ""
    if "<kafka.version>" in pom:
        facts["kafka_broker"] = pom.split("<kafka.version>", 1)[1].split("<", 1)[0]
    return facts


# --- Markdown ------------------------------------------------------------------------------


def _n(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "–"}[value]
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.3g}" if abs(value) < 10 else f"{value:,.0f}"
    return str(value)


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_n(cell) for cell in row) + " |" for row in rows]
    return [*lines, ""]


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "–"


def md_check_throughput(result: dict[str, Any]) -> list[str]:
    """The pure check against the tutorial baseline."""
    reference = result["reference_claims_per_second"]
    return [
        f"{result['claims']:,} claims, {result['rounds']} rounds, medians; one core, no Kafka.",
        "",
        *_table(
            ["mode", "claims/s", "vs tutorial baseline"],
            [
                ["warm cache", result["claims_per_second_warm"], result["ratio_warm_to_reference"]],
                [
                    "cold cache",
                    result["claims_per_second_cold"],
                    _ratio(result["claims_per_second_cold"], reference),
                ],
                ["tutorial baseline", reference, "1.00"],
            ],
        ),
    ]


def md_extract_adversarial(result: dict[str, Any]) -> list[str]:
    """Extraction time per hostile input, in both scopes."""
    inputs = result["inputs"]
    rows = [
        [
            name.removesuffix("_all"),
            figures["seconds_median"],
            figures["facts"],
            inputs.get(name.replace("_all", "_units"), {}).get("seconds_median"),
        ]
        for name, figures in inputs.items()
        if name.endswith("_all")
    ]
    return [
        f"Inputs of {result['characters']:,} characters; median seconds per extraction.",
        "",
        *_table(["input", "seconds (all)", "facts (all)", "seconds (units)"], rows),
    ]


def md_read_scaling(result: dict[str, Any]) -> list[str]:
    """Evidence reading time per megabyte at each size, per format."""
    formats = result["formats"]
    sizes = list(next(iter(formats.values()))["sizes"])
    rows = [
        [
            name,
            *(figures["sizes"][size]["seconds_per_mb"] for size in sizes),
            figures["ratio_largest_to_smallest"],
        ]
        for name, figures in formats.items()
    ]
    return [
        f"`extract_document` seconds per megabyte, median of {result['rounds']} round(s) after"
        " a warm-up; the ratio of the largest size to the smallest stays near 1 when reading"
        " is linear.",
        "",
        *_table(["format", *(f"{size} MB s/MB" for size in sizes), "ratio"], rows),
    ]


def md_distinct_process(result: dict[str, Any]) -> list[str]:
    """The whole check command beside its two peers on distinct claims over real documents."""
    programs = result["programs"]
    ours = programs["quantcheck"]["seconds_median"]
    statuses = sorted({status for p in programs.values() for status in p["statuses"]})
    goals = result["goals"]

    def met(flag: bool) -> str:
        return "met" if flag else "not met"

    return [
        f"The realistic case: {result['claims']:,} distinct claims, the"
        f" {result['original_claims']:,} claims of {len(result['development_sets'])}"
        " development sets each made unique by a trailing word that changes no verdict,"
        f" over their {result['documents']:,} documents; {result['rounds']} rounds in"
        " rotating order, medians; each program a process of its own reading the CSV files"
        " and writing a results CSV"
        + (
            f"; load average {result['load_average_1m_median']} (median after each run)."
            if "load_average_1m_median" in result
            else "."
        ),
        "",
        *_table(
            [
                "program",
                "seconds",
                "claims/s",
                "claims per CPU second",
                "peak RSS MiB",
                "quantcheck's time ÷ this",
            ],
            [
                [
                    p["label"],
                    p["seconds_median"],
                    p["claims_per_second"],
                    p.get("claims_per_cpu_second"),
                    p["peak_rss_mib"],
                    _ratio(ours, p["seconds_median"]),
                ]
                for p in programs.values()
            ],
        ),
        f"Goals: time at most {goals['max_time_ratio_to_tutorial']} of the tutorial-style"
        f" checker's ({result['time_ratio_to_tutorial']}: {met(goals['time_to_tutorial_met'])}),"
        f" at most {goals['max_time_ratio_to_corroborate']} of corroborate's"
        f" ({result['time_ratio_to_corroborate']}: {met(goals['time_to_corroborate_met'])}),"
        f" peak RSS at most {goals['max_peak_rss_mib']:g} MiB"
        f" ({programs['quantcheck']['peak_rss_mib']}: {met(goals['peak_rss_met'])}).",
        "",
        "Claims by status (the peers read fewer kinds of number and have fewer statuses):",
        "",
        *_table(
            ["program", *statuses],
            [[p["label"], *(p["statuses"].get(s, 0) for s in statuses)] for p in programs.values()],
        ),
    ]


def md_check_process(result: dict[str, Any]) -> list[str]:
    """The cache case: the whole check command on repeated sample claims, and start-up."""
    return [
        f"The cache case: the 16 sample claims repeated to {result['claims']:,} over the"
        " 8-document handbook, so nearly every check is a verdict-cache hit;"
        f" {result['rounds']} alternating rounds, medians; each a process of its own reading"
        " the CSV files and writing a results CSV.",
        "",
        *_table(
            ["program", "seconds", "claims/s"],
            [
                [
                    "quantcheck check",
                    result["quantcheck_seconds_median"],
                    result["quantcheck_claims_per_second"],
                ],
                [
                    "tutorial's checker",
                    result["tutorial_seconds_median"],
                    result["tutorial_claims_per_second"],
                ],
            ],
        ),
        "",
        f"Speed relative to the tutorial's checker: **{result['speed_ratio_to_tutorial']}x**."
        f" Peak RSS: quantcheck {result['quantcheck_peak_rss_mib']} MiB, the tutorial's"
        f" {result['tutorial_peak_rss_mib']} MiB.",
        f"Start-up, median of 10: `quantcheck --help` {result['startup_help_seconds_median']} s,"
        f" `quantcheck check` on one claim {result['startup_check_one_claim_seconds_median']} s.",
    ]


def md_store_lookups(result: dict[str, Any]) -> list[str]:
    """Document lookups per backend and cache mode."""
    rows = []
    for backend in result["results"]:
        modes = backend["modes"]
        cold = modes["cold"]["median_lookups_per_s"]
        for mode, figures in modes.items():
            rate = figures["median_lookups_per_s"]
            rows.append([backend["backend"], mode, rate, _ratio(rate, cold)])
    versions = ", ".join(f"{k} {v}" for k, v in result.get("environment", {}).items())
    loads = "; ".join(
        f"{b['backend']} {b['load_with_facts_seconds']} s"
        for b in result["results"]
        if "load_with_facts_seconds" in b
    )
    with_facts = (
        [
            f"With facts: each document read with its stored facts, from a version of "
            f"{result['results'][0]['facts_documents']:,} documents whose load with their "
            f"facts took {loads}.",
            "",
        ]
        if loads
        else []
    )
    return [
        f"{result['documents']:,} documents, {result['rounds']} rounds of "
        f"{result['lookups_per_round']:,} lookups, medians ({versions}).",
        "",
        *_table(["backend", "mode", "lookups/s", "vs cold"], rows),
        *with_facts,
    ]


def md_kafka_throughput(result: dict[str, Any]) -> list[str]:
    """The worker against the relay, latency, memory, caches, citations, lengths, profile."""
    lines = [
        f"{result['claims_per_run']:,} claims per run; worker and relay in "
        f"{result['rounds']} alternating rounds, medians; batches of up to "
        f"{result['batch_max_records']} records or {result['batch_max_ms']} ms, "
        f"{result['partitions']} partitions, {result['store']} store. Claims/s from the "
        "process's first poll to the last output record received by a read_committed "
        "consumer; CPU is the process's own (all threads) over the same span.",
        "",
    ]
    rows = []
    for key, label in (("exactly_once", "exactly-once"), ("at_least_once", "at-least-once")):
        mode = result[key]
        rows.append(
            [
                label,
                mode["worker_claims_per_s"],
                mode["relay_claims_per_s"],
                mode["ratio"],
                ", ".join(f"{r:.2f}" for r in mode["rounds_ratio"]),
                mode["worker_cpu_us_per_claim"],
                mode["relay_cpu_us_per_claim"],
                mode["cpu_ratio"],
            ]
        )
    lines += _table(
        [
            "delivery",
            "worker claims/s",
            "relay claims/s",
            "ratio",
            "rounds",
            "worker CPU µs/claim",
            "relay CPU µs/claim",
            "CPU ratio",
        ],
        rows,
    )
    goal = result["ratio_goal"]
    lines += [
        f"Goal: exactly-once ratio ≥ {goal['min_ratio']}: {'met' if goal['met'] else 'not met'};"
        f" stretch ≥ {goal['stretch_ratio']}: {'met' if goal['stretch_met'] else 'not met'}.",
        "",
        "End-to-end latency (produced_at to the verdict's arrival at a read_committed "
        "consumer) at half the exactly-once rate:",
        "",
    ]
    latency = result["latency_at_half_load"]
    lines += _table(
        ["offered claims/s", "claims", "p50 ms", "p95 ms", "p99 ms", "max ms"],
        [
            [
                latency["offered_claims_per_s"],
                latency["claims"],
                latency["p50_ms"],
                latency["p95_ms"],
                latency["p99_ms"],
                latency["max_ms"],
            ]
        ],
    )
    peaks = ", ".join(f"{k} {v:,}" for k, v in result["peak_rss_mib_by_workload"].items())
    lines += [
        f"Peak RSS of a worker process: {result['peak_rss_mib']:,} MiB (by workload: {peaks}).",
        "",
        f"Exactly-once runs by workload, each in a fresh process, medians of "
        f"{result['variant_rounds']} rounds. Caches over {result['cache']['documents']:,} "
        "distinct documents, cold (nothing cached) and warm (all checked before the loop):",
        "",
    ]
    lines += _shapes("cache", result["cache"], "warm")
    lines += ["Warm, by cited documents per claim and by characters per document:", ""]
    lines += _shapes("cited documents", result["cited_documents"], "1")
    lines += _shapes("characters per document", result["document_length"], "200")
    scaling = result["processes"]
    lines += [
        "`quantcheck worker --processes N` (the command itself, exactly-once), claims/s from "
        "the first verdicts to the last, medians; the broker shares the two cores. Per CPU "
        "second: claims over the CPU time of the supervisor and its children in that span, "
        "the rate of one core:",
        "",
        *_table(
            ["processes", "claims/s", "claims per CPU second", "rounds"],
            [
                [
                    n,
                    rate,
                    scaling.get("claims_per_cpu_second", {}).get(n),
                    ", ".join(f"{r:,}" for r in scaling["rounds"][n]),
                ]
                for n, rate in scaling["claims_per_s"].items()
            ],
        ),
        f"Two processes against one: {scaling['ratio_2_to_1']}x.",
        "",
    ]
    profile = result["profile"]
    lines += [
        f"Profile of one exactly-once run (main thread, wall time, {profile['seconds']} s, "
        f"{profile['claims_per_s_while_profiled']:,} claims/s under the profiler):",
        "",
        *_table(
            ["function (self time)", "share"],
            [[f"`{row['function']}`", f"{row['share']:.1%}"] for row in profile["self"][:10]],
        ),
        *_table(
            ["function (inclusive time)", "share"],
            [[f"`{row['function']}`", f"{row['share']:.1%}"] for row in profile["inclusive"][:12]],
        ),
    ]
    if result.get("stalled_runs_repeated"):
        lines += [
            f"Runs that stalled and were repeated: {len(result['stalled_runs_repeated'])}.",
            "",
        ]
    return lines


def _shapes(label: str, shapes: dict[str, Any], base: str) -> list[str]:
    reference = shapes[base]["claims_per_s"]
    return _table(
        [label, "claims/s", f"vs {base}", "CPU µs/claim"],
        [
            [
                int(name) if name.isdigit() else name,
                f["claims_per_s"],
                _ratio(f["claims_per_s"], reference),
                f["cpu_us_per_claim"],
            ]
            for name, f in shapes.items()
            if name not in ("documents", "claims")
        ],
    )


def md_replay_throughput(result: dict[str, Any]) -> list[str]:
    """Each replay's rate and memory."""
    rows = [
        [name, run["claims_per_second"], run["seconds"], run["peak_rss_mib"], run["exit_status"]]
        for name, run in result["runs"].items()
    ]
    return [
        f"{result['claims']:,} claims on {result['partitions']} partitions, published at "
        f"{result['publish_claims_per_second']:,} claims/s; every verdict unchanged: "
        f"{_n(result['all_unchanged'])}; load average {result['load_average_1m']}.",
        "",
        *_table(["replay", "claims/s", "seconds", "peak RSS MiB", "exit status"], rows),
    ]


def md_cold_worker(result: dict[str, Any]) -> list[str]:
    """A cold worker's first claims with stored facts and extracting every document."""
    load, reading = result["load"], result["reading"]
    rows = [
        [
            label,
            figures["seconds"],
            figures["claims_per_s"],
            figures["first_minute_claims_per_s"],
            figures["cpu_us_per_claim"],
            figures["peak_rss_mib"],
        ]
        for label, figures in (
            ("stored facts", result["facts"]),
            ("extracting from text", result["text"]),
        )
    ]
    goal = result["goal"]
    return [
        f"A fresh worker ({result['delivery']}, {result['store']} store, nothing cached) "
        f"over the first {result['claims']:,} distinct claims of the development sets, against "
        f"a version of their {result['documents']:,} documents; {result['rounds']} alternating "
        "rounds, medians. Seconds from the first poll to the last verdict's arrival at a "
        "read_committed consumer; first-minute claims/s over the first 60 s of that (the "
        "whole run when shorter).",
        "",
        *_table(
            [
                "documents read from",
                "seconds",
                "claims/s",
                "first-minute claims/s",
                "CPU µs/claim",
                "peak RSS MiB",
            ],
            rows,
        ),
        f"Speed-up with stored facts: **{result['speedup']}x** (rounds: "
        f"{', '.join(f'{s:.2f}' for s in result['rounds_speedup'])}; first minute "
        f"{result['first_minute_speedup']}x); goal ≥ {goal['min_speedup']}: "
        f"{'met' if goal['met'] else 'not met'}. Loading the documents took "
        f"{load['with_facts_seconds']} s with their facts and {load['texts_only_seconds']} s "
        f"without; the facts take {load['facts_mib']} MiB beside {load['text_mib']} MiB of text.",
        "",
        f"Reading the facts of all {reading['documents']:,} documents in one process: "
        f"{reading['decode_cpu_seconds']} s of CPU from the stored facts, "
        f"{reading['extract_cpu_seconds']} s extracting them ({reading['ratio']}x).",
        "",
    ]


def _leaves(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [item for key, v in value.items() for item in _leaves(v, f"{prefix}{key}.")]
    if isinstance(value, list):
        scalars = all(isinstance(v, int | float | str | bool) or v is None for v in value)
        return [(prefix[:-1], ", ".join(_n(v) for v in value))] if scalars else []
    return [(prefix[:-1], value)]


def md_generic(result: dict[str, Any]) -> list[str]:
    """Any other benchmark: its figures as they appear in its result file."""
    rows = [[f"`{key}`", value] for key, value in _leaves(result) if not key.startswith("machine")]
    return _table(["figure", "value"], rows)


RENDERERS = {
    "check_throughput": md_check_throughput,
    "extract_adversarial": md_extract_adversarial,
    "read_scaling": md_read_scaling,
    "distinct_process": md_distinct_process,
    "check_process": md_check_process,
    "store_lookups": md_store_lookups,
    "replay_throughput": md_replay_throughput,
    "kafka_throughput": md_kafka_throughput,
    "cold_worker": md_cold_worker,
}


def markdown(summary: dict[str, Any]) -> str:
    """The run as a Markdown page."""
    env = summary["machine"]
    lines = [
        "# Benchmark results",
        "",
        f"Measured {env['measured_at']} by `python -m bench.run_all` in "
        f"{summary['wall_seconds']:.0f} s.",
        "",
        *_table(["machine", ""], [[key, value] for key, value in env.items()]),
    ]
    for name, entry in summary["benchmarks"].items():
        lines += [f"## {name}", ""]
        if entry["status"] != "ok":
            lines += [f"Not measured: {entry['status']}.", ""]
            continue
        render = RENDERERS.get(name, md_generic)
        try:
            lines += render(entry["result"])
        except (KeyError, TypeError, ValueError, StopIteration) as exc:
            # A result file of another shape than this renderer knows still gets shown.
            lines += [f"(rendered generically: {type(exc).__name__} {exc})", ""]
            lines += md_generic(entry["result"])
        lines += [f"Took {entry['seconds']:.0f} s.", ""]
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    """Run the benchmarks, write latest.json and latest.md; 1 when a required one failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated benchmark names to run")
    args = parser.parse_args()
    chosen = set(args.only.split(",")) if args.only else None
    unknown = (chosen or set()) - {b.name for b in BENCHMARKS}
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(sorted(unknown))}")
    started = time.time()
    results: dict[str, Any] = {}
    with shared_broker() as bootstrap:
        env = {**os.environ, BOOTSTRAP_ENV: bootstrap, "PYTHONPATH": str(ROOT)}
        for benchmark in BENCHMARKS:
            if chosen is None or benchmark.name in chosen:
                results[benchmark.name] = run(benchmark, env)
    summary = {
        "machine": environment(),
        "wall_seconds": round(time.time() - started, 1),
        "benchmarks": results,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    LATEST_JSON.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    LATEST_MD.write_text(markdown(summary), encoding="utf-8")
    print(f"\n{LATEST_MD.read_text(encoding='utf-8')}")
    print(f"written to {LATEST_JSON} and {LATEST_MD}")
    failed = [name for name, entry in results.items() if entry["status"] != "ok"]
    if failed:
        print(f"not measured: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
