"""A document's evidence index as bytes: what is stored beside the text at load time and
read back by every checker instead of extracting the document again.

The whole :class:`~quantcheck.checker.index.EvidenceIndex` is stored, not only the
extraction: building the index (every written number, code and score of the text) costs
as much again as extracting the facts, and a cold checker should pay for neither. The
text itself is left out; the caller holds it.

Layout: ``MAGIC``, then zlib-compressed JSON of the tables of
:mod:`.dataclass_codec` with the length of the text the index was built from. zlib's
checksum refuses damaged bytes. Pure: no I/O.
"""

from __future__ import annotations

import functools
import gc
import json
import zlib
from dataclasses import replace
from typing import Any

from quantcheck.checker.dataclass_codec import CodecError, Plan
from quantcheck.checker.index import EvidenceIndex
from quantcheck.checker.occurrences import Occurrences

MAGIC = b"qcix1\n"
_LEVEL = 6


class StoredIndexError(ValueError):
    """Stored bytes that are not an evidence index of the given text under this encoding."""


@functools.cache
def _plan() -> Plan:
    return Plan(EvidenceIndex)


def encoding() -> str:
    """The name of this encoding of the index's classes as they are now: stored facts
    under another name were written by other code and are extracted again instead."""
    return f"{MAGIC.decode().strip()}-{_plan().fingerprint}"


def encode_index(index: EvidenceIndex) -> bytes:
    """``index`` as bytes, without its text."""
    tables = _plan().encode(index, text=index.text)
    payload: dict[str, Any] = {"encoding": encoding(), "text_length": len(index.text), **tables}
    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
    return MAGIC + zlib.compress(body, _LEVEL)


def decode_index(data: bytes, text: str) -> EvidenceIndex:
    """The index ``data`` (from :func:`encode_index`) holds for ``text``; raises
    :class:`StoredIndexError` when it holds none."""
    if not data.startswith(MAGIC):
        raise StoredIndexError("stored facts do not start with the index header")
    try:
        payload = json.loads(zlib.decompress(data[len(MAGIC) :]))
    except (zlib.error, ValueError) as exc:
        raise StoredIndexError(f"stored facts are damaged: {exc}") from None
    if not isinstance(payload, dict):
        raise StoredIndexError("stored facts are not an index")
    if payload.get("encoding") != encoding():
        raise StoredIndexError(f"stored facts are in encoding {payload.get('encoding')!r}")
    if payload.get("text_length") != len(text):
        raise StoredIndexError("stored facts were built from another text")
    # Every object decoded here lives as long as the index, and none is part of a cycle:
    # the collector, run every few hundred allocations, would walk them again and again
    # for nothing (it costs more than the decoding itself on a large document).
    collecting = gc.isenabled()
    gc.disable()
    try:
        index = _plan().decode(payload, text=text)
    except CodecError as exc:
        raise StoredIndexError(str(exc)) from None
    finally:
        if collecting:
            gc.enable()
    assert isinstance(index, EvidenceIndex)
    # The numbers a document writes are held as arrays, not one object each, as a
    # document extracted here would hold them.
    numbers = sorted(
        (number for found in index.by_value.values() for number in found),
        key=lambda number: number.start,
    )
    return replace(index, by_value=Occurrences(numbers))
