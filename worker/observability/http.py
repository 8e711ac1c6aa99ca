"""A small HTTP server for ``/metrics``, ``/healthz`` and ``/readyz``, on a daemon thread.

``/healthz`` answers whether the process should be restarted (its poll loop has stalled);
``/readyz`` whether it should receive work. Both are decided by callables the worker
supplies, so this module knows nothing about Kafka or the store.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Protocol, cast
from urllib.parse import urlsplit

from quantcheck.worker.observability.metrics import CONTENT_TYPE

Liveness = Callable[[], bool]
Readiness = Callable[[], tuple[bool, str]]

_JSON = "application/json"


class Exposition(Protocol):
    """What ``/metrics`` serves: a worker's own metrics, or a container's merged ones."""

    def render(self) -> bytes:
        """The metrics in the Prometheus text format."""
        ...


class MetricsServer:
    """Serves one :class:`Exposition` and the two probes until :meth:`stop`.

    ``port=0`` binds an ephemeral port (what tests want); :meth:`start` returns the port
    actually bound. The ``metrics_port`` setting's 0, which means "disabled", is handled by
    :func:`start_from_settings`, so the two meanings never meet.
    """

    def __init__(
        self,
        metrics: Exposition,
        *,
        port: int,
        bind: str = "0.0.0.0",
        liveness: Liveness,
        readiness: Readiness,
    ) -> None:
        self._metrics = metrics
        self._port = port
        self._bind = bind
        self._liveness = liveness
        self._readiness = readiness
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int | None:
        """The bound port while running, else ``None``."""
        return None if self._server is None else self._server.server_address[1]

    def start(self) -> int:
        """Bind and start serving on a daemon thread; returns the bound port.

        Raises ``OSError`` when the address cannot be bound and ``RuntimeError`` when
        already started.
        """
        if self._server is not None:
            raise RuntimeError("metrics server already started")
        server = _Server((self._bind, self._port), _Handler)
        server.app = self
        thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.1},  # bounds how long stop() waits
            name="quantcheck-metrics-http",
            daemon=True,
        )
        thread.start()
        self._server, self._thread = server, thread
        return server.server_address[1]

    def stop(self, timeout: float = 5.0) -> None:
        """Stop serving and release the socket; safe to call more than once."""
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        if thread is not None:
            thread.join(timeout)

    def __enter__(self) -> MetricsServer:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def respond(self, path: str) -> tuple[int, str, bytes]:
        """The status, content type and body for a GET of ``path``."""
        route = urlsplit(path).path
        if route == "/metrics":
            return 200, CONTENT_TYPE, self._metrics.render()
        if route == "/healthz":
            try:
                live = bool(self._liveness())
            except Exception as exc:
                return 503, _JSON, _json({"live": False, "detail": _describe(exc)})
            return (200 if live else 503), _JSON, _json({"live": live})
        if route == "/readyz":
            try:
                ready, detail = self._readiness()
            except Exception as exc:
                ready, detail = False, _describe(exc)
            body = _json({"ready": bool(ready), "detail": detail})
            return (200 if ready else 503), _JSON, body
        return 404, "text/plain; charset=utf-8", b"not found\n"


def start_from_settings(
    metrics: Exposition,
    *,
    metrics_port: int,
    metrics_bind: str,
    liveness: Liveness,
    readiness: Readiness,
) -> MetricsServer | None:
    """Start the server the ``metrics_port``/``metrics_bind`` settings describe.

    Returns ``None`` without binding anything when ``metrics_port`` is 0 (disabled).
    """
    if metrics_port == 0:
        return None
    server = MetricsServer(
        metrics, port=metrics_port, bind=metrics_bind, liveness=liveness, readiness=readiness
    )
    server.start()
    return server


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    app: MetricsServer

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]) -> None:
        # An IPv6 literal such as "::" needs an IPv6 socket; the class default is IPv4.
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, handler)


class _Handler(BaseHTTPRequestHandler):
    # A scraper that connects and never sends a request must not hold a thread forever.
    timeout = 10
    server_version = "quantcheck"

    def do_GET(self) -> None:
        self._reply(with_body=True)

    def do_HEAD(self) -> None:
        self._reply(with_body=False)

    def log_message(self, format: str, *args: object) -> None:
        """Silence the per-request lines the base class writes to stderr."""

    def _reply(self, *, with_body: bool) -> None:
        app = cast(_Server, self.server).app
        status, content_type, body = app.respond(self.path)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if with_body:
            self.wfile.write(body)


def _json(payload: dict[str, object]) -> bytes:
    return json.dumps(payload, separators=(",", ":")).encode() + b"\n"


def _describe(exc: Exception) -> str:
    return f"probe failed: {type(exc).__name__}: {exc}"
