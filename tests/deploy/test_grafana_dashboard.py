"""The Grafana dashboard: well-formed, importable into any Grafana as it is (its data source
and job are variables, no uid of this deployment's), and referring only to metrics the
worker exports and rules Prometheus records.

The rule files are held to the same standard, so a renamed metric breaks a test rather than
a panel or an alert.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from quantcheck.worker.observability.metrics import Metrics

ROOT = Path(__file__).resolve().parents[2]
GRAFANA = ROOT / "deploy" / "grafana"
DASHBOARD = GRAFANA / "dashboards" / "quantcheck.json"
DATASOURCES = GRAFANA / "provisioning" / "datasources" / "prometheus.yml"
PROVIDERS = GRAFANA / "provisioning" / "dashboards" / "quantcheck.yml"
RULE_FILES = sorted((ROOT / "deploy" / "prometheus" / "rules").glob("*.yml"))

# Series Prometheus writes itself for every scrape target.
SYNTHETIC = frozenset({"up", "scrape_duration_seconds", "scrape_samples_scraped"})
KEYWORDS = frozenset(
    {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring"}
    | {"group_left", "group_right", "inf", "nan", "atan2"}
)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"' r"|'(?:[^'\\]|\\.)*'" r"|`[^`]*`")
_VARIABLE = re.compile(r"\$\{[^}]*\}|\$\w+")
_MATCHERS = re.compile(r"\{[^}]*\}")
_RANGE = re.compile(r"\[[^\]]*\]")
_GROUPING = re.compile(
    r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", re.IGNORECASE
)
# An identifier not glued to a preceding word character, digit or dot (so the "h" of "1h"
# or the "e3" of "2e3" is not one), and not followed by "(" (a function or aggregation).
_IDENTIFIER = re.compile(r"(?<![\w:.])([A-Za-z_:][\w:]*)(?![\w:])(?!\s*\()")


def metric_names(expr: str) -> set[str]:
    """The metric and recording-rule names a PromQL expression selects."""
    text = _STRING.sub('""', expr)
    text = _VARIABLE.sub("", text)
    text = _MATCHERS.sub("", text)
    text = _RANGE.sub("", text)
    text = _GROUPING.sub("", text)
    return {name for name in _IDENTIFIER.findall(text) if name.lower() not in KEYWORDS}


def load_yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


# The series each metric type exposes, so a metric counts even before its first sample.
SERIES_SUFFIXES = {
    "counter": ("_total",),
    "gauge": ("",),
    "histogram": ("_bucket", "_sum", "_count"),
}


def exported_names() -> set[str]:
    """Every series name an isolated Metrics instance can expose."""
    return {
        family.name + suffix
        for family in Metrics().registry.collect()
        for suffix in SERIES_SUFFIXES[family.type]
    }


def rules() -> list[dict[str, Any]]:
    return [
        rule
        for path in RULE_FILES
        for group in load_yaml(path)["groups"]
        for rule in group["rules"]
    ]


def recorded_names() -> set[str]:
    return {rule["record"] for rule in rules() if "record" in rule}


@pytest.fixture(scope="module")
def dashboard() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    return loaded


@pytest.fixture(scope="module")
def datasource_uid() -> str:
    (source,) = load_yaml(DATASOURCES)["datasources"]
    assert source["type"] == "prometheus"
    assert source["url"] == "http://prometheus:9090"
    uid: str = source["uid"]
    return uid


def expressions(dashboard: dict[str, Any]) -> list[str]:
    exprs = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    for variable in dashboard["templating"]["list"]:
        if variable["type"] == "query":
            definition = variable["definition"]
            exprs.append(re.sub(r"^label_values\((.*),\s*\w+\)$", r"\1", definition))
    return exprs


@pytest.mark.parametrize(
    ("expr", "names"),
    [
        ("quantcheck:verdicts:rate5m", {"quantcheck:verdicts:rate5m"}),
        (
            'sum by (status, le) (rate(foo_total{model=~"$model", le="0.5"}[$__rate_interval]))',
            {"foo_total"},
        ),
        ("histogram_quantile(0.99, sum without (instance) (rate(a_bucket[5m])))", {"a_bucket"}),
        ("a > 2 * (a offset 1h) and on (kind) b unless ignoring (x) c", {"a", "b", "c"}),
        ("deriv(x:y:z[10m:1m]) > 1e3 and sum(rate(q[5m])) by (le) > 0", {"x:y:z", "q"}),
        ('absent(up{job="quantcheck"} == 1) or vector(0)', {"up"}),
        ('label_replace(m, "dst", "$1", "src", "(.*)")', {"m"}),
        ("count(quantcheck_worker_up) / ${workers}", {"quantcheck_worker_up"}),
    ],
)
def test_metric_name_extraction(expr: str, names: set[str]) -> None:
    assert metric_names(expr) == names


def test_dashboard_settings(dashboard: dict[str, Any]) -> None:
    assert dashboard["uid"] == "quantcheck"
    assert 36 <= dashboard["schemaVersion"] <= 41
    assert dashboard["time"] == {"from": "now-6h", "to": "now"}
    assert dashboard["refresh"] == "30s"


def test_provider_points_at_the_mounted_dashboards() -> None:
    (provider,) = load_yaml(PROVIDERS)["providers"]
    assert provider["type"] == "file"
    assert provider["options"]["path"] == "/var/lib/grafana/dashboards"


def test_panels_have_unique_ids_and_fit_the_grid(dashboard: dict[str, Any]) -> None:
    panels = dashboard["panels"]
    ids = [panel["id"] for panel in panels]
    assert len(ids) == len(set(ids))
    cells: set[tuple[int, int]] = set()
    for panel in panels:
        grid = panel["gridPos"]
        assert all(isinstance(grid[key], int) for key in "xywh"), panel["title"]
        assert grid["w"] > 0, panel["title"]
        assert grid["h"] > 0, panel["title"]
        assert grid["x"] + grid["w"] <= 24, panel["title"]
        covered = {
            (x, y)
            for x in range(grid["x"], grid["x"] + grid["w"])
            for y in range(grid["y"], grid["y"] + grid["h"])
        }
        assert not covered & cells, f"{panel['title']} overlaps another panel"
        cells |= covered


DATASOURCE = {"type": "prometheus", "uid": "${datasource}"}


def datasource_refs(node: Any, where: str = "") -> Iterator[tuple[str, Any]]:
    """Every ``datasource`` the dashboard names anywhere, with where it sits."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "datasource":
                yield where, value
            else:
                yield from datasource_refs(value, f"{where}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from datasource_refs(value, f"{where}[{index}]")


def test_the_dashboard_imports_into_any_grafana_without_edits(
    dashboard: dict[str, Any], datasource_uid: str
) -> None:
    # No uid of one Grafana's data sources: every reference is the data source variable,
    # which Grafana fills with a Prometheus data source of its own when the dashboard opens.
    refs = list(datasource_refs(dashboard))
    assert refs
    for where, ref in refs:
        assert ref == DATASOURCE, where
    assert datasource_uid not in json.dumps(dashboard)
    assert "id" not in dashboard  # a database id would clash with another dashboard's
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    source = variables["datasource"]
    assert (source["type"], source["query"]) == ("datasource", "prometheus")
    assert source["current"] == {}  # the importing Grafana's default Prometheus
    job = variables["job"]
    assert job["type"] == "query"
    assert job["definition"] == "label_values(quantcheck_worker_up, job)"
    assert not job["includeAll"]
    # The job is a variable too: nothing names the job this deployment's scrape gives.
    for expr in expressions(dashboard):
        assert not re.search(r"\bjob\s*=~?\s*\"(?!\$job\")", expr), expr


def test_panels_and_targets_have_expressions(dashboard: dict[str, Any]) -> None:
    for panel in dashboard["panels"]:
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            assert target["expr"].strip(), panel["title"]


def test_model_and_retriever_variables(dashboard: dict[str, Any]) -> None:
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    assert variables.keys() >= {"model", "retriever"}
    for name in ("model", "retriever"):
        assert variables[name]["definition"].startswith("label_values(")
        assert variables[name]["definition"].endswith(f", {name})")


def test_required_panels_are_present(dashboard: dict[str, Any]) -> None:
    exprs = " ".join(expressions(dashboard))
    for needed in (
        "quantcheck:verdicts:rate5m",
        "quantcheck:unsupported_quantity:ratio_rate5m",
        "quantcheck:dead_letters:rate5m",
        "quantcheck:end_to_end_latency_seconds:p50_5m",
        "quantcheck:end_to_end_latency_seconds:p99_5m",
        "quantcheck_consumer_lag",
        "quantcheck_worker_up",
    ):
        assert needed in exprs
    assert any(panel["type"] == "stat" for panel in dashboard["panels"])


def test_dashboard_refers_only_to_existing_series(dashboard: dict[str, Any]) -> None:
    known = exported_names() | recorded_names() | SYNTHETIC
    for expr in expressions(dashboard):
        names = metric_names(expr)
        assert names, expr
        assert names <= known, f"unknown series {sorted(names - known)} in {expr!r}"


def test_rules_refer_only_to_existing_series() -> None:
    known = exported_names() | recorded_names() | SYNTHETIC
    for rule in rules():
        names = metric_names(rule["expr"])
        assert names, rule["expr"]
        assert names <= known, f"unknown series {sorted(names - known)} in {rule['expr']!r}"
