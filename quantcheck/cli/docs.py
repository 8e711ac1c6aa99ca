"""``quantcheck docs``: load, index, list, show and compare knowledge-base versions in the
store."""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Callable
from datetime import UTC, datetime

from quantcheck.checker import Checker, CheckOptions
from quantcheck.cli.checker_options import scope_of
from quantcheck.cli.progress import count_progress, file_progress
from quantcheck.cli.stores import opened_store
from quantcheck.errors import InputError, UsageError
from quantcheck.inputs.documents import iter_documents
from quantcheck.settings import MIB, Settings, add_settings, load_settings
from quantcheck.worker.store import Indexer, VersionInfo, validate_kb_version

_STORE = ("store_url",)
_VERSIONED = ("store_url", "kb_version")
# The scope the stored facts are read under: the workers' own.
_INDEXED = (*_VERSIONED, "scope", "bare_numbers", "document_facts_mib")
# A reindex that could not index every document; it can be run again.
EXIT_INCOMPLETE = 4


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    """Add ``docs`` and its subcommands to the ``quantcheck`` parser."""
    docs = subparsers.add_parser(
        "docs",
        help=summary,
        description="Manage the versioned document store. Versions are immutable once loaded.",
    )
    commands = docs.add_subparsers(dest="docs_command", required=True)

    load = commands.add_parser(
        "load",
        help="load a CSV or JSON Lines file as a new knowledge-base version",
        description="Validate FILE completely, extract the facts of every document under "
        "--scope, then store both as one version, atomically. Reloading identical content "
        "is a no-op; different content under an existing version is refused, and so is a "
        "document whose facts would take more memory than --document-facts-mib allows.",
    )
    add_settings(load, _INDEXED)
    load.add_argument("file", metavar="FILE", help="documents: .csv, .jsonl or .ndjson")
    load.set_defaults(run=run_load)

    reindex = commands.add_parser(
        "reindex",
        help="extract again the stored facts of a version loaded by another checker version",
        description="Extract the facts of every document of --kb-version whose stored "
        "facts were made by another checker version or encoding, or under another "
        "--scope, and store them. Each document's facts are written as they are made: "
        "a reindex that is stopped keeps its work, and running it again does what is left.",
    )
    add_settings(reindex, _INDEXED)
    reindex.set_defaults(run=run_reindex)

    listing = commands.add_parser("list", help="list the loaded versions")
    add_settings(listing, _STORE)
    listing.set_defaults(run=run_list)

    show = commands.add_parser("show", help="print one document as of a version")
    add_settings(show, _VERSIONED)
    show.add_argument("doc_id", metavar="DOC_ID")
    show.set_defaults(run=run_show)

    diff = commands.add_parser("diff", help="list documents added, removed and changed")
    add_settings(diff, _STORE)
    diff.add_argument("old", metavar="V1", help="the older version")
    diff.add_argument("new", metavar="V2", help="the newer version")
    diff.set_defaults(run=run_diff)


def run_load(args: argparse.Namespace) -> int:
    """Load FILE as ``--kb-version``; prints the counts and the manifest hash."""
    settings = load_settings(args, _INDEXED)
    kb_version = validate_kb_version(settings.kb_version)
    with (
        file_progress(args.file, "validating", done="indexing") as progress,
        count_progress("indexing facts") as indexed,
    ):
        documents = iter_documents(args.file, progress=progress)
        # Reading the first row before opening the store means a missing file or a bad
        # header is reported without creating or touching any database.
        first = next(documents, None)
        if first is None:
            raise InputError("the file holds no documents", source=args.file)
        indexer = _indexer(settings, lambda done: indexed(done, None))
        with opened_store(settings.store_url, create=True) as store:
            result = store.load_version(kb_version, itertools.chain([first], documents), indexer)
    info = result.version
    outcome = "unchanged" if result.unchanged else "loaded"
    print(
        f"{info.kb_version}: {outcome}, {info.document_count} documents, "
        f"manifest sha256 {info.manifest_sha256}"
    )
    return 0


def _indexer(settings: Settings, counted: Callable[[int], None] | None = None) -> Indexer:
    """What stores facts as a checker under the settings' scope reads them; ``counted`` is
    told how many texts have been indexed after each."""
    checker = Checker(
        CheckOptions(
            scope=scope_of(settings), document_facts_bytes=settings.document_facts_mib * MIB
        )
    )
    if counted is None:
        return Indexer(checker.facts_stamp, checker.stored_facts)
    done = 0

    def facts_of(text: str) -> bytes:
        nonlocal done
        facts = checker.stored_facts(text)
        done += 1
        counted(done)
        return facts

    return Indexer(checker.facts_stamp, facts_of)


def run_reindex(args: argparse.Namespace) -> int:
    """Index the documents of ``--kb-version`` that lack facts under this checker's stamp;
    prints the counts, and each document that could not be indexed on stderr."""
    settings = load_settings(args, _INDEXED)
    kb_version = validate_kb_version(settings.kb_version)
    indexer = _indexer(settings)
    stamp = indexer.stamp
    with (
        opened_store(settings.store_url) as store,
        count_progress(f"reindexing {kb_version}") as progress,
    ):
        result = store.reindex(kb_version, indexer, progress)
    for failure in result.failed:
        print(
            f"quantcheck: document {failure.doc_id!r} of {kb_version!r} could not be indexed: "
            f"{failure.reason}",
            file=sys.stderr,
        )
    print(
        f"{kb_version}: indexed {result.indexed} of {result.pending} texts without current"
        f" facts, {len(result.failed)} failed (scope {stamp.scope}, checker"
        f" {stamp.checker_version}, encoding {stamp.encoding})"
    )
    return EXIT_INCOMPLETE if result.failed else 0


def _timestamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def run_list(args: argparse.Namespace) -> int:
    """Print every version with its document count, load time and manifest hash."""
    with opened_store(load_settings(args, _STORE).store_url) as store:
        versions = store.list_versions()
    if sys.stdout.isatty():
        _print_table(versions)
    else:
        _print_plain(versions)
    return 0


_HEADINGS = ("KB_VERSION", "DOCUMENTS", "LOADED_AT", "MANIFEST_SHA256")


def _cells(info: VersionInfo) -> tuple[str, str, str, str]:
    return (
        info.kb_version,
        str(info.document_count),
        _timestamp(info.created_at),
        info.manifest_sha256,
    )


def _print_plain(versions: list[VersionInfo]) -> None:
    rows = [_HEADINGS, *(_cells(info) for info in versions)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_HEADINGS))]
    for row in rows:
        kb_version, count, loaded, manifest = row
        line = f"{kb_version:<{widths[0]}}  {count:>{widths[1]}}  {loaded:<{widths[2]}}  {manifest}"
        print(line.rstrip())


def _print_table(versions: list[VersionInfo]) -> None:
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    console = Console()
    if not versions:
        console.print("no versions loaded")
        return
    table = Table("kb_version", "documents", "loaded (UTC)", "manifest sha256")
    table.columns[1].justify = "right"
    for info in versions:
        table.add_row(*_cells(info))
    console.print(table)


def run_show(args: argparse.Namespace) -> int:
    """Print one document as of ``--kb-version``: its metadata, a blank line, its text."""
    settings = load_settings(args, _VERSIONED)
    kb_version = validate_kb_version(settings.kb_version)
    with opened_store(settings.store_url) as store:
        store.require_version(kb_version)
        doc = store.get_document(kb_version, args.doc_id)
    if doc is None:
        raise UsageError(f"knowledge-base version {kb_version!r} has no document {args.doc_id!r}")
    print(f"doc_id: {doc.doc_id}")
    print(f"kb_version: {kb_version}")
    print(f"topic: {doc.topic}")
    print(f"sha256: {doc.sha256}")
    print()
    print(doc.text)
    return 0


def run_diff(args: argparse.Namespace) -> int:
    """Print one ``added|removed|changed ID`` line per differing document, then a summary."""
    with opened_store(load_settings(args, _STORE).store_url) as store:
        diff = store.diff(args.old, args.new)
    for label, ids in (("added", diff.added), ("removed", diff.removed), ("changed", diff.changed)):
        for doc_id in ids:
            print(f"{label:<7} {doc_id}")
    print(
        f"{diff.old} -> {diff.new}: {len(diff.added)} added, {len(diff.removed)} removed, "
        f"{len(diff.changed)} changed"
    )
    return 0
