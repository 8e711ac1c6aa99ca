"""Client configurations from settings: security passthrough, checks, no leaked password."""

from __future__ import annotations

from pathlib import Path

import pytest
from quantcheck.worker.stream.config import (
    MAX_CLAIM_RECORD_BYTES,
    MAX_DEAD_LETTER_RECORD_BYTES,
    TRANSACTION_TIMEOUT_MS,
    KafkaConnection,
    consumer_config,
    producer_config,
    transactional_id,
)

from quantcheck.errors import UsageError
from quantcheck.settings import Settings

SECRET = "s3cr3t-pa55"


def settings(**overrides: str) -> Settings:
    return Settings(**{"bootstrap_servers": "broker-1:9092, broker-2:9092", **overrides})


def test_plaintext_takes_only_the_servers() -> None:
    connection = KafkaConnection.from_settings(settings())
    config = connection.client_config("quantcheck-w1")
    assert config["bootstrap_servers"] == ["broker-1:9092", "broker-2:9092"]
    assert config["security_protocol"] == "PLAINTEXT"
    assert config["client_id"] == "quantcheck-w1"
    assert not any(key.startswith(("sasl", "ssl")) for key in config)


def test_sasl_over_tls_passes_credentials_and_files(tmp_path: Path) -> None:
    ca = tmp_path / "ca.pem"
    ca.write_text("certificate")
    connection = KafkaConnection.from_settings(
        settings(
            security_protocol="SASL_SSL",
            sasl_mechanism="scram-sha-512",
            sasl_username="worker",
            sasl_password=SECRET,
            ssl_cafile=str(ca),
        )
    )
    config = connection.client_config("c")
    assert config["sasl_mechanism"] == "SCRAM-SHA-512"
    assert (config["sasl_plain_username"], config["sasl_plain_password"]) == ("worker", SECRET)
    assert config["ssl_cafile"] == str(ca)
    assert "ssl_certfile" not in config


def test_the_password_stays_out_of_repr_and_log_fields() -> None:
    connection = KafkaConnection.from_settings(
        settings(
            security_protocol="SASL_PLAINTEXT",
            sasl_mechanism="PLAIN",
            sasl_username="worker",
            sasl_password=SECRET,
        )
    )
    assert SECRET not in repr(connection)
    described = connection.describe()
    assert SECRET not in str(described)
    assert described["sasl_password"] == "***"
    assert described["sasl_username"] == "worker"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"bootstrap_servers": " , "}, "bootstrap_servers is empty"),
        ({"security_protocol": "SASL_SSL"}, "needs sasl_mechanism"),
        (
            {"security_protocol": "SASL_SSL", "sasl_mechanism": "PLAIN", "sasl_username": "u"},
            "needs sasl_username and sasl_password",
        ),
        ({"sasl_username": "u"}, "SASL settings are given but security_protocol is PLAINTEXT"),
        ({"ssl_cafile": "/etc/ca.pem"}, "ssl_cafile is given but security_protocol"),
        ({"security_protocol": "SSL", "ssl_cafile": "/no/such/ca.pem"}, "not a readable file"),
    ],
)
def test_settings_that_cannot_work_are_usage_errors(
    overrides: dict[str, str], message: str
) -> None:
    with pytest.raises(UsageError, match=message) as caught:
        KafkaConnection.from_settings(settings(**overrides))
    assert SECRET not in str(caught.value)


def test_the_consumer_reads_committed_data_and_commits_only_on_purpose() -> None:
    config = consumer_config(
        KafkaConnection(("b:9092",)), group_id="g", client_id="c", max_poll_records=300
    )
    assert config["group_id"] == "g"
    assert config["enable_auto_commit"] is False
    assert config["isolation_level"] == "read_committed"
    assert config["auto_offset_reset"] == "earliest"
    assert config["max_poll_records"] == 300
    assert "value_deserializer" not in config
    assert config["group_instance_id"] is None, "a dynamic member unless asked"
    static = consumer_config(
        KafkaConnection(("b:9092",)),
        group_id="g",
        client_id="c",
        max_poll_records=300,
        group_instance_id="w-1",
    )
    assert static["group_instance_id"] == "w-1"


def test_producers_are_idempotent_and_transactional_only_when_asked() -> None:
    connection = KafkaConnection(("b:9092",))
    plain = producer_config(connection, client_id="c", transactional_id=None)
    assert plain["enable_idempotence"] is True
    assert plain["acks"] == "all"
    assert "transactional_id" not in plain
    txn = producer_config(connection, client_id="c", transactional_id="g-w1")
    assert txn["transactional_id"] == "g-w1"
    assert txn["transaction_timeout_ms"] == TRANSACTION_TIMEOUT_MS <= 60_000
    # The largest dead letter (an oversize claim plus headers) must fit in one request.
    assert plain["max_request_size"] == MAX_DEAD_LETTER_RECORD_BYTES > MAX_CLAIM_RECORD_BYTES


def test_transactional_ids_differ_per_instance_and_group() -> None:
    ids = {transactional_id(g, i) for g in ("g1", "g2") for i in ("w1", "w2")}
    assert len(ids) == 4
