"""The worker under measurement: ``quantcheck worker`` built from the same settings and parts.

It takes every ``quantcheck worker`` flag and assembles the worker as that command does
(checker, metrics, caching document store, ``Worker.connect``, ``Worker.run``), with these
differences, none of which touches the path a claim takes:

* the log goes to ``--log`` (JSON, at the worker's log level) instead of stdout;
* no metrics server is started (the metrics are still recorded);
* the consumer notes when its first ``poll`` began (:class:`bench.under_test.TimedConsumer`);
* ``--warm-with FILE`` checks the claim values in FILE (one per line) before the loop
  starts, which fills the document cache and the evidence cache;
* ``--profile`` runs the loop under pyinstrument and adds the top costs to the report.

Run as a child process by ``bench.kafka_throughput``; SIGTERM stops it cleanly.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from quantcheck.worker.observability.logging import configure_logging
from quantcheck.worker.observability.metrics import Metrics
from quantcheck.worker.store import CachingStore, open_store
from quantcheck.worker.stream import loop
from quantcheck.worker.stream.batch import BatchProcessor, BatchSettings
from quantcheck.worker.stream.config import KafkaConnection
from quantcheck.worker.stream.loop import Worker, WorkerOptions
from quantcheck.worker.stream.records import InputRecord

from bench.under_test import TimedConsumer, dump_stacks_on_sigusr1, on_sigterm, write_report
from quantcheck.checker import Checker
from quantcheck.cli.checker_options import check_options
from quantcheck.cli.main import build_parser
from quantcheck.cli.worker import WORKER_SETTINGS, worker_options
from quantcheck.settings import MIB, load_settings

PROFILE_INTERVAL_S = 0.001
TOP_FUNCTIONS = 15


def warm_up(checker: Checker, store: CachingStore, options: WorkerOptions, path: Path) -> int:
    """Check the claim values in ``path`` as the worker would; returns how many there were."""
    values = path.read_bytes().splitlines()
    records = [InputRecord("warm-up", 0, i, -1, None, value) for i, value in enumerate(values)]
    processor = BatchProcessor(
        checker,
        store,
        BatchSettings(
            verdicts_topic=options.verdicts_topic,
            dlq_topic=options.dlq_topic,
            group=options.group_id,
            max_message_bytes=options.max_message_bytes,
        ),
    )
    for start in range(0, len(records), options.batch_max_records):
        processor.process(
            records[start : start + options.batch_max_records], checked_at=datetime.now(UTC)
        )
    return len(records)


def _walk(frame: Any, ancestors: frozenset[str]) -> Iterator[tuple[str, float, float, bool]]:
    """(name, time, self time, whether an ancestor has the same name) of every real frame.

    The profiler's synthetic ``[self]`` frames are left out: a frame's self time already
    counts them.
    """
    name = f"{frame.function} ({frame.file_path_short}:{frame.line_no})"
    yield name, frame.time, frame.total_self_time, name in ancestors
    for child in frame.children:
        if not child.is_synthetic:
            yield from _walk(child, ancestors | {name})


def top_costs(session: Any) -> dict[str, Any]:
    """The functions taking the largest shares of the main thread's wall time.

    ``self``: time with the function itself on top of the stack (its own code, or a C call
    it made). ``inclusive``: time with the function anywhere on the stack, counted once
    per stack however often it recurs.
    """
    root = session.root_frame()
    if root is None:
        return {"seconds": 0.0, "self": [], "inclusive": []}
    total = root.time
    own: dict[str, float] = {}
    inclusive: dict[str, float] = {}
    for name, spent, self_spent, nested in _walk(root, frozenset()):
        own[name] = own.get(name, 0.0) + self_spent
        if not nested:
            inclusive[name] = inclusive.get(name, 0.0) + spent

    def ranked(times: dict[str, float]) -> list[dict[str, Any]]:
        best = sorted(times.items(), key=lambda item: item[1], reverse=True)[:TOP_FUNCTIONS]
        return [{"function": name, "share": round(spent / total, 4)} for name, spent in best]

    return {"seconds": round(total, 2), "self": ranked(own), "inclusive": ranked(inclusive)}


def main() -> None:
    """Run the worker until SIGTERM, then write the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", type=Path, required=True)
    parser.add_argument("--log", type=Path, required=True)
    parser.add_argument("--warm-with", type=Path)
    parser.add_argument("--profile", action="store_true")
    ours, rest = parser.parse_known_args()
    dump_stacks_on_sigusr1()
    settings = load_settings(build_parser().parse_args(["worker", *rest]), WORKER_SETTINGS)
    log_file = ours.log.open("a", encoding="utf-8")
    configure_logging(log_format="json", level=settings.log_level, stream=log_file)
    options = worker_options(settings)
    checker = Checker(check_options(settings))
    metrics = Metrics(label_value_limit=settings.label_value_limit)
    store = CachingStore(
        open_store(settings.store_url, facts_scope=checker.options.scope.value),
        settings.document_cache_size,
        settings.document_cache_mib * MIB,
    )
    warmed = 0 if ours.warm_with is None else warm_up(checker, store, options, ours.warm_with)
    # The loop creates its consumer itself; this makes it one that notes its first poll.
    loop.WorkerConsumer = TimedConsumer  # type: ignore[misc]
    worker = Worker.connect(
        options,
        KafkaConnection.from_settings(settings),
        store=store,
        checker=checker,
        metrics=metrics,
    )
    on_sigterm(worker.request_stop)
    profiler = None
    if ours.profile:
        from pyinstrument import Profiler  # noqa: PLC0415 - only when profiling

        profiler = Profiler(interval=PROFILE_INTERVAL_S, async_mode="disabled")
        profiler.start()
    try:
        worker.run()
    finally:
        store.close()
        log_file.close()
    extra: dict[str, Any] = {"warmed_with": warmed}
    if profiler is not None:
        profiler.stop()
        extra["profile"] = top_costs(profiler.last_session)
        extra["profile_text"] = profiler.output_text(unicode=False, color=False, show_all=False)
    write_report(ours.report, **extra)


if __name__ == "__main__":
    main()
