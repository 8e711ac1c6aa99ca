"""What the processes under measurement (the worker and the relay) share.

Each runs as a child process of ``bench.kafka_throughput``, stops on SIGTERM, and writes a
JSON report at exit: when its consumer's first ``poll`` began, the CPU time it used from
then on, its peak resident set size, and anything else it measured about itself.
"""

from __future__ import annotations

import faulthandler
import json
import resource
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from quantcheck.worker.stream.consumer import WorkerConsumer


class TimedConsumer(WorkerConsumer):
    """The worker's consumer, noting the wall-clock time, and the CPU time the process had
    used, when the first ``poll`` began.

    The times are kept on the class: a process under test has one consumer, and the worker
    creates its own deep inside ``Worker.connect``, out of reach of the caller.
    """

    first_poll_at: float | None = None
    cpu_at_first_poll: float | None = None

    def poll(self, *args: Any, **kwargs: Any) -> Any:
        """Poll as usual, noting the times of the first call."""
        if TimedConsumer.first_poll_at is None:
            TimedConsumer.first_poll_at = time.time()
            TimedConsumer.cpu_at_first_poll = time.process_time()
        return super().poll(*args, **kwargs)


def dump_stacks_on_sigusr1() -> None:
    """Write every thread's stack to stderr on SIGUSR1, which the benchmark sends to a run
    that stalls, so that its output says where."""
    faulthandler.register(signal.SIGUSR1, all_threads=True)


def on_sigterm(stop: Callable[[], None]) -> None:
    """Call ``stop`` on SIGTERM and SIGINT (it must only set a flag)."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, frame: stop())


def peak_rss_bytes() -> int:
    """The highest resident set size this process has had since it started.

    Read from ``VmHWM``: on Linux, ``ru_maxrss`` of an exec'd child starts at what its
    parent held when it forked, which would count the benchmark's own memory too.
    """
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text(encoding="ascii").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def write_report(path: Path, **extra: Any) -> None:
    """Write the report: first poll time, CPU time used since (by every thread, until the
    process stopped), peak RSS, and ``extra``."""
    started = TimedConsumer.cpu_at_first_poll
    report = {
        "first_poll_at": TimedConsumer.first_poll_at,
        "cpu_seconds": None if started is None else time.process_time() - started,
        "peak_rss_bytes": peak_rss_bytes(),
        **extra,
    }
    path.write_text(json.dumps(report) + "\n", encoding="utf-8")
