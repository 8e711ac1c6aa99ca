"""``quantcheck check``'s outputs: JSON Lines verdicts as on the topic, the HTML report, the
summary of claims not as expected, the terminal table, the progress bar, claims that
could not be checked and the exit statuses."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from quantcheck.schemas import (
    AnswerVerdictEvent,
    VerdictEvent,
    parse_verdicts_topic_value,
)
from quantcheck.worker.client.messages import event_message
from quantcheck.worker.stream.batch import BatchProcessor
from quantcheck.worker.stream.records import InputRecord

from quantcheck.checker import Checker, Claim, Document, Status, Verdict
from quantcheck.cli import check as check_command
from quantcheck.cli.main import EXIT_INTERNAL, main
from quantcheck.cli.progress import file_progress
from quantcheck.inputs.claims import ClaimRow
from quantcheck.reports.checked import CheckedRow
from quantcheck.reports.table import TableRows, print_verdict_table
from tests.conftest import ROOT
from tests.stream.samples import SETTINGS, Versions, handbook, sample_claims

SCHEMAS = ROOT / "schemas"
VERDICT_SCHEMA = json.loads((SCHEMAS / "verdict.v1.schema.json").read_text(encoding="utf-8"))
ANSWER_SCHEMA = json.loads((SCHEMAS / "answer-verdict.v1.schema.json").read_text(encoding="utf-8"))
HEADER = "claim_id,claim_text,cited_doc_id,retrieved_doc_ids,expected_status\n"


@pytest.fixture
def handbook_csv(examples_dir: Path) -> Path:
    return examples_dir / "field_sensor_handbook.csv"


@pytest.fixture
def claims_csv(examples_dir: Path) -> Path:
    return examples_dir / "rag_numeric_claims.csv"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["check", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def without_run(verdict: dict[str, Any]) -> dict[str, Any]:
    """A verdict less what differs between two runs of the same check: where the claim was
    read, and when."""
    return {k: v for k, v in verdict.items() if k not in {"source", "checked_at"}}


def test_jsonl_verdicts_are_the_workers_own(
    capsys: pytest.CaptureFixture[str], handbook_csv: Path, claims_csv: Path, tmp_path: Path
) -> None:
    out = tmp_path / "verdicts.jsonl"
    status, _, err = run(
        capsys, "--documents", str(handbook_csv), "--claims", str(claims_csv),
        "--kb-version", "kb-v1", "--out", str(out),
    )  # fmt: skip
    assert status == 0, err
    offline = lines_of(out)
    for verdict in offline:
        jsonschema.validate(verdict, VERDICT_SCHEMA)
    # The worker's batch processor, given the same claims as messages, says the same.
    same = {"kb_version": "kb-v1", "model": "", "retriever": ""}
    events = [claim.model_copy(update=same) for claim in sample_claims()]
    records = [
        InputRecord("claims", 0, offset, 0, *event_message(event))
        for offset, event in enumerate(events)
    ]
    processor = BatchProcessor(Checker(), Versions({"kb-v1": handbook()}), SETTINGS)
    result = processor.process(records, checked_at=datetime(2026, 6, 1, tzinfo=UTC))
    published = [json.loads(o.value or b"") for o in result.outputs if o.topic == "verdicts"]
    assert [without_run(v) for v in offline] == [without_run(v) for v in published]
    c01 = offline[0]
    assert c01["source"] == {
        "topic": "rag_numeric_claims.csv",
        "partition": 0,
        "offset": 2,
        "timestamp": -1,
    }
    (fact,) = c01["facts"]
    evidence = fact["evidence"]
    text = handbook()[evidence["doc_id"]].text
    assert text[evidence["span"]["start"] : evidence["span"]["end"]] == evidence["text"]


ANSWER = {
    "schema_version": 1,
    "event_type": "answer",
    "answer_id": "A1",
    "answer_text": (
        "Here is what the handbook says. Log a reading every 15 seconds [1]. "
        "Below 20 percent charge, switch to a 45-second interval [S01]."
    ),
    "citations": {"1": "S01"},
    "retrieved_doc_ids": ["S01", "S04"],
    "kb_version": "local",
    "produced_at": "2026-06-01T12:00:00Z",
}


def test_jsonl_answers_give_sentence_verdicts_then_the_answer_record(
    capsys: pytest.CaptureFixture[str], handbook_csv: Path, tmp_path: Path
) -> None:
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps(ANSWER) + "\n", encoding="utf-8")
    out = tmp_path / "out.ndjson"
    status, stdout, err = run(
        capsys, "--documents", str(handbook_csv), "--claims", str(answers), "--out", str(out)
    )
    assert status == 0, err
    values = [parse_verdicts_topic_value(line) for line in out.read_bytes().splitlines()]
    *claims, record = values
    assert all(isinstance(v, VerdictEvent) for v in claims)
    assert isinstance(record, AnswerVerdictEvent)
    jsonschema.validate(json.loads(record.model_dump_json()), ANSWER_SCHEMA)
    assert [(c.claim_id, c.status) for c in claims if isinstance(c, VerdictEvent)] == [
        ("A1:1", "needs_review_no_quantity"),
        ("A1:2", "supported"),
        ("A1:3", "unsupported_quantity"),
    ]
    assert record.status == "unsupported_quantity"
    assert [c.claim_id for c in record.claims] == ["A1:1", "A1:2", "A1:3"]
    # Spans point into the answer, markers and all, exactly as the worker's do.
    text = ANSWER["answer_text"]
    assert isinstance(text, str)
    for verdict in claims:
        assert isinstance(verdict, VerdictEvent)
        for fact in verdict.facts:
            assert text[fact.span.start : fact.span.end] == fact.text
    assert stdout.splitlines()[0] == "claims=3"


@pytest.mark.parametrize(
    ("name", "flags", "first"),
    [
        ("r.txt", ["--format", "jsonl"], "{"),
        ("r.jsonl", ["--format", "csv"], "claim_id,"),
        ("r.csv", [], "claim_id,"),
    ],
)
def test_format_names_what_out_holds(
    capsys: pytest.CaptureFixture[str],
    handbook_csv: Path,
    claims_csv: Path,
    tmp_path: Path,
    name: str,
    flags: list[str],
    first: str,
) -> None:
    out = tmp_path / name
    status, _, err = run(
        capsys, "--documents", str(handbook_csv), "--claims", str(claims_csv), "--out", str(out),
        *flags,
    )  # fmt: skip
    assert status == 0, err
    assert out.read_text(encoding="utf-8").startswith(first)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--out", "r.json"], "--out 'r.json': end the file name in .csv or .jsonl"),
        (["--format", "jsonl"], "--format names the format of --out FILE, which is not given"),
        (["--format", "xml", "--out", "r.xml"], "--format: invalid choice: 'xml'"),
    ],
)
def test_an_out_file_of_no_known_format_is_refused_before_anything_is_written(
    capsys: pytest.CaptureFixture[str],
    handbook_csv: Path,
    claims_csv: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    flags: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run(
        capsys, "--documents", str(handbook_csv), "--claims", str(claims_csv), *flags
    )
    assert (status, out) == (2, "")
    assert message in err
    assert err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_the_report_shows_the_claims_not_supported_or_not_as_expected(
    capsys: pytest.CaptureFixture[str], handbook_csv: Path, tmp_path: Path
) -> None:
    claims = tmp_path / "claims.csv"
    claims.write_text(
        HEADER
        + "K1,Log a reading every 15 seconds.,S01,S01,supported\n"
        + "K2,Log a reading every 45 seconds.,S01,S01,supported\n"
        + "K3,<b>Log</b> a reading every 90 seconds.,S01,S01,\n",
        encoding="utf-8",
    )
    report = tmp_path / "report.html"
    status, out, err = run(
        capsys, "--documents", str(handbook_csv), "--claims", str(claims), "--report", str(report)
    )
    assert status == 0, err
    page = report.read_text(encoding="utf-8")
    assert "<h3>K1:" not in page  # supported as expected
    assert "<h3>K2: unsupported_quantity, expected supported</h3>" in page
    assert "<h3>K3: unsupported_quantity</h3>" in page
    assert "&lt;b&gt;Log&lt;/b&gt;" in page
    assert '<mark class="missing" title="time_seconds=45: missing">45 seconds</mark>' in page
    assert "Claims not supported or not as expected: 2" in page
    assert "claims.csv row 3" in page
    summary = page[page.index('<pre id="summary">') : page.index("</pre>")]
    assert "not as expected: K2 (expected supported, got unsupported_quantity)" in summary
    assert '<svg id="status-chart"' in page
    assert "http://" not in page
    assert "https://" not in page
    assert out.splitlines()[0] == "claims=3 matched_expected=1"


def test_the_summary_names_the_claims_not_as_expected(
    capsys: pytest.CaptureFixture[str],
    handbook_csv: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(check_command, "MAX_NAMED", 2)
    rows = "".join(f"K{n},Log a reading every {n} seconds.,S01,S01,supported\n" for n in range(4))
    claims = tmp_path / "claims.csv"
    claims.write_text(HEADER + rows, encoding="utf-8")
    status, out, _ = run(capsys, "--documents", str(handbook_csv), "--claims", str(claims))
    assert status == 0
    assert out.splitlines() == [
        "claims=4 matched_expected=0",
        "unsupported_quantity=4",
        "not as expected: K0 (expected supported, got unsupported_quantity)",
        "not as expected: K1 (expected supported, got unsupported_quantity)",
        "not as expected: 2 more",
    ]


class FailingChecker(Checker):
    """The real checker, except that it raises for any claim that mentions 45 seconds."""

    def check(self, claim: Claim, documents: Mapping[str, Document]) -> Verdict:
        if "45 seconds" in claim.text:
            raise RuntimeError("no room for 45 seconds")
        return super().check(claim, documents)


@pytest.mark.parametrize("fail_on", [[], ["--fail-on", "unsupported_quantity"]])
def test_a_claim_whose_check_raises_is_check_failed_and_the_run_goes_on(
    capsys: pytest.CaptureFixture[str],
    handbook_csv: Path,
    claims_csv: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fail_on: list[str],
) -> None:
    monkeypatch.setattr(check_command, "Checker", FailingChecker)
    out = tmp_path / "r.csv"
    status, stdout, err = run(
        capsys, "--documents", str(handbook_csv), "--claims", str(claims_csv), "--out", str(out),
        *fail_on,
    )  # fmt: skip
    # Its own status, whether or not a --fail-on status occurred too.
    assert status == check_command.EXIT_CHECK_FAILED == 4
    rows = {row["claim_id"]: row for row in csv.DictReader(out.open(encoding="utf-8"))}
    assert len(rows) == 16
    assert rows["C02"]["status"] == "check_failed"
    assert rows["C02"]["reason"] == "the check failed: RuntimeError: no room for 45 seconds"
    assert rows["C01"]["status"] == "supported"
    assert "check_failed=1" in stdout.splitlines()
    assert "claims=16 matched_expected=15" in stdout
    assert err.splitlines() == [
        "quantcheck: 1 claim could not be checked (status check_failed, the error in the"
        " reason): C02"
    ]


def test_a_claim_whose_check_raises_has_no_verdict_in_jsonl(
    capsys: pytest.CaptureFixture[str],
    handbook_csv: Path,
    claims_csv: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(check_command, "Checker", FailingChecker)
    out = tmp_path / "r.jsonl"
    status, _, _ = run(
        capsys, "--documents", str(handbook_csv), "--claims", str(claims_csv), "--out", str(out)
    )
    assert status == 4
    claim_ids = [verdict["claim_id"] for verdict in lines_of(out)]
    assert len(claim_ids) == 15
    assert "C02" not in claim_ids


def test_an_internal_error_exits_apart_from_fail_on_with_its_traceback(
    capsys: pytest.CaptureFixture[str],
    handbook_csv: Path,
    claims_csv: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*_: object) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(check_command, "ordered_counts", broken)
    status, _, err = run(
        capsys, "--documents", str(handbook_csv), "--claims", str(claims_csv), "--chart", "c.png"
    )
    assert status == EXIT_INTERNAL == 70
    assert "Traceback" in err
    assert "KeyError: 'a bug'" in err
    assert err.splitlines()[-1] == (
        "quantcheck: internal error: the traceback above is a bug in quantcheck"
    )


def row(claim_id: str, status: str, reason: str) -> CheckedRow:
    event = sample_claims()[0].model_copy(update={"claim_id": claim_id})
    if status == "check_failed":
        return CheckedRow(ClaimRow(2, event), None, reason)
    return CheckedRow(ClaimRow(2, event), Verdict(Status(status), reason))


def table_text(rows: list[CheckedRow], *, total: int, results: str | None) -> str:
    buffer = io.StringIO()
    print_verdict_table(rows, total=total, results=results, file=buffer)
    return buffer.getvalue()


def test_the_table_shows_failures_first_and_labels_as_written() -> None:
    kept = TableRows(limit=3)
    kept.add(row("T1", "supported", "matched cited evidence: time_seconds=15"))
    kept.add(row("T2", "unsupported_quantity", "not in cited evidence: count[seat]=5"))
    kept.add(row("T3", "supported", "matched cited evidence: time_seconds=60"))
    kept.add(row("T4", "missing_citation", "the claim cites no document"))
    kept.add(row("T5", "supported", "matched cited evidence: [bold]x[/bold]"))
    assert [r.claim.event.claim_id for r in kept.shown] == ["T2", "T4", "T1"]
    text = table_text(kept.shown, total=kept.total, results=None)
    assert "count[seat]=5" in text
    assert text.index("T2") < text.index("T4") < text.index("T1")
    assert "... 2 more; --out FILE writes every claim" in text
    assert "... 2 more in r.csv" in table_text(kept.shown, total=kept.total, results="r.csv")
    plain = TableRows(limit=5)
    plain.add(row("T5", "supported", "matched cited evidence: [bold]x[/bold]"))
    assert "[bold]x[/bold]" in table_text(plain.shown, total=1, results=None)


class Terminal(io.StringIO):
    """What a progress bar sees on a person's terminal."""

    def isatty(self) -> bool:
        return True


def test_a_progress_bar_is_drawn_only_on_a_terminal_for_a_large_file(tmp_path: Path) -> None:
    path = tmp_path / "claims.csv"
    path.write_bytes(b"x" * 2048)
    with file_progress(str(path), "checking", stream=io.StringIO()) as advance:
        assert advance is None
    with file_progress(str(path), "checking", stream=Terminal(), min_bytes=4096) as advance:
        assert advance is None
    terminal = Terminal()
    with file_progress(str(path), "checking", stream=terminal, min_bytes=1024) as advance:
        assert advance is not None
        advance(2048)
    assert "checking" in terminal.getvalue()


def test_check_draws_its_progress_on_a_terminal_stderr(
    handbook_csv: Path,
    claims_csv: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    terminal = Terminal()
    monkeypatch.setattr(check_command, "PROGRESS_MIN_BYTES", 0)
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["check", "--documents", str(handbook_csv), "--claims", str(claims_csv)]) == 0
    assert "checking" in terminal.getvalue()
    # Standard output is what a script reads: the summary alone.
    assert capsys.readouterr().out.startswith("claims=16 matched_expected=16\n")


@pytest.mark.parametrize(
    ("record", "fields"), [("C1,Log every 15 seconds.,S01,S01,x\n", 5), ("C1,Log,S01\n", 3)]
)
def test_a_claims_row_with_a_field_too_many_or_too_few_is_refused(
    capsys: pytest.CaptureFixture[str],
    handbook_csv: Path,
    tmp_path: Path,
    record: str,
    fields: int,
) -> None:
    claims = tmp_path / "claims.csv"
    claims.write_text("claim_id,claim_text,cited_doc_id,retrieved_doc_ids\n" + record)
    status, out, err = run(capsys, "--documents", str(handbook_csv), "--claims", str(claims))
    assert (status, out) == (2, "")
    assert err == (
        f"quantcheck: error: {claims}, row 2: the row has {fields} fields, the header 4\n"
    )


def test_a_results_file_checked_again_keeps_its_columns(
    capsys: pytest.CaptureFixture[str], handbook_csv: Path, claims_csv: Path, tmp_path: Path
) -> None:
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    for claims, out in ((claims_csv, first), (first, second)):
        status, _, err = run(
            capsys, "--documents", str(handbook_csv), "--claims", str(claims), "--out", str(out)
        )
        assert status == 0, err
    header = first.read_text(encoding="utf-8").splitlines()[0].split(",")
    assert second.read_text(encoding="utf-8").splitlines()[0].split(",") == header
    assert len(header) == len(set(header))
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "argv",
    [
        ["docs", "list"],
        ["docs", "show", "--kb-version", "v1", "S01"],
        ["docs", "diff", "v1", "v2"],
        ["check", "--claims", str(ROOT / "examples" / "rag_numeric_claims.csv")],
    ],
)
def test_read_only_commands_create_no_store(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("QUANTCHECK_STORE_URL", raising=False)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("quantcheck: error: no document store at 'quantcheck.db'")
    assert err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_python_dash_m_quantcheck_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "quantcheck", "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"quantcheck \d+\.\d+\.\d+\n", done.stdout)


def test_an_uninstalled_extra_is_named_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def without_kafka(name: str) -> object:
        raise ModuleNotFoundError("No module named 'kafka'", name="kafka")

    monkeypatch.setattr("quantcheck.cli.main._command_module", without_kafka)
    assert main(["worker"]) == 2
    assert capsys.readouterr().err == (
        "quantcheck: error: 'quantcheck worker' needs kafka, which is not installed:"
        " pip install 'quantcheck[kafka]'\n"
    )


def test_uncited_retrieved_checks_unmarked_sentences_against_what_was_retrieved(
    capsys: pytest.CaptureFixture[str], handbook_csv: Path, tmp_path: Path
) -> None:
    answer = {
        **ANSWER,
        "answer_text": "Log a reading every 15 seconds. Shut the logger down at 60 °C.",
        "citations": {},
    }
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps(answer) + "\n", encoding="utf-8")
    statuses: dict[str, list[tuple[str, list[str]]]] = {}
    for uncited in ("missing_citation", "retrieved"):
        out = tmp_path / f"{uncited}.jsonl"
        status, _, err = run(
            capsys, "--documents", str(handbook_csv), "--claims", str(answers),
            "--uncited", uncited, "--out", str(out),
        )  # fmt: skip
        assert status == 0, err
        statuses[uncited] = [
            (v["status"], v["flags"]) for v in lines_of(out) if v.get("event_type") is None
        ]
    assert statuses["missing_citation"] == [("missing_citation", [])] * 2
    retrieved = statuses["retrieved"]
    assert [s for s, _ in retrieved] == ["supported", "supported"]
    assert all("cites_retrieved" in flags for _, flags in retrieved)


def test_documents_rows_must_have_the_headers_fields_too(
    capsys: pytest.CaptureFixture[str], claims_csv: Path, tmp_path: Path
) -> None:
    documents = tmp_path / "d.csv"
    documents.write_text("doc_id,topic,text\nS01,a,b,c\n", encoding="utf-8")
    status, _, err = run(capsys, "--documents", str(documents), "--claims", str(claims_csv))
    assert status == 2
    assert err == f"quantcheck: error: {documents}, row 2: the row has 4 fields, the header 3\n"
