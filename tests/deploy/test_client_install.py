"""``pip install 'quantcheck[client]'`` in a fresh virtualenv: the contracts and the
publisher, without the worker's database, chart and terminal libraries."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

# What only the worker needs; none of it may come with the client.
WORKER_ONLY = {
    "psycopg",
    "psycopg-binary",
    "psycopg-pool",
    "matplotlib",
    "rich",
    "structlog",
    "prometheus-client",
    "sentencex",
}
ALLOWED = {
    "quantcheck",
    "kafka-python",
    "pydantic",
    "pydantic-core",
    "annotated-types",
    "typing-extensions",
    "typing-inspection",
    "pip",
    "setuptools",
}

USE_THE_CLIENT = """
from datetime import UTC, datetime
from quantcheck.schemas import AnswerEvent, parse_answer
from quantcheck.client import Publisher, event_message

answer = AnswerEvent(
    schema_version=1, event_type="answer", answer_id="A1", answer_text="Log every 15 s [1].",
    retrieved_doc_ids=["S01"], kb_version="v1", produced_at=datetime.now(UTC),
)
key, value = event_message(answer)
assert parse_answer(value) == answer
print(Publisher.__name__)
"""


def run(*argv: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(arg) for arg in argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
        check=False,
    )


@pytest.fixture(scope="module")
def client_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtualenv with the project installed as ``.[client]`` from a copy of its sources."""
    base = tmp_path_factory.mktemp("client-install")
    source = base / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for package in ("quantcheck", "worker", "schemas"):
        shutil.copytree(
            ROOT / package,
            source / package,
            symlinks=True,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    venv = base / "venv"
    created = run(sys.executable, "-m", "venv", venv, cwd=base)
    assert created.returncode == 0, created.stderr
    installed = run(
        venv / "bin" / "python", "-m", "pip", "install", "--quiet", ".[client]", cwd=source
    )
    assert installed.returncode == 0, installed.stderr
    return venv


@pytest.mark.integration
def test_the_client_extra_brings_only_pydantic_and_kafka_python(client_venv: Path) -> None:
    listed = run(
        client_venv / "bin" / "python", "-m", "pip", "list", "--format=json", cwd=client_venv
    )
    assert listed.returncode == 0, listed.stderr
    names = {item["name"].lower().replace("_", "-") for item in json.loads(listed.stdout)}
    assert not names & WORKER_ONLY
    assert names <= ALLOWED, sorted(names - ALLOWED)
    assert {"quantcheck", "kafka-python", "pydantic"} <= names


@pytest.mark.integration
def test_the_contracts_and_the_publisher_import(client_venv: Path) -> None:
    done = run(client_venv / "bin" / "python", "-c", USE_THE_CLIENT, cwd=client_venv)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Publisher"


@pytest.mark.integration
def test_only_the_quantcheck_name_is_installed(client_venv: Path) -> None:
    # Generic top-level names such as "worker" would shadow, or be shadowed by, a backend's
    # own modules.
    (site,) = (client_venv / "lib").glob("python*/site-packages")
    assert (site / "quantcheck" / "worker" / "client" / "publisher.py").is_file()
    assert not (site / "worker").exists()
    assert not (site / "schemas").exists()


@pytest.mark.integration
def test_the_command_line_says_what_to_install(client_venv: Path) -> None:
    done = run(client_venv / "bin" / "quantcheck", "check", "--claims", "x.csv", cwd=client_venv)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "pip install 'quantcheck[worker]'" in done.stderr
