"""Dead-letter headers: originals kept byte for byte, added headers readable back."""

from __future__ import annotations

from typing import Any

import pytest
from quantcheck.schemas import (
    ADDED_HEADERS,
    CLAIM_DECODE_KINDS,
    DEAD_LETTER_KINDS,
    HEADER_ANSWER_ID,
    HEADER_CLAIM_ID,
    HEADER_ERROR_KIND,
    HEADER_ERROR_MESSAGE,
    HEADER_PREFIX,
    HEADER_SOURCE_OFFSET,
    REQUIRED_HEADERS,
    DeadLetterHeaderError,
    Header,
    dead_letter_headers,
    read_dead_letter_headers,
)
from quantcheck.schemas.limits import MAX_ERROR_MESSAGE_CHARS, MAX_ID_CHARS

ORIGINAL: list[Header] = [
    ("traceparent", b"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
    ("binary", b"\x00\xff\xfe"),
    ("empty", b""),
    ("null", None),
    ("traceparent", b"duplicate names are kept too"),
]

ARGS: dict[str, Any] = {
    "kind": "schema_violation",
    "message": "claim_id: String should have at least 1 character",
    "topic": "claims",
    "partition": 3,
    "offset": 1207,
    "timestamp": 1717243200000,
    "group": "quantcheck",
    "worker_version": "0.1.0",
    "checker_version": "1",
}


def test_original_headers_come_first_unchanged() -> None:
    headers = dead_letter_headers(ORIGINAL, **ARGS)
    assert headers[: len(ORIGINAL)] == ORIGINAL
    added = headers[len(ORIGINAL) :]
    assert [name for name, _ in added] == list(REQUIRED_HEADERS)
    assert all(name.startswith(HEADER_PREFIX) for name in ADDED_HEADERS)


def test_added_values_are_utf8_text() -> None:
    headers = dict(dead_letter_headers([], **ARGS, claim_id="C-ü"))
    assert headers[HEADER_ERROR_KIND] == b"schema_violation"
    assert headers[HEADER_SOURCE_OFFSET] == b"1207"
    assert headers[HEADER_CLAIM_ID] == "C-ü".encode()


def test_round_trip() -> None:
    info = read_dead_letter_headers(dead_letter_headers(ORIGINAL, **ARGS, claim_id="C17"))
    assert info.kind == "schema_violation"
    assert info.message == ARGS["message"]
    assert (info.topic, info.partition, info.offset) == ("claims", 3, 1207)
    assert info.timestamp == 1717243200000
    assert (info.group, info.worker_version, info.checker_version) == ("quantcheck", "0.1.0", "1")
    assert info.claim_id == "C17"
    assert info.original_headers == tuple(ORIGINAL)


def test_claim_id_is_optional() -> None:
    headers = dead_letter_headers([], **ARGS)
    assert HEADER_CLAIM_ID not in dict(headers)
    assert read_dead_letter_headers(headers).claim_id is None


def test_an_answer_sentence_names_its_claim_and_its_answer() -> None:
    headers = dead_letter_headers(ORIGINAL, **ARGS, claim_id="A01:3", answer_id="A01")
    assert [name for name, _ in headers[len(ORIGINAL) :]] == list(ADDED_HEADERS)
    info = read_dead_letter_headers(headers)
    assert (info.claim_id, info.answer_id) == ("A01:3", "A01")
    assert info.original_headers == tuple(ORIGINAL)


def test_a_whole_answer_names_only_its_answer() -> None:
    headers = dead_letter_headers([], **ARGS, answer_id="A01")
    assert dict(headers)[HEADER_ANSWER_ID] == b"A01"
    assert HEADER_CLAIM_ID not in dict(headers)
    info = read_dead_letter_headers(headers)
    assert (info.claim_id, info.answer_id) == (None, "A01")


def test_missing_timestamp_round_trips() -> None:
    info = read_dead_letter_headers(dead_letter_headers([], **(ARGS | {"timestamp": -1})))
    assert info.timestamp == -1


def test_dead_lettered_twice_keeps_the_first_as_original() -> None:
    first = dead_letter_headers(ORIGINAL, **ARGS)
    second = dead_letter_headers(first, **(ARGS | {"kind": "oversize", "offset": 9}))
    info = read_dead_letter_headers(second)
    assert info.kind == "oversize"
    assert info.offset == 9
    assert info.original_headers == tuple(first)
    assert read_dead_letter_headers(info.original_headers).offset == 1207


def test_message_is_one_bounded_line() -> None:
    message = "first line\nsecond line\u2028" + "x" * 10_000
    value = dict(dead_letter_headers([], **(ARGS | {"message": message})))[HEADER_ERROR_MESSAGE]
    assert value is not None
    text = value.decode("utf-8")
    assert text.startswith("first line\\nsecond line\\u2028x")
    assert len(text) == MAX_ERROR_MESSAGE_CHARS
    assert text.endswith("...")


def test_claim_id_from_a_bad_message_is_bounded() -> None:
    value = dict(dead_letter_headers([], **ARGS, claim_id="c" * 5000 + "\ud800"))[HEADER_CLAIM_ID]
    assert value is not None
    assert len(value.decode("utf-8")) == MAX_ID_CHARS


def test_unencodable_text_does_not_stop_a_dead_letter() -> None:
    headers = dict(dead_letter_headers([], **(ARGS | {"group": "g\ud800"})))
    assert headers["quantcheck.consumer.group"] == b"g\\ud800"


def test_every_kind_is_accepted_and_decode_kinds_are_among_them() -> None:
    assert set(CLAIM_DECODE_KINDS) <= set(DEAD_LETTER_KINDS)
    assert len(DEAD_LETTER_KINDS) == 12
    for kind in DEAD_LETTER_KINDS:
        assert (
            read_dead_letter_headers(dead_letter_headers([], **(ARGS | {"kind": kind}))).kind
            == kind
        )


def test_unknown_kind_is_refused_when_writing() -> None:
    with pytest.raises(ValueError, match="unknown dead-letter kind"):
        dead_letter_headers([], **(ARGS | {"kind": "bogus"}))


def _valid() -> list[Header]:
    return dead_letter_headers([("a", b"1")], **ARGS, claim_id="C1")


def _replace(name: str, value: bytes | None) -> list[Header]:
    return [(n, value if n == name else v) for n, v in _valid()]


BROKEN: list[tuple[str, list[Header], str]] = [
    ("no headers", [], "not a dead letter"),
    ("only originals", [("a", b"1")], "not a dead letter"),
    ("missing header", [h for h in _valid() if h[0] != HEADER_SOURCE_OFFSET], "missing header"),
    ("repeated header", [*_valid(), (HEADER_CLAIM_ID, b"C2")], "appears twice"),
    ("foreign header after", [*_valid(), ("x", b"1")], "unexpected header"),
    ("null value", _replace(HEADER_ERROR_MESSAGE, None), "has no value"),
    ("not UTF-8", _replace(HEADER_ERROR_MESSAGE, b"\xff"), "not UTF-8"),
    ("not an integer", _replace(HEADER_SOURCE_OFFSET, b"12a"), "not an integer"),
    ("signed offset", _replace(HEADER_SOURCE_OFFSET, b"+12"), "not an integer"),
    ("unicode digits", _replace(HEADER_SOURCE_OFFSET, "١٢".encode()), "not an integer"),
    ("unknown kind", _replace(HEADER_ERROR_KIND, b"bogus"), "unknown dead-letter kind"),
]


@pytest.mark.parametrize(
    ("headers", "fragment"), [(h, f) for _, h, f in BROKEN], ids=[n for n, _, _ in BROKEN]
)
def test_broken_headers_are_refused(headers: list[Header], fragment: str) -> None:
    with pytest.raises(DeadLetterHeaderError, match=fragment):
        read_dead_letter_headers(headers)
