"""The README is the contract: its commands exist and its settings table is complete."""

from __future__ import annotations

import itertools
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from quantcheck.cli.main import main
from quantcheck.settings import SETTINGS
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_setting_is_documented_with_its_flag_and_default() -> None:
    rows = {
        match[1]: match[0]
        for match in re.finditer(r"^\| `(QUANTCHECK_[A-Z_]+)` \|.*$", README, re.MULTILINE)
    }
    assert set(rows) == {setting.env for setting in SETTINGS}
    for setting in SETTINGS:
        row = rows[setting.env]
        assert f"`{setting.flag}`" in row
        if setting.default:
            assert f"`{setting.default}`" in row


def test_the_two_commands_are_make_targets() -> None:
    assert "make demo" in README
    assert "make test" in README
    for target in ("demo", "test", "test-unit"):
        result = subprocess.run(
            ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stderr


def test_ci_runs_exactly_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [
        line.strip()
        for line in script.splitlines()
        if line.strip() and not line.startswith("#") and not line.startswith(("set ", "cd "))
    ]
    assert commands == ["make test"]


def test_linked_documents_exist() -> None:
    for link in re.findall(r"\]\(((?:docs|schemas|LICENSE)[^)#]*)\)", README):
        assert (ROOT / link).is_file(), link


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end != -1 else len(README)]


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)


def commands(block: str) -> list[str]:
    """The commands of a shell block, continuation lines joined."""
    return [line.strip() for line in block.replace("\\\n", " ").splitlines() if line.strip()]


def test_the_first_section_is_the_one_minute_offline_check() -> None:
    first = README.index("\n## ")
    assert README[first:].startswith("\n## Check a file in a minute\n")
    install, *_ = commands(blocks(section("Check a file in a minute"), "sh")[0])
    # tests/deploy/test_install.py runs this very line in a fresh virtualenv.
    assert install == "pip install ."
    assert README.index("## The streaming pipeline") > README.index("## From Python")


# The pip line is run in a fresh virtualenv by tests/deploy/test_install.py.
FIRST_SECTION_COMMANDS = [
    command
    for command in commands("".join(blocks(section("Check a file in a minute"), "sh")))
    if not command.startswith("pip ")
]


@pytest.mark.parametrize("command", FIRST_SECTION_COMMANDS)
def test_every_command_of_the_first_section_runs(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    program, *argv = shlex.split(command)
    assert program == "quantcheck"
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    status = main(argv)
    out = capsys.readouterr().out
    # The sample holds unsupported quantities: the CI gate of the second command trips.
    assert status == (1 if "--fail-on unsupported_quantity" in command else 0)
    assert out.startswith("claims=16 matched_expected=16\n")
    for flag in ("--out", "--report"):
        if flag in argv:
            assert (tmp_path / argv[argv.index(flag) + 1]).stat().st_size > 0


@pytest.mark.parametrize("block", blocks(section("From Python"), "python"))
def test_the_python_examples_print_what_their_comments_say(
    block: str, capsys: pytest.CaptureFixture[str]
) -> None:
    exec(compile(block, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    # Each print is followed by a comment saying what it prints.
    lines = block.splitlines()
    said = [
        following.removeprefix("# ")
        for line, following in itertools.pairwise(lines)
        if line.startswith("print(")
    ]
    assert printed == said


def test_the_langchain_example_named_is_the_one_tested() -> None:
    (block,) = blocks(section("From Python").split("### LangChain")[1], "sh")
    assert commands(block) == ["python examples/langchain_chain.py"]
    # tests/examples/test_langchain.py runs it and checks what it prints.
    assert (ROOT / "examples" / "langchain_chain.py").is_file()
