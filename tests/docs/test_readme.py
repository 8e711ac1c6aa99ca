"""The README is the contract: its commands exist and its settings table is complete."""

from __future__ import annotations

import re
import subprocess

from quantcheck.worker.settings import SETTINGS
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
    for link in re.findall(r"\]\(((?:docs|schemas)/[^)#]+)\)", README):
        assert (ROOT / link).is_file(), link
