"""The relay baseline: the fastest kafka-python can move the claims through without checking.

It consumes the claim messages as raw bytes and produces each one unchanged (same key,
value and headers) to an output topic, batching exactly as the worker does: records are
collected until ``batch_max_records`` have arrived or ``batch_max_ms`` have passed since the
first, and each batch is then delivered as one unit:

* exactly-once: one transaction per batch holding the copies and the consumer offsets
  (``send_offsets_to_transaction``);
* at-least-once: the copies are sent and acknowledged, then the offsets are committed.

The consumer and producer take their settings from ``quantcheck.worker.stream.config``, as the
worker's do, so the two differ only in what happens between poll and produce. No call is
bounded by a helper thread and nothing is decoded, logged or counted: the relay is the
ceiling the worker is compared to, not a second worker.

Run as a child process by ``bench.kafka_throughput``::

    python -m bench.relay --bootstrap-servers HOST:PORT --input claims --output copies \\
        --group relay-1 --delivery exactly-once --report report.json
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from kafka import ConsumerRebalanceListener, KafkaProducer
from kafka.structs import OffsetAndMetadata, TopicPartition
from quantcheck.worker.stream.config import consumer_config, producer_config, transactional_id

from bench.broker import connection
from bench.under_test import TimedConsumer, dump_stacks_on_sigusr1, on_sigterm, write_report

POLL_TIMEOUT_MS = 100  # as the worker's loop
SEND_TIMEOUT_S = 30.0


class _Unheard(ConsumerRebalanceListener):  # type: ignore[misc]
    """The relay has nothing to do when its assignment changes."""

    def on_partitions_revoked(self, revoked: Any) -> None:
        pass

    def on_partitions_assigned(self, assigned: Any) -> None:
        pass


class Relay:
    """Copies batches of records from one topic to another, one delivery per batch."""

    def __init__(self, args: argparse.Namespace) -> None:
        conn = connection(args.bootstrap_servers)
        client_id = f"quantcheck-relay-{args.instance_id}"
        self.exactly_once = args.delivery == "exactly-once"
        self.output = args.output
        self.batch_max_records = args.batch_max_records
        self.batch_max_ms = args.batch_max_ms
        self.consumer = TimedConsumer(
            **consumer_config(
                conn,
                group_id=args.group_id,
                client_id=client_id,
                max_poll_records=args.batch_max_records,
            )
        )
        self.producer: Any = KafkaProducer(
            **producer_config(
                conn,
                client_id=client_id,
                transactional_id=(
                    transactional_id(args.group_id, args.instance_id) if self.exactly_once else None
                ),
            )
        )
        if self.exactly_once:
            self.producer.init_transactions()
        self.consumer.subscribe([args.input], listener=_Unheard())
        self.stopping = False
        self.relayed = 0

    def run(self) -> None:
        """Relay until asked to stop; the batch in progress is then dropped, not delivered."""
        pending: list[Any] = []
        started: float | None = None
        while not self.stopping:
            timeout_ms = POLL_TIMEOUT_MS
            if started is not None:
                left_ms = (started - time.monotonic()) * 1000 + self.batch_max_ms
                timeout_ms = int(min(max(left_ms, 0), POLL_TIMEOUT_MS))
            polled = self.consumer.poll(
                timeout_ms=timeout_ms, max_records=max(self.batch_max_records - len(pending), 1)
            )
            for records in polled.values():
                if records and started is None:
                    started = time.monotonic()
                pending.extend(records)
            if not pending or started is None:
                continue
            full = len(pending) >= self.batch_max_records
            if full or (time.monotonic() - started) * 1000 >= self.batch_max_ms:
                self.deliver(pending)
                self.relayed += len(pending)
                pending, started = [], None

    def deliver(self, records: list[Any]) -> None:
        """Produce copies of ``records`` and commit their offsets, as one unit or in order."""
        offsets: dict[Any, Any] = {}
        for record in records:
            tp = TopicPartition(record.topic, record.partition)
            offsets[tp] = OffsetAndMetadata(record.offset + 1, "", -1)
        producer = self.producer
        if self.exactly_once:
            producer.begin_transaction()
            for record in records:
                producer.send(
                    self.output, key=record.key, value=record.value, headers=record.headers
                )
            producer.send_offsets_to_transaction(offsets, self.consumer.group_metadata())
            producer.commit_transaction()
            return
        futures = [
            producer.send(self.output, key=record.key, value=record.value, headers=record.headers)
            for record in records
        ]
        producer.flush(timeout=SEND_TIMEOUT_S)
        for future in futures:
            if future.failed():
                raise future.exception
        self.consumer.commit(offsets=offsets)

    def close(self) -> None:
        """Leave the group and close the producer."""
        self.consumer.close(autocommit=False)
        self.producer.close(timeout=5)


def main() -> None:
    """Relay until SIGTERM, then write the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap-servers", required=True)
    parser.add_argument("--input", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--group-id", required=True)
    parser.add_argument("--instance-id", default="relay")
    parser.add_argument(
        "--delivery", choices=("exactly-once", "at-least-once"), default="exactly-once"
    )
    parser.add_argument("--batch-max-records", type=int, default=500)
    parser.add_argument("--batch-max-ms", type=int, default=200)
    parser.add_argument("--report", type=Path, required=True)
    args = parser.parse_args()
    dump_stacks_on_sigusr1()
    relay = Relay(args)

    def stop() -> None:
        relay.stopping = True

    on_sigterm(stop)
    try:
        relay.run()
    finally:
        relay.close()
    write_report(args.report, relayed=relay.relayed)


if __name__ == "__main__":
    main()
