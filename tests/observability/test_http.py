"""The metrics and probe endpoints, served on an ephemeral port."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from prometheus_client.parser import text_string_to_metric_families
from quantcheck.worker.observability.http import MetricsServer, start_from_settings
from quantcheck.worker.observability.metrics import Metrics


@dataclass
class Probes:
    live: bool = True
    ready: bool = True
    detail: str = "assigned 3 partitions"
    fail: bool = False

    def liveness(self) -> bool:
        if self.fail:
            raise RuntimeError("probe exploded")
        return self.live

    def readiness(self) -> tuple[bool, str]:
        if self.fail:
            raise RuntimeError("probe exploded")
        return self.ready, self.detail


@dataclass
class Reply:
    status: int
    content_type: str
    body: bytes


@pytest.fixture
def probes() -> Probes:
    return Probes()


@pytest.fixture
def server(probes: Probes) -> Iterator[MetricsServer]:
    metrics = Metrics()
    metrics.record_dead_letter("oversize")
    srv = MetricsServer(
        metrics, port=0, bind="127.0.0.1", liveness=probes.liveness, readiness=probes.readiness
    )
    srv.start()
    yield srv
    srv.stop()


def fetch(server: MetricsServer, path: str, method: str = "GET") -> Reply:
    url = f"http://127.0.0.1:{server.port}{path}"
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return Reply(response.status, response.headers["Content-Type"], response.read())
    except urllib.error.HTTPError as error:
        return Reply(error.code, error.headers["Content-Type"], error.read())


def test_start_on_port_zero_returns_the_bound_port() -> None:
    srv = MetricsServer(
        Metrics(), port=0, bind="127.0.0.1", liveness=lambda: True, readiness=lambda: (True, "")
    )
    assert srv.port is None
    port = srv.start()
    try:
        assert port > 0
        assert srv.port == port
        with pytest.raises(RuntimeError, match="already started"):
            srv.start()
    finally:
        srv.stop()
    assert srv.port is None
    srv.stop()
    with (
        pytest.raises(ConnectionRefusedError),
        socket.create_connection(("127.0.0.1", port), timeout=1),
    ):
        pass


def test_metrics_endpoint_serves_the_registry(server: MetricsServer) -> None:
    reply = fetch(server, "/metrics")
    assert reply.status == 200
    assert reply.content_type.startswith("text/plain; version=0.0.4")
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(reply.body.decode())
        for sample in family.samples
    }
    assert samples["quantcheck_worker_up", ()] == 1.0
    assert samples["quantcheck_dead_letters_total", (("kind", "oversize"),)] == 1.0
    unknown = (("kb_version", "unknown"), ("model", "unknown"), ("retriever", "unknown"))
    assert samples["quantcheck_verdicts_total", (*unknown, ("status", "supported"))] == 0.0


def test_metrics_endpoint_ignores_query_strings(server: MetricsServer) -> None:
    assert fetch(server, "/metrics?name[]=quantcheck_worker_up").status == 200


def test_head_returns_headers_only(server: MetricsServer) -> None:
    reply = fetch(server, "/metrics", method="HEAD")
    assert reply.status == 200
    assert reply.body == b""


def test_healthz_follows_liveness(server: MetricsServer, probes: Probes) -> None:
    reply = fetch(server, "/healthz")
    assert (reply.status, reply.content_type) == (200, "application/json")
    assert json.loads(reply.body) == {"live": True}
    probes.live = False
    reply = fetch(server, "/healthz")
    assert reply.status == 503
    assert json.loads(reply.body) == {"live": False}


def test_readyz_follows_readiness_with_its_reason(server: MetricsServer, probes: Probes) -> None:
    reply = fetch(server, "/readyz")
    assert (reply.status, reply.content_type) == (200, "application/json")
    assert json.loads(reply.body) == {"ready": True, "detail": "assigned 3 partitions"}
    probes.ready, probes.detail = False, "document store unreachable"
    reply = fetch(server, "/readyz")
    assert reply.status == 503
    assert json.loads(reply.body) == {"ready": False, "detail": "document store unreachable"}


def test_a_failing_probe_answers_503(server: MetricsServer, probes: Probes) -> None:
    probes.fail = True
    for path in ("/healthz", "/readyz"):
        reply = fetch(server, path)
        assert reply.status == 503
        assert "probe exploded" in json.loads(reply.body)["detail"]


def test_unknown_path_is_404(server: MetricsServer) -> None:
    assert fetch(server, "/").status == 404
    assert fetch(server, "/metrics/extra").status == 404


def test_requests_are_not_logged(server: MetricsServer, capfd: pytest.CaptureFixture[str]) -> None:
    fetch(server, "/metrics")
    fetch(server, "/nope")
    fetch(server, "/metrics", method="POST")
    assert capfd.readouterr().err == ""


def test_port_setting_zero_means_disabled() -> None:
    assert (
        start_from_settings(
            Metrics(),
            metrics_port=0,
            metrics_bind="127.0.0.1",
            liveness=lambda: True,
            readiness=lambda: (True, ""),
        )
        is None
    )


def test_port_setting_starts_a_server_on_that_port() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    srv = start_from_settings(
        Metrics(),
        metrics_port=free,
        metrics_bind="127.0.0.1",
        liveness=lambda: True,
        readiness=lambda: (True, "ok"),
    )
    assert srv is not None
    try:
        assert srv.port == free
        assert fetch(srv, "/readyz").status == 200
    finally:
        srv.stop()


def test_context_manager_stops_the_server() -> None:
    srv = MetricsServer(
        Metrics(), port=0, bind="127.0.0.1", liveness=lambda: True, readiness=lambda: (True, "")
    )
    with srv:
        assert fetch(srv, "/healthz").status == 200
    assert srv.port is None
