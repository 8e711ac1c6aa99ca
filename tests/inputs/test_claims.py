"""Reading claim files: a file of answers may leave ``event_type`` out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quantcheck.errors import InputError
from quantcheck.inputs.claims import AnswerRow, iter_claims

ANSWER = {
    "schema_version": 1,
    "answer_id": "A1",
    "answer_text": "Log a reading every 15 seconds [1].",
    "citations": {"1": "S01"},
    "retrieved_doc_ids": ["S01"],
    "kb_version": "v1",
    "produced_at": "2026-06-01T12:00:00Z",
}


def write_lines(path: Path, *documents: object) -> Path:
    path.write_text("".join(json.dumps(d) + "\n" for d in documents), encoding="utf-8")
    return path


def test_a_file_of_answers_needs_no_event_type(tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "answers.jsonl",
        ANSWER,
        {**ANSWER, "answer_id": "A2", "event_type": "answer"},
    )
    rows = list(iter_claims(path, answers=True))
    assert [type(row) for row in rows] == [AnswerRow, AnswerRow]
    assert [row.event.answer_id for row in rows] == ["A1", "A2"]
    assert {row.event.event_type for row in rows} == {"answer"}


def test_elsewhere_a_line_without_event_type_is_a_claim(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "events.jsonl", ANSWER)
    with pytest.raises(InputError, match=r"row 1: .*claim_id"):
        list(iter_claims(path))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({**ANSWER, "event_type": "claim"}, "event_type"),
        ({"schema_version": 1, "claim_id": "C1"}, "answer_id"),
    ],
)
def test_a_line_that_is_no_answer_is_refused_in_a_file_of_answers(
    tmp_path: Path, line: dict[str, object], message: str
) -> None:
    path = write_lines(tmp_path / "answers.jsonl", ANSWER, line)
    with pytest.raises(InputError, match=rf"answers.jsonl, row 2: .*{message}"):
        list(iter_claims(path, answers=True))


def test_a_file_of_answers_is_json_lines(tmp_path: Path) -> None:
    path = tmp_path / "answers.csv"
    path.write_text("claim_id\n", encoding="utf-8")
    with pytest.raises(InputError, match="a file of answers is JSON Lines"):
        list(iter_claims(path, answers=True))
