"""Reading document files: formats, row numbers, streaming and one test per kind of error."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from quantcheck.checker.model import sha256_text
from quantcheck.errors import InputError
from quantcheck.inputs import rows as rows_module
from quantcheck.inputs.documents import iter_documents, read_documents

CSV_HEADER = "doc_id,topic,text\n"


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


def error_of(path: Path) -> InputError:
    with pytest.raises(InputError) as caught:
        list(iter_documents(path))
    return caught.value


def test_sample_handbook(examples_dir: Path) -> None:
    docs = read_documents(examples_dir / "field_sensor_handbook.csv")
    assert len(docs) == 8
    s01 = docs["S01"]
    assert s01.topic == "battery logging"
    assert "every 15 seconds" in s01.text
    assert s01.sha256 == sha256_text(s01.text)


def test_csv_columns_any_order_case_extra_and_optional_topic(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "Text , extra, DOC_ID\nHello 5 m,x, A1 \nBye,y,B2\n")
    docs = list(iter_documents(path))
    assert [(d.doc_id, d.topic, d.text) for d in docs] == [
        ("A1", "", "Hello 5 m"),
        ("B2", "", "Bye"),
    ]


def test_csv_byte_order_mark_crlf_and_blank_rows(tmp_path: Path) -> None:
    # Spreadsheets export empty rows as blank lines or bare commas; both are skipped.
    content = b"\xef\xbb\xbfdoc_id,topic,text\r\nA,t,one\r\n\r\n,,\r\nB,t,two\r\n"
    path = write(tmp_path, "d.csv", content)
    assert [(d.doc_id, d.text) for d in iter_documents(path)] == [("A", "one"), ("B", "two")]
    path.write_bytes(content + b",t,three\r\n")
    assert error_of(path).row == 6


def test_text_is_kept_verbatim_with_embedded_newlines(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", CSV_HEADER + 'A,t,"  line one\nline two  "\n')
    (doc,) = iter_documents(path)
    assert doc.text == "  line one\nline two  "


def test_csv_rows_count_the_header_and_multiline_records_as_one(tmp_path: Path) -> None:
    content = CSV_HEADER + 'A,t,"first\nsecond\nthird"\nB,t,two\n,t,three\n'
    error = error_of(write(tmp_path, "d.csv", content))
    assert (error.row, error.column) == (4, "doc_id")
    assert "d.csv, row 4, column 'doc_id'" in str(error)


def test_jsonl_and_ndjson(tmp_path: Path) -> None:
    lines = [
        {"doc_id": "A", "text": "one", "topic": "t", "extra": 1},
        {"doc_id": "B", "text": "two"},
    ]
    content = "\n".join(json.dumps(line) for line in lines) + "\n\n"
    for name in ("d.jsonl", "d.ndjson"):
        docs = read_documents(write(tmp_path, name, content))
        assert [(d.doc_id, d.topic, d.text) for d in docs.values()] == [
            ("A", "t", "one"),
            ("B", "", "two"),
        ]


def test_jsonl_rows_are_line_numbers(tmp_path: Path) -> None:
    content = '{"doc_id": "A", "text": "one"}\n\n{"doc_id": "", "text": "x"}\n'
    error = error_of(write(tmp_path, "d.jsonl", content))
    assert (error.row, error.column) == (3, "doc_id")


def test_reading_is_lazy(tmp_path: Path) -> None:
    rows = "".join(f"D{i},t,text {i}\n" for i in range(1000))
    documents = iter_documents(write(tmp_path, "d.csv", CSV_HEADER + rows + ",t,bad\n"))
    assert [next(documents).doc_id for _ in range(1000)][-1] == "D999"
    with pytest.raises(InputError) as caught:
        next(documents)
    assert caught.value.row == 1002


@pytest.mark.parametrize("name", ["big.csv", "big.jsonl"])
def test_memory_stays_far_below_the_file_size(tmp_path: Path, name: str) -> None:
    text = "x" * 20_000
    path = tmp_path / name
    with path.open("w", encoding="utf-8") as out:
        if name.endswith(".csv"):
            out.write(CSV_HEADER)
        for i in range(1500):
            if name.endswith(".csv"):
                out.write(f"D{i},t,{text}\n")
            else:
                out.write(json.dumps({"doc_id": f"D{i}", "text": text}) + "\n")
    size = path.stat().st_size
    tracemalloc.start()
    try:
        count = sum(1 for _ in iter_documents(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 1500
    assert peak < size / 10, f"peak {peak} bytes for a {size}-byte file"


def test_progress_reports_bytes_up_to_the_file_size(tmp_path: Path) -> None:
    rows = "".join(f"D{i},t,{'y' * 1000}\n" for i in range(3000))
    path = write(tmp_path, "d.csv", CSV_HEADER + rows)
    offsets: list[int] = []
    assert sum(1 for _ in iter_documents(path, progress=offsets.append)) == 3000
    assert offsets == sorted(offsets)
    assert len(offsets) > 1
    assert offsets[-1] == path.stat().st_size


# One test per kind of problem; each names the file, and the row and column where known.


def test_missing_file(tmp_path: Path) -> None:
    error = error_of(tmp_path / "absent.csv")
    assert "absent.csv" in str(error)
    assert "No such file" in str(error)


def test_unreadable_file_is_a_directory(tmp_path: Path) -> None:
    (tmp_path / "dir.csv").mkdir()
    assert "cannot read" in str(error_of(tmp_path / "dir.csv"))


def test_unsupported_extension(tmp_path: Path) -> None:
    assert "unsupported file type '.txt'" in str(error_of(write(tmp_path, "d.txt", "")))


def test_empty_file(tmp_path: Path) -> None:
    assert "empty" in str(error_of(write(tmp_path, "d.csv", "")))


@pytest.mark.parametrize("column", ["doc_id", "text"])
def test_missing_column(tmp_path: Path, column: str) -> None:
    header = ",".join(c for c in ("doc_id", "topic", "text") if c != column)
    error = error_of(write(tmp_path, "d.csv", header + "\nA,t\n"))
    assert (error.row, error.column) == (1, column)
    assert "missing column" in str(error)


def test_repeated_column(tmp_path: Path) -> None:
    error = error_of(write(tmp_path, "d.csv", "doc_id,text,Text\nA,b,c\n"))
    assert (error.row, error.column) == (1, "text")


def test_empty_doc_id(tmp_path: Path) -> None:
    error = error_of(write(tmp_path, "d.csv", CSV_HEADER + "A,t,one\n   ,t,two\n"))
    assert (error.row, error.column) == (3, "doc_id")
    assert "doc_id is empty" in str(error)


def test_doc_id_with_a_control_character(tmp_path: Path) -> None:
    error = error_of(write(tmp_path, "d.jsonl", '{"doc_id": "A\\u0007", "text": "x"}\n'))
    assert (error.row, error.column) == (1, "doc_id")


def test_empty_text(tmp_path: Path) -> None:
    error = error_of(write(tmp_path, "d.csv", CSV_HEADER + "A,t, \t \n"))
    assert (error.row, error.column) == (2, "text")
    assert "text is empty" in str(error)


def test_text_with_nul(tmp_path: Path) -> None:
    error = error_of(write(tmp_path, "d.jsonl", '{"doc_id": "A", "text": "a\\u0000b"}\n'))
    assert (error.row, error.column) == (1, "text")


def test_duplicate_doc_id_names_the_first_row(tmp_path: Path) -> None:
    content = CSV_HEADER + "A,t,one\nB,t,two\nA,t,three\n"
    error = error_of(write(tmp_path, "d.csv", content))
    assert (error.row, error.column) == (4, "doc_id")
    assert "duplicate doc_id 'A', first used in row 2" in str(error)


def test_invalid_utf8_in_csv_names_row_and_column(tmp_path: Path) -> None:
    content = (CSV_HEADER + "A,t,one\nB,t,caf").encode() + b"\xe9 au lait\n"
    error = error_of(write(tmp_path, "d.csv", content))
    assert (error.row, error.column) == (3, "text")
    assert "invalid UTF-8" in str(error)


def test_invalid_utf8_in_jsonl(tmp_path: Path) -> None:
    content = b'{"doc_id": "A", "text": "one"}\n{"doc_id": "B", "text": "caf\xe9"}\n'
    error = error_of(write(tmp_path, "d.jsonl", content))
    assert (error.row, error.column) == (2, "text")
    assert "invalid UTF-8" in str(error)


def test_lone_surrogate_escape_in_json(tmp_path: Path) -> None:
    error = error_of(write(tmp_path, "d.jsonl", '{"doc_id": "A", "text": "x\\udc80"}\n'))
    assert (error.row, error.column) == (1, "text")


def test_malformed_json_line(tmp_path: Path) -> None:
    content = '{"doc_id": "A", "text": "one"}\n{"doc_id": "B", "text": \n'
    error = error_of(write(tmp_path, "d.jsonl", content))
    assert error.row == 2
    assert "malformed JSON" in str(error)


@pytest.mark.parametrize(
    ("line", "kind"), [('["A", "x"]', "an array"), ('"A"', "a string"), ("17", "a number")]
)
def test_json_value_not_an_object(tmp_path: Path, line: str, kind: str) -> None:
    error = error_of(write(tmp_path, "d.jsonl", line + "\n"))
    assert error.row == 1
    assert f"expected a JSON object, got {kind}" in str(error)


@pytest.mark.parametrize(
    ("fields", "column", "kind"),
    [
        ('"doc_id": 17, "text": "x"', "doc_id", "a number"),
        ('"doc_id": "A", "text": null', "text", "null"),
        ('"doc_id": "A", "text": "x", "topic": true', "topic", "a boolean"),
        ('"doc_id": "A", "text": ["x"]', "text", "an array"),
    ],
)
def test_json_field_not_a_string(tmp_path: Path, fields: str, column: str, kind: str) -> None:
    error = error_of(write(tmp_path, "d.jsonl", "{" + fields + "}\n"))
    assert (error.row, error.column) == (1, column)
    assert f"must be a string, got {kind}" in str(error)


def test_json_missing_field(tmp_path: Path) -> None:
    error = error_of(write(tmp_path, "d.jsonl", '{"doc_id": "A"}\n'))
    assert (error.row, error.column) == (1, "text")


def test_unclosed_quote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rows_module, "MAX_ROW_BYTES", 1000)
    content = CSV_HEADER + 'A,t,"never closed\n' + "more text\n" * 500
    error = error_of(write(tmp_path, "d.csv", content))
    assert error.row == 2


def test_overlong_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rows_module, "MAX_ROW_BYTES", 1000)
    content = '{"doc_id": "A", "text": "ok"}\n' + json.dumps({"doc_id": "B", "text": "z" * 2000})
    error = error_of(write(tmp_path, "d.jsonl", content + "\n"))
    assert error.row == 2
    assert "longer than 1000 bytes" in str(error)
