"""One replay from start to finish: fix the window, index what was recorded, re-check every
record in order, and write the outputs as it goes.

Memory holds one poll of records at a time, the recorded outcomes of the window's claims
not replayed yet, the counts, and at most the report's cap of differing claims.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import TextIO

from quantcheck.worker.replay.clients import (
    offsets_at,
    partitions_of,
    replay_consumer,
    replay_producer,
    require_topics,
    topic_offsets,
)
from quantcheck.worker.replay.compare import Tally
from quantcheck.worker.replay.outputs import RowWriter, rows_file
from quantcheck.worker.replay.publishing import Publisher
from quantcheck.worker.replay.recorded import (
    Recorded,
    RecordedIndex,
    read_recorded,
    recorded_dead_letter,
)
from quantcheck.worker.replay.replayer import Filters, RecordedLookup, Replayed, Replayer
from quantcheck.worker.replay.report_html import HtmlReport
from quantcheck.worker.replay.source import SourceRecord, WindowReader
from quantcheck.worker.replay.window import Window, WindowRequest, resolve_window
from quantcheck.worker.store import DocumentStore
from quantcheck.worker.stream.batch import BatchProcessor, BatchSettings
from quantcheck.worker.stream.config import KafkaConnection
from quantcheck.worker.stream.records import OutputRecord

from quantcheck.answers.split import Uncited
from quantcheck.checker import CHECKER_VERSION, Checker
from quantcheck.errors import UsageError

EXIT_DIFFERENCES = 3
# Below this many offsets a replay takes a few seconds and a progress bar is only noise.
PROGRESS_MIN_RECORDS = 10_000
# Names no Kafka topic can have (topic names are [a-zA-Z0-9._-]): the processor's outputs
# addressed to them are never published.
_UNPUBLISHED_VERDICTS = "(replayed verdicts)"
_UNPUBLISHED_DEAD_LETTERS = "(replayed dead letters)"


@dataclass(frozen=True, slots=True)
class ReplayOptions:
    """Everything a replay was asked to do, checked and ready to run."""

    topic: str
    dead_letters: bool
    window: WindowRequest
    compare: bool = True
    compare_topic: str | None = None
    compare_required: bool = False
    """Whether a missing compare topic is an error (it was named) or skips the comparison."""
    filters: Filters = field(default_factory=Filters)
    kb_version_override: str | None = None
    out: str | None = None
    report: str | None = None
    publish_to: str | None = None
    republish_to: str | None = None
    max_message_bytes: int = 1_000_000
    uncited: Uncited = Uncited.MISSING_CITATION
    """What an answer's sentences with a number and no marker cite, as the workers do."""
    progress: bool | None = None
    """Draw a progress bar; None decides by whether stderr is a terminal."""


def run_replay(
    options: ReplayOptions,
    connection: KafkaConnection,
    *,
    store: DocumentStore,
    checker: Checker,
    out: TextIO,
    err: TextIO,
) -> int:
    """Run the replay; prints the summary on ``out`` and notes on ``err``.

    Returns 3 when any claim differs from what was recorded, else 0. Raises UsageError
    for a missing topic, a window the topic does not hold, and a broker that fails.
    """
    with replay_consumer(connection) as consumer:
        existing = require_topics(consumer, _named_topics(options))
        compare_topic = _compare_topic(options, existing, err)
        comparing = options.compare and (options.dead_letters or compare_topic is not None)
        if options.filters.statuses and not comparing:
            raise UsageError(
                "--status filters by the recorded outcome, but there is nothing to compare with"
            )
        partitions = partitions_of(consumer, options.topic)
        window = resolve_window(
            options.topic,
            options.window,
            topic_offsets(consumer, partitions),
            lambda millis: offsets_at(consumer, partitions, millis),
        )
        print(f"replaying {window.describe()}", file=err)
        reader = WindowReader(consumer, window, dead_letters=options.dead_letters)
        index = None
        if comparing and compare_topic is not None:
            # Verdicts come after their claims: reading from the window's start is enough.
            since = window.from_ms if window.from_ms is not None else reader.first_timestamp()
            index = (
                read_recorded(consumer, compare_topic, window, since_ms=since)
                if window.size
                else RecordedIndex(window)
            )
            print(f"recorded verdicts for this window in {compare_topic}: {len(index)}", file=err)
        replayer = _replayer(options, checker, store, comparing=comparing)
        lookup = _lookup(options, index)
        sinks = _Sinks(options, Tally(comparing=comparing))
        if options.report:
            sinks.report = HtmlReport(
                title=f"quantcheck replay of {options.topic}",
                context=_report_context(options, window, compare_topic if comparing else None),
                documents=lambda version, doc_id: _document_text(store, version, doc_id),
            )
        with ExitStack() as stack:
            if options.out:
                sinks.rows = stack.enter_context(rows_file(options.out))
            if options.publish_to or options.republish_to:
                sinks.publisher = Publisher(stack.enter_context(replay_producer(connection)))
            advance = stack.enter_context(_progress(reader, window.size, options.progress, err))
            for chunk in reader.chunks():
                for item in replayer.replay(chunk, lookup):
                    sinks.take(item)
                advance()
            if sinks.publisher is not None:
                sinks.publisher.finish()
    return sinks.finish(out, err, reader, index)


def _replayer(
    options: ReplayOptions, checker: Checker, store: DocumentStore, *, comparing: bool
) -> Replayer:
    """A replayer around the worker's batch processor; its verdicts are addressed to the
    ``--publish-to`` topic, so they can be published as they are."""
    verdicts_topic = options.publish_to or _UNPUBLISHED_VERDICTS
    settings = BatchSettings(
        verdicts_topic=verdicts_topic,
        dlq_topic=_UNPUBLISHED_DEAD_LETTERS,
        group="",
        max_message_bytes=options.max_message_bytes,
        uncited=options.uncited,
    )
    return Replayer(
        BatchProcessor(checker, store, settings),
        verdicts_topic=verdicts_topic,
        max_message_bytes=options.max_message_bytes,
        comparing=comparing,
        filters=options.filters,
        kb_version_override=options.kb_version_override,
    )


class _Sinks:
    """Where each replayed claim goes: the counts, the rows, the report and Kafka."""

    def __init__(self, options: ReplayOptions, tally: Tally) -> None:
        self.options = options
        self.tally = tally
        self.rows: RowWriter | None = None
        self.report: HtmlReport | None = None
        self.publisher: Publisher | None = None
        self.published = 0
        self.republished = 0
        # The original coordinates of the answers republished so far: an answer is replayed
        # once per row and per dead letter of one of its sentences, and is sent back once.
        self._republished_answers: set[tuple[str, int, int]] = set()

    def take(self, item: Replayed) -> None:
        """Pass one replayed claim to every output."""
        self.tally.add(item.claim)
        if self.rows is not None:
            self.rows.write(item.claim)
        if self.report is not None:
            self.report.add(item)
        if self.publisher is None:
            return
        if self.options.publish_to and item.verdict is not None:
            self.publisher.send(item.verdict)
            self.published += 1
        if self.options.republish_to and self._republishable(item):
            self.publisher.send(_original(item, self.options.republish_to))
            self.republished += 1

    def _republishable(self, item: Replayed) -> bool:
        if item.source.dead_letter is None or not item.passes_gates:
            return False
        if item.claim.answer_id is None:
            return True
        original = item.source.claim
        where = (original.topic, original.partition, original.offset)
        if where in self._republished_answers:
            return False
        self._republished_answers.add(where)
        return True

    def finish(
        self, out: TextIO, err: TextIO, reader: WindowReader, index: RecordedIndex | None
    ) -> int:
        """Write the report, print the summary and notes; returns the exit status."""
        if self.report is not None and self.options.report:
            self.report.write(self.options.report, self.tally)
        for line in self.tally.lines():
            print(line, file=out)
        if self.options.publish_to:
            print(f"published={self.published}", file=out)
        if self.options.republish_to:
            print(f"republished={self.republished}", file=out)
        _notes(reader, index, err)
        return EXIT_DIFFERENCES if self.tally.differences else 0


def _named_topics(options: ReplayOptions) -> dict[str, str]:
    """Every topic the command line named, with the flag that named it."""
    named = {options.topic: "--topic"}
    for topic, flag in (
        (options.publish_to, "--publish-to"),
        (options.republish_to, "--republish-to"),
        (options.compare_topic if options.compare_required else None, "--compare-topic"),
    ):
        if topic is not None:
            named.setdefault(topic, flag)
    return named


def _compare_topic(options: ReplayOptions, existing: set[str], err: TextIO) -> str | None:
    """The topic to read recorded verdicts from, or None (dead letters carry their own)."""
    if not options.compare or options.dead_letters or options.compare_topic is None:
        return None
    if options.compare_topic not in existing:
        print(
            f"not comparing: the verdicts topic {options.compare_topic!r} does not exist",
            file=err,
        )
        return None
    return options.compare_topic


def _lookup(options: ReplayOptions, index: RecordedIndex | None) -> RecordedLookup:
    if options.dead_letters:
        return _dead_letter_outcome
    if index is None:
        return lambda source: ()
    return lambda source: index.take(source.partition, source.offset)


def _dead_letter_outcome(source: SourceRecord) -> tuple[Recorded, ...]:
    return () if source.dead_letter is None else (recorded_dead_letter(source.dead_letter),)


def _original(item: Replayed, topic: str) -> OutputRecord:
    """The dead letter's original claim message, addressed to ``topic``."""
    claim = item.source.claim
    return OutputRecord(topic=topic, key=claim.key, value=claim.value, headers=claim.headers)


def _document_text(store: DocumentStore, kb_version: str, doc_id: str) -> str | None:
    document = store.get_document(kb_version, doc_id)
    return None if document is None else document.text


def _report_context(
    options: ReplayOptions, window: Window, compare_topic: str | None
) -> list[tuple[str, str]]:
    context = [
        ("input", f"{options.topic} ({'dead letters' if options.dead_letters else 'claims'})"),
        ("window", window.describe()),
        ("checker version", CHECKER_VERSION),
        ("knowledge base", options.kb_version_override or "each claim's own kb_version"),
    ]
    if options.dead_letters and options.compare:
        context.append(("compared with", "each dead letter's kind"))
    else:
        context.append(("compared with", compare_topic or "nothing"))
    return context


def _notes(reader: WindowReader, index: RecordedIndex | None, err: TextIO) -> None:
    if reader.not_dead_letters:
        print(f"skipped {reader.not_dead_letters} records without dead-letter headers", file=err)
    if index is not None and index.duplicates:
        print(
            f"{index.duplicates} claims had more than one recorded verdict; the last one counts",
            file=err,
        )
    if index is not None and index.unreadable:
        print(f"{index.unreadable} records of the compare topic are not verdicts", file=err)


@contextmanager
def _progress(
    reader: WindowReader, total: int, wanted: bool | None, err: TextIO
) -> Iterator[Callable[[], None]]:
    """A callable that moves a progress bar on stderr to the records read so far.

    Drawn only when asked, or by default for a long replay (``total`` offsets) on a terminal.
    """
    draw = wanted if wanted is not None else err.isatty() and total >= PROGRESS_MIN_RECORDS
    if not draw:
        yield lambda: None
        return
    # Imported only when drawn: most replays run in scripts.
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import Progress  # noqa: PLC0415

    with Progress(console=Console(file=err), transient=True) as bar:
        task = bar.add_task("replaying", total=total)
        yield lambda: bar.update(task, completed=reader.records_read)
