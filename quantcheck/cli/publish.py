"""``quantcheck publish``: publish the claims or answers of a file to the claims topic."""

from __future__ import annotations

import argparse

from kafka.errors import KafkaError

from quantcheck.errors import UsageError
from quantcheck.inputs.claims import AnswerRow, ClaimDefaults, iter_claims
from quantcheck.settings import BY_NAME, add_settings, load_settings
from quantcheck.worker.stream.clients import plain_producer
from quantcheck.worker.stream.config import CONNECTION_SETTINGS, KafkaConnection
from quantcheck.worker.stream.publish import publish_claims

_SETTINGS = (*CONNECTION_SETTINGS, "kb_version")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    """Add ``publish`` to the ``quantcheck`` parser."""
    parser = subparsers.add_parser(
        "publish",
        help=summary,
        description="Validate the file completely, then publish one event per row, keyed by "
        "claim_id (answer_id for answers), and print how many were published. CSV rows take "
        "the knowledge-base version, model and retriever from the options below.",
    )
    add_settings(parser, _SETTINGS)
    claims = BY_NAME["claims_topic"]
    parser.add_argument(
        "--topic",
        help=f"topic to publish to (default: the claims topic, env {claims.env}, "
        f"{claims.default!r})",
    )
    parser.add_argument("--model", default="", help="model name for CSV rows")
    parser.add_argument("--retriever", default="", help="retriever name for CSV rows")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "file", metavar="FILE", nargs="?", help="claims (.csv) or claim and answer events (.jsonl)"
    )
    source.add_argument(
        "--answers",
        metavar="FILE",
        help='answer events, one per line (.jsonl), with or without "event_type": "answer"',
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Publish the file's events; prints ``published N claims to TOPIC`` (or answers, or
    claims and answers)."""
    settings = load_settings(args, _SETTINGS)
    connection = KafkaConnection.from_settings(settings)
    topic = settings.claims_topic if args.topic is None else args.topic
    defaults = ClaimDefaults(
        kb_version=settings.kb_version, model=args.model, retriever=args.retriever
    )
    path = args.answers or args.file
    # Every row is validated before the first is sent, so a bad file publishes nothing.
    rows = list(iter_claims(path, defaults=defaults, answers=args.answers is not None))
    answers = sum(isinstance(row, AnswerRow) for row in rows)
    events = [row.event for row in rows]
    with plain_producer(connection, client_id="quantcheck-publish", close_timeout_s=5) as producer:
        try:
            count = publish_claims(producer, topic, events)
        except KafkaError as exc:
            raise UsageError(f"cannot publish to {topic}: {exc}") from None
    claims = count - answers
    what = " and ".join(
        f"{n} {noun}" for n, noun in ((claims, "claims"), (answers, "answers")) if n
    )
    print(f"published {what or '0 claims'} to {topic}")
    return 0
