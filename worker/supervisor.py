"""Several worker processes in one container, under one supervisor (``--processes N``).

A worker process checks claims on one core; a container on a bigger node runs several.
Each child is a complete worker with its own consumer and transactional identity (its
instance ID is the container's with ``-<slot>`` appended) and serves its metrics and
probes on a private loopback port. The supervisor serves the container's ``/metrics``
(merged, see :mod:`quantcheck.worker.observability.merged`), and ``/healthz`` and ``/readyz`` true
only when every child's are. A child that dies is started again after a capped backoff; a
child that ends with the fatal status (authorization, a missing topic) ends the container
with that status, since restarting it cannot help. SIGTERM is passed to every child, and
the supervisor exits once they have drained.
"""

from __future__ import annotations

import http.client
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import structlog
from quantcheck.worker.observability.merged import Scrape
from quantcheck.worker.stream.backoff import Backoff

# A child that ran this long before dying is restarted at once, as after a first failure.
_STABLE_AFTER_S = 60.0
_PROBE_TIMEOUT_S = 2.0
_WAKE_S = 0.5
_KILL_GRACE_S = 5.0

log = structlog.get_logger("quantcheck.supervisor")

Environment = Callable[[int, int], dict[str, str]]
"""The environment of the child in a slot, given the slot and its private metrics port."""


@dataclass(slots=True)
class _Child:
    slot: int
    port: int
    backoff: Backoff
    process: subprocess.Popen[bytes] | None = None
    life: int = 0
    started_at: float = 0.0
    start_at: float = 0.0  # when a dead child may be started again
    exit_codes: list[int] = field(default_factory=list)


class Supervisor:
    """Runs ``argv`` as ``len(ports)`` children, each told its slot and private port by
    ``environment``, and keeps them running until asked to stop."""

    def __init__(
        self,
        argv: list[str],
        ports: list[int],
        *,
        environment: Environment,
        fatal_status: int,
        shutdown_timeout_s: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._argv = argv
        self._environment = environment
        self._children = [
            _Child(slot, port, Backoff(initial_s=1.0, maximum_s=30.0))
            for slot, port in enumerate(ports)
        ]
        self._fatal_status = fatal_status
        self._shutdown_timeout_s = shutdown_timeout_s
        self._clock = clock
        self._stop = threading.Event()
        self._lock = threading.Lock()

    def request_stop(self, reason: str) -> None:
        """Ask every child to drain and stop (safe from a signal handler)."""
        log.info("stopping", reason=reason)
        self._stop.set()

    def run(self) -> int:
        """Supervise until stopped; the container's exit status."""
        for child in self._children:
            self._start(child)
        status = 0
        while not self._stop.is_set():
            fatal = self._tend()
            if fatal is not None:
                status = fatal
                break
            self._stop.wait(_WAKE_S)
        drained = self._drain()
        return status or drained

    def _tend(self) -> int | None:
        """Restart dead children when their backoff allows; the fatal status if one ended
        with it."""
        now = self._clock()
        for child in self._children:
            process = child.process
            if process is not None:
                code = process.poll()
                if code is None:
                    continue
                child.exit_codes.append(code)
                with self._lock:
                    child.process = None
                if code == self._fatal_status:
                    log.error("worker process ended with the fatal status", slot=child.slot)
                    return code
                if now - child.started_at >= _STABLE_AFTER_S:
                    child.backoff.reset()
                child.start_at = now + child.backoff.next_delay()
                log.warning(
                    "worker process died; restarting",
                    slot=child.slot,
                    status=code,
                    after_s=round(child.start_at - now, 1),
                )
            elif now >= child.start_at:
                self._start(child)
        return None

    def _start(self, child: _Child) -> None:
        process = subprocess.Popen(self._argv, env=self._environment(child.slot, child.port))
        with self._lock:
            child.process = process
            child.life += 1
            child.started_at = self._clock()
        log.info("worker process started", slot=child.slot, pid=process.pid, life=child.life)

    def _drain(self) -> int:
        """SIGTERM every child and wait for them; 0 when all exited cleanly."""
        running = [c.process for c in self._children if c.process is not None]
        for process in running:
            process.send_signal(signal.SIGTERM)
        deadline = self._clock() + self._shutdown_timeout_s + _KILL_GRACE_S
        status = 0
        for process in running:
            try:
                code = process.wait(max(0.0, deadline - self._clock()))
            except subprocess.TimeoutExpired:
                log.error("worker process did not stop in time; killing it", pid=process.pid)
                process.kill()
                code = process.wait()
            status = status or (code if code > 0 else 1 if code else 0)
        return status

    def restarts(self) -> int:
        """How many times children have been started after the first time."""
        return sum(child.life - 1 for child in self._children if child.life)

    def live(self) -> bool:
        """Every child is running and says it is live."""
        return all(self._probe(child, "/healthz")[0] for child in self._children)

    def ready(self) -> tuple[bool, str]:
        """Every child is running and ready; the detail names the first that is not."""
        for child in self._children:
            ok, detail = self._probe(child, "/readyz")
            if not ok:
                return False, f"worker process {child.slot}: {detail}"
        return True, f"{len(self._children)} worker processes ready"

    def scrapes(self) -> list[Scrape]:
        """The metrics each running child serves now."""
        found = []
        for child in self._children:
            with self._lock:
                alive, life = child.process is not None, child.life
            if not alive:
                continue
            status, body = _get(child.port, "/metrics")
            if status == 200:
                found.append(Scrape(child.slot, life, body.decode("utf-8")))
        return found

    def _probe(self, child: _Child, path: str) -> tuple[bool, str]:
        with self._lock:
            alive = child.process is not None and child.process.poll() is None
        if not alive:
            return False, "not running"
        status, body = _get(child.port, path)
        return status == 200, body.decode("utf-8", "replace").strip() or f"HTTP {status}"


def _get(port: int, path: str) -> tuple[int, bytes]:
    """GET ``path`` from a child's loopback port; status 0 when it does not answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=_PROBE_TIMEOUT_S)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    except OSError:
        return 0, b""
    finally:
        connection.close()
