"""Every command that talks to Kafka reports an unreachable broker in one line, exit 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from tests.stream.samples import CLAIMS
from tests.support.kafka import ROOT


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_worker_publish_and_topics_fail_in_one_line_without_a_broker(tmp_path: Path) -> None:
    bootstrap = f"127.0.0.1:{closed_port()}"
    common = ["--bootstrap-servers", bootstrap]
    commands = {
        "worker": [
            "worker",
            *common,
            "--store",
            f"sqlite:///{tmp_path / 's.db'}",
            "--metrics-port",
            "0",
            "--log-level",
            "error",
        ],
        "publish": ["publish", *common, "--kb-version", "v1", str(CLAIMS)],
        "topics": ["topics", "create", *common],
    }
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # Started together: each waits out the same bootstrap timeout.
    running = {
        name: subprocess.Popen(
            [sys.executable, "-m", "quantcheck.worker", *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        for name, argv in commands.items()
    }
    for name, process in running.items():
        out, err = process.communicate(timeout=60)
        assert process.returncode == 2, (name, out, err)
        assert err == (
            f"quantcheck: error: cannot reach Kafka at {bootstrap}: "
            f"KafkaTimeoutError: Unable to bootstrap from ['{bootstrap}']\n"
        ), name
        assert "Traceback" not in out + err
