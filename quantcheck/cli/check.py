"""``quantcheck check``: judge a file of claims offline and summarize the verdicts.

Documents come from a documents file (``--documents``) or from a knowledge-base version
in the store (``--store`` with ``--kb-version``). ``--out`` writes one CSV row per claim,
or (``--format jsonl``) the verdict events exactly as the worker publishes them;
``--report`` writes an HTML page of the claims that are not supported or not as expected.

Exit status 0 when the run completed, 1 when a ``--fail-on`` status occurred, 4 when some
claims could not be checked (status check_failed; every other claim was), 2 on bad input.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import sys
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from quantcheck.answers.claims import AnswerSentence, answer_sentences, in_answer
from quantcheck.answers.split import Uncited
from quantcheck.checker import Checker, Claim, Document, Status
from quantcheck.cli.checker_options import CHECK_SETTINGS, check_options, uncited_of
from quantcheck.cli.progress import file_progress
from quantcheck.errors import InputError, UsageError
from quantcheck.inputs.claims import AnswerRow, ClaimDefaults, ClaimRow, iter_claims
from quantcheck.inputs.documents import read_documents
from quantcheck.inputs.rows import ProgressCallback
from quantcheck.reports.chart import write_chart
from quantcheck.reports.checked import CHECK_FAILED, CheckedLine, CheckedRow
from quantcheck.reports.results import (
    OfflineVerdicts,
    ResultsWriter,
    output_format,
    results_file,
)
from quantcheck.reports.summary import ordered_counts, summary_lines
from quantcheck.reports.table import TableRows, print_verdict_table
from quantcheck.settings import Settings, add_settings, load_settings

if TYPE_CHECKING:
    from quantcheck.cli.check_report import CheckReport
    from quantcheck.worker.store import DocumentStore

# Claims are checked in chunks so the store sees one query per version per chunk and
# memory stays bounded on large files.
CHUNK_LINES = 500
EXIT_FAIL_ON = 1
EXIT_CHECK_FAILED = 4
# A terminal shows the first rows only, failures first; the results file has them all.
MAX_TABLE_ROWS = 200
# The summary names at most this many claims that are not as expected, and of those that
# could not be checked.
MAX_NAMED = 20
# Below this a file is checked in a few seconds, and a progress bar would only flicker.
PROGRESS_MIN_BYTES = 1024 * 1024
_SETTINGS = ("store_url", "kb_version", *CHECK_SETTINGS, "document_cache_size")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    """Add the ``check`` subcommand, described in the command list by ``summary``."""
    parser = subparsers.add_parser(
        "check",
        help=summary,
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--claims",
        required=True,
        help="claims file (.csv, or .jsonl of claim and answer events; each sentence of an"
        " answer is a claim)",
    )
    parser.add_argument("--documents", help="documents file (.csv or .jsonl): doc_id,topic,text")
    parser.add_argument(
        "--out", help="write the results here: one CSV row per claim, or the verdict events"
    )
    parser.add_argument(
        "--format",
        choices=("csv", "jsonl"),
        help="format of --out: csv, or jsonl (the verdict events, spans and evidence included,"
        " as on the verdicts topic); default: from the file name (.csv, .jsonl)",
    )
    parser.add_argument(
        "--report", help="write an HTML page of the claims not supported or not as expected"
    )
    parser.add_argument("--chart", help="write a bar chart of the status counts here (.png)")
    parser.add_argument(
        "--fail-on",
        default="",
        metavar="STATUS[,STATUS...]",
        help="exit 1 when any of these statuses occurred (for CI gates)",
    )
    add_settings(parser, _SETTINGS)
    parser.set_defaults(run=run)


@dataclass
class _Summary:
    """The counts of the run and the claims it names, in bounded memory."""

    statuses: Counter[str] = field(default_factory=Counter)
    # Claims that carry an expected status, and those that got it.
    labelled: int = 0
    matched: int = 0
    unexpected: list[str] = field(default_factory=list)
    unexpected_count: int = 0
    failed: list[str] = field(default_factory=list)
    failed_count: int = 0

    def add(self, row: CheckedRow) -> None:
        status, want = row.status, row.claim.expected_status
        claim_id = row.claim.event.claim_id
        self.statuses[status] += 1
        if want is not None:
            self.labelled += 1
            self.matched += want == status
        if want is not None and want != status:
            self.unexpected_count += 1
            if len(self.unexpected) < MAX_NAMED:
                self.unexpected.append(f"{claim_id} (expected {want}, got {status})")
        if status == CHECK_FAILED:
            self.failed_count += 1
            if len(self.failed) < MAX_NAMED:
                self.failed.append(claim_id)

    def lines(self) -> list[str]:
        """``claims=N``, the status counts, then each claim not as expected."""
        lines = summary_lines(self.statuses, self.matched if self.labelled else None)
        lines += [f"not as expected: {named}" for named in self.unexpected]
        more = self.unexpected_count - len(self.unexpected)
        if more:
            lines.append(f"not as expected: {more} more")
        return lines

    def failure_line(self) -> str | None:
        """One line for stderr naming the claims that could not be checked, if any."""
        if not self.failed_count:
            return None
        more = self.failed_count - len(self.failed)
        named = ", ".join(self.failed) + (f" and {more} more" if more else "")
        return (
            f"quantcheck: {self.failed_count} claim{'s' if self.failed_count > 1 else ''} could"
            f" not be checked (status {CHECK_FAILED}, the error in the reason): {named}"
        )


def run(args: argparse.Namespace) -> int:
    """Check every claim of the file and report."""
    fail_on = _statuses(args.fail_on)
    out_format = output_format(args.out, args.format)
    if args.chart and importlib.util.find_spec("matplotlib") is None:
        # Known before the run, rather than after every claim is checked.
        raise UsageError(
            "--chart needs matplotlib, which is not installed: pip install 'quantcheck[chart]'"
        )
    settings = load_settings(args, _SETTINGS)
    checker = Checker(check_options(settings))
    checked_at = datetime.now(UTC)
    summary = _Summary()
    table = TableRows(MAX_TABLE_ROWS)
    # Shared by the JSON Lines output and the report, so that both say the same of a claim.
    verdicts = OfflineVerdicts(args.claims, checked_at)
    with ExitStack() as stack:
        progress = stack.enter_context(
            file_progress(args.claims, "checking", min_bytes=PROGRESS_MIN_BYTES)
        )
        source = _Source(args, settings, stack, progress, checker.options.scope.value)
        report = _report(args, settings, source, verdicts) if args.report else None
        writer: ResultsWriter | None = None
        for line in _checked(source, checker, uncited_of(settings)):
            if args.out and writer is None:
                extra = list(line.rows[0].claim.extra) if line.rows else []
                writer = _open_results(stack, args, out_format, extra, verdicts)
            if writer is not None:
                writer.write(line)
            for row in line.rows:
                summary.add(row)
                table.add(row)
                if report is not None:
                    # A sentence's spans point into its answer's text.
                    report.add(row, row.claim.event if line.answer is None else line.answer.event)
        if args.out and writer is None:
            _open_results(stack, args, out_format, [], verdicts)
        if report is not None:
            report.write(args.report, summary.lines(), summary.statuses)
    print("\n".join(summary.lines()))
    failure = summary.failure_line()
    if failure is not None:
        print(failure, file=sys.stderr)
    if sys.stdout.isatty():
        print_verdict_table(table.shown, total=table.total, results=args.out)
    if args.chart:
        counts = ordered_counts(summary.statuses.elements())
        total = summary.statuses.total()
        write_chart(counts, args.chart, f"Numeric evidence check: {total} claims")
    if summary.failed_count:
        return EXIT_CHECK_FAILED
    return EXIT_FAIL_ON if fail_on & summary.statuses.keys() else 0


def _statuses(text: str) -> set[str]:
    names = {part.strip() for part in text.split(",") if part.strip()}
    known = {status.value for status in Status} | {CHECK_FAILED}
    unknown = sorted(names - known)
    if unknown:
        raise UsageError(
            f"--fail-on: unknown status {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    return names


def _open_results(
    stack: ExitStack,
    args: argparse.Namespace,
    kind: str | None,
    extra: list[str],
    verdicts: OfflineVerdicts,
) -> ResultsWriter:
    return stack.enter_context(
        results_file(args.out, kind or "csv", extra_columns=extra, verdicts=verdicts)
    )


class _Source:
    """The claims of the file and where their documents come from: a documents file, or a
    store's versions."""

    def __init__(
        self,
        args: argparse.Namespace,
        settings: Settings,
        stack: ExitStack,
        progress: ProgressCallback | None,
        facts_scope: str,
    ) -> None:
        self.path: str = args.claims
        self.documents_path: str | None = args.documents
        self.override = settings.kb_version
        self.store_url = settings.store_url
        self.documents: Mapping[str, Document] = {}
        self.store: DocumentStore | None = None
        if args.documents:
            # A documents file has no versions; claims still need one to be valid events.
            defaults = ClaimDefaults(kb_version=self.override or "local")
            self.rows = iter_claims(args.claims, defaults=defaults, progress=progress)
            self.documents = read_documents(args.documents)
            return
        self.rows = iter_claims(
            args.claims, defaults=ClaimDefaults(kb_version=self.override), progress=progress
        )
        # The store's code is loaded only by a run that reads one: a documents file's run
        # starts without it.
        from quantcheck.cli.stores import opened_store  # noqa: PLC0415

        self.store = stack.enter_context(
            opened_store(
                settings.store_url,
                cache_size=settings.document_cache_size,
                facts_scope=facts_scope,
            )
        )

    def document_text(self, kb_version: str, doc_id: str) -> str | None:
        """A document's text, for the report: from the file, or the store's version."""
        if self.store is None:
            document = self.documents.get(doc_id)
        else:
            document = self.store.get_document(kb_version, doc_id)
        return None if document is None else document.text


@dataclass(frozen=True, slots=True)
class _Pending:
    """A line read and, for an answer, split into its sentences, waiting for its documents."""

    row: ClaimRow | AnswerRow
    claims: tuple[tuple[ClaimRow, Claim], ...]
    sentences: tuple[AnswerSentence, ...] = ()


def _checked(source: _Source, checker: Checker, uncited: Uncited) -> Iterator[CheckedLine]:
    """Every line of the file, checked, in file order."""
    pending = (_pending(row, source.path, checker, uncited) for row in source.rows)
    if source.store is None:
        for item in pending:
            yield _check(item, checker, source.documents)
        return
    from quantcheck.worker.store.resolve import resolve_cited  # noqa: PLC0415

    store = source.store
    known: set[str] = set()
    while chunk := list(itertools.islice(pending, CHUNK_LINES)):
        versions = [source.override or item.row.event.kb_version for item in chunk]
        for version in set(versions) - known:
            store.require_version(version)
            known.add(version)
        cited = [
            (version, [d for _, claim in item.claims for d in claim.cited_doc_ids])
            for version, item in zip(versions, chunk, strict=True)
        ]
        resolved = resolve_cited(store, cited)
        for version, item in zip(versions, chunk, strict=True):
            yield _check(item, checker, resolved.get(version, {}))


def _pending(row: ClaimRow | AnswerRow, path: str, checker: Checker, uncited: Uncited) -> _Pending:
    if isinstance(row, ClaimRow):
        event = row.event
        claim = Claim(
            event.claim_text,
            tuple(event.cited_doc_ids),
            frozenset(event.retrieved_doc_ids),
            gated=row.gated,
        )
        return _Pending(row, ((row, claim),))
    try:
        sentences = answer_sentences(row.event, scope=checker.options.scope, uncited=uncited)
    except ValueError as exc:
        raise InputError(str(exc), source=path, row=row.row) from None
    claims = tuple(
        (ClaimRow(row.row, part.event, gated=part.sentence.citation_gates), part.claim)
        for part in sentences
    )
    return _Pending(row, claims, sentences)


def _check(item: _Pending, checker: Checker, documents: Mapping[str, Document]) -> CheckedLine:
    rows: list[CheckedRow] = []
    for index, (row, claim) in enumerate(item.claims):
        try:
            verdict = checker.check(claim, documents)
            if item.sentences:
                verdict = in_answer(verdict, item.sentences[index].sentence)
        except Exception as exc:
            # A checker bug costs this claim its verdict, not the run its other claims.
            rows.append(CheckedRow(row, None, f"the check failed: {type(exc).__name__}: {exc}"))
            continue
        rows.append(CheckedRow(row, verdict))
    answer = item.row if isinstance(item.row, AnswerRow) else None
    return CheckedLine(tuple(rows), answer, item.sentences)


def _report(
    args: argparse.Namespace, settings: Settings, source: _Source, verdicts: OfflineVerdicts
) -> CheckReport:
    # The page's code is loaded only by a run that writes one, to keep start-up short.
    from quantcheck.cli.check_report import CheckReport  # noqa: PLC0415

    return CheckReport(
        claims=args.claims,
        documents_file=args.documents,
        store_url=settings.store_url,
        kb_version=settings.kb_version,
        scope=settings.scope,
        documents=source.document_text,
        verdicts=verdicts,
    )
