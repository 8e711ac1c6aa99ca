"""``quantcheck replay``: re-check a bounded window of a topic offline and compare.

Reads a window of the claims topic (or of the dead-letter topic) with a consumer outside
every group, re-checks each claim exactly as the worker would, compares with the verdicts
recorded for it, and prints the summary. Exit status 0 when nothing differs, 3 when some
claim differs from what was recorded, 2 on bad arguments or a missing topic.
"""

from __future__ import annotations

import argparse
import sys

from quantcheck.checker import Checker
from quantcheck.cli.arguments import whole_number
from quantcheck.cli.checker_options import CHECK_SETTINGS, check_options, uncited_of
from quantcheck.cli.stores import opened_store
from quantcheck.errors import TransientError, UsageError
from quantcheck.schemas import DEAD_LETTER_KINDS, STATUSES
from quantcheck.settings import BY_NAME, Settings, add_settings, load_settings
from quantcheck.worker.replay.outputs import output_format
from quantcheck.worker.replay.replayer import Filters
from quantcheck.worker.replay.run import ReplayOptions, run_replay
from quantcheck.worker.replay.window import WindowRequest, parse_partition_offset, parse_timestamp
from quantcheck.worker.stream.config import CONNECTION_SETTINGS, KafkaConnection

REPLAY_SETTINGS: tuple[str, ...] = (
    *CONNECTION_SETTINGS,
    "store_url",
    "verdicts_topic",
    "dlq_topic",
    "max_message_bytes",
    *CHECK_SETTINGS,
    "document_cache_size",
)
"""The settings a replay shares with the worker, so it checks claims the same way."""

OUTCOMES = frozenset(STATUSES) | frozenset(DEAD_LETTER_KINDS)

_EPILOG = """\
window (half-open, fixed when the replay starts):
  --from/--to TS           ISO 8601; without an offset, UTC
  --from-offset/--to-offset PARTITION:OFFSET, repeatable; names the partitions replayed
  --last N                 the last N records of each selected partition
exit status: 0 nothing differs, 3 some claim differs, 2 bad arguments or missing topic
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    """Add ``replay`` to the ``quantcheck`` parser."""
    parser = subparsers.add_parser(
        "replay",
        help=summary,
        description=__doc__,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    claims = BY_NAME["claims_topic"]
    window = parser.add_argument_group("input and window")
    window.add_argument(
        "--topic",
        help=f"topic to replay: the claims topic, or the dead-letter topic (--dlq-topic) "
        f"(default: the claims topic, env {claims.env}, {claims.default!r})",
    )
    window.add_argument(
        "--partition",
        action="append",
        type=_partition,
        default=[],
        metavar="N",
        help="replay only this partition (repeatable)",
    )
    window.add_argument("--from", dest="from_time", metavar="TS", help="first record time")
    window.add_argument("--to", dest="to_time", metavar="TS", help="end time (exclusive)")
    window.add_argument(
        "--from-offset",
        action="append",
        default=[],
        metavar="PARTITION:OFFSET",
        help="first offset of a partition (repeatable)",
    )
    window.add_argument(
        "--to-offset",
        action="append",
        default=[],
        metavar="PARTITION:OFFSET",
        help="end offset of a partition, exclusive (repeatable)",
    )
    window.add_argument(
        "--last", metavar="N", type=whole_number(1), help="the last N records of each partition"
    )

    filters = parser.add_argument_group("filters (repeat a flag to allow several values)")
    for flag, what in (
        ("--claim-id", "claim ID"),
        ("--model", "model name"),
        ("--retriever", "retriever name"),
        ("--kb-version", "the claim's own knowledge-base version"),
        ("--status", "recorded status (for dead letters: their kind)"),
    ):
        filters.add_argument(flag, action="append", default=[], metavar="VALUE", help=what)

    check = parser.add_argument_group("checking and comparing")
    check.add_argument(
        "--kb-version-override",
        metavar="V",
        help="check every claim against knowledge-base version V instead of its own",
    )
    check.add_argument(
        "--compare-topic",
        metavar="TOPIC",
        help="recorded verdicts to compare with (default: the verdicts topic, if it exists)",
    )
    check.add_argument("--no-compare", action="store_true", help="do not compare")

    outputs = parser.add_argument_group("outputs")
    outputs.add_argument("--out", metavar="FILE", help="one row per claim: FILE.csv or FILE.jsonl")
    outputs.add_argument("--report", metavar="FILE", help="a self-contained HTML report")
    outputs.add_argument(
        "--publish-to",
        metavar="TOPIC",
        help="publish the new verdicts to TOPIC (never the verdicts topic without --force)",
    )
    outputs.add_argument(
        "--force", action="store_true", help="allow --publish-to the production verdicts topic"
    )
    outputs.add_argument(
        "--republish-to",
        metavar="TOPIC",
        help="dead-letter input: republish the original claims that now pass to TOPIC",
    )
    outputs.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr (auto: for long replays on a terminal)",
    )

    add_settings(parser, REPLAY_SETTINGS)
    parser.set_defaults(run=run)


def replay_options(args: argparse.Namespace, settings: Settings) -> ReplayOptions:
    """The replay's options from the parsed arguments and settings; every mistake that can
    be found without the broker or the store is a UsageError here."""
    topic = settings.claims_topic if args.topic is None else args.topic.strip()
    if not topic:
        raise UsageError("--topic must not be empty")
    dead_letters = topic == settings.dlq_topic
    window = WindowRequest.build(
        partitions=args.partition,
        from_ms=None if args.from_time is None else parse_timestamp(args.from_time, "--from"),
        to_ms=None if args.to_time is None else parse_timestamp(args.to_time, "--to"),
        from_offsets=[parse_partition_offset(t, "--from-offset") for t in args.from_offset],
        to_offsets=[parse_partition_offset(t, "--to-offset") for t in args.to_offset],
        last=args.last,
    )
    unknown = sorted(set(args.status) - OUTCOMES)
    if unknown:
        raise UsageError(
            f"--status {unknown[0]!r} is not a verdict status or dead-letter kind; "
            f"known: {', '.join(sorted(OUTCOMES))}"
        )
    if args.out:
        output_format(args.out)
    if args.no_compare and args.compare_topic:
        raise UsageError("--compare-topic and --no-compare cannot be combined")
    if args.no_compare and args.status:
        raise UsageError("--status filters by the recorded outcome and needs a comparison")
    if dead_letters and args.compare_topic:
        raise UsageError(
            "--compare-topic does not apply to dead-letter input: "
            "each dead letter's kind is its recorded outcome"
        )
    if args.publish_to and args.publish_to == settings.verdicts_topic and not args.force:
        raise UsageError(
            f"--publish-to {args.publish_to!r} is the production verdicts topic; "
            "publish to a scratch topic, or add --force"
        )
    for flag, target in (("--publish-to", args.publish_to), ("--republish-to", args.republish_to)):
        if target == topic:
            raise UsageError(f"{flag} {target!r} is the topic being replayed")
    if args.republish_to and not dead_letters:
        raise UsageError(
            f"--republish-to needs dead-letter input: --topic {settings.dlq_topic} "
            "(or the topic --dlq-topic names)"
        )
    if args.republish_to and args.kb_version_override:
        raise UsageError(
            "--republish-to and --kb-version-override cannot be combined: the worker checks "
            "republished claims against their own kb_version"
        )
    return ReplayOptions(
        topic=topic,
        dead_letters=dead_letters,
        window=window,
        compare=not args.no_compare,
        compare_topic=args.compare_topic or settings.verdicts_topic,
        compare_required=bool(args.compare_topic),
        filters=Filters(
            claim_ids=frozenset(args.claim_id),
            models=frozenset(args.model),
            retrievers=frozenset(args.retriever),
            kb_versions=frozenset(args.kb_version),
            statuses=frozenset(args.status),
        ),
        kb_version_override=args.kb_version_override,
        out=args.out,
        report=args.report,
        publish_to=args.publish_to,
        republish_to=args.republish_to,
        max_message_bytes=settings.max_message_bytes,
        uncited=uncited_of(settings),
        progress={"auto": None, "always": True, "never": False}[args.progress],
    )


def run(args: argparse.Namespace) -> int:
    """Run the replay; 0 when nothing differs, 3 when something does."""
    settings = load_settings(args, REPLAY_SETTINGS)
    options = replay_options(args, settings)
    connection = KafkaConnection.from_settings(settings)
    checker = Checker(check_options(settings))
    with opened_store(
        settings.store_url,
        cache_size=settings.document_cache_size,
        facts_scope=checker.options.scope.value,
    ) as store:
        try:
            if options.kb_version_override is not None:
                store.require_version(options.kb_version_override)
            return run_replay(
                options, connection, store=store, checker=checker, out=sys.stdout, err=sys.stderr
            )
        except TransientError as exc:
            # A replay is rerun by hand; waiting out a store outage is not its job.
            raise UsageError(f"the document store failed: {exc}") from None


def _partition(text: str) -> int:
    try:
        partition = int(text)
    except ValueError:
        raise UsageError(f"--partition {text!r} is not a partition number") from None
    if partition < 0:
        raise UsageError(f"--partition {text!r} is not a partition number")
    return partition
