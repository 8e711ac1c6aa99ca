"""``quantcheck publish``: publish the claims of a file to the claims topic."""

from __future__ import annotations

import argparse

from kafka.errors import KafkaError

from worker.errors import UsageError
from worker.inputs.claims import ClaimDefaults, iter_claims
from worker.settings import BY_NAME, add_settings, env_default
from worker.stream.clients import plain_producer
from worker.stream.config import CONNECTION_SETTINGS, KafkaConnection
from worker.stream.publish import publish_claims


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``publish`` to the ``quantcheck`` parser."""
    parser = subparsers.add_parser(
        "publish",
        help="publish claims from a CSV or JSON Lines file",
        description="Validate FILE completely, then publish one claim event per row, keyed "
        "by claim_id, and print how many were published. CSV rows take the knowledge-base "
        "version, model and retriever from the options below.",
    )
    add_settings(parser, CONNECTION_SETTINGS)
    add_settings(parser, ["kb_version"])
    parser.add_argument(
        "--topic",
        default=env_default(BY_NAME["claims_topic"]),
        help=f"topic to publish to (env {BY_NAME['claims_topic'].env}, default 'claims')",
    )
    parser.add_argument("--model", default="", help="model name for CSV rows")
    parser.add_argument("--retriever", default="", help="retriever name for CSV rows")
    parser.add_argument("file", metavar="FILE", help="claims: .csv, .jsonl or .ndjson")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Publish the file's claims; prints ``published N claims to TOPIC``."""
    connection = KafkaConnection.from_args(args)
    defaults = ClaimDefaults(kb_version=args.kb_version, model=args.model, retriever=args.retriever)
    # Every row is validated before the first is sent, so a bad file publishes nothing.
    events = [row.event for row in iter_claims(args.file, defaults=defaults)]
    with plain_producer(connection, client_id="quantcheck-publish", close_timeout_s=5) as producer:
        try:
            count = publish_claims(producer, args.topic, events)
        except KafkaError as exc:
            raise UsageError(f"cannot publish to {args.topic}: {exc}") from None
    print(f"published {count} claims to {args.topic}")
    return 0
