"""``quantcheck docs``: load, list, show and diff, on both store backends."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest
from quantcheck.worker.store import open_store

from quantcheck.cli.main import main
from tests.support.postgres import ROOT


@pytest.fixture
def handbook(examples_dir: Path) -> Path:
    return examples_dir / "field_sensor_handbook.csv"


@pytest.fixture
def handbook_v2(handbook: Path, tmp_path: Path) -> Path:
    """The handbook with S01 logging every 30 seconds instead of every 15."""
    with handbook.open(encoding="utf-8", newline="") as source:
        rows = list(csv.DictReader(source))
    for row in rows:
        if row["doc_id"] == "S01":
            assert "15 seconds" in row["text"]
            row["text"] = row["text"].replace("15 seconds", "30 seconds")
    path = tmp_path / "handbook_v2.csv"
    with path.open("w", encoding="utf-8", newline="") as target:
        writer = csv.DictWriter(target, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_issue_scenario_diff_lists_s01_as_changed(
    capsys: pytest.CaptureFixture[str], store_url: str, handbook: Path, handbook_v2: Path
) -> None:
    status, out, err = run(
        capsys, "docs", "load", "--store", store_url, "--kb-version", "v1", str(handbook)
    )
    assert status == 0, err
    assert out.startswith("v1: loaded, 8 documents, manifest sha256 ")
    assert err == ""  # no progress bar when stderr is not a terminal
    status, out, err = run(
        capsys, "docs", "load", "--store", store_url, "--kb-version", "v2", str(handbook_v2)
    )
    assert status == 0, err
    status, out, err = run(capsys, "docs", "diff", "--store", store_url, "v1", "v2")
    assert status == 0, err
    assert out.splitlines() == ["changed S01", "v1 -> v2: 0 added, 0 removed, 1 changed"]


def test_identical_reload_says_unchanged(
    capsys: pytest.CaptureFixture[str], store_url: str, handbook: Path
) -> None:
    args = ("docs", "load", "--store", store_url, "--kb-version", "v1", str(handbook))
    first = run(capsys, *args)
    status, out, _ = run(capsys, *args)
    assert status == 0
    assert out == first[1].replace("loaded", "unchanged")


def test_conflicting_reload_exits_2_and_keeps_v1(
    capsys: pytest.CaptureFixture[str], store_url: str, handbook: Path, handbook_v2: Path
) -> None:
    run(capsys, "docs", "load", "--store", store_url, "--kb-version", "v1", str(handbook))
    status, out, err = run(
        capsys, "docs", "load", "--store", store_url, "--kb-version", "v1", str(handbook_v2)
    )
    assert status == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert "'v1' already exists with different content (1 changed: S01)" in err
    status, out, _ = run(capsys, "docs", "show", "--store", store_url, "--kb-version", "v1", "S01")
    assert status == 0
    assert "every 15 seconds" in out


def test_list_plain_text(
    capsys: pytest.CaptureFixture[str], store_url: str, handbook: Path, handbook_v2: Path
) -> None:
    with open_store(store_url):
        pass  # an empty store
    status, out, _ = run(capsys, "docs", "list", "--store", store_url)
    assert status == 0
    assert out.split() == ["KB_VERSION", "DOCUMENTS", "LOADED_AT", "MANIFEST_SHA256"]
    run(capsys, "docs", "load", "--store", store_url, "--kb-version", "v1", str(handbook))
    run(capsys, "docs", "load", "--store", store_url, "--kb-version", "v2", str(handbook_v2))
    status, out, _ = run(capsys, "docs", "list", "--store", store_url)
    lines = out.splitlines()
    assert [line.split()[:2] for line in lines[1:]] == [["v1", "8"], ["v2", "8"]]
    with open_store(store_url) as store:
        hashes = [v.manifest_sha256 for v in store.list_versions()]
    assert [line.split()[3] for line in lines[1:]] == hashes
    assert len({line.index(line.split()[3]) for line in lines}) == 1  # aligned columns


def test_show(capsys: pytest.CaptureFixture[str], store_url: str, handbook: Path) -> None:
    run(capsys, "docs", "load", "--store", store_url, "--kb-version", "v1", str(handbook))
    status, out, _ = run(capsys, "docs", "show", "--store", store_url, "--kb-version", "v1", "S02")
    assert status == 0
    head, text = out.split("\n\n", 1)
    assert "doc_id: S02" in head
    assert "topic: flow calibration" in head
    assert text.startswith("Calibrate the flow meter at 2.5 liters per minute")


@pytest.mark.parametrize(
    "case",
    [
        (("docs", "show", "--kb-version", "v1", "S99"), "has no document 'S99'"),
        (("docs", "show", "--kb-version", "v9", "S01"), "unknown knowledge-base version 'v9'"),
        (("docs", "show", "S01"), "knowledge-base version is required"),
        (("docs", "diff", "v1", "v9"), "unknown knowledge-base version 'v9'"),
    ],
)
def test_lookup_mistakes_exit_2(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    handbook: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: tuple[tuple[str, ...], str],
) -> None:
    argv, message = case
    monkeypatch.delenv("QUANTCHECK_KB_VERSION", raising=False)
    url = f"sqlite:///{tmp_path / 'kb.db'}"
    run(capsys, "docs", "load", "--store", url, "--kb-version", "v1", str(handbook))
    status, _, err = run(capsys, *argv, "--store", url)
    assert status == 2
    assert message in err


def test_a_bad_file_writes_nothing(
    capsys: pytest.CaptureFixture[str], store_url: str, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("doc_id,topic,text\nA,t,one\nB,t,\n", encoding="utf-8")
    status, _, err = run(
        capsys, "docs", "load", "--store", store_url, "--kb-version", "v1", str(bad)
    )
    assert status == 2
    assert "bad.csv, row 3, column 'text': text is empty" in err
    with open_store(store_url) as store:
        assert store.list_versions() == []


def test_a_document_whose_facts_pass_the_bound_is_refused_by_name_and_nothing_is_stored(
    capsys: pytest.CaptureFixture[str], store_url: str, tmp_path: Path, handbook: Path
) -> None:
    dense = tmp_path / "dense.csv"
    with handbook.open(encoding="utf-8", newline="") as source:
        rows = list(csv.DictReader(source))
    rows.insert(3, {**rows[0], "doc_id": "TABLE-7", "text": "1:" * 50_000})
    with dense.open("w", encoding="utf-8", newline="") as target:
        writer = csv.DictWriter(target, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    load = ("docs", "load", "--store", store_url, "--kb-version", "v1")
    status, out, err = run(capsys, *load, "--document-facts-mib", "16", str(dense))
    assert status == 2
    assert out == ""
    assert err.strip().splitlines() == [
        "quantcheck: error: document 'TABLE-7' for version 'v1': its facts cannot be indexed:"
        " TooManyFacts: the document yields more facts than the bound of 16 MiB on one"
        " document's facts allows"
    ]
    with open_store(store_url) as store:
        assert store.list_versions() == []
    status, out, err = run(capsys, *load, "--document-facts-mib", "256", str(dense))
    assert status == 0, err
    assert out.startswith("v1: loaded, 9 documents")


def test_a_missing_file_creates_no_database(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'never.db'}"
    missing = tmp_path / "missing.csv"
    status, _, err = run(capsys, "docs", "load", "--store", url, "--kb-version", "v1", str(missing))
    assert status == 2
    assert "missing.csv" in err
    assert not (tmp_path / "never.db").exists()


def test_settings_come_from_the_environment(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    handbook: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("QUANTCHECK_STORE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    monkeypatch.setenv("QUANTCHECK_KB_VERSION", "from-env")
    status, out, _ = run(capsys, "docs", "load", str(handbook))
    assert status == 0
    assert out.startswith("from-env: loaded")
    assert (tmp_path / "env.db").exists()


def test_unsupported_store_url_masks_the_password(
    capsys: pytest.CaptureFixture[str], handbook: Path
) -> None:
    status, _, err = run(capsys, "docs", "list", "--store", "mysql://admin:topsecret@db/kb")
    assert status == 2
    assert "mysql://admin:***@db/kb" in err
    assert "topsecret" not in err


def test_unreachable_server_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(
        capsys, "docs", "list", "--store", "postgresql://postgres@127.0.0.1:1/quantcheck"
    )
    assert status == 2
    assert len(err.strip().splitlines()) == 1
    assert "unavailable" in err


def test_command_line_entry_point(tmp_path: Path, handbook: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    command = [sys.executable, "-m", "quantcheck.worker", "docs"]
    loaded = subprocess.run(
        [*command, "load", "--store", url, "--kb-version", "v1", str(handbook)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert loaded.returncode == 0, loaded.stderr
    again = subprocess.run(
        [*command, "list", "--store", url], capture_output=True, text=True, env=env, check=False
    )
    assert again.returncode == 0
    assert again.stdout.splitlines()[1].split()[:2] == ["v1", "8"]
