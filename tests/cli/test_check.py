"""``quantcheck check``: the tutorial's table, result files, exit codes and bad input."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from quantcheck.worker.store import open_store

from quantcheck.cli.main import main
from tests.support.postgres import ROOT

TUTORIAL_SUMMARY = [
    "claims=16 matched_expected=16",
    "supported=7",
    "unsupported_quantity=5",
    "missing_citation=1",
    "unknown_citation=1",
    "citation_not_retrieved=1",
    "needs_review_no_quantity=1",
]


@pytest.fixture
def handbook(examples_dir: Path) -> Path:
    return examples_dir / "field_sensor_handbook.csv"


@pytest.fixture
def claims(examples_dir: Path) -> Path:
    return examples_dir / "rag_numeric_claims.csv"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("scope", [[], ["--scope", "all"], ["--scope", "units"]])
def test_sample_reproduces_the_tutorial_table(
    capsys: pytest.CaptureFixture[str], handbook: Path, claims: Path, scope: list[str]
) -> None:
    status, out, err = run(
        capsys, "check", "--documents", str(handbook), "--claims", str(claims), *scope
    )
    assert status == 0, err
    assert out.splitlines()[: len(TUTORIAL_SUMMARY)] == TUTORIAL_SUMMARY


def scoped_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, *flags: str
) -> tuple[int, str, str]:
    """Check one claim whose year is wrong: supported only when years are not read."""
    docs = write(tmp_path / "d.csv", "doc_id,topic,text\nD1,t,Revenue grew 5% in 2021.\n")
    claims = write(
        tmp_path / "c.csv",
        "claim_id,claim_text,cited_doc_id,retrieved_doc_ids\nK1,Revenue grew 5% in 2019.,D1,D1\n",
    )
    out = tmp_path / "r.csv"
    status, _, err = run(
        capsys,
        "check",
        "--documents",
        str(docs),
        "--claims",
        str(claims),
        "--out",
        str(out),
        *flags,
    )
    rows = list(csv.DictReader(out.open(encoding="utf-8"))) if status == 0 else []
    return status, rows[0]["status"] if rows else "", err


def test_scope_decides_which_numbers_are_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert scoped_run(capsys, tmp_path)[1] == "unsupported_quantity"
    assert scoped_run(capsys, tmp_path, "--scope", "units")[1] == "supported"
    monkeypatch.setenv("QUANTCHECK_SCOPE", "units")
    assert scoped_run(capsys, tmp_path)[1] == "supported"
    assert scoped_run(capsys, tmp_path, "--scope", "all")[1] == "unsupported_quantity"


@pytest.mark.parametrize(
    ("value", "status"), [("true", "unsupported_quantity"), ("false", "supported")]
)
def test_bare_numbers_is_a_deprecated_alias_of_scope(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str, status: str
) -> None:
    code, verdict, err = scoped_run(capsys, tmp_path, "--bare-numbers", value)
    assert (code, verdict) == (0, status)
    notice = err.strip().splitlines()
    assert len(notice) == 1
    assert "--bare-numbers is deprecated" in notice[0]


def test_bare_numbers_contradicting_scope_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = scoped_run(capsys, tmp_path, "--scope", "units", "--bare-numbers", "true")
    assert code == 2
    assert err.strip().splitlines() == [
        "quantcheck: error: --bare-numbers true contradicts --scope units"
    ]


def test_out_file_has_one_row_per_claim_in_input_order(
    capsys: pytest.CaptureFixture[str], handbook: Path, claims: Path, tmp_path: Path
) -> None:
    out_path = tmp_path / "results.csv"
    status, _, err = run(
        capsys,
        "check",
        "--documents",
        str(handbook),
        "--claims",
        str(claims),
        "--out",
        str(out_path),
    )
    assert status == 0, err
    with out_path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    with claims.open(encoding="utf-8", newline="") as handle:
        inputs = list(csv.DictReader(handle))
    assert [r["claim_id"] for r in rows] == [r["claim_id"] for r in inputs]
    assert all(r["status"] == r["expected_status"] for r in rows)
    by_id = {r["claim_id"]: r for r in rows}
    assert by_id["C01"]["reason"] == "matched cited evidence: time_seconds=15"
    assert by_id["C02"]["reason"] == "not in cited evidence: time_seconds=45"
    assert by_id["C03"]["reason"] == "matched cited evidence: time_seconds=60"
    assert by_id["C16"]["reason"] == "not in cited evidence: date=2026-10-31"


def test_chart_is_written_as_png(
    capsys: pytest.CaptureFixture[str], handbook: Path, claims: Path, tmp_path: Path
) -> None:
    chart = tmp_path / "chart.png"
    status, _, err = run(
        capsys,
        "check",
        "--documents",
        str(handbook),
        "--claims",
        str(claims),
        "--chart",
        str(chart),
    )
    assert status == 0, err
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("fail_on", "expected"),
    [("unsupported_quantity", 1), ("needs_review_negation", 0), ("supported,missing_citation", 1)],
)
def test_fail_on_gates_on_statuses_that_occurred(
    capsys: pytest.CaptureFixture[str], handbook: Path, claims: Path, fail_on: str, expected: int
) -> None:
    status, out, _ = run(
        capsys,
        "check",
        "--documents",
        str(handbook),
        "--claims",
        str(claims),
        "--fail-on",
        fail_on,
    )
    assert status == expected
    assert out.startswith("claims=16")


def test_jsonl_claims_with_several_citations(
    capsys: pytest.CaptureFixture[str], handbook: Path, tmp_path: Path
) -> None:
    event = {
        "schema_version": 1,
        "claim_id": "J1",
        "claim_text": "Log every 15 seconds and keep at least 95 percent of readings.",
        "cited_doc_ids": ["S01", "S08"],
        "retrieved_doc_ids": ["S01", "S08"],
        "kb_version": "v1",
        "produced_at": "2026-11-30T12:00:00Z",
    }
    path = write(tmp_path / "claims.jsonl", json.dumps(event) + "\n")
    status, out, err = run(capsys, "check", "--documents", str(handbook), "--claims", str(path))
    assert status == 0, err
    assert out.splitlines()[:2] == ["claims=1", "supported=1"]


def test_store_versions_change_the_verdict(
    capsys: pytest.CaptureFixture[str], handbook: Path, claims: Path, tmp_path: Path
) -> None:
    store = f"sqlite:///{tmp_path / 'kb.db'}"
    v2 = tmp_path / "handbook_v2.csv"
    v2.write_text(
        handbook.read_text(encoding="utf-8").replace("every 15 seconds", "every 30 seconds"),
        encoding="utf-8",
    )
    for version, path in (("v1", handbook), ("v2", v2)):
        status, _, err = run(
            capsys, "docs", "load", "--store", store, "--kb-version", version, str(path)
        )
        assert status == 0, err
    out_path = tmp_path / "v1.csv"
    status, out, err = run(
        capsys,
        "check",
        "--store",
        store,
        "--kb-version",
        "v1",
        "--claims",
        str(claims),
        "--out",
        str(out_path),
    )
    assert status == 0, err
    assert out.splitlines()[: len(TUTORIAL_SUMMARY)] == TUTORIAL_SUMMARY
    out_path = tmp_path / "v2.csv"
    status, out, err = run(
        capsys,
        "check",
        "--store",
        store,
        "--kb-version",
        "v2",
        "--claims",
        str(claims),
        "--out",
        str(out_path),
    )
    assert status == 0, err
    with out_path.open(encoding="utf-8", newline="") as handle:
        rows = {r["claim_id"]: r for r in csv.DictReader(handle)}
    assert rows["C01"]["status"] == "unsupported_quantity"
    assert rows["C01"]["reason"] == "not in cited evidence: time_seconds=15"
    assert rows["C01"]["kb_version"] == "v2"


def test_unknown_store_version_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], claims: Path, tmp_path: Path
) -> None:
    store = f"sqlite:///{tmp_path / 'kb.db'}"
    with open_store(store):
        pass  # a store without that version
    status, out, err = run(
        capsys, "check", "--store", store, "--kb-version", "v9", "--claims", str(claims)
    )
    assert status == 2
    assert out == ""
    assert "v9" in err
    assert len(err.strip().splitlines()) == 1


BAD_DOCUMENTS = [
    ("missing.csv", None, "cannot read the file"),
    ("nocol.csv", "doc_id,topic\nS01,x\n", "column 'text': missing column"),
    ("dup.csv", "doc_id,topic,text\nS01,a,one\nS01,b,two\n", "row 3, column 'doc_id'"),
    ("utf8.csv", b"doc_id,topic,text\nS01,a,bad \xff\n", "row 2, column 'text': invalid UTF-8"),
]


@pytest.mark.parametrize(("name", "content", "message"), BAD_DOCUMENTS)
def test_bad_documents_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str],
    claims: Path,
    tmp_path: Path,
    name: str,
    content: str | bytes | None,
    message: str,
) -> None:
    path = tmp_path / name
    if content is not None:
        write(path, content)
    status, out, err = run(capsys, "check", "--documents", str(path), "--claims", str(claims))
    assert status == 2
    assert out == ""
    assert message in err
    assert str(path) in err
    assert len(err.strip().splitlines()) == 1


HEADER = "claim_id,claim_text,cited_doc_id,retrieved_doc_ids\n"
BAD_CLAIMS = [
    ("empty_id.csv", HEADER + ",Log every 15 seconds.,S01,S01\n", "row 2, column 'claim_id'"),
    ("nocol.csv", "claim_id,claim_text\nC1,x\n", "column 'cited_doc_id': missing column"),
    ("dup.csv", HEADER + "C1,a 1 s,S01,S01\nC1,b 2 s,S01,S01\n", "duplicate claim_id 'C1'"),
    ("utf8.csv", HEADER.encode() + b"C1,bad \xfe,S01,S01\n", "row 2, column 'claim_text'"),
    ("bad.jsonl", '{"schema_version": 1}\n', "row 1"),
    ("claims.txt", "x", "unsupported file type '.txt'"),
]


@pytest.mark.parametrize(("name", "content", "message"), BAD_CLAIMS)
def test_bad_claims_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str],
    handbook: Path,
    tmp_path: Path,
    name: str,
    content: str | bytes,
    message: str,
) -> None:
    path = write(tmp_path / name, content)
    status, _, err = run(capsys, "check", "--documents", str(handbook), "--claims", str(path))
    assert status == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_unknown_fail_on_status_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], handbook: Path, claims: Path
) -> None:
    status, _, err = run(
        capsys,
        "check",
        "--documents",
        str(handbook),
        "--claims",
        str(claims),
        "--fail-on",
        "bogus",
    )
    assert status == 2
    assert "unknown status bogus" in err


def test_real_process_prints_no_traceback(handbook: Path, tmp_path: Path) -> None:
    bad = write(tmp_path / "claims.csv", "claim_id,claim_text\n")
    command = [sys.executable, "-m", "quantcheck.worker", "check", "--documents", str(handbook)]
    result = subprocess.run(
        [*command, "--claims", str(bad)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("quantcheck: error: ")


ANSWER = {
    "schema_version": 1,
    "event_type": "answer",
    "answer_id": "A1",
    "answer_text": (
        "Here is what the handbook says. Log a reading every 15 seconds [1]. "
        "Below 20 percent charge, switch to a 45-second interval [S01]. "
        "Shut the logger down at 60 °C."
    ),
    "citations": {"1": "S01"},
    "retrieved_doc_ids": ["S01", "S04"],
    "kb_version": "local",
    "produced_at": "2026-06-01T12:00:00Z",
}


def test_answers_are_checked_sentence_by_sentence(
    capsys: pytest.CaptureFixture[str], handbook: Path, tmp_path: Path
) -> None:
    answers = write(tmp_path / "answers.jsonl", json.dumps(ANSWER) + "\n")
    out = tmp_path / "r.csv"
    status, stdout, err = run(
        capsys,
        "check",
        "--documents",
        str(handbook),
        "--claims",
        str(answers),
        "--out",
        str(out),
    )
    assert status == 0, err
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [(r["claim_id"], r["cited_doc_id"], r["status"]) for r in rows] == [
        ("A1:1", "", "needs_review_no_quantity"),  # no marker, no number: not a citation failure
        ("A1:2", "S01", "supported"),
        ("A1:3", "S01", "unsupported_quantity"),
        ("A1:4", "", "missing_citation"),  # a number without a marker
    ]
    assert rows[1]["claim_text"] == "Log a reading every 15 seconds."
    assert stdout.splitlines()[0] == "claims=4"
