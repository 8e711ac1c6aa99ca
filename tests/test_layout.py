"""The repository's layout: one import name from three folders, and no symlink."""

from __future__ import annotations

import subprocess
import tomllib

from tests.conftest import ROOT

FOLDERS = {
    "quantcheck": "quantcheck",
    "quantcheck.worker": "worker",
    "quantcheck.schemas": "schemas",
}


def packages_in(folder: str, name: str) -> set[str]:
    root = ROOT / folder
    found = {name}
    for path in root.rglob("*"):
        parts = path.relative_to(root).parts
        if path.is_dir() and "__pycache__" not in parts:
            found.add(".".join((name, *parts)))
    return found


def test_every_package_folder_is_listed_under_its_installed_name() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    assert config["setuptools"]["package-dir"] == FOLDERS
    expected = set().union(*(packages_in(folder, name) for name, folder in FOLDERS.items()))
    assert set(config["setuptools"]["packages"]) == expected


def test_the_repository_holds_no_symlink() -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert [line for line in listed.splitlines() if line.startswith("120000")] == []


def test_the_pure_check_imports_nothing_of_the_service() -> None:
    for package in ("quantities", "checker", "answers"):
        for path in (ROOT / "quantcheck" / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "quantcheck.worker" not in text, path.relative_to(ROOT)
