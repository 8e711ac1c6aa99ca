"""The Kubernetes manifests in deploy/k8s: the kinds and API versions a cluster accepts,
selectors that agree, probes and ports that match the worker, settings the worker knows,
and a grace period and replica bound that fit how the worker and the claims topic behave.

Structural checks with PyYAML only: no cluster, kubectl or kustomize is needed.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from quantcheck.worker.stream.topics import worker_topics

from quantcheck.cli.main import build_parser
from quantcheck.settings import BY_NAME, known_env_vars

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
DOCKERFILE = ROOT / "deploy" / "docker" / "Dockerfile"


def claims_partitions() -> int:
    """Partitions `quantcheck topics create` gives the claims topic by default: the most
    workers that get work."""
    claims = BY_NAME["claims_topic"].default
    specs = worker_topics(
        claims=claims,
        verdicts=BY_NAME["verdicts_topic"].default,
        dlq=BY_NAME["dlq_topic"].default,
    )
    return next(spec.partitions for spec in specs if spec.name == claims)


API_VERSIONS = {
    "ConfigMap": "v1",
    "Secret": "v1",
    "Service": "v1",
    "Deployment": "apps/v1",
    "PodDisruptionBudget": "policy/v1",
    "ScaledObject": "keda.sh/v1alpha1",
    "Kustomization": "kustomize.config.k8s.io/v1beta1",
}
EXPECTED_FILES = {
    "deployment.yaml": "Deployment",
    "service.yaml": "Service",
    "pdb.yaml": "PodDisruptionBudget",
    "configmap.yaml": "ConfigMap",
    "secret.example.yaml": "Secret",
    "keda-scaledobject.yaml": "ScaledObject",
    "kustomization.yaml": "Kustomization",
}


def load(name: str) -> dict[str, Any]:
    documents = list(yaml.safe_load_all((K8S / name).read_text(encoding="utf-8")))
    assert len(documents) == 1, f"{name}: one object per file"
    return documents[0]


@pytest.fixture(scope="module")
def deployment() -> dict[str, Any]:
    return load("deployment.yaml")


@pytest.fixture(scope="module")
def pod(deployment: dict[str, Any]) -> dict[str, Any]:
    return deployment["spec"]["template"]["spec"]


@pytest.fixture(scope="module")
def container(pod: dict[str, Any]) -> dict[str, Any]:
    containers = pod["containers"]
    assert len(containers) == 1
    return containers[0]


@pytest.fixture(scope="module")
def config() -> dict[str, str]:
    return load("configmap.yaml")["data"]


@pytest.fixture(scope="module")
def scaled_object() -> dict[str, Any]:
    return load("keda-scaledobject.yaml")


def setting(config: dict[str, str], name: str) -> str:
    """A setting's value as the pods see it: the ConfigMap's, else the worker's default."""
    found = BY_NAME[name]
    return config.get(found.env, found.default)


def metrics_port(container: dict[str, Any]) -> dict[str, Any]:
    ports = [p for p in container["ports"] if p["name"] == "metrics"]
    assert len(ports) == 1
    return ports[0]


# --- files, kinds and versions -------------------------------------------------------------


def test_the_expected_files_and_nothing_else() -> None:
    assert {p.name for p in K8S.glob("*.y*ml")} == set(EXPECTED_FILES)


@pytest.mark.parametrize(("name", "kind"), sorted(EXPECTED_FILES.items()))
def test_kinds_and_api_versions(name: str, kind: str) -> None:
    document = load(name)
    assert document["kind"] == kind
    assert document["apiVersion"] == API_VERSIONS[kind]


def test_kustomization_applies_everything_but_the_secret_template() -> None:
    kustomization = load("kustomization.yaml")
    expected = set(EXPECTED_FILES) - {"kustomization.yaml", "secret.example.yaml"}
    assert set(kustomization["resources"]) == expected


def test_kustomization_tags_the_image_with_the_project_version(
    container: dict[str, Any],
) -> None:
    images = load("kustomization.yaml")["images"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert [(i["name"], i["newTag"]) for i in images] == [("quantcheck", project["version"])]
    assert container["image"].split(":")[0] == images[0]["name"]


# --- labels and selectors ------------------------------------------------------------------


def test_selectors_agree(deployment: dict[str, Any], scaled_object: dict[str, Any]) -> None:
    selector = deployment["spec"]["selector"]["matchLabels"]
    template = deployment["spec"]["template"]["metadata"]["labels"]
    assert selector.items() <= template.items()
    assert load("service.yaml")["spec"]["selector"] == selector
    assert load("pdb.yaml")["spec"]["selector"]["matchLabels"] == selector
    target = scaled_object["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"]) == ("apps/v1", "Deployment")
    assert target["name"] == deployment["metadata"]["name"]


def test_every_object_carries_the_app_labels(deployment: dict[str, Any]) -> None:
    selector = deployment["spec"]["selector"]["matchLabels"]
    for name, kind in EXPECTED_FILES.items():
        if kind != "Kustomization":
            labels = load(name)["metadata"]["labels"]
            assert selector.items() <= labels.items(), name


# --- the worker pods -----------------------------------------------------------------------


def test_replica_count_is_left_to_the_autoscaler(deployment: dict[str, Any]) -> None:
    assert "replicas" not in deployment["spec"]


def test_container_runs_the_worker_command(container: dict[str, Any]) -> None:
    assert container["args"] == ["worker"]
    assert build_parser().parse_args(container["args"]).command == "worker"


def test_metrics_port_matches_the_worker_setting(
    container: dict[str, Any], config: dict[str, str], deployment: dict[str, Any]
) -> None:
    port = int(setting(config, "metrics_port"))
    assert metrics_port(container)["containerPort"] == port
    service_ports = load("service.yaml")["spec"]["ports"]
    assert [(p["port"], p["targetPort"]) for p in service_ports] == [(port, "metrics")]
    annotations = deployment["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(port)


@pytest.mark.parametrize(
    ("probe", "path"), [("livenessProbe", "/healthz"), ("readinessProbe", "/readyz")]
)
def test_probes(container: dict[str, Any], probe: str, path: str) -> None:
    get = container[probe]["httpGet"]
    assert get["path"] == path
    assert get["port"] in {"metrics", metrics_port(container)["containerPort"]}


def test_grace_period_outlasts_the_shutdown_bound(
    pod: dict[str, Any], config: dict[str, str]
) -> None:
    grace = pod["terminationGracePeriodSeconds"]
    assert grace > int(BY_NAME["shutdown_timeout_s"].default)
    assert grace > int(setting(config, "shutdown_timeout_s"))


def test_settings_come_from_the_configmap_and_the_secret(container: dict[str, Any]) -> None:
    sources = {
        (kind, ref["name"]) for source in container["envFrom"] for kind, ref in source.items()
    }
    assert sources == {
        ("configMapRef", load("configmap.yaml")["metadata"]["name"]),
        ("secretRef", load("secret.example.yaml")["metadata"]["name"]),
    }


def test_every_environment_variable_is_a_worker_setting(
    container: dict[str, Any], config: dict[str, str]
) -> None:
    names = set(config) | set(load("secret.example.yaml")["stringData"])
    names |= {item["name"] for item in container.get("env", [])}
    unknown = names - known_env_vars()
    assert not unknown, f"not settings of the worker (quantcheck/settings.py): {sorted(unknown)}"


def test_secret_holds_the_secret_settings(config: dict[str, str]) -> None:
    secret = load("secret.example.yaml")["stringData"]
    secret_settings = {s.env for s in BY_NAME.values() if s.secret}
    assert secret_settings <= set(secret)
    assert not secret_settings & set(config), "passwords belong in the Secret"
    assert secret["QUANTCHECK_STORE_URL"].startswith("postgresql://")
    assert "QUANTCHECK_STORE_URL" not in config


def test_each_pod_gets_its_own_instance_id(container: dict[str, Any]) -> None:
    env = {item["name"]: item for item in container["env"]}
    field = env["QUANTCHECK_INSTANCE_ID"]["valueFrom"]["fieldRef"]["fieldPath"]
    assert field == "metadata.name"


def test_runs_as_the_images_non_root_user(pod: dict[str, Any], container: dict[str, Any]) -> None:
    users = re.findall(r"^USER\s+(\d+)", DOCKERFILE.read_text(encoding="utf-8"), re.MULTILINE)
    context = pod["securityContext"]
    assert context["runAsNonRoot"] is True
    assert context["runAsUser"] == int(users[-1])
    assert context["runAsUser"] != 0
    own = container["securityContext"]
    assert own["readOnlyRootFilesystem"] is True
    assert own["allowPrivilegeEscalation"] is False
    assert own["capabilities"]["drop"] == ["ALL"]


def test_writable_tmp_under_a_read_only_root(
    pod: dict[str, Any], container: dict[str, Any]
) -> None:
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert "emptyDir" in volumes[mounts["/tmp"]]


def test_resources_have_requests_and_limits(container: dict[str, Any]) -> None:
    resources = container["resources"]
    for bound in ("requests", "limits"):
        assert set(resources[bound]) == {"cpu", "memory"}, bound


def test_config_map_values_are_strings_and_valid_choices(config: dict[str, str]) -> None:
    by_env = {s.env: s for s in BY_NAME.values()}
    for key, value in config.items():
        assert isinstance(value, str), f"{key}: ConfigMap values must be strings"
        choices = by_env[key].choices
        assert not choices or value in choices, f"{key}={value} is not one of {choices}"


# --- autoscaling and disruption ------------------------------------------------------------


def test_scaled_object_watches_the_workers_group_and_topic(
    scaled_object: dict[str, Any], config: dict[str, str]
) -> None:
    triggers = scaled_object["spec"]["triggers"]
    assert [t["type"] for t in triggers] == ["kafka"]
    metadata = triggers[0]["metadata"]
    assert metadata["consumerGroup"] == setting(config, "group_id") == "quantcheck"
    assert metadata["topic"] == setting(config, "claims_topic") == "claims"
    assert metadata["bootstrapServers"] == setting(config, "bootstrap_servers")
    assert metadata["allowIdleConsumers"] == "false"
    assert int(metadata["lagThreshold"]) > 0


def test_replicas_are_bounded_by_the_claims_partitions(scaled_object: dict[str, Any]) -> None:
    spec = scaled_object["spec"]
    assert spec["maxReplicaCount"] == claims_partitions()
    assert 1 < spec["minReplicaCount"] <= spec["maxReplicaCount"]


def test_disruption_budget_leaves_workers_running(scaled_object: dict[str, Any]) -> None:
    budget = load("pdb.yaml")["spec"]
    assert budget["maxUnavailable"] < scaled_object["spec"]["minReplicaCount"]
