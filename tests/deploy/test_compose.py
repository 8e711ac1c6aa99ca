"""docker-compose.yml: valid under the Compose Specification's JSON Schema (vendored in
tests/data/compose-spec, so no network is needed) and consistent with the rest of the
repository: settings the worker knows, pinned images, start order, health checks, mounts.

No Docker engine is needed: the file is read, not run.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from quantcheck.cli.main import build_parser
from quantcheck.settings import BY_NAME, known_env_vars

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
ENV_EXAMPLE = ROOT / ".env.example"
SCHEMA_DIR = ROOT / "tests" / "data" / "compose-spec"
SCHEMA = SCHEMA_DIR / "compose-spec.json"
PROMETHEUS_CONFIG = ROOT / "deploy" / "prometheus" / "prometheus.yml"

# Where the image puts the repository's examples/ (deploy/docker/Dockerfile).
IMAGE_EXAMPLES = "/app/examples/"

ONE_SHOTS = ("topics", "kb-load", "publisher")
HEALTH_CHECKED = ("kafka", "postgres", "worker")
# Host ports the stack may publish, and the service behind each.
HOST_PORTS = {3000: "grafana", 9090: "prometheus", 29092: "kafka"}
CONDITIONS = {"service_started", "service_healthy", "service_completed_successfully"}

# ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error} and $NAME;
# `$$` is a literal dollar sign and is skipped by matching it first.
_INTERPOLATION = re.compile(r"\$\$|\$\{(\w+)(:?[-?][^}]*)?\}|\$(\w+)")
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(h|m|s|ms|us)")
_SECONDS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6}


def load_compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return load_compose()


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, Any]:
    return compose["services"]


def env_example() -> dict[str, str]:
    result = {}
    for raw in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            key, sep, value = line.partition("=")
            assert sep, f".env.example: {raw!r} is not NAME=VALUE"
            result[key.strip()] = value.strip()
    return result


def environment(service: dict[str, Any]) -> dict[str, str]:
    """A service's environment block, whichever of the two forms it uses."""
    block = service.get("environment") or {}
    if isinstance(block, list):
        return dict(item.partition("=")[::2] for item in block)
    return {key: "" if value is None else str(value) for key, value in block.items()}


def strings(node: Any) -> list[str]:
    """Every string anywhere in a parsed YAML document, keys included."""
    if isinstance(node, dict):
        return [s for k, v in node.items() for s in (*strings(k), *strings(v))]
    if isinstance(node, list):
        return [s for item in node for s in strings(item)]
    return [node] if isinstance(node, str) else []


def interpolations(text: str) -> list[tuple[str, bool]]:
    """(variable, has a default) for each ${...} or $NAME substitution in ``text``."""
    found = []
    for match in _INTERPOLATION.finditer(text):
        name = match[1] or match[3]
        if name:
            modifier = match[2] or ""
            found.append((name, modifier.lstrip(":").startswith("-")))
    return found


def seconds(duration: str) -> float:
    parts = _DURATION.findall(duration)
    assert "".join(n + u for n, u in parts) == duration, f"bad duration {duration!r}"
    return sum(float(n) * _SECONDS[u] for n, u in parts)


def host_port(mapping: str | int | dict[str, Any]) -> int:
    if isinstance(mapping, dict):
        return int(mapping["published"])
    parts = str(mapping).split(":")
    assert len(parts) >= 2, f"port {mapping!r} publishes a random host port"
    return int(parts[-2])


# --- the schema ----------------------------------------------------------------------------


def test_vendored_schema_matches_its_recorded_checksum() -> None:
    digest = hashlib.sha256(SCHEMA.read_bytes()).hexdigest()
    assert digest in (SCHEMA_DIR / "SOURCE.md").read_text(encoding="utf-8")
    license_text = (SCHEMA_DIR / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License\n" in license_text
    assert "Version 2.0, January 2004" in license_text


def test_compose_file_is_valid_under_the_compose_specification() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    errors = sorted(Draft202012Validator(schema).iter_errors(load_compose()), key=str)
    listed = "\n".join(f"{e.json_path}: {e.message}" for e in errors)
    assert not errors, f"docker-compose.yml breaks the Compose Specification:\n{listed}"


def test_schema_rejects_a_broken_file() -> None:
    """The validation above can fail: an unknown key and a bad condition are caught."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    broken = load_compose()
    broken["services"]["worker"]["replica"] = 2
    broken["services"]["publisher"]["depends_on"]["worker"]["condition"] = "service_ready"
    assert len(list(Draft202012Validator(schema).iter_errors(broken))) >= 1


# --- settings and .env ---------------------------------------------------------------------


def test_every_quantcheck_variable_is_a_worker_setting(
    compose: dict[str, Any], services: dict[str, Any]
) -> None:
    used = {key for service in services.values() for key in environment(service)}
    used |= {name for text in strings(compose) for name, _ in interpolations(text)}
    used |= set(env_example())
    quantcheck = {name for name in used if name.startswith("QUANTCHECK_")}
    assert quantcheck, "the stack configures the worker through QUANTCHECK_* variables"
    unknown = quantcheck - known_env_vars()
    assert not unknown, f"not settings of the worker (quantcheck/settings.py): {sorted(unknown)}"


def test_variables_without_a_default_are_in_env_example(compose: dict[str, Any]) -> None:
    defined = env_example()
    required = {
        name
        for text in strings(compose)
        for name, has_default in interpolations(text)
        if not has_default
    }
    missing = required - set(defined)
    assert not missing, f"set in .env.example: {sorted(missing)}"


def test_env_example_defines_only_what_the_compose_file_uses(compose: dict[str, Any]) -> None:
    used = {name for text in strings(compose) for name, _ in interpolations(text)}
    unused = set(env_example()) - used
    assert not unused, f".env.example defines variables nothing reads: {sorted(unused)}"


def test_credentials_come_from_env(services: dict[str, Any]) -> None:
    for service, key in [
        ("postgres", "POSTGRES_PASSWORD"),
        ("grafana", "GF_SECURITY_ADMIN_PASSWORD"),
        ("worker", "QUANTCHECK_STORE_URL"),
        ("kb-load", "QUANTCHECK_STORE_URL"),
    ]:
        value = environment(services[service])[key]
        assert any(
            name.endswith("PASSWORD") and not has_default
            for name, has_default in interpolations(value)
        ), f"{service}: {key} should take its password from .env, without a default"


def test_jobs_and_workers_agree_on_broker_and_store(services: dict[str, Any]) -> None:
    bootstrap = {
        environment(services[s])["QUANTCHECK_BOOTSTRAP_SERVERS"]
        for s in ("topics", "worker", "publisher")
    }
    assert bootstrap == {"kafka:9092"}
    store = {environment(services[s])["QUANTCHECK_STORE_URL"] for s in ("kb-load", "worker")}
    assert len(store) == 1
    assert "@postgres:5432/" in store.pop()


# --- images --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("service", "repository"),
    [
        ("kafka", "apache/kafka"),
        ("postgres", "postgres"),
        ("prometheus", "prom/prometheus"),
        ("grafana", "grafana/grafana"),
    ],
)
def test_third_party_images(services: dict[str, Any], service: str, repository: str) -> None:
    name, _, _ = services[service]["image"].rpartition(":")
    assert name == repository


def test_images_are_pinned_to_version_tags(services: dict[str, Any]) -> None:
    for name, service in services.items():
        image = service.get("image")
        assert image, f"{name}: no image (a built service is tagged too)"
        repository, _, tag = image.rpartition(":")
        assert repository, f"{name}: {image} has no tag"
        assert "/" not in tag, f"{name}: {image} has no tag"
        assert tag != "latest", f"{name}: {image}"
        assert re.search(r"\d+\.\d+", tag), f"{name}: {image} is not pinned to a version"


def test_kafka_is_4x_and_postgres_15(services: dict[str, Any]) -> None:
    assert services["kafka"]["image"].split(":")[1].startswith("4.")
    assert services["postgres"]["image"].split(":")[1].startswith("15.")


def test_quantcheck_services_are_built_from_the_dockerfile(services: dict[str, Any]) -> None:
    images = set()
    for name in (*ONE_SHOTS, "worker"):
        build = services[name]["build"]
        assert build["context"] == "."
        assert (ROOT / build["dockerfile"]) == ROOT / "deploy" / "docker" / "Dockerfile"
        images.add(services[name]["image"])
    assert len(images) == 1, f"one image for the worker and the jobs, not {sorted(images)}"


# --- start order and health ----------------------------------------------------------------


def test_every_dependency_exists_and_has_a_condition(services: dict[str, Any]) -> None:
    for name, service in services.items():
        depends_on = service.get("depends_on", {})
        assert isinstance(depends_on, dict), f"{name}: use the long form with conditions"
        for target, spec in depends_on.items():
            assert target in services, f"{name} depends on a missing service {target}"
            assert spec.get("condition") in CONDITIONS, f"{name} -> {target}: {spec}"
            if spec["condition"] == "service_healthy":
                assert "healthcheck" in services[target], f"{target} has no healthcheck"
            if spec["condition"] == "service_completed_successfully":
                assert target in ONE_SHOTS, f"{target} is not a one-shot job"


def conditions(services: dict[str, Any], name: str) -> dict[str, str]:
    return {t: spec["condition"] for t, spec in services[name]["depends_on"].items()}


def test_start_order(services: dict[str, Any]) -> None:
    assert conditions(services, "topics") == {"kafka": "service_healthy"}
    assert conditions(services, "kb-load") == {"postgres": "service_healthy"}
    assert conditions(services, "worker") == {
        "kafka": "service_healthy",
        "postgres": "service_healthy",
        "topics": "service_completed_successfully",
        "kb-load": "service_completed_successfully",
    }
    assert conditions(services, "publisher")["worker"] == "service_healthy"


def test_one_shots_are_not_restarted(services: dict[str, Any]) -> None:
    for name in ONE_SHOTS:
        assert services[name].get("restart", "no") == "no", name


@pytest.mark.parametrize("name", HEALTH_CHECKED)
def test_healthchecks(services: dict[str, Any], name: str) -> None:
    check = services[name].get("healthcheck")
    assert check, f"{name} has no healthcheck"
    assert not check.get("disable", False)
    assert check["test"][0] in {"CMD", "CMD-SHELL"}


def test_kafka_healthcheck_uses_the_images_own_tools(services: dict[str, Any]) -> None:
    test = services["kafka"]["healthcheck"]["test"]
    assert test[1].startswith("/opt/kafka/bin/kafka-")


def test_postgres_healthcheck_is_pg_isready(services: dict[str, Any]) -> None:
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])


def test_worker_healthcheck_probes_its_metrics_port(services: dict[str, Any]) -> None:
    port = environment(services["worker"])["QUANTCHECK_METRICS_PORT"]
    probe = " ".join(services["worker"]["healthcheck"]["test"])
    assert f"127.0.0.1:{port}/readyz" in probe


# --- the worker ----------------------------------------------------------------------------


def test_worker_runs_two_replicas(services: dict[str, Any]) -> None:
    assert services["worker"]["deploy"]["replicas"] == 2
    assert "container_name" not in services["worker"]
    assert "ports" not in services["worker"], "replicas cannot share a host port"


def test_worker_settings(services: dict[str, Any]) -> None:
    env = environment(services["worker"])
    for key in ("QUANTCHECK_BOOTSTRAP_SERVERS", "QUANTCHECK_STORE_URL", "QUANTCHECK_GROUP_ID"):
        assert env[key], key
    assert env["QUANTCHECK_STORE_URL"].startswith("postgresql://")


def test_worker_stop_grace_period_outlasts_its_shutdown_bound(services: dict[str, Any]) -> None:
    bound = float(BY_NAME["shutdown_timeout_s"].default)
    assert seconds(services["worker"]["stop_grace_period"]) > bound


def test_prometheus_scrapes_the_worker_service_on_its_metrics_port(
    services: dict[str, Any],
) -> None:
    config = yaml.safe_load(PROMETHEUS_CONFIG.read_text(encoding="utf-8"))
    port = int(environment(services["worker"])["QUANTCHECK_METRICS_PORT"])
    targets = [
        (name, sd["port"])
        for job in config["scrape_configs"]
        for sd in job.get("dns_sd_configs", [])
        for name in sd["names"]
    ]
    assert ("worker", port) in targets


# --- one-shot jobs -------------------------------------------------------------------------


def argv(service: dict[str, Any]) -> list[str]:
    command = service["command"]
    return command.split() if isinstance(command, str) else list(command)


def test_job_commands(services: dict[str, Any]) -> None:
    assert argv(services["topics"]) == ["topics", "create"]
    load = argv(services["kb-load"])
    assert load[:2] == ["docs", "load"]
    assert load[load.index("--kb-version") + 1] == "handbook-v1"
    publish = argv(services["publisher"])
    assert publish[0] == "publish"
    assert publish[publish.index("--topic") + 1] == BY_NAME["claims_topic"].default
    assert publish[publish.index("--kb-version") + 1] == "handbook-v1"


@pytest.mark.parametrize("name", [*ONE_SHOTS, "worker"])
def test_commands_are_ones_the_cli_accepts(services: dict[str, Any], name: str) -> None:
    args = build_parser().parse_args(argv(services[name]))
    assert args.command == argv(services[name])[0]


def test_job_input_files_ship_in_the_image(services: dict[str, Any]) -> None:
    for name in ("kb-load", "publisher"):
        files = [a for a in argv(services[name]) if a.startswith(IMAGE_EXAMPLES)]
        assert files, f"{name} reads no sample file"
        for path in files:
            assert (ROOT / "examples" / path.removeprefix(IMAGE_EXAMPLES)).is_file(), path


# --- Kafka ---------------------------------------------------------------------------------


def test_kafka_is_a_single_kraft_node(services: dict[str, Any]) -> None:
    env = environment(services["kafka"])
    assert set(env["KAFKA_PROCESS_ROLES"].split(",")) == {"broker", "controller"}
    node_id = env["KAFKA_NODE_ID"]
    assert env["KAFKA_CONTROLLER_QUORUM_VOTERS"].startswith(f"{node_id}@")
    assert env["KAFKA_CONTROLLER_LISTENER_NAMES"] in env["KAFKA_LISTENERS"]
    for key in (
        "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR",
        "KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR",
        "KAFKA_TRANSACTION_STATE_LOG_MIN_ISR",
    ):
        assert env[key] == "1", key
    assert env["KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS"] == "0"
    # The topics job decides the partition counts; a broker that creates topics on first
    # use would hide a missing or misnamed topic.
    assert env["KAFKA_AUTO_CREATE_TOPICS_ENABLE"] == "false"


# --- volumes and ports ---------------------------------------------------------------------


def test_named_volumes_hold_kafka_and_postgres_data(compose: dict[str, Any]) -> None:
    declared = set(compose.get("volumes") or {})
    for name, target in [
        ("kafka", environment(compose["services"]["kafka"])["KAFKA_LOG_DIRS"]),
        ("postgres", "/var/lib/postgresql/data"),
    ]:
        mounts = [v.split(":") for v in compose["services"][name]["volumes"]]
        assert [m[0] for m in mounts if m[1] == target] == [f"{name}-data"], name
        assert f"{name}-data" in declared


@pytest.mark.parametrize(
    ("service", "source", "target"),
    [
        ("prometheus", "deploy/prometheus", "/etc/prometheus"),
        ("grafana", "deploy/grafana/provisioning", "/etc/grafana/provisioning"),
        ("grafana", "deploy/grafana/dashboards", "/var/lib/grafana/dashboards"),
    ],
)
def test_observability_mounts(
    services: dict[str, Any], service: str, source: str, target: str
) -> None:
    mounts = {tuple(v.split(":")[:2]) for v in services[service]["volumes"] if v.startswith("./")}
    assert (f"./{source}", target) in mounts
    assert (ROOT / source).is_dir()
    assert any((ROOT / source).iterdir()), f"{source} is empty"


def test_only_the_documented_host_ports_are_published(services: dict[str, Any]) -> None:
    published = {
        host_port(mapping): name
        for name, service in services.items()
        for mapping in service.get("ports", [])
    }
    assert set(published) >= {3000, 9090}
    for port, name in published.items():
        assert HOST_PORTS.get(port) == name, f"{name} publishes host port {port}"
    header = COMPOSE.read_text(encoding="utf-8").split("services:")[0]
    for port in published:
        assert re.search(rf"#\s+{port}\b", header), f"port {port} is not documented at the top"
