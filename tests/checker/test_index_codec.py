"""A document's evidence index stored as bytes and read back is the index extraction
builds, object for object, for the sample and the development sets' documents; bytes
that are damaged, of another encoding or of another text are refused, never misread."""

from __future__ import annotations

import zlib
from collections.abc import Callable

import pytest

from quantcheck.checker.index import EvidenceIndex
from quantcheck.checker.index_codec import (
    MAGIC,
    StoredIndexError,
    decode_index,
    encode_index,
    encoding,
)
from quantcheck.quantities.categories import Scope
from quantcheck.quantities.evidence import extract_document
from tests.checker.graphs import assert_same_graph
from tests.checker.real_documents import development_documents, sample_documents

# Every this-many-th development document in the quick run; all of them in the slow one.
EVERY = 20


def indexed(text: str, scope: Scope = Scope.ALL) -> EvidenceIndex:
    return EvidenceIndex.build(extract_document(text, scope=scope), text)


def assert_round_trips(texts: list[str], scope: Scope = Scope.ALL) -> None:
    for text in texts:
        index = indexed(text, scope)
        back = decode_index(encode_index(index), text)
        assert_same_graph(index, back)
        assert back.text is text


def test_the_sample_and_some_development_documents_round_trip() -> None:
    texts = [*sample_documents().values(), *development_documents(every=EVERY).values()]
    assert len(texts) > 40
    assert_round_trips(texts)
    assert_round_trips(texts[:20], Scope.UNITS)


@pytest.mark.slow
def test_every_development_document_round_trips() -> None:
    texts = list(development_documents().values())
    assert len(texts) >= 800
    assert_round_trips(texts)


def test_the_stored_bytes_hold_no_copy_of_the_text() -> None:
    text = "The Model Q pump delivers 4.5 litres per minute. " * 200
    data = encode_index(indexed(text))
    assert data.startswith(MAGIC)
    assert "litres per minute. The Model" not in zlib.decompress(data[len(MAGIC) :]).decode()


TEXT = "Log a reading every 60 seconds; calibrate at 2.5 L/min."


def _flipped(data: bytes) -> bytes:
    damaged = bytearray(data)
    damaged[len(data) // 2] ^= 0x40
    return bytes(damaged)


def _foreign(data: bytes) -> bytes:
    body = zlib.decompress(data[len(MAGIC) :])
    return MAGIC + zlib.compress(body.replace(encoding().encode(), b"qcix1-0000000000000000"))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (_flipped, "damaged"),
        (lambda data: data[:-5], "damaged"),
        (lambda data: data[len(MAGIC) :], "header"),
        (lambda data: b"", "header"),
        (_foreign, "encoding"),
    ],
)
def test_damaged_or_foreign_bytes_are_refused(
    damage: Callable[[bytes], bytes], message: str
) -> None:
    data = encode_index(indexed(TEXT))
    with pytest.raises(StoredIndexError, match=message):
        decode_index(damage(data), TEXT)


def test_the_index_of_another_text_is_refused() -> None:
    with pytest.raises(StoredIndexError, match="another text"):
        decode_index(encode_index(indexed(TEXT)), TEXT + " More.")
