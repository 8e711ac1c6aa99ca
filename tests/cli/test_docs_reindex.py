"""``docs load`` stores each document's facts under the scope the workers read, and
``docs reindex`` makes them again for a version whose facts another checker version
made, on both store backends."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from quantcheck.worker.store import Indexer, open_store

from quantcheck.checker import Checker, CheckOptions
from quantcheck.cli.main import main
from quantcheck.inputs.documents import iter_documents
from quantcheck.quantities.categories import Scope


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def stamps(store_url: str, scope: Scope) -> set[str | None]:
    """The checker versions the facts of each handbook document were made by."""
    with open_store(store_url, facts_scope=scope.value) as store:
        found = store.get_documents("v1", [f"S0{n}" for n in range(1, 9)])
    assert len(found) == 8
    return {None if d.facts is None else d.facts.stamp.checker_version for d in found.values()}


def test_a_load_stores_facts_under_its_scope(
    capsys: pytest.CaptureFixture[str], store_url: str, examples_dir: Path
) -> None:
    handbook = str(examples_dir / "field_sensor_handbook.csv")
    status, out, err = run(
        capsys, "docs", "load", "--store", store_url, "--kb-version", "v1", "--scope", "units",
        handbook,
    )  # fmt: skip
    assert (status, err) == (0, "")
    assert out.startswith("v1: loaded, 8 documents")
    assert stamps(store_url, Scope.UNITS) == {Checker().facts_stamp.checker_version}
    assert stamps(store_url, Scope.ALL) == {None}


def test_reindex_replaces_facts_of_another_checker_version_once(
    capsys: pytest.CaptureFixture[str], store_url: str, examples_dir: Path
) -> None:
    checker = Checker(CheckOptions())
    older = Indexer(replace(checker.facts_stamp, checker_version="0.9.0"), checker.stored_facts)
    with open_store(store_url) as store:
        store.load_version("v1", iter_documents(examples_dir / "field_sensor_handbook.csv"), older)
    assert stamps(store_url, Scope.ALL) == {"0.9.0"}

    status, out, err = run(capsys, "docs", "reindex", "--store", store_url, "--kb-version", "v1")
    assert status == 0, err
    stamp = checker.facts_stamp
    assert out == (
        f"v1: indexed 8 of 8 texts without current facts, 0 failed (scope all, checker "
        f"{stamp.checker_version}, encoding {stamp.encoding})\n"
    )
    # Not a terminal: a line at the start, at each tenth, and at the end.
    assert err.splitlines()[0] == "reindexing v1: 0/8"
    assert err.splitlines()[-1] == "reindexing v1: 8/8"
    assert stamps(store_url, Scope.ALL) == {stamp.checker_version}

    status, out, _ = run(capsys, "docs", "reindex", "--store", store_url, "--kb-version", "v1")
    assert status == 0
    assert out.startswith("v1: indexed 0 of 0 texts without current facts")


def test_reindexing_an_unknown_version_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, examples_dir: Path
) -> None:
    store_url = f"sqlite:///{tmp_path / 'store.db'}"
    run(capsys, "docs", "load", "--store", store_url, "--kb-version", "v1",
        str(examples_dir / "field_sensor_handbook.csv"))  # fmt: skip
    status, out, err = run(capsys, "docs", "reindex", "--store", store_url, "--kb-version", "v9")
    assert (status, out) == (2, "")
    assert err == "quantcheck: error: unknown knowledge-base version 'v9'\n"
    status, _, err = run(capsys, "docs", "reindex", "--store", store_url)
    assert status == 2
    assert "knowledge-base version is required" in err
