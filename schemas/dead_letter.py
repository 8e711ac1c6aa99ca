"""The dead-letter contract of ``claims-dlq``.

A dead letter is the message of the claims topic exactly as it was read, key, value and
headers byte for byte, with headers added after the original ones to say why and where it
failed. For an answer event that is the whole answer, even when only one of its sentences
failed: the headers name that sentence's claim ID and the answer ID.
Replay reads those headers back with :func:`read_dead_letter_headers` to find the
original headers and the message's source.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal, get_args

from quantcheck.schemas._common import one_line
from quantcheck.schemas.limits import MAX_ERROR_MESSAGE_CHARS, MAX_ID_CHARS

HEADER_PREFIX: Final = "quantcheck."
"""Prefix of every header a dead letter adds."""

HEADER_ERROR_KIND: Final = "quantcheck.error.kind"
"""Why the message was dead-lettered: one of :data:`DEAD_LETTER_KINDS`. Always the first
added header, which is how the added headers are told apart from the original ones."""
HEADER_ERROR_MESSAGE: Final = "quantcheck.error.message"
"""The reason in one line of at most ``MAX_ERROR_MESSAGE_CHARS`` characters."""
HEADER_SOURCE_TOPIC: Final = "quantcheck.source.topic"
"""Topic the message was read from."""
HEADER_SOURCE_PARTITION: Final = "quantcheck.source.partition"
"""Partition the message was read from, as decimal digits."""
HEADER_SOURCE_OFFSET: Final = "quantcheck.source.offset"
"""Offset of the message, as decimal digits."""
HEADER_SOURCE_TIMESTAMP: Final = "quantcheck.source.timestamp"
"""Timestamp of the message in milliseconds since the Unix epoch, as decimal digits (-1
when it had none)."""
HEADER_CONSUMER_GROUP: Final = "quantcheck.consumer.group"
"""Consumer group of the worker that dead-lettered the message."""
HEADER_WORKER_VERSION: Final = "quantcheck.worker.version"
"""Version of that worker."""
HEADER_CHECKER_VERSION: Final = "quantcheck.checker.version"
"""Version of the checker in that worker."""
HEADER_CLAIM_ID: Final = "quantcheck.claim.id"
"""The claim's ID, present only when the message could be read far enough to know it. For
an answer event, the ID ``<answer_id>:<n>`` of the sentence that failed, present only when
one sentence is the reason (a citation gate); the whole answer has no claim ID."""
HEADER_ANSWER_ID: Final = "quantcheck.answer.id"
"""The answer ID of an answer event, present when the message could be read far enough to
know it; never on a claim event's dead letter."""

ADDED_HEADERS: Final = (
    HEADER_ERROR_KIND,
    HEADER_ERROR_MESSAGE,
    HEADER_SOURCE_TOPIC,
    HEADER_SOURCE_PARTITION,
    HEADER_SOURCE_OFFSET,
    HEADER_SOURCE_TIMESTAMP,
    HEADER_CONSUMER_GROUP,
    HEADER_WORKER_VERSION,
    HEADER_CHECKER_VERSION,
    HEADER_CLAIM_ID,
    HEADER_ANSWER_ID,
)
"""Every header a dead letter may add, in the order it adds them."""

REQUIRED_HEADERS: Final = ADDED_HEADERS[:-2]
"""The headers every dead letter has; the claim and answer IDs follow when known."""

DeadLetterKind = Literal[
    "invalid_utf8",
    "invalid_json",
    "schema_violation",
    "unsupported_schema_version",
    "oversize",
    "unknown_kb_version",
    "missing_citation",
    "unknown_citation",
    "citation_not_retrieved",
    "check_failed",
    "verdict_too_large",
    "verdict_refused",
]
"""Why a message was dead-lettered: it could not be read (the four claim decode kinds and
``oversize``), names a knowledge-base version the store does not have, failed the citation
gates or the check, or its verdict was refused by the verdicts topic: larger than the
topic's ``max.message.bytes`` (``verdict_too_large``) or invalid for it
(``verdict_refused``)."""

DEAD_LETTER_KINDS: Final[tuple[DeadLetterKind, ...]] = get_args(DeadLetterKind)

Header = tuple[str, bytes | None]
"""A Kafka record header: a name and a value, which Kafka allows to be null."""

_INTEGER = re.compile(r"-?[0-9]{1,19}")


class DeadLetterHeaderError(ValueError):
    """Headers that do not describe a dead letter written by :func:`dead_letter_headers`."""


@dataclass(frozen=True, slots=True)
class DeadLetterInfo:
    """What a dead letter's added headers say, and the headers the message had before."""

    kind: DeadLetterKind
    message: str
    topic: str
    partition: int
    offset: int
    timestamp: int
    group: str
    worker_version: str
    checker_version: str
    claim_id: str | None
    answer_id: str | None
    original_headers: tuple[Header, ...]


def dead_letter_headers(
    original_headers: Iterable[Header],
    *,
    kind: DeadLetterKind,
    message: str,
    topic: str,
    partition: int,
    offset: int,
    timestamp: int,
    group: str,
    worker_version: str,
    checker_version: str,
    claim_id: str | None = None,
    answer_id: str | None = None,
) -> list[Header]:
    """The headers of a dead letter: the original ones unchanged and in order, then the
    ``quantcheck.*`` headers in :data:`ADDED_HEADERS` order, values UTF-8 encoded.

    ``message``, ``claim_id`` and ``answer_id`` are made one line and cut to
    ``MAX_ERROR_MESSAGE_CHARS`` and ``MAX_ID_CHARS`` characters, as they may come from the
    failing input.
    """
    if kind not in DEAD_LETTER_KINDS:
        raise ValueError(f"unknown dead-letter kind {kind!r}")
    added: list[tuple[str, str]] = [
        (HEADER_ERROR_KIND, kind),
        (HEADER_ERROR_MESSAGE, one_line(message, MAX_ERROR_MESSAGE_CHARS)),
        (HEADER_SOURCE_TOPIC, topic),
        (HEADER_SOURCE_PARTITION, str(partition)),
        (HEADER_SOURCE_OFFSET, str(offset)),
        (HEADER_SOURCE_TIMESTAMP, str(timestamp)),
        (HEADER_CONSUMER_GROUP, group),
        (HEADER_WORKER_VERSION, worker_version),
        (HEADER_CHECKER_VERSION, checker_version),
    ]
    if claim_id is not None:
        added.append((HEADER_CLAIM_ID, one_line(claim_id, MAX_ID_CHARS)))
    if answer_id is not None:
        added.append((HEADER_ANSWER_ID, one_line(answer_id, MAX_ID_CHARS)))
    # backslashreplace: a string that cannot be UTF-8 (an unpaired surrogate) must not
    # stop a dead letter from being written.
    return [
        *original_headers,
        *((name, value.encode("utf-8", "backslashreplace")) for name, value in added),
    ]


def read_dead_letter_headers(headers: Iterable[Header]) -> DeadLetterInfo:
    """Parse the headers written by :func:`dead_letter_headers` back.

    The added headers start at the last ``quantcheck.error.kind`` header; everything
    before it is original, even ``quantcheck.*`` headers from an earlier dead-lettering.
    Raises :class:`DeadLetterHeaderError` when a header is missing, repeated, unknown or
    malformed.
    """
    headers = list(headers)
    starts = [i for i, (name, _) in enumerate(headers) if name == HEADER_ERROR_KIND]
    if not starts:
        raise DeadLetterHeaderError(f"not a dead letter: no {HEADER_ERROR_KIND} header")
    first_added = starts[-1]
    values: dict[str, str] = {}
    for name, raw in headers[first_added:]:
        if name not in ADDED_HEADERS:
            raise DeadLetterHeaderError(f"unexpected header {one_line(name, 100)!r}")
        if name in values:
            raise DeadLetterHeaderError(f"header {name} appears twice")
        if raw is None:
            raise DeadLetterHeaderError(f"header {name} has no value")
        try:
            values[name] = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise DeadLetterHeaderError(f"header {name} is not UTF-8") from None
    missing = [name for name in REQUIRED_HEADERS if name not in values]
    if missing:
        raise DeadLetterHeaderError(f"missing header(s): {', '.join(missing)}")
    return DeadLetterInfo(
        kind=_as_kind(values[HEADER_ERROR_KIND]),
        message=values[HEADER_ERROR_MESSAGE],
        topic=values[HEADER_SOURCE_TOPIC],
        partition=_integer(values, HEADER_SOURCE_PARTITION),
        offset=_integer(values, HEADER_SOURCE_OFFSET),
        timestamp=_integer(values, HEADER_SOURCE_TIMESTAMP),
        group=values[HEADER_CONSUMER_GROUP],
        worker_version=values[HEADER_WORKER_VERSION],
        checker_version=values[HEADER_CHECKER_VERSION],
        claim_id=values.get(HEADER_CLAIM_ID),
        answer_id=values.get(HEADER_ANSWER_ID),
        original_headers=tuple(headers[:first_added]),
    )


def _as_kind(text: str) -> DeadLetterKind:
    for kind in DEAD_LETTER_KINDS:
        if kind == text:
            return kind
    raise DeadLetterHeaderError(f"unknown dead-letter kind {one_line(text, 100)!r}")


def _integer(values: dict[str, str], name: str) -> int:
    text = values[name]
    if not _INTEGER.fullmatch(text):
        raise DeadLetterHeaderError(f"header {name} is not an integer: {one_line(text, 40)!r}")
    return int(text)


__all__ = [
    "ADDED_HEADERS",
    "DEAD_LETTER_KINDS",
    "HEADER_ANSWER_ID",
    "HEADER_CHECKER_VERSION",
    "HEADER_CLAIM_ID",
    "HEADER_CONSUMER_GROUP",
    "HEADER_ERROR_KIND",
    "HEADER_ERROR_MESSAGE",
    "HEADER_PREFIX",
    "HEADER_SOURCE_OFFSET",
    "HEADER_SOURCE_PARTITION",
    "HEADER_SOURCE_TIMESTAMP",
    "HEADER_SOURCE_TOPIC",
    "HEADER_WORKER_VERSION",
    "REQUIRED_HEADERS",
    "DeadLetterHeaderError",
    "DeadLetterInfo",
    "DeadLetterKind",
    "Header",
    "dead_letter_headers",
    "read_dead_letter_headers",
]
