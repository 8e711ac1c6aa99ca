"""``quantcheck check``: judge a file of claims offline and summarize the verdicts.

Documents come from a documents file (``--documents``) or from a knowledge-base version
in the store (``--store`` with ``--kb-version``). Exit status 0 when the run completed,
1 when a ``--fail-on`` status occurred, 2 on bad input.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterator
from contextlib import ExitStack

from quantcheck.worker.answers.claims import answer_sentences
from quantcheck.worker.checker import Checker, Claim, Status, Verdict
from quantcheck.worker.cli.checker_options import CHECK_SETTINGS, check_options
from quantcheck.worker.cli.stores import opened_store
from quantcheck.worker.errors import UsageError
from quantcheck.worker.inputs.claims import AnswerRow, ClaimDefaults, ClaimRow, iter_claims
from quantcheck.worker.inputs.documents import read_documents
from quantcheck.worker.quantities.categories import Scope
from quantcheck.worker.reports.chart import write_chart
from quantcheck.worker.reports.results import ResultsWriter, results_file
from quantcheck.worker.reports.summary import ordered_counts, summary_lines
from quantcheck.worker.reports.table import print_verdict_table
from quantcheck.worker.settings import Settings, add_settings, load_settings
from quantcheck.worker.store.resolve import resolve_cited

# Claims are checked in chunks so the store sees one query per version per chunk and
# memory stays bounded on large files.
CHUNK_CLAIMS = 500
EXIT_FAIL_ON = 1
# A terminal shows the first rows only; the results file has them all.
MAX_TABLE_ROWS = 200
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
    parser.add_argument("--out", help="write one CSV row per claim here")
    parser.add_argument("--chart", help="write a bar chart of the status counts here (.png)")
    parser.add_argument(
        "--fail-on",
        default="",
        metavar="STATUS[,STATUS...]",
        help="exit 1 when any of these statuses occurred (for CI gates)",
    )
    add_settings(parser, _SETTINGS)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check every claim of the file and report."""
    fail_on = _statuses(args.fail_on)
    settings = load_settings(args, _SETTINGS)
    checker = Checker(check_options(settings))
    statuses: list[str] = []
    expected: list[str | None] = []
    shown: list[tuple[ClaimRow, Verdict]] = []
    with ExitStack() as stack:
        verdicts = _verdicts(args, settings, checker, stack)
        writer: ResultsWriter | None = None
        for claim, verdict in verdicts:
            if args.out and writer is None:
                writer = stack.enter_context(results_file(args.out, list(claim.extra)))
            if writer is not None:
                writer.write(claim, verdict)
            statuses.append(verdict.status.value)
            expected.append(claim.expected_status)
            if len(shown) < MAX_TABLE_ROWS:
                shown.append((claim, verdict))
        if args.out and writer is None:
            stack.enter_context(results_file(args.out, []))
    for line in summary_lines(statuses, expected):
        print(line)
    if sys.stdout.isatty():
        print_verdict_table(shown, total=len(statuses))
    if args.chart:
        write_chart(
            ordered_counts(statuses), args.chart, f"Numeric evidence check: {len(statuses)} claims"
        )
    return EXIT_FAIL_ON if fail_on & set(statuses) else 0


def _statuses(text: str) -> set[str]:
    names = {part.strip() for part in text.split(",") if part.strip()}
    known = {status.value for status in Status}
    unknown = sorted(names - known)
    if unknown:
        raise UsageError(
            f"--fail-on: unknown status {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    return names


def _verdicts(
    args: argparse.Namespace, settings: Settings, checker: Checker, stack: ExitStack
) -> Iterator[tuple[ClaimRow, Verdict]]:
    override = settings.kb_version
    scope = checker.options.scope
    if args.documents:
        # A documents file has no versions; claims still need one to be valid events.
        defaults = ClaimDefaults(kb_version=override or "local")
        claims = _sentences(iter_claims(args.claims, defaults=defaults), scope)
        documents = read_documents(args.documents)
        for claim in claims:
            yield claim, checker.check(_claim(claim), documents)
        return
    claims = _sentences(
        iter_claims(args.claims, defaults=ClaimDefaults(kb_version=override)), scope
    )
    store = stack.enter_context(
        opened_store(settings.store_url, cache_size=settings.document_cache_size)
    )
    known: set[str] = set()
    for chunk in _chunks(claims):
        versions = [override or claim.event.kb_version for claim in chunk]
        for version in set(versions) - known:
            store.require_version(version)
            known.add(version)
        resolved = resolve_cited(
            store, [(v, c.event.cited_doc_ids) for v, c in zip(versions, chunk, strict=True)]
        )
        for version, claim in zip(versions, chunk, strict=True):
            yield claim, checker.check(_claim(claim), resolved.get(version, {}))


def _sentences(rows: Iterator[ClaimRow | AnswerRow], scope: Scope) -> Iterator[ClaimRow]:
    """Claims as read, and each answer as the claims of its sentences."""
    for row in rows:
        if isinstance(row, ClaimRow):
            yield row
            continue
        for sentence in answer_sentences(row.event, scope=scope):
            yield ClaimRow(row.row, sentence.event, gated=sentence.sentence.citation_gates)


def _chunks(claims: Iterator[ClaimRow]) -> Iterator[list[ClaimRow]]:
    while chunk := list(itertools.islice(claims, CHUNK_CLAIMS)):
        yield chunk


def _claim(row: ClaimRow) -> Claim:
    event = row.event
    return Claim(
        event.claim_text,
        tuple(event.cited_doc_ids),
        frozenset(event.retrieved_doc_ids),
        gated=row.gated,
    )
