"""Log lines: JSON or console, UTC timestamps, levels, and the libraries' loggers at WARNING."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from datetime import datetime

import pytest
import structlog
from quantcheck.worker.observability.logging import (
    LIBRARY_LOGGERS,
    configure_logging,
    resolve_format,
)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    saved = {name: logging.getLogger(name) for name in LIBRARY_LOGGERS}
    state = {name: (lg.handlers[:], lg.level, lg.propagate) for name, lg in saved.items()}
    yield
    structlog.reset_defaults()
    for name, (handlers, level, propagate) in state.items():
        lg = saved[name]
        lg.handlers, lg.propagate = handlers, propagate
        lg.setLevel(level)


def lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_json_lines_carry_a_utc_timestamp_level_and_event() -> None:
    out = io.StringIO()
    configure_logging(log_format="json", level="info", stream=out)
    structlog.get_logger().info("batch committed", records=3, topic="claims")
    (line,) = lines(out)
    assert line["event"] == "batch committed"
    assert line["level"] == "info"
    assert (line["records"], line["topic"]) == (3, "claims")
    stamp = str(line["timestamp"])
    assert stamp.endswith("Z")
    assert datetime.fromisoformat(stamp).utcoffset() is not None


def test_lines_below_the_level_are_dropped() -> None:
    out = io.StringIO()
    configure_logging(log_format="json", level="warning", stream=out)
    log = structlog.get_logger()
    log.info("quiet")
    log.warning("loud")
    assert [line["event"] for line in lines(out)] == ["loud"]


def test_exceptions_are_rendered_into_the_json_line() -> None:
    out = io.StringIO()
    configure_logging(log_format="json", level="info", stream=out)
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        structlog.get_logger().exception("worker failed")
    (line,) = lines(out)
    assert "RuntimeError: boom" in str(line["exception"])


@pytest.mark.parametrize("name", LIBRARY_LOGGERS)
def test_library_loggers_pass_through_at_warning_only(name: str) -> None:
    out = io.StringIO()
    configure_logging(log_format="json", level="debug", stream=out)
    library = logging.getLogger(name + ".child")
    library.info("connecting to broker")
    library.warning("broker unavailable: %s", "connection refused")
    (line,) = lines(out)
    assert line["event"] == "broker unavailable: connection refused"
    assert line["level"] == "warning"
    assert line["logger"] == name + ".child"
    assert str(line["timestamp"]).endswith("Z")


def test_console_output_is_plain_text_with_the_fields() -> None:
    out = io.StringIO()
    configure_logging(log_format="console", level="info", stream=out)
    structlog.get_logger().info("worker started", group="quantcheck")
    text = out.getvalue()
    assert "worker started" in text
    assert "group=quantcheck" in text
    assert not text.lstrip().startswith("{")
    assert "\x1b[" not in text  # no colour codes when not writing to a terminal


def test_auto_picks_the_console_on_a_terminal_and_json_elsewhere() -> None:
    assert resolve_format("auto", Terminal()) == "console"
    assert resolve_format("auto", io.StringIO()) == "json"
    assert resolve_format("json", Terminal()) == "json"
    with pytest.raises(ValueError, match="unknown log format"):
        resolve_format("xml", io.StringIO())
