"""``quantcheck topics``: create the claims, verdicts and dead-letter topics."""

from __future__ import annotations

import argparse

from kafka import KafkaAdminClient
from kafka.errors import KafkaError

from quantcheck.cli.arguments import whole_number
from quantcheck.errors import UsageError
from quantcheck.settings import add_settings, load_settings
from quantcheck.worker.stream.clients import unreachable
from quantcheck.worker.stream.config import CONNECTION_SETTINGS, KafkaConnection, admin_config
from quantcheck.worker.stream.topics import DEFAULT_PARTITIONS, create_topics, worker_topics

_CREATE_SETTINGS = (*CONNECTION_SETTINGS, "claims_topic", "verdicts_topic", "dlq_topic")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    """Add ``topics`` and its subcommands to the ``quantcheck`` parser."""
    topics = subparsers.add_parser("topics", help=summary)
    commands = topics.add_subparsers(dest="topics_command", required=True)
    create = commands.add_parser(
        "create",
        help="create the claims, verdicts and dead-letter topics",
        description="Create the three topics the worker uses; topics that already exist are "
        "reported and left unchanged.",
    )
    add_settings(create, _CREATE_SETTINGS)
    create.add_argument(
        "--partitions",
        type=whole_number(1),
        default=DEFAULT_PARTITIONS,
        help=f"partitions of the claims and verdicts topics; the dead-letter topic gets half "
        f"(default {DEFAULT_PARTITIONS})",
    )
    create.add_argument(
        "--replication-factor",
        type=whole_number(-1, never=0),
        default=-1,
        help="replicas per partition (default -1: the cluster's default.replication.factor)",
    )
    create.set_defaults(run=run_create)


def run_create(args: argparse.Namespace) -> int:
    """Create the topics; prints one ``created|exists NAME (N partitions)`` line per topic."""
    settings = load_settings(args, _CREATE_SETTINGS)
    connection = KafkaConnection.from_settings(settings)
    specs = worker_topics(
        claims=settings.claims_topic,
        verdicts=settings.verdicts_topic,
        dlq=settings.dlq_topic,
        partitions=args.partitions,
    )
    try:
        admin = KafkaAdminClient(**admin_config(connection, client_id="quantcheck-topics"))
    except KafkaError as exc:
        raise unreachable(connection, exc) from None
    try:
        outcomes = create_topics(admin, specs, replication_factor=args.replication_factor)
    except KafkaError as exc:
        raise UsageError(f"cannot create the topics: {exc}") from None
    finally:
        admin.close()
    for outcome in outcomes:
        state = "created" if outcome.created else "exists"
        count = "?" if outcome.partitions is None else str(outcome.partitions)
        print(f"{state:<7} {outcome.name} ({count} partitions)")
    return 0
