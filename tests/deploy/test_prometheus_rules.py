"""The Prometheus configuration, recording rules and alerts, checked and unit-tested by promtool.

promtool is a system tool, not a Python package; without it these tests fail rather than
skip, so CI cannot pass without having run them.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PROMETHEUS = ROOT / "deploy" / "prometheus"
CONFIG = PROMETHEUS / "prometheus.yml"
RULE_FILES = sorted((PROMETHEUS / "rules").glob("*.yml"))
TEST_FILES = sorted((PROMETHEUS / "tests").glob("*.test.yml"))
RUNBOOK = "README.md#troubleshooting"
SEVERITIES = {"info", "warning", "critical"}


@pytest.fixture(scope="module")
def promtool() -> str:
    path = shutil.which("promtool")
    if path is None:
        pytest.fail(
            "promtool is not installed: run `make system-deps` "
            "(it installs the Debian package 'prometheus', which provides /usr/bin/promtool)",
            pytrace=False,
        )
    return path


def run(promtool: str, *args: str, cwd: Path = PROMETHEUS) -> None:
    result = subprocess.run(
        [promtool, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, f"promtool {' '.join(args)}:\n{result.stdout}{result.stderr}"


def load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def alerts() -> list[dict[str, Any]]:
    return [
        rule
        for path in RULE_FILES
        for group in load(path)["groups"]
        for rule in group["rules"]
        if "alert" in rule
    ]


def test_rule_and_test_files_exist() -> None:
    assert [p.name for p in RULE_FILES] == ["quantcheck-alerts.yml", "quantcheck-recording.yml"]
    assert TEST_FILES


def test_config_is_valid(promtool: str) -> None:
    # Only parses: the dns_sd names are not resolved, so no network is needed.
    run(promtool, "check", "config", CONFIG.name)


def test_config_loads_every_rule_file() -> None:
    loaded = {(PROMETHEUS / name).resolve() for name in load(CONFIG)["rule_files"]}
    assert loaded == {path.resolve() for path in RULE_FILES}


def test_rule_files_are_valid(promtool: str) -> None:
    run(promtool, "check", "rules", *(str(path) for path in RULE_FILES))


@pytest.mark.parametrize("test_file", TEST_FILES, ids=lambda path: path.name)
def test_rule_unit_tests_pass(promtool: str, test_file: Path) -> None:
    run(promtool, "test", "rules", test_file.name, cwd=test_file.parent)


@pytest.mark.parametrize("alert", alerts(), ids=lambda rule: rule["alert"])
def test_alert_is_labelled_and_annotated(alert: dict[str, Any]) -> None:
    assert alert["labels"]["severity"] in SEVERITIES
    annotations = alert["annotations"]
    assert annotations["summary"].strip()
    assert annotations["description"].strip()
    assert annotations["runbook_url"] == RUNBOOK


@pytest.mark.parametrize("alert", alerts(), ids=lambda rule: rule["alert"])
def test_alert_has_firing_and_quiet_unit_tests(alert: dict[str, Any]) -> None:
    outcomes = {
        bool(case.get("exp_alerts"))
        for path in TEST_FILES
        for test in load(path)["tests"]
        for case in test.get("alert_rule_test", [])
        if case["alertname"] == alert["alert"]
    }
    assert outcomes == {True, False}, f"{alert['alert']} needs a firing and a quiet test"
