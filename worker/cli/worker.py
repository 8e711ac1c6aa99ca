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

from worker.checker import Checker
from worker.cli.checker_options import CHECK_SETTINGS, check_options
from worker.cli.stores import opened_store
from worker.errors import UsageError
from worker.observability.http import (
    Exposition,
    Liveness,
    MetricsServer,
    Readiness,
    start_from_settings,
)
from worker.observability.logging import configure_logging
from worker.observability.merged import MergedMetrics
from worker.observability.metrics import Metrics
from worker.settings import BY_NAME, add_settings, as_bool, as_int, as_mib
from worker.store import StoreTimeouts, mask_url
from worker.stream.config import CONNECTION_SETTINGS, KafkaConnection, default_instance_id
from worker.stream.loop import EXIT_FATAL, Worker, WorkerOptions
from worker.supervisor import Supervisor

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


def worker_options(args: argparse.Namespace) -> WorkerOptions:
    """The loop's options from the parsed settings; a bad value is a UsageError."""
    for name in ("claims_topic", "verdicts_topic", "dlq_topic", "group_id"):
        if not str(getattr(args, name)).strip():
            raise UsageError(f"{name} must not be empty")
    instance_id = args.instance_id.strip() or default_instance_id()
    return WorkerOptions(
        claims_topic=args.claims_topic,
        verdicts_topic=args.verdicts_topic,
        dlq_topic=args.dlq_topic,
        group_id=args.group_id,
        instance_id=instance_id,
        exactly_once=args.delivery == "exactly-once",
        batch_max_records=as_int(args.batch_max_records, name="batch_max_records", minimum=1),
        batch_max_ms=as_int(args.batch_max_ms, name="batch_max_ms", minimum=1),
        max_message_bytes=as_int(args.max_message_bytes, name="max_message_bytes", minimum=1),
        shutdown_timeout_s=as_int(args.shutdown_timeout_s, name="shutdown_timeout_s", minimum=1),
        log_claim_text=as_bool(args.log_claim_text),
        session_timeout_ms=as_int(args.session_timeout_ms, name="session_timeout_ms", minimum=1),
        call_timeout_s=as_int(args.kafka_call_timeout_s, name="kafka_call_timeout_s", minimum=1),
        static_membership=static_membership(args, instance_id),
    )


def static_membership(args: argparse.Namespace, instance_id: str) -> bool:
    """``--static-membership``; the broker takes only some instance ids as member names."""
    static = as_bool(args.static_membership)
    if static and not _GROUP_INSTANCE_ID.fullmatch(instance_id):
        raise UsageError(
            f"instance_id {instance_id!r} cannot name a static member: use at most 249 ASCII "
            "letters, digits, '.', '_' and '-'"
        )
    return static


def store_timeouts(args: argparse.Namespace) -> StoreTimeouts:
    """Bounds on waiting for the document store, from the parsed settings."""
    statement_ms = as_int(
        args.store_statement_timeout_ms, name="store_statement_timeout_ms", minimum=1
    )
    return StoreTimeouts(
        statement_s=statement_ms / 1000,
        connect_s=as_int(args.store_connect_timeout_s, name="store_connect_timeout_s", minimum=1),
        keepalive_idle_s=as_int(
            args.store_keepalive_idle_s, name="store_keepalive_idle_s", minimum=1
        ),
    )


def run(args: argparse.Namespace) -> int:
    """Run the worker until stopped (or, with ``--processes N``, supervise N of them); 0
    after a clean shutdown."""
    configure_logging(log_format=args.log_format, level=args.log_level)
    processes = as_int(args.processes, name="processes", minimum=1)
    if processes > 1:
        return _supervise(args, processes)
    options = worker_options(args)
    connection = KafkaConnection.from_args(args)
    checker = Checker(check_options(args))
    metrics = Metrics(
        label_value_limit=as_int(args.label_value_limit, name="label_value_limit", minimum=1)
    )
    metrics_port = as_int(args.metrics_port, name="metrics_port")
    cache_size = as_int(args.document_cache_size, name="document_cache_size")
    log.info(
        "starting",
        store_url=mask_url(args.store_url),
        group=options.group_id,
        instance=options.instance_id,
        **connection.describe(),
    )
    cache_bytes = as_mib(args.document_cache_mib, name="document_cache_mib")
    with opened_store(
        args.store_url,
        cache_size=cache_size,
        cache_bytes=cache_bytes,
        timeouts=store_timeouts(args),
    ) as store:
        worker = Worker.connect(options, connection, store=store, checker=checker, metrics=metrics)
        server = _metrics_server(
            metrics, worker.health.live, worker.health.ready, metrics_port, args.metrics_bind
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


def _supervise(args: argparse.Namespace, processes: int) -> int:
    """Run ``processes`` workers as children of this process, serving their merged metrics
    and probes on the container's metrics port."""
    options = worker_options(args)  # a bad setting is reported once, here
    ports = [_free_loopback_port() for _ in range(processes)]
    # Every setting reaches the children through their environment, so that secrets never
    # show in a process listing; each child gets its own instance ID and private port.
    inherited = {
        **os.environ,
        **{BY_NAME[name].env: str(getattr(args, name)) for name in WORKER_SETTINGS},
    }

    def child_environment(slot: int, port: int) -> dict[str, str]:
        return {
            **inherited,
            BY_NAME["processes"].env: "1",
            BY_NAME["instance_id"].env: f"{options.instance_id}-{slot}",
            BY_NAME["metrics_port"].env: str(port),
            BY_NAME["metrics_bind"].env: "127.0.0.1",
        }

    supervisor = Supervisor(
        [sys.executable, "-m", "worker", "worker"],
        ports,
        environment=child_environment,
        fatal_status=EXIT_FATAL,
        shutdown_timeout_s=options.shutdown_timeout_s,
    )
    merged = MergedMetrics(supervisor.scrapes)
    server = _metrics_server(
        merged,
        supervisor.live,
        supervisor.ready,
        as_int(args.metrics_port, name="metrics_port"),
        args.metrics_bind,
    )
    log.info("supervising", processes=processes, instance=options.instance_id)
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
