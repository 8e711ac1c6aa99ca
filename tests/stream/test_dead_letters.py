"""Dead letters carry the failed message unchanged, plus headers that explain it."""

from __future__ import annotations

from quantcheck.schemas import ADDED_HEADERS, read_dead_letter_headers
from quantcheck.worker.stream.dead_letters import dead_letter
from quantcheck.worker.stream.records import InputRecord

from quantcheck import __version__
from quantcheck.checker import CHECKER_VERSION

RECORD = InputRecord(
    topic="claims",
    partition=4,
    offset=1234,
    timestamp=1_717_243_200_000,
    key=b"C\xffkey",
    value=b"\x00\x01 not a claim",
    headers=(("trace-id", b"abc"), ("empty", None), ("quantcheck.error.kind", b"old")),
)


def test_key_value_and_original_headers_are_copied_byte_for_byte() -> None:
    letter = dead_letter(
        RECORD, topic="claims-dlq", kind="invalid_json", message="bad", group="workers"
    )
    assert letter.topic == "claims-dlq"
    assert letter.key == RECORD.key
    assert letter.value == RECORD.value
    assert letter.headers[: len(RECORD.headers)] == RECORD.headers


def test_added_headers_say_why_and_where_and_read_back() -> None:
    letter = dead_letter(
        RECORD,
        topic="claims-dlq",
        kind="unknown_citation",
        message="S09 is not in the knowledge base",
        group="workers",
        claim_id="C13",
        answer_id="A01",
    )
    added = [name for name, _ in letter.headers[len(RECORD.headers) :]]
    assert added == list(ADDED_HEADERS)
    info = read_dead_letter_headers(letter.headers)
    assert info.kind == "unknown_citation"
    assert info.message == "S09 is not in the knowledge base"
    assert (info.topic, info.partition, info.offset) == ("claims", 4, 1234)
    assert info.timestamp == RECORD.timestamp
    assert info.group == "workers"
    assert (info.worker_version, info.checker_version) == (__version__, CHECKER_VERSION)
    assert (info.claim_id, info.answer_id) == ("C13", "A01")
    # Even a header that looks like an earlier dead letter's stays with the originals.
    assert info.original_headers == RECORD.headers


def test_without_a_claim_or_answer_id_the_headers_are_left_out() -> None:
    letter = dead_letter(RECORD, topic="dlq", kind="oversize", message="too big", group="g")
    names = {name for name, _ in letter.headers}
    assert not names & {"quantcheck.claim.id", "quantcheck.answer.id"}
    info = read_dead_letter_headers(letter.headers)
    assert (info.claim_id, info.answer_id) == (None, None)
