"""Every setting the service reads: its flag, its ``QUANTCHECK_*`` variable, its default.

One table so that the CLI, the README and the deployment files cannot disagree about a
name. A command adds the settings it needs with :func:`add_settings`; a flag overrides
the environment variable, which overrides the default.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from worker.errors import UsageError

ENV_PREFIX = "QUANTCHECK_"
MIB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Setting:
    """One configurable value."""

    name: str
    default: str
    help: str
    choices: tuple[str, ...] = ()
    secret: bool = False
    short_flag: str = ""

    @property
    def env(self) -> str:
        """The environment variable that sets it."""
        return ENV_PREFIX + self.name.upper()

    @property
    def flag(self) -> str:
        """The command-line flag that sets it."""
        return self.short_flag or "--" + self.name.replace("_", "-")


# fmt: off
SETTINGS: tuple[Setting, ...] = (
    Setting("store_url", "sqlite:///./quantcheck.db",
            "document store: sqlite:///PATH or postgresql://USER@HOST:PORT/DB",
            short_flag="--store"),
    Setting("kb_version", "", "knowledge-base version to resolve documents from"),
    Setting("bootstrap_servers", "localhost:9092", "Kafka bootstrap servers, comma-separated"),
    Setting("security_protocol", "PLAINTEXT", "Kafka security protocol",
            ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")),
    Setting("sasl_mechanism", "", "SASL mechanism (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)"),
    Setting("sasl_username", "", "SASL user name"),
    Setting("sasl_password", "", "SASL password", secret=True),
    Setting("ssl_cafile", "", "CA bundle for TLS connections to Kafka"),
    Setting("ssl_certfile", "", "client certificate for TLS connections to Kafka"),
    Setting("ssl_keyfile", "", "client key for TLS connections to Kafka"),
    Setting("claims_topic", "claims", "topic the claims are read from"),
    Setting("verdicts_topic", "claim-verdicts", "topic the verdicts are written to"),
    Setting("dlq_topic", "claims-dlq", "dead-letter topic"),
    Setting("group_id", "quantcheck", "consumer group of the workers"),
    Setting("instance_id", "",
            "stable name of this worker process, one per process (default: the host name)"),
    Setting("delivery", "exactly-once", "delivery guarantee", ("exactly-once", "at-least-once")),
    Setting("batch_max_records", "500", "largest batch committed in one transaction"),
    Setting("batch_max_ms", "200", "longest a batch collects records before it is committed"),
    Setting("max_message_bytes", "1000000", "larger claim messages are dead-lettered as oversize"),
    Setting("shutdown_timeout_s", "20", "bound on a graceful shutdown after SIGTERM"),
    Setting("metrics_port", "9464", "port of /metrics, /healthz and /readyz (0 disables)"),
    Setting("metrics_bind", "0.0.0.0", "address the metrics endpoint binds to"),
    Setting("label_value_limit", "50",
            "free-text label combinations per metric before new ones count as 'other'"),
    Setting("log_format", "auto", "log renderer: auto (console on a terminal, else JSON)",
            ("auto", "json", "console")),
    Setting("log_level", "info", "lowest log level written", ("debug", "info", "warning", "error")),
    Setting("log_claim_text", "false", "include claim text and prompt in logs", ("true", "false")),
    Setting("scope", "all",
            "numbers checked: all (every number: counts, years, identifiers too) or units "
            "(quantities with units, currency, percent, dates and times)", ("all", "units")),
    Setting("bare_numbers", "", "deprecated alias: true means --scope all, false --scope units",
            ("true", "false")),
    Setting("citation_mode", "combined",
            "combined: any cited document may support each fact; single: one must support all",
            ("combined", "single")),
    Setting("evidence_cache_size", "4096", "documents whose extracted facts stay cached"),
    Setting("evidence_cache_mib", "256", "bound on the memory the cached facts of documents hold"),
    Setting("document_cache_size", "10000", "documents kept in the in-process store cache"),
    Setting("store_statement_timeout_ms", "5000",
            "PostgreSQL lookups running longer fail and are retried (a lock, a stalled server)"),
    Setting("store_connect_timeout_s", "5", "bound on connecting to PostgreSQL"),
    Setting("store_keepalive_idle_s", "30",
            "TCP keepalive probes start after this long idle, to notice a vanished server"),
    Setting("kafka_call_timeout_s", "15",
            "bound on each transactional call to the broker; the producer is replaced after it"),
    Setting("document_cache_mib", "256", "bound on the document text the store cache holds"),
    Setting("session_timeout_ms", "10000",
            "a worker that stops heartbeating loses its partitions after this long"),
    Setting("processes", "1",
            "worker processes in this container, one per core, under one supervisor with one "
            "/metrics"),
    Setting("static_membership", "false",
            "join the group as the static member named by the instance id: restarted with the "
            "same id, a worker gets its partitions back without a rebalance, but stopped, it "
            "holds them for the session timeout", ("true", "false")),
)

# fmt: on

BY_NAME: Mapping[str, Setting] = {s.name: s for s in SETTINGS}


def known_env_vars() -> frozenset[str]:
    """The ``QUANTCHECK_*`` variables the service understands."""
    return frozenset(s.env for s in SETTINGS)


def env_default(setting: Setting, environ: Mapping[str, str] | None = None) -> str:
    """The setting's value from the environment, or its default."""
    env = os.environ if environ is None else environ
    return env.get(setting.env, setting.default)


def add_settings(parser: argparse.ArgumentParser, names: Iterable[str]) -> None:
    """Add the named settings to ``parser`` as flags defaulting to their environment variables."""
    for name in names:
        setting = BY_NAME[name]
        default = env_default(setting)
        kwargs: dict[str, object] = {
            "dest": setting.name,
            "default": default,
            "help": f"{setting.help} (env {setting.env}, default {setting.default!r})",
        }
        if setting.choices:
            kwargs["choices"] = setting.choices
        parser.add_argument(setting.flag, **kwargs)  # type: ignore[arg-type]


def as_bool(value: str) -> bool:
    """Parse a boolean setting the way the table's choices spell it."""
    return value.strip().lower() in {"1", "true", "yes", "on"}


def as_int(value: str, *, name: str, minimum: int = 0) -> int:
    """Parse an integer setting; a bad value is a one-line usage error."""
    try:
        number = int(value)
    except ValueError:
        raise UsageError(f"{name} must be an integer, got {value!r}") from None
    if number < minimum:
        raise UsageError(f"{name} must be at least {minimum}, got {number}")
    return number


def as_mib(value: str, *, name: str) -> int:
    """Parse a size setting given in MiB; returns it in bytes."""
    return as_int(value, name=name) * MIB
