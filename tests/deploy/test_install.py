"""Each distribution installed into a fresh virtualenv does what it promises, with nothing
more than it needs.

``pip install .`` gives ``quantcheck check`` and the in-process API, and nothing for Kafka,
PostgreSQL or charts; ``quantcheck[kafka]`` runs the demo's worker path against the real
broker; ``quantcheck-client`` publishes without numpy, a database driver or rich.

The distributions and every dependency are fetched or built once, into a wheelhouse; the
virtualenvs install from it alone (``--no-index``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from quantcheck.schemas import VerdictEvent, parse_verdicts_topic_value

from tests.conftest import ROOT
from tests.support.kafka import KafkaBroker, consume_all, create_topics, unique_topic_name

pytestmark = [pytest.mark.integration, pytest.mark.slow]

# What only Kafka, PostgreSQL and charts need: none of it comes with `pip install .`.
NOT_IN_THE_CHECK = {
    "kafka-python",
    "crc32c",
    "prometheus-client",
    "structlog",
    "psycopg",
    "psycopg-binary",
    "psycopg-pool",
    "matplotlib",
    "langchain-core",
}
# Everything the light client may bring.
CLIENT_ALLOWED = {
    "quantcheck-client",
    "kafka-python",
    "pydantic",
    "pydantic-core",
    "annotated-types",
    "typing-extensions",
    "typing-inspection",
}
NOT_IN_THE_CLIENT = {"numpy", "psycopg", "psycopg-binary", "matplotlib", "rich", "lemminflect"}
TUTORIAL_SUMMARY = [
    "claims=16 matched_expected=16",
    "supported=7",
    "unsupported_quantity=5",
    "missing_citation=1",
    "unknown_citation=1",
    "citation_not_retrieved=1",
    "needs_review_no_quantity=1",
]
THREE_LINES = """
from quantcheck import check
verdict = check("The plant has 3,400 employees.", {"S01": "The plant employs 3,400 people."})
print(verdict.status, verdict.supported, verdict.to_dict()["facts"][0]["label"])
"""
INSTALL_TIMEOUT_S = 600


def run(
    *argv: str | Path, cwd: Path, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(arg) for arg in argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=INSTALL_TIMEOUT_S,
        check=False,
    )


def pip(*argv: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The test environment's pip, aimed at another environment with ``--python``."""
    return run(sys.executable, "-m", "pip", "--disable-pip-version-check", *argv, cwd=cwd)


def clean_env(**extra: str) -> dict[str, str]:
    """The environment less anything that would put the repository's sources, or this
    virtualenv, on a fresh one's path."""
    env = {
        k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}
    }
    env.update(extra)
    return env


@dataclass(frozen=True)
class Sources:
    """A copy of the repository's packaging inputs, and a wheelhouse with every wheel the
    distributions and their extras need."""

    tree: Path
    wheels: Path

    def wheel(self, name: str) -> Path:
        (found,) = self.wheels.glob(f"{name.replace('-', '_')}-*.whl")
        return found


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Sources:
    base = tmp_path_factory.mktemp("install")
    tree = base / "src"
    tree.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "NOTICE"):
        shutil.copy(ROOT / name, tree / name)
    for folder in ("quantcheck", "worker", "schemas", "client", "examples"):
        shutil.copytree(
            ROOT / folder,
            tree / folder,
            symlinks=True,
            ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info", "node_modules"),
        )
    wheels = base / "wheels"
    # The build backend too, so that `pip install .` can build offline from the wheelhouse.
    fetched = pip("download", "--dest", wheels, "setuptools>=77", "wheel", cwd=base)
    assert fetched.returncode == 0, fetched.stderr
    built = pip("wheel", "--wheel-dir", wheels, ".[kafka]", "./client", cwd=tree)
    assert built.returncode == 0, built.stderr
    return Sources(tree, wheels)


def fresh_venv(base: Path, name: str) -> Path:
    venv = base / name
    created = run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=base)
    assert created.returncode == 0, created.stderr
    return venv


def install(venv: Path, *requirements: str | Path, cwd: Path) -> None:
    done = pip(
        "--python", venv / "bin" / "python", "install", "--no-index", "--find-links",
        cwd.parent / "wheels", *requirements, cwd=cwd,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def installed(venv: Path) -> set[str]:
    listed = pip("--python", venv / "bin" / "python", "list", "--format=json", cwd=venv)
    assert listed.returncode == 0, listed.stderr
    return {item["name"].lower().replace("_", "-") for item in json.loads(listed.stdout)}


@pytest.fixture(scope="module")
def check_venv(sources: Sources) -> Path:
    """``pip install .``, exactly as the README's first section says."""
    venv = fresh_venv(sources.tree.parent, "check")
    install(venv, ".", cwd=sources.tree)
    return venv


def test_pip_install_dot_brings_the_check_and_nothing_for_kafka_postgres_or_charts(
    check_venv: Path,
) -> None:
    names = installed(check_venv)
    assert {"quantcheck", "sentencex", "rich"} <= names
    assert not names & NOT_IN_THE_CHECK, sorted(names & NOT_IN_THE_CHECK)
    # The words' lemmas ship as a table generated from lemminflect, which stays behind,
    # and numpy with it.
    assert not names & {"lemminflect", "numpy"}, sorted(names & {"lemminflect", "numpy"})


def test_quantcheck_check_runs_on_the_sample(check_venv: Path, sources: Sources) -> None:
    done = run(
        check_venv / "bin" / "quantcheck", "check",
        "--documents", "examples/field_sensor_handbook.csv",
        "--claims", "examples/rag_numeric_claims.csv",
        cwd=sources.tree, env=clean_env(),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[: len(TUTORIAL_SUMMARY)] == TUTORIAL_SUMMARY


def test_the_three_line_api_reads_a_count_noun(check_venv: Path) -> None:
    done = run(check_venv / "bin" / "python", "-c", THREE_LINES, cwd=check_venv, env=clean_env())
    assert done.returncode == 0, done.stderr
    assert done.stdout == "supported True count[employee]=3400\n"


@pytest.mark.parametrize(
    ("argv", "extra"),
    [
        (["worker"], "kafka"),
        (["publish", "--kb-version", "v1", "claims.csv"], "kafka"),
        (["check", "--claims", "c.csv", "--chart", "c.png"], "chart"),
        (["check", "--claims", "c.csv", "--store", "postgresql://u@127.0.0.1:9/db"], "postgres"),
    ],
)
def test_what_an_extra_brings_is_asked_for_in_one_line(
    check_venv: Path, sources: Sources, argv: list[str], extra: str
) -> None:
    shutil.copy(sources.tree / "examples" / "rag_numeric_claims.csv", check_venv / "c.csv")
    done = run(check_venv / "bin" / "quantcheck", *argv, cwd=check_venv, env=clean_env())
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"pip install 'quantcheck[{extra}]'" in done.stderr


def test_the_licence_is_in_the_metadata(check_venv: Path) -> None:
    script = (
        "from importlib.metadata import distribution as d; m = d('quantcheck');"
        " print(m.metadata['License-Expression']);"
        " print(sorted(f.name for f in m.files if 'licenses' in str(f)))"
    )
    done = run(check_venv / "bin" / "python", "-c", script, cwd=check_venv, env=clean_env())
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["Apache-2.0", "['LICENSE', 'NOTICE']"]


def test_python_dash_m_quantcheck_is_the_command(check_venv: Path) -> None:
    done = run(check_venv / "bin" / "python", "-m", "quantcheck", "--version", cwd=check_venv)
    assert (done.returncode, done.stdout) == (0, "quantcheck 0.1.0\n")


def test_only_the_quantcheck_name_is_installed(check_venv: Path) -> None:
    # Generic top-level names such as "worker" would shadow, or be shadowed by, a backend's
    # own modules.
    (site,) = (check_venv / "lib").glob("python*/site-packages")
    assert (site / "quantcheck" / "api.py").is_file()
    assert not (site / "worker").exists()
    assert not (site / "schemas").exists()


@pytest.fixture(scope="module")
def kafka_venv(sources: Sources) -> Path:
    venv = fresh_venv(sources.tree.parent, "kafka")
    install(venv, f"{sources.wheel('quantcheck')}[kafka]", cwd=sources.tree)
    return venv


@contextmanager
def worker_process(venv: Path, cwd: Path, env: Mapping[str, str]) -> Iterator[Path]:
    """``quantcheck worker`` of ``venv`` running until the block ends; yields its log."""
    log = cwd / "worker.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(venv / "bin" / "quantcheck"), "worker"],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            env=env,
        )
    try:
        yield log
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_the_kafka_extra_runs_the_demo_s_worker_path(
    kafka_venv: Path, sources: Sources, kafka_broker: KafkaBroker, tmp_path: Path
) -> None:
    names = installed(kafka_venv)
    assert {"kafka-python", "prometheus-client", "structlog", "crc32c"} <= names
    assert not names & {"psycopg", "psycopg-binary", "matplotlib"}
    env = clean_env(
        QUANTCHECK_BOOTSTRAP_SERVERS=kafka_broker.bootstrap,
        QUANTCHECK_STORE_URL=f"sqlite:///{tmp_path / 'kb.db'}",
        QUANTCHECK_CLAIMS_TOPIC=unique_topic_name("claims"),
        QUANTCHECK_VERDICTS_TOPIC=unique_topic_name("verdicts"),
        QUANTCHECK_DLQ_TOPIC=unique_topic_name("dlq"),
        QUANTCHECK_GROUP_ID=unique_topic_name("group"),
        QUANTCHECK_INSTANCE_ID="install-test",
        QUANTCHECK_METRICS_PORT="0",
        QUANTCHECK_LOG_FORMAT="json",
    )
    quantcheck = kafka_venv / "bin" / "quantcheck"
    examples = sources.tree / "examples"
    for argv in (
        ["topics", "create"],
        ["docs", "load", "--kb-version", "handbook-v1", examples / "field_sensor_handbook.csv"],
    ):
        done = run(quantcheck, *argv, cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
    with worker_process(kafka_venv, tmp_path, env) as log:
        claims = examples / "rag_numeric_claims.csv"
        done = run(
            quantcheck, "publish", "--kb-version", "handbook-v1", claims, cwd=tmp_path, env=env
        )
        assert done.returncode == 0, done.stderr
        records = consume_all(
            kafka_broker.bootstrap, env["QUANTCHECK_VERDICTS_TOPIC"], expected=16, timeout_s=120
        )
        assert "starting" in log.read_text(encoding="utf-8")
    verdicts = [parse_verdicts_topic_value(record.value or b"") for record in records]
    statuses = Counter(v.status for v in verdicts if isinstance(v, VerdictEvent))
    expected = dict(line.split("=") for line in TUTORIAL_SUMMARY[1:])
    assert {status: str(count) for status, count in statuses.items()} == expected


@pytest.fixture(scope="module")
def client_venv(sources: Sources) -> Path:
    venv = fresh_venv(sources.tree.parent, "client")
    install(venv, sources.wheel("quantcheck-client"), cwd=sources.tree)
    return venv


USE_THE_CLIENT = """
from datetime import UTC, datetime
import quantcheck
from quantcheck.schemas import AnswerEvent, parse_answer
from quantcheck.client import Publisher, event_message

answer = AnswerEvent(
    schema_version=1, event_type="answer", answer_id="A1", answer_text="Log every 15 s [1].",
    retrieved_doc_ids=["S01"], kb_version="v1", produced_at=datetime.now(UTC),
)
key, value = event_message(answer)
assert parse_answer(value) == answer
with Publisher(bootstrap_servers=BOOTSTRAP, topic=TOPIC) as publisher:
    assert publisher.publish_answer(answer)
print(quantcheck.__version__, publisher.stats().delivered)
try:
    from quantcheck import check
except ImportError as exc:
    print(exc)
"""


def test_the_light_client_brings_only_pydantic_and_kafka_python(client_venv: Path) -> None:
    names = installed(client_venv)
    assert names <= CLIENT_ALLOWED, sorted(names - CLIENT_ALLOWED)
    assert not names & NOT_IN_THE_CLIENT
    assert {"quantcheck-client", "kafka-python", "pydantic"} <= names
    # No command line: it would need the checker.
    assert not (client_venv / "bin" / "quantcheck").exists()


def test_the_light_client_publishes(
    client_venv: Path, kafka_broker: KafkaBroker, tmp_path: Path
) -> None:
    topic = unique_topic_name("client")
    create_topics(kafka_broker.bootstrap, [topic])
    script = f"BOOTSTRAP = {kafka_broker.bootstrap!r}\nTOPIC = {topic!r}\n{USE_THE_CLIENT}"
    done = run(client_venv / "bin" / "python", "-c", script, cwd=tmp_path, env=clean_env())
    assert done.returncode == 0, done.stderr
    version, message = done.stdout.splitlines()
    assert version == "0.1.0 1"
    assert message.endswith("pip install quantcheck")
    (record,) = consume_all(kafka_broker.bootstrap, topic, expected=1)
    assert record.key == b"A1"


def test_the_two_distributions_share_version_and_licence() -> None:
    main = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    client = tomllib.loads((ROOT / "client" / "pyproject.toml").read_text(encoding="utf-8"))
    assert client["project"]["version"] == main["version"]
    assert client["project"]["license"] == main["license"] == "Apache-2.0"
    assert (ROOT / "client" / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
