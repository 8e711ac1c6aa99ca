"""``quantcheck worker``: run one member of the worker group until SIGTERM or SIGINT."""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import structlog

from quantcheck.checker import Checker
from quantcheck.cli.checker_options import CHECK_SETTINGS, check_options, uncited_of
from quantcheck.cli.stores import opened_store
from quantcheck.errors import UsageError
from quantcheck.settings import (
    BY_NAME,
    MIB,
    Settings,
    add_settings,
    environment_of,
    load_settings,
)
from quantcheck.worker.observability.http import (
    Exposition,
    Liveness,
    MetricsServer,
    Readiness,
    start_from_settings,
)
from quantcheck.worker.observability.logging import configure_logging
from quantcheck.worker.observability.merged import MergedMetrics
from quantcheck.worker.observability.metrics import Metrics
from quantcheck.worker.store import StoreTimeouts, mask_url
from quantcheck.worker.stream.config import (
    CONNECTION_SETTINGS,
    KafkaConnection,
    default_instance_id,
)
from quantcheck.worker.stream.loop import EXIT_FATAL, Worker, WorkerOptions
from quantcheck.worker.supervisor import Supervisor

WORKER_SETTINGS: tuple[str, ...] = (
    *CONNECTION_SETTINGS,
    "store_url",
    "claims_topic",
    "verdicts_topic",
    "dlq_topic",
    "group_id",
    "instance_id",
    "delivery",
    "batch_max_records",
    "batch_max_ms",
    "max_message_bytes",
    "shutdown_timeout_s",
    "metrics_port",
    "metrics_bind",
    "label_value_limit",
    "log_format",
    "log_level",
    "log_claim_text",
    *CHECK_SETTINGS,
    "document_cache_size",
    "document_cache_mib",
    "session_timeout_ms",
    "static_membership",
    "kafka_call_timeout_s",
    "store_statement_timeout_ms",
    "store_connect_timeout_s",
    "store_keepalive_idle_s",
    "processes",
)

# What the broker accepts as a group.instance.id (the same rule as for topic names).
_GROUP_INSTANCE_ID = re.compile(r"[A-Za-z0-9._-]{1,249}")

# After a stop request, a worker that has not exited within its shutdown budget plus this
# grace is ended hard, so an orchestrator's own kill timeout is never what stops it.
_WATCHDOG_GRACE_S = 5.0
_EXIT_STUCK = 1
_EXIT_FAILED = 1

log = structlog.get_logger("quantcheck.worker")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    """Add ``worker`` to the ``quantcheck`` parser."""
    parser = subparsers.add_parser(
        "worker",
        help=summary,
        description="Join the worker group, check every claim on the claims topic and publish "
        "one verdict per claim. Each worker process needs its own --instance-id (default: "
        "the host name). Stops cleanly on SIGTERM or SIGINT.",
    )
    add_settings(parser, WORKER_SETTINGS)
    parser.set_defaults(run=run)


def worker_options(settings: Settings) -> WorkerOptions:
    """The loop's options from the settings; a bad combination is a UsageError."""
    instance_id = settings.instance_id.strip() or default_instance_id()
    return WorkerOptions(
        claims_topic=settings.claims_topic,
        verdicts_topic=settings.verdicts_topic,
        dlq_topic=settings.dlq_topic,
        group_id=settings.group_id,
        instance_id=instance_id,
        exactly_once=settings.delivery == "exactly-once",
        batch_max_records=settings.batch_max_records,
        batch_max_ms=settings.batch_max_ms,
        max_message_bytes=settings.max_message_bytes,
        shutdown_timeout_s=settings.shutdown_timeout_s,
        log_claim_text=settings.log_claim_text,
        session_timeout_ms=settings.session_timeout_ms,
        call_timeout_s=settings.kafka_call_timeout_s,
        static_membership=static_membership(settings, instance_id),
        uncited=uncited_of(settings),
    )


def static_membership(settings: Settings, instance_id: str) -> bool:
    """``--static-membership``; the broker takes only some instance ids as member names."""
    static = settings.static_membership
    if static and not _GROUP_INSTANCE_ID.fullmatch(instance_id):
        raise UsageError(
            f"instance_id {instance_id!r} cannot name a static member: use at most 249 ASCII "
            "letters, digits, '.', '_' and '-'"
        )
    return static


def store_timeouts(settings: Settings) -> StoreTimeouts:
    """Bounds on waiting for the document store, from the settings."""
    return StoreTimeouts(
        statement_s=settings.store_statement_timeout_ms / 1000,
        connect_s=settings.store_connect_timeout_s,
        keepalive_idle_s=settings.store_keepalive_idle_s,
    )


def run(args: argparse.Namespace) -> int:
    """Run the worker until stopped (or, with ``--processes N``, supervise N of them); 0
    after a clean shutdown."""
    settings = load_settings(args, WORKER_SETTINGS)
    configure_logging(log_format=settings.log_format, level=settings.log_level)
    if settings.processes > 1:
        return _supervise(settings)
    options = worker_options(settings)
    connection = KafkaConnection.from_settings(settings)
    checker = Checker(check_options(settings))
    metrics = Metrics(label_value_limit=settings.label_value_limit)
    log.info(
        "starting",
        store_url=mask_url(settings.store_url),
        group=options.group_id,
        instance=options.instance_id,
        **connection.describe(),
    )
    with opened_store(
        settings.store_url,
        cache_size=settings.document_cache_size,
        cache_bytes=settings.document_cache_mib * MIB,
        timeouts=store_timeouts(settings),
        # A worker may start before the first version is loaded; it answers with dead
        # letters of kind unknown_kb_version until then.
        create=True,
        facts_scope=checker.options.scope.value,
    ) as store:
        worker = Worker.connect(options, connection, store=store, checker=checker, metrics=metrics)
        server = _metrics_server(
            metrics,
            worker.health.live,
            worker.health.ready,
            settings.metrics_port,
            settings.metrics_bind,
        )
        try:
            with _stop_on_signals(worker):
                worker.run()
        except Exception:
            # Logged as one structured line, like everything else the worker says; the
            # orchestrator restarts the process.
            log.exception("worker failed")
            return _EXIT_FAILED
        finally:
            if server is not None:
                server.stop()
    # The loop has logged the cause and the fix in one line already.
    return 0 if worker.failure is None else EXIT_FATAL


def _supervise(settings: Settings) -> int:
    """Run ``settings.processes`` workers as children of this process, serving their merged
    metrics and probes on the container's metrics port."""
    options = worker_options(settings)  # a bad setting is reported once, here
    ports = [_free_loopback_port() for _ in range(settings.processes)]
    # Every setting reaches the children through their environment, so that secrets never
    # show in a process listing; each child gets its own instance ID and private port.
    inherited = {**os.environ, **environment_of(settings, WORKER_SETTINGS)}

    def child_environment(slot: int, port: int) -> dict[str, str]:
        return {
            **inherited,
            BY_NAME["processes"].env: "1",
            BY_NAME["instance_id"].env: f"{options.instance_id}-{slot}",
            BY_NAME["metrics_port"].env: str(port),
            BY_NAME["metrics_bind"].env: "127.0.0.1",
        }

    supervisor = Supervisor(
        [sys.executable, "-m", "quantcheck.worker", "worker"],
        ports,
        environment=child_environment,
        fatal_status=EXIT_FATAL,
        shutdown_timeout_s=options.shutdown_timeout_s,
    )
    merged = MergedMetrics(supervisor.scrapes)
    server = _metrics_server(
        merged, supervisor.live, supervisor.ready, settings.metrics_port, settings.metrics_bind
    )
    log.info("supervising", processes=settings.processes, instance=options.instance_id)
    previous = {
        sig: signal.signal(
            sig, lambda signum, _: supervisor.request_stop(signal.Signals(signum).name)
        )
        for sig in (signal.SIGTERM, signal.SIGINT)
    }
    try:
        return supervisor.run()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if server is not None:
            server.stop()


def _free_loopback_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _metrics_server(
    metrics: Exposition, liveness: Liveness, readiness: Readiness, port: int, bind: str
) -> MetricsServer | None:
    try:
        server = start_from_settings(
            metrics,
            metrics_port=port,
            metrics_bind=bind,
            liveness=liveness,
            readiness=readiness,
        )
    except OSError as exc:
        raise UsageError(f"cannot serve metrics on {bind}:{port}: {exc.strerror or exc}") from None
    if server is not None:
        log.info("serving metrics", bind=bind, port=server.port)
    return server


@contextmanager
def _stop_on_signals(worker: Worker) -> Iterator[None]:
    """SIGTERM and SIGINT ask the worker to stop; a watchdog bounds how long stopping takes."""

    def handle(signum: int, frame: FrameType | None) -> None:
        del frame
        worker.request_stop(signal.Signals(signum).name)

    def watch() -> None:
        worker.wait_for_stop_request()
        time.sleep(worker.options.shutdown_timeout_s + _WATCHDOG_GRACE_S)
        log.error("shutdown took longer than its budget; exiting")
        os._exit(_EXIT_STUCK)

    # Started here rather than from the handler: starting a thread takes locks that the
    # interrupted main thread may hold.
    threading.Thread(target=watch, name="quantcheck-shutdown-watchdog", daemon=True).start()
    previous = {sig: signal.signal(sig, handle) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
