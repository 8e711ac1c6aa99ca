"""Settings: a flag beats its variable, which beats the default; a bad value names its source."""

from __future__ import annotations

import argparse

import pytest

from quantcheck.errors import UsageError
from quantcheck.settings import (
    BY_NAME,
    SETTINGS,
    Settings,
    add_settings,
    environment_of,
    load_settings,
)

NAMES = ("batch_max_records", "log_claim_text", "sasl_password", "delivery", "bare_numbers")


def loaded(*argv: str) -> Settings:
    parser = argparse.ArgumentParser()
    add_settings(parser, NAMES)
    return load_settings(parser.parse_args(argv), NAMES)


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for setting in SETTINGS:
        monkeypatch.delenv(setting.env, raising=False)


def test_a_flag_beats_its_variable_which_beats_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert loaded().batch_max_records == int(BY_NAME["batch_max_records"].default)
    monkeypatch.setenv("QUANTCHECK_BATCH_MAX_RECORDS", "40")
    assert loaded().batch_max_records == 40
    assert loaded("--batch-max-records", "7").batch_max_records == 7


@pytest.mark.parametrize(
    ("argv", "variable", "expected"),
    [
        ((), None, False),
        ((), "yes", True),
        (("--log-claim-text",), None, True),
        (("--log-claim-text", "true"), None, True),
        (("--log-claim-text", "false"), "true", False),
        (("--no-log-claim-text",), "1", False),
    ],
)
def test_yes_no_settings_take_every_usual_spelling(
    monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...], variable: str | None, expected: bool
) -> None:
    if variable is not None:
        monkeypatch.setenv("QUANTCHECK_LOG_CLAIM_TEXT", variable)
    assert loaded(*argv).log_claim_text is expected


def test_a_bad_variable_is_named_with_the_value_it_held(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUANTCHECK_DELIVERY", "sometimes")
    with pytest.raises(UsageError) as caught:
        loaded()
    message = str(caught.value)
    assert message.startswith("QUANTCHECK_DELIVERY: input should be 'exactly-once' or")
    assert message.endswith("got 'sometimes'")
    assert "\n" not in message


def test_a_bad_password_is_never_repeated_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUANTCHECK_SASL_PASSWORD", "hunter2")
    settings = loaded()
    assert "hunter2" not in repr(settings)
    assert settings.sasl_password.get_secret_value() == "hunter2"


def test_the_environment_of_settings_reads_back_as_the_same_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    given = loaded("--batch-max-records", "9", "--log-claim-text")
    environment = environment_of(given, NAMES)
    assert "QUANTCHECK_BARE_NUMBERS" not in environment, "an unset setting stays unset"
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert loaded() == given


def test_every_setting_has_help_and_a_flag_of_its_own() -> None:
    flags = [setting.flag for setting in SETTINGS]
    assert len(set(flags)) == len(flags)
    for setting in SETTINGS:
        assert setting.help, setting.name
        assert setting.flag.startswith("--")


def test_an_empty_variable_means_not_set(monkeypatch: pytest.MonkeyPatch) -> None:
    # A deployment template that leaves a value blank gets the default, not an error.
    for name in ("LOG_CLAIM_TEXT", "BARE_NUMBERS", "BATCH_MAX_RECORDS"):
        monkeypatch.setenv(f"QUANTCHECK_{name}", "")
    settings = loaded()
    assert settings.log_claim_text is False
    assert settings.bare_numbers is None
    assert settings.batch_max_records == int(BY_NAME["batch_max_records"].default)


@pytest.mark.parametrize(
    ("argv", "variable"),
    [(("--delivery", "AT-LEAST-ONCE"), None), ((), " At-Least-Once ")],
)
def test_choices_are_read_in_any_case_from_a_flag_or_a_variable(
    monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...], variable: str | None
) -> None:
    if variable is not None:
        monkeypatch.setenv("QUANTCHECK_DELIVERY", variable)
    assert loaded(*argv).delivery == "at-least-once"


def test_kafka_spellings_are_upper_case_from_a_flag_too() -> None:
    names = ("sasl_mechanism", "security_protocol")
    parser = argparse.ArgumentParser()
    add_settings(parser, names)
    argv = ["--sasl-mechanism", "scram-sha-256", "--security-protocol", "sasl_ssl"]
    settings = load_settings(parser.parse_args(argv), names)
    assert (settings.sasl_mechanism, settings.security_protocol) == ("SCRAM-SHA-256", "SASL_SSL")


def test_a_bad_variable_of_a_setting_the_command_does_not_use_is_left_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("QUANTCHECK_PROCESSES", "0")
    monkeypatch.setenv("QUANTCHECK_BATCH_MAX_RECORDS", "40")
    settings = loaded()
    assert settings.batch_max_records == 40
    assert settings.processes == int(BY_NAME["processes"].default)
    parser = argparse.ArgumentParser()
    add_settings(parser, ("processes",))
    with pytest.raises(UsageError, match=r"^QUANTCHECK_PROCESSES: input should be greater"):
        load_settings(parser.parse_args([]), ("processes",))


def test_a_variable_is_read_whatever_the_case_of_its_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("quantcheck_batch_max_records", "41")
    assert loaded().batch_max_records == 41


def test_a_variable_no_setting_reads_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUANTCHECK_NOT_A_SETTING", "anything")
    assert loaded() == loaded("--batch-max-records", BY_NAME["batch_max_records"].default)
