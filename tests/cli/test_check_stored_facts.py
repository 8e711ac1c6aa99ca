"""``quantcheck check --store`` reads the facts ``docs load`` stored instead of extracting
the documents, and writes the same verdict events byte for byte as from a store that
holds no facts: over the sample and claims of every development set."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from quantcheck.worker.store import open_store

from quantcheck.checker.model import Document
from quantcheck.cli.main import main
from quantcheck.quantities.categories import Scope
from tests.checker.real_documents import (
    development_claims,
    development_documents,
    sample_claims,
    sample_documents,
)

CLAIM_COLUMNS = ("claim_id", "claim_text", "cited_doc_id", "retrieved_doc_ids")
# The one field that differs between two runs of the same claims.
CHECKED_AT = re.compile(rb'"checked_at":"[^"]*"')


def write_csv(path: Path, columns: tuple[str, ...], rows: list[dict[str, str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def verdicts(capsys: pytest.CaptureFixture[str], store_url: str, claims: Path, out: Path) -> bytes:
    status = main(
        ["check", "--store", store_url, "--kb-version", "v1", "--claims", str(claims),
         "--out", str(out), "--format", "jsonl"]
    )  # fmt: skip
    _, err = capsys.readouterr()
    assert status == 0, err
    return CHECKED_AT.sub(b'"checked_at":""', out.read_bytes())


def test_check_with_stored_facts_writes_the_same_verdicts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rows = [*sample_claims(), *development_claims(every=20)]
    texts = {**sample_documents(), **development_documents()}
    cited = {doc_id for row in rows for doc_id in row["cited_doc_id"].split("|") if doc_id}
    documents = [{"doc_id": d, "text": t} for d, t in texts.items() if d in cited]
    claims = write_csv(tmp_path / "claims.csv", CLAIM_COLUMNS, rows)
    docs = write_csv(tmp_path / "documents.csv", ("doc_id", "text"), documents)

    indexed = f"sqlite:///{tmp_path / 'indexed.db'}"
    assert main(["docs", "load", "--store", indexed, "--kb-version", "v1", str(docs)]) == 0
    plain = f"sqlite:///{tmp_path / 'plain.db'}"
    with open_store(plain) as store:
        store.load_version("v1", (Document(d["doc_id"], d["text"]) for d in documents))
    with open_store(indexed, facts_scope=Scope.ALL.value) as store:
        found = store.get_documents("v1", [d["doc_id"] for d in documents])
    assert len(found) == len(documents) > 50
    assert all(doc.facts is not None for doc in found.values())

    with_facts = verdicts(capsys, indexed, claims, tmp_path / "indexed.jsonl")
    extracted = verdicts(capsys, plain, claims, tmp_path / "plain.jsonl")
    assert len(with_facts.splitlines()) == len(rows)
    assert with_facts == extracted
