"""What a Python command-line user expects: --version, and a closed pipe ends quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version

import pytest

from quantcheck.cli.main import EXIT_BROKEN_PIPE, main
from tests.conftest import EXAMPLES, ROOT

CHECK = [
    "check",
    "--documents",
    str(EXAMPLES / "field_sensor_handbook.csv"),
    "--claims",
    str(EXAMPLES / "rag_numeric_claims.csv"),
]


def quantcheck(*argv: str, stdout: int) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "quantcheck.worker", *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_version_names_the_installed_distribution() -> None:
    done = quantcheck("--version", stdout=subprocess.PIPE)
    assert done.returncode == 0
    assert done.stdout.decode().strip() == f"quantcheck {version('quantcheck')}"


def test_version_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.startswith("quantcheck ")


@pytest.mark.parametrize(
    ("argv", "status"),
    [
        (CHECK, EXIT_BROKEN_PIPE),
        # argparse's own messages ignore a failed write and exit as they would have.
        (["--version"], 0),
        (["check", "--help"], 0),
    ],
    ids=["check", "version", "help"],
)
def test_a_reader_gone_away_ends_the_command_quietly(argv: list[str], status: int) -> None:
    # The pipe's reading end is closed before the command writes, as `| head -1` does
    # once it has its line: every write fails, every time.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = quantcheck(*argv, stdout=write_end)
    finally:
        os.close(write_end)
    assert done.stderr == b""
    assert done.returncode == status


def test_head_gets_the_first_line() -> None:
    command = " ".join([sys.executable, "-m", "quantcheck.worker", *CHECK]) + " | head -1"
    done = subprocess.run(
        ["bash", "-c", command], capture_output=True, cwd=ROOT, timeout=120, check=False
    )
    assert done.stdout.decode() == "claims=16 matched_expected=16\n"
    assert done.stderr == b""
