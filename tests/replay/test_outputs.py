"""The --out rows: CSV and JSON Lines, the verdict embedded as published."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from quantcheck.worker.replay.compare import Coordinates, Decision, ReplayedClaim, Transition
from quantcheck.worker.replay.outputs import COLUMNS, output_format, rows_file

from quantcheck.errors import UsageError

VERDICT = b'{"schema_version":1,"claim_id":"C1","status":"supported","reason":"ok \\u00e9"}'
CHANGED = ReplayedClaim(
    claim_id="C1",
    read_at=Coordinates("claims-dlq", 1, 40),
    source=Coordinates("claims", 2, 7),
    source_timestamp=1_700_000_000_000,
    recorded=Decision("unsupported_quantity", 'said "45"', verdict=True),
    new=Decision("supported", "ok, é", verdict=True),
    transition=Transition.CHANGED,
    verdict_json=VERDICT,
)
NO_CLAIM = ReplayedClaim(
    claim_id=None,
    read_at=Coordinates("claims", 0, 3),
    source=Coordinates("claims", 0, 3),
    source_timestamp=-1,
    recorded=None,
    new=Decision("invalid_json", "invalid JSON", verdict=False),
    transition=Transition.UNCHANGED,
)


def test_csv_rows(tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    with rows_file(str(path)) as rows:
        rows.write(CHANGED)
        rows.write(NO_CLAIM)
    with path.open(encoding="utf-8", newline="") as handle:
        read = list(csv.reader(handle))
    assert tuple(read[0]) == COLUMNS
    assert read[1] == [
        "C1", "", "claims-dlq", "1", "40", "claims", "2", "7", "1700000000000",
        "unsupported_quantity", 'said "45"', "supported", "ok, é",
        "unsupported_quantity -> supported",
    ]  # fmt: skip
    assert read[2][0] == ""
    assert read[2][9:11] == ["", ""]
    assert read[2][11:] == ["invalid_json", "invalid JSON", "unchanged"]


def test_jsonl_rows_carry_the_verdict_bytes_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    with rows_file(str(path)) as rows:
        rows.write(CHANGED)
        rows.write(NO_CLAIM)
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b""
    assert lines[0].endswith(b',"verdict":' + VERDICT + b"}")
    first, second = (json.loads(line) for line in lines[:2])
    assert list(first) == [*COLUMNS, "verdict"]
    assert first["transition"] == "unsupported_quantity -> supported"
    assert first["verdict"]["reason"] == "ok é"
    assert (second["claim_id"], second["recorded_status"], second["verdict"]) == (None, None, None)


def test_only_csv_and_jsonl_are_written() -> None:
    assert output_format("a/B.JSONL") == "jsonl"
    with pytest.raises(UsageError, match=r"--out 'rows\.json': the file name must end in"):
        output_format("rows.json")
