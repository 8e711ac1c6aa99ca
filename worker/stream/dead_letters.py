"""Dead-letter records: the failed message byte for byte, with headers saying why and where."""

from __future__ import annotations

from quantcheck.schemas import DeadLetterKind, dead_letter_headers
from quantcheck.worker.stream.records import InputRecord, OutputRecord

from quantcheck import __version__
from quantcheck.checker import CHECKER_VERSION


def dead_letter(
    record: InputRecord,
    *,
    topic: str,
    kind: DeadLetterKind,
    message: str,
    group: str,
    claim_id: str | None = None,
    answer_id: str | None = None,
) -> OutputRecord:
    """The dead letter of ``record`` for ``topic``.

    Key, value and original headers are copied unchanged and keep their order; the
    ``quantcheck.*`` headers of :func:`quantcheck.schemas.dead_letter_headers` follow them.
    """
    headers = dead_letter_headers(
        record.headers,
        kind=kind,
        message=message,
        topic=record.topic,
        partition=record.partition,
        offset=record.offset,
        timestamp=record.timestamp,
        group=group,
        worker_version=__version__,
        checker_version=CHECKER_VERSION,
        claim_id=claim_id,
        answer_id=answer_id,
    )
    return OutputRecord(topic=topic, key=record.key, value=record.value, headers=tuple(headers))
