"""``quantcheck replay`` arguments: mistakes found before any broker is contacted."""

from __future__ import annotations

from pathlib import Path

import pytest
from quantcheck.worker.store import open_store

from quantcheck.cli.main import main

# Nothing listens here: every case below must fail before a connection is tried.
UNREACHABLE = ["--bootstrap-servers", "127.0.0.1:9", "--store", "sqlite:///:memory:"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--from", "14:00 yesterday"], "--from '14:00 yesterday' is not an ISO 8601 timestamp"),
        (["--to", "2026-13-01T00:00:00Z"], "--to '2026-13-01T00:00:00Z' is not an ISO 8601"),
        (
            ["--from", "2026-05-04T15:00:00Z", "--to", "2026-05-04T14:00:00Z"],
            "--from 2026-05-04T15:00:00.000Z is not before --to 2026-05-04T14:00:00.000Z",
        ),
        (["--from", "2026-05-04T15:00:00Z", "--last", "10"], "--from and --last cannot be"),
        (["--from-offset", "0-15"], "--from-offset '0-15' is not PARTITION:OFFSET"),
        (["--to-offset", "0:x"], "--to-offset '0:x' is not PARTITION:OFFSET"),
        (["--last", "0"], "argument --last: 0 is not allowed: it must be at least 1"),
        (["--last", "many"], "argument --last: 'many' is not a whole number"),
        (["--partition", "first"], "--partition 'first' is not a partition number"),
        (["--status", "passed"], "--status 'passed' is not a verdict status or dead-letter kind"),
        (["--out", "rows.txt"], "--out 'rows.txt': the file name must end in .csv or .jsonl"),
        (
            ["--publish-to", "claim-verdicts"],
            "--publish-to 'claim-verdicts' is the production verdicts topic; publish to a "
            "scratch topic, or add --force",
        ),
        (
            ["--verdicts-topic", "prod-v", "--publish-to", "prod-v"],
            "--publish-to 'prod-v' is the production verdicts topic",
        ),
        (["--republish-to", "claims-2"], "--republish-to needs dead-letter input"),
        (["--publish-to", "claims"], "--publish-to 'claims' is the topic being replayed"),
        (
            ["--topic", "claims-dlq", "--compare-topic", "claim-verdicts"],
            "--compare-topic does not apply to dead-letter input",
        ),
        (["--no-compare", "--status", "supported"], "--status filters by the recorded outcome"),
        (
            ["--topic", "claims-dlq", "--republish-to", "claims", "--kb-version-override", "v2"],
            "--republish-to and --kb-version-override cannot be combined",
        ),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["replay", *UNREACHABLE, *argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    # argparse names the subcommand; the checks made after parsing use the common prefix
    assert err.startswith(("quantcheck: error: ", "quantcheck replay: argument "))
    assert message in err


def test_an_unknown_override_version_is_refused_before_kafka(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path}/s.db"
    with open_store(url):
        pass  # a store without that version
    store = ["--bootstrap-servers", "127.0.0.1:9", "--store", url]
    assert main(["replay", *store, "--kb-version-override", "v7"]) == 2
    err = capsys.readouterr().err
    assert err == "quantcheck: error: unknown knowledge-base version 'v7'\n"
