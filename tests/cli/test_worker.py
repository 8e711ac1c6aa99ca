"""``quantcheck worker``: its settings, and the mistakes it reports in one line."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import structlog
from quantcheck.worker.observability.logging import LIBRARY_LOGGERS

from quantcheck.cli.main import build_parser, main
from quantcheck.cli.worker import WORKER_SETTINGS, check_options, worker_options
from quantcheck.settings import BY_NAME, Settings, load_settings
from tests.stream.workers import load_handbook
from tests.support.kafka import KafkaBroker, create_topics

Names = Callable[[str], str]


def settings(*argv: str) -> Settings:
    return load_settings(build_parser().parse_args(["worker", *argv]), WORKER_SETTINGS)


@pytest.fixture(autouse=True)
def reset_logging() -> Iterator[None]:
    """The command configures logging for the process; later tests start from the defaults."""
    libraries = {name: logging.getLogger(name) for name in LIBRARY_LOGGERS}
    saved = {name: (lg.handlers[:], lg.level, lg.propagate) for name, lg in libraries.items()}
    yield
    structlog.reset_defaults()
    for name, (handlers, level, propagate) in saved.items():
        libraries[name].handlers, libraries[name].propagate = handlers, propagate
        libraries[name].setLevel(level)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["worker", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_every_worker_setting_is_a_flag_with_its_environment_variable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["worker", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in WORKER_SETTINGS:
        setting = BY_NAME[name]
        assert setting.flag in text
        assert setting.env in text


def test_settings_come_from_the_environment_when_no_flag_is_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("QUANTCHECK_BATCH_MAX_RECORDS", "50")
    monkeypatch.setenv("QUANTCHECK_DELIVERY", "at-least-once")
    monkeypatch.setenv("QUANTCHECK_INSTANCE_ID", "pod-7")
    monkeypatch.setenv("QUANTCHECK_CITATION_MODE", "single")
    given = settings("--batch-max-ms", "75")
    options = worker_options(given)
    assert (options.batch_max_records, options.batch_max_ms) == (50, 75)
    assert options.exactly_once is False
    assert options.instance_id == "pod-7"
    assert check_options(given).citation_mode.value == "single"


@pytest.mark.parametrize(
    ("argv", "static"),
    [
        ((), False),
        (("--static-membership",), True),
        (("--static-membership", "true"), True),
        (("--static-membership", "--no-static-membership"), False),
        (("--static-membership", "false"), False),
    ],
)
def test_static_membership_is_asked_for(argv: tuple[str, ...], static: bool) -> None:
    assert worker_options(settings("--instance-id", "w-1", *argv)).static_membership is static


def test_the_instance_id_defaults_to_the_host_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QUANTCHECK_INSTANCE_ID", raising=False)
    monkeypatch.setattr("socket.gethostname", lambda: "worker-host-3")
    options = worker_options(settings())
    assert options.instance_id == "worker-host-3"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--batch-max-records", "0"), "--batch-max-records: input should be greater than 0, got"),
        (("--batch-max-ms", "soon"), "--batch-max-ms: input should be a valid integer"),
        (("--security-protocol", "SASL_SSL"), "needs sasl_mechanism"),
        (("--claims-topic", " "), "--claims-topic: string should have at least 1 character"),
        (("--log-claim-text", "maybe"), "--log-claim-text: input should be a valid boolean"),
        (
            ("--delivery", "maybe"),
            "--delivery: input should be 'exactly-once' or 'at-least-once', got 'maybe'",
        ),
        (
            ("--static-membership", "true", "--instance-id", "pod 7"),
            "'pod 7' cannot name a static member",
        ),
    ],
)
def test_bad_settings_are_one_line_usage_errors(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1


def test_a_bad_variable_is_named_in_the_one_line_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QUANTCHECK_LOG_LEVEL", "loud")
    status, _, err = run(capsys)
    assert status == 2
    assert err.startswith("quantcheck: error: QUANTCHECK_LOG_LEVEL: input should be 'debug'")
    assert err.count("\n") == 1


def test_an_unreachable_store_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = run(
        capsys,
        "--store",
        "postgresql://nobody:hunter2@127.0.0.1:1/quantcheck",
        "--log-format",
        "json",
    )
    assert status == 2
    assert "unavailable" in err
    assert "hunter2" not in err
    assert err.count("\n") == 1


@pytest.mark.integration
def test_missing_topics_are_named_with_the_command_that_creates_them(
    capsys: pytest.CaptureFixture[str],
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
) -> None:
    claims = unique_topic("claims")
    create_topics(kafka_broker.bootstrap, [claims])
    verdicts, dlq = unique_topic("verdicts"), unique_topic("dlq")
    store = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    status, _, err = run(
        capsys,
        "--bootstrap-servers",
        kafka_broker.bootstrap,
        "--claims-topic",
        claims,
        "--verdicts-topic",
        verdicts,
        "--dlq-topic",
        dlq,
        "--store",
        store,
        "--metrics-port",
        "0",
    )
    assert status == 2
    assert err == (
        f"quantcheck: error: topic(s) {verdicts}, {dlq} do not exist; "
        "create them with 'quantcheck topics create'\n"
    )
