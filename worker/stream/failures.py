"""Which delivery errors pass, which will never pass for one record, and which stop the worker.

Retriable
    The broker or the network is away, a leader moved, a call timed out, the group
    rebalanced: pause, rewind, back off and try again, without limit.
Permanent for one record
    The broker refuses one record for what it is (too large for the topic, invalid): that
    record's claim is dead-lettered instead, and the partition moves on.
Fatal
    The cluster refuses the worker itself (authorization, a topic that does not exist,
    another process with the same instance ID): retrying cannot help. The worker reports
    itself not ready, tries a bounded number of times in case an operator fixes it
    meanwhile, then logs the cause and the fix in one line and exits non-zero.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from kafka import errors as kafka_errors


class ErrorClass(enum.Enum):
    """How the worker treats a delivery error."""

    RETRIABLE = "retriable"
    RECORD = "permanent for one record"
    FATAL = "fatal"


@dataclass(frozen=True, slots=True)
class Fatal:
    """Why the worker cannot go on, and what an operator should do about it."""

    cause: str
    fix: str

    def describe(self) -> str:
        """Cause and fix in one line."""
        return f"{self.cause}; fix: {self.fix}"


RECORD_TOO_LARGE: tuple[type[Exception], ...] = (
    kafka_errors.MessageSizeTooLargeError,
    kafka_errors.RecordListTooLargeError,
)
"""The broker (or the client's own ``max_request_size``) refuses a record for its size."""

RECORD_REFUSED: tuple[type[Exception], ...] = (
    *RECORD_TOO_LARGE,
    kafka_errors.InvalidRecordError,
    kafka_errors.CorruptRecordError,
)
"""Errors that concern one record only."""

_FIXES: tuple[tuple[type[Exception], str], ...] = (
    (
        kafka_errors.TopicAuthorizationFailedError,
        "grant the worker's principal Read on the claims topic and Write on the verdicts "
        "and dead-letter topics",
    ),
    (
        kafka_errors.GroupAuthorizationFailedError,
        "grant the worker's principal Read on its consumer group",
    ),
    (
        kafka_errors.TransactionalIdAuthorizationFailedError,
        "grant the worker's principal Write and Describe on the transactional IDs "
        "starting with the group ID",
    ),
    (
        kafka_errors.ClusterAuthorizationFailedError,
        "grant the worker's principal IdempotentWrite on the cluster",
    ),
    (
        kafka_errors.ProducerFencedError,
        "another running worker uses the same instance ID; give each process its own --instance-id",
    ),
)


def classify(error: BaseException) -> ErrorClass:
    """The class of a delivery error (see the module docstring)."""
    if isinstance(error, RECORD_REFUSED):
        return ErrorClass.RECORD
    if fatal_cause(error) is not None:
        return ErrorClass.FATAL
    return ErrorClass.RETRIABLE


def fatal_cause(error: BaseException) -> Fatal | None:
    """The cause and fix of a fatal error, or None when ``error`` is not fatal."""
    for kind, fix in _FIXES:
        if isinstance(error, kind):
            return Fatal(f"the cluster refused the worker: {describe(error)}", fix)
    return None


def missing_topics(missing: list[str]) -> Fatal:
    """The fatal failure of topics that do not exist."""
    return Fatal(
        f"topic(s) {', '.join(missing)} do not exist",
        "create them with 'quantcheck topics create' (or point the worker at the right ones)",
    )


def describe(error: BaseException) -> str:
    """An error's type and message on one line."""
    text = " ".join(str(error).split())
    name = type(error).__name__
    return f"{name}: {text}" if text else name
