"""kafka-python client configurations built from the worker's settings.

Connection and security settings (bootstrap servers, TLS, SASL) are shared by every client
the worker, ``publish`` and ``topics`` open; each kind of client then adds what its role
needs. The SASL password is held out of ``repr`` and :meth:`KafkaConnection.describe`, so
a logged connection never shows it.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass, field
from typing import Any

from quantcheck.errors import UsageError
from quantcheck.settings import MIB, Settings

SASL_PROTOCOLS = frozenset({"SASL_PLAINTEXT", "SASL_SSL"})
TLS_PROTOCOLS = frozenset({"SSL", "SASL_SSL"})
SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")

CONNECTION_SETTINGS: tuple[str, ...] = (
    "bootstrap_servers",
    "security_protocol",
    "sasl_mechanism",
    "sasl_username",
    "sasl_password",
    "ssl_cafile",
    "ssl_certfile",
    "ssl_keyfile",
)
"""The settings every command that talks to Kafka takes."""

MAX_CLAIM_RECORD_BYTES = 10 * MIB
"""Largest record the claims topic accepts: far above the worker's ``max_message_bytes``, so
that an oversize claim still reaches the worker and is dead-lettered instead of being
refused to its producer without a trace."""
MAX_VERDICT_RECORD_BYTES = 10 * MIB
"""Largest verdict record: a claim of the longest allowed text with a fact in every few
words makes a verdict of a few megabytes."""
MAX_DEAD_LETTER_RECORD_BYTES = MAX_CLAIM_RECORD_BYTES + MIB
"""A dead letter is a claim record plus the headers the worker adds."""

# How long a client may take to reach the cluster when it starts: an unreachable broker is
# then reported as one line instead of a long silent wait.
BOOTSTRAP_TIMEOUT_MS = 10_000
# A member that stops heartbeating loses its partitions after this long. The client sends
# heartbeats from its own I/O thread, so a slow batch does not count against it.
SESSION_TIMEOUT_MS = 10_000
# Heartbeats this many times per session timeout, as Kafka recommends (at most a third).
HEARTBEATS_PER_SESSION = 5
# Bounds on a producer call that waits for metadata or buffer space, so a broker outage
# surfaces as an error the worker retries instead of a hang.
MAX_BLOCK_MS = 10_000
REQUEST_TIMEOUT_MS = 15_000
DELIVERY_TIMEOUT_MS = 30_000
PRODUCER_BATCH_BYTES = MIB
# An open transaction of a crashed worker blocks read_committed readers of the partitions
# it wrote to until the coordinator aborts it; 30 s keeps that short while staying well
# above the time one batch takes.
TRANSACTION_TIMEOUT_MS = 30_000


@dataclass(frozen=True, slots=True)
class KafkaConnection:
    """Where the cluster is and how to authenticate to it."""

    bootstrap_servers: tuple[str, ...]
    security_protocol: str = "PLAINTEXT"
    sasl_mechanism: str = ""
    sasl_username: str = ""
    sasl_password: str = field(default="", repr=False)
    ssl_cafile: str = ""
    ssl_certfile: str = ""
    ssl_keyfile: str = ""

    @classmethod
    def from_settings(cls, settings: Settings) -> KafkaConnection:
        """Read and check the connection settings; a bad combination is a UsageError."""
        servers = tuple(s.strip() for s in settings.bootstrap_servers.split(",") if s.strip())
        if not servers:
            raise UsageError("bootstrap_servers is empty; give --bootstrap-servers HOST:PORT")
        connection = cls(
            bootstrap_servers=servers,
            security_protocol=settings.security_protocol,
            sasl_mechanism=settings.sasl_mechanism,
            sasl_username=settings.sasl_username,
            sasl_password=settings.sasl_password.get_secret_value(),
            ssl_cafile=settings.ssl_cafile,
            ssl_certfile=settings.ssl_certfile,
            ssl_keyfile=settings.ssl_keyfile,
        )
        connection.validate()
        return connection

    def validate(self) -> None:
        """Raise UsageError for settings that cannot work together."""
        uses_sasl = self.security_protocol in SASL_PROTOCOLS
        uses_tls = self.security_protocol in TLS_PROTOCOLS
        if uses_sasl:
            if self.sasl_mechanism not in SASL_MECHANISMS:
                raise UsageError(
                    f"security_protocol {self.security_protocol} needs sasl_mechanism "
                    f"{', '.join(SASL_MECHANISMS)}; got {self.sasl_mechanism or 'none'}"
                )
            if not self.sasl_username or not self.sasl_password:
                raise UsageError(
                    f"sasl_mechanism {self.sasl_mechanism} needs sasl_username and sasl_password"
                )
        elif self.sasl_mechanism or self.sasl_username or self.sasl_password:
            raise UsageError(
                f"SASL settings are given but security_protocol is {self.security_protocol}; "
                "use SASL_PLAINTEXT or SASL_SSL"
            )
        tls_files = {
            "ssl_cafile": self.ssl_cafile,
            "ssl_certfile": self.ssl_certfile,
            "ssl_keyfile": self.ssl_keyfile,
        }
        for name, path in tls_files.items():
            if not path:
                continue
            if not uses_tls:
                raise UsageError(
                    f"{name} is given but security_protocol is {self.security_protocol}; "
                    "use SSL or SASL_SSL"
                )
            if not os.path.isfile(path):
                raise UsageError(f"{name} {path!r} is not a readable file")

    def client_config(self, client_id: str) -> dict[str, Any]:
        """Settings every kafka-python client takes: servers, security, identity."""
        config: dict[str, Any] = {
            "bootstrap_servers": list(self.bootstrap_servers),
            "security_protocol": self.security_protocol,
            "client_id": client_id,
            "bootstrap_timeout_ms": BOOTSTRAP_TIMEOUT_MS,
        }
        if self.security_protocol in SASL_PROTOCOLS:
            config["sasl_mechanism"] = self.sasl_mechanism
            config["sasl_plain_username"] = self.sasl_username
            config["sasl_plain_password"] = self.sasl_password
        if self.security_protocol in TLS_PROTOCOLS:
            for name in ("ssl_cafile", "ssl_certfile", "ssl_keyfile"):
                value = getattr(self, name)
                if value:
                    config[name] = value
        return config

    def describe(self) -> dict[str, str]:
        """The connection for a log line: everything but the password, which is only flagged."""
        described = {
            "bootstrap_servers": ",".join(self.bootstrap_servers),
            "security_protocol": self.security_protocol,
        }
        if self.security_protocol in SASL_PROTOCOLS:
            described["sasl_mechanism"] = self.sasl_mechanism
            described["sasl_username"] = self.sasl_username
            described["sasl_password"] = "***"
        for name in ("ssl_cafile", "ssl_certfile", "ssl_keyfile"):
            value = getattr(self, name)
            if value:
                described[name] = value
        return described


def default_instance_id() -> str:
    """The host name: stable across restarts of a worker on the same host or pod."""
    return socket.gethostname() or "quantcheck"


def transactional_id(group_id: str, instance_id: str) -> str:
    """The producer's transactional id: one per worker instance within a group.

    A restarted instance reuses it, which lets the broker abort the transaction the previous
    process left open; two running processes must never share it, or they fence each other.
    """
    return f"{group_id}-{instance_id}"


def consumer_config(
    connection: KafkaConnection,
    *,
    group_id: str,
    client_id: str,
    max_poll_records: int,
    session_timeout_ms: int = SESSION_TIMEOUT_MS,
    group_instance_id: str | None = None,
) -> dict[str, Any]:
    """A group member that reads raw bytes, commits only on purpose and skips aborted data;
    a static member (KIP-345) when ``group_instance_id`` is given."""
    return {
        **connection.client_config(client_id),
        "group_id": group_id,
        "enable_auto_commit": False,
        # A new group starts at the beginning: every claim ever published gets a verdict.
        "auto_offset_reset": "earliest",
        # Claims published in transactions are read only once committed.
        "isolation_level": "read_committed",
        "max_poll_records": max_poll_records,
        "session_timeout_ms": session_timeout_ms,
        "heartbeat_interval_ms": session_timeout_ms // HEARTBEATS_PER_SESSION,
        "allow_auto_create_topics": False,
        "group_instance_id": group_instance_id,
    }


def producer_config(
    connection: KafkaConnection, *, client_id: str, transactional_id: str | None
) -> dict[str, Any]:
    """An idempotent producer, transactional when ``transactional_id`` is given."""
    config: dict[str, Any] = {
        **connection.client_config(client_id),
        "acks": "all",
        "enable_idempotence": True,
        "linger_ms": 5,
        # A batch of verdicts is hundreds of kilobytes per partition; the 16 KiB default
        # splits it into so many requests that waiting for them dominates each commit.
        "batch_size": PRODUCER_BATCH_BYTES,
        "max_request_size": MAX_DEAD_LETTER_RECORD_BYTES,
        "max_block_ms": MAX_BLOCK_MS,
        "request_timeout_ms": REQUEST_TIMEOUT_MS,
        "delivery_timeout_ms": DELIVERY_TIMEOUT_MS,
        "allow_auto_create_topics": False,
    }
    if transactional_id is not None:
        config["transactional_id"] = transactional_id
        config["transaction_timeout_ms"] = TRANSACTION_TIMEOUT_MS
    return config


def admin_config(connection: KafkaConnection, *, client_id: str) -> dict[str, Any]:
    """An admin client for creating and describing topics."""
    return {**connection.client_config(client_id), "request_timeout_ms": REQUEST_TIMEOUT_MS}
