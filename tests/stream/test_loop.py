"""The poll loop's own decisions, driven through fake clients: rebalances, an eviction in the
middle of a batch, calls that time out, records the verdicts topic refuses, and failures
that will never pass."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

import pytest
from kafka.errors import MessageSizeTooLargeError, TopicAuthorizationFailedError
from quantcheck.schemas import read_dead_letter_headers
from quantcheck.worker.observability.metrics import Metrics
from quantcheck.worker.stream.batch import BatchProcessor
from quantcheck.worker.stream.delivery import AtLeastOnceDelivery, Delivery, TransactionalDelivery
from quantcheck.worker.stream.health import Health
from quantcheck.worker.stream.loop import FATAL_ATTEMPTS, Worker, WorkerOptions
from quantcheck.worker.stream.publish import claim_message

from quantcheck.checker import Checker
from tests.stream.fakes import Cluster, FakeConsumer
from tests.stream.samples import KB_VERSION, SETTINGS, Versions, handbook, sample_claims

OPTIONS = WorkerOptions(
    claims_topic="claims",
    verdicts_topic=SETTINGS.verdicts_topic,
    dlq_topic=SETTINGS.dlq_topic,
    group_id=SETTINGS.group,
    instance_id="a",
    batch_max_records=8,
    batch_max_ms=1_000,
)


class Clock:
    """Time that moves only when the test says so (backoff waits included)."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Rig:
    worker: Worker
    consumer: FakeConsumer
    cluster: Cluster
    processor: BatchProcessor
    clock: Clock

    def step(self, turns: int = 1) -> None:
        for _ in range(turns):
            self.worker._step()

    def settle(self, turns: int = 40) -> None:
        """Run the loop, letting backoff delays pass, until it stops or ``turns`` are over."""
        for _ in range(turns):
            if self.worker.wait_for_stop_request(0):
                return
            self.clock.now += 10
            self.worker._step()

    def verdict_ids(self) -> Counter[str]:
        return Counter(
            json.loads(r.value or b"")["claim_id"]
            for r in self.cluster.committed
            if r.topic == SETTINGS.verdicts_topic
        )


def rig(*, exactly_once: bool = True, claims: int = 8) -> Rig:
    consumer = FakeConsumer("claims")
    consumer.known_topics = {"claims", SETTINGS.verdicts_topic, SETTINGS.dlq_topic}
    for event in sample_claims()[:claims]:
        consumer.append(0, *claim_message(event))
    cluster = Cluster(consumer)
    delivery: Delivery = (
        TransactionalDelivery(cluster.new_producer, consumer)
        if exactly_once
        else AtLeastOnceDelivery(cluster.new_producer, consumer)
    )
    processor = BatchProcessor(Checker(), Versions({KB_VERSION: handbook()}), SETTINGS)
    clock = Clock()
    worker = Worker(
        OPTIONS,
        consumer=consumer,
        delivery=delivery,
        processor=processor,
        metrics=Metrics(),
        health=Health(store_ping=lambda: None, clock=clock),
        clock=clock,
    )
    consumer.subscribe(["claims"], worker._events)
    consumer.rebalance({0})
    return Rig(worker, consumer, cluster, processor, clock)


def test_a_batch_is_delivered_once_with_its_offsets() -> None:
    r = rig()
    r.step()
    assert sum(r.verdict_ids().values()) == 8
    assert max(r.verdict_ids().values()) == 1
    assert r.consumer.committed_offsets == {next(iter(r.consumer.assignment())): 8}


def test_an_eviction_during_a_batch_commits_nothing_and_the_batch_is_read_again() -> None:
    r = rig()
    original = r.processor.process

    def evicted_while_checking(*args: object, **kwargs: object) -> object:
        # The heartbeat thread resets the generation while the main thread checks.
        r.consumer.evict()
        return original(*args, **kwargs)  # type: ignore[arg-type]

    r.processor.process = evicted_while_checking  # type: ignore[method-assign]
    r.step()
    assert r.cluster.committed == []
    assert r.consumer.committed_offsets == {}
    assert r.cluster.producers[0].aborts == 1
    assert r.worker.health.ready()[0] is False

    # Meanwhile another member checked the first half and committed it.
    tp = next(iter(r.consumer.assignment()))
    r.consumer.committed_offsets[tp] = 4
    r.processor.process = original  # type: ignore[method-assign]
    r.consumer.rejoin_after_eviction({0})
    r.settle()
    ids = r.verdict_ids()
    assert sum(ids.values()) == 4, "only what the other member had not committed is redone"
    assert set(ids) == {c.claim_id for c in sample_claims()[4:8]}
    assert r.consumer.committed_offsets[tp] == 8
    assert r.worker.health.degraded is None


def test_a_rebalance_drops_the_pending_batch_and_rereads_it() -> None:
    r = rig()
    r.worker._add(r.worker._poll(100, 3))  # part of a batch, not yet due
    assert len(r.worker._pending) == 3
    r.consumer.rebalance({0})
    r.settle()
    assert sum(r.verdict_ids().values()) == 8
    assert max(r.verdict_ids().values()) == 1


def test_a_partition_handed_back_is_read_on_from_what_another_member_committed() -> None:
    r = rig()
    r.worker._add(r.worker._poll(100, 3))  # part of a batch, not yet due
    tp = next(iter(r.consumer.assignment()))
    # In a generation this member missed, another member delivered the first five claims.
    r.consumer.committed_offsets[tp] = 5
    r.consumer.rebalance({0})
    r.settle()
    ids = r.verdict_ids()
    assert set(ids) == {c.claim_id for c in sample_claims()[5:8]}, "nothing delivered twice"
    assert sum(ids.values()) == 3
    assert r.consumer.committed_offsets[tp] == 8


def test_a_commit_that_times_out_abandons_the_producer_and_rereads_from_committed() -> None:
    r = rig()
    r.cluster.hang = True
    r.step()
    assert r.cluster.committed == []
    assert r.cluster.producers[0].abandoned
    r.cluster.hang = False
    r.settle()
    assert len(r.cluster.producers) == 2, "a new producer replaced the abandoned one"
    assert sum(r.verdict_ids().values()) == 8
    assert max(r.verdict_ids().values()) == 1


@pytest.mark.parametrize("exactly_once", [True, False], ids=["exactly-once", "at-least-once"])
def test_a_verdict_too_large_for_its_topic_is_dead_lettered_and_the_partition_moves_on(
    exactly_once: bool,
) -> None:
    r = rig(exactly_once=exactly_once)
    victim = sample_claims()[0].claim_id.encode()
    r.cluster.refuse = (
        lambda record: record.topic == SETTINGS.verdicts_topic and record.key == victim,
        MessageSizeTooLargeError("the record is larger than the topic's max.message.bytes"),
    )
    r.settle()
    ids = r.verdict_ids()
    assert victim.decode() not in ids
    assert len(ids) == 7
    letters = [r for r in r.cluster.committed if r.topic == SETTINGS.dlq_topic]
    refused = [letter for letter in letters if letter.key == victim]
    assert len(refused) == 1
    info = read_dead_letter_headers(refused[0].headers)
    assert info.kind == "verdict_too_large"
    assert refused[0].value == r.consumer.logs[0][0].value, "the claim is kept as read"
    assert r.consumer.committed_offsets[next(iter(r.consumer.assignment()))] == 8
    assert r.worker.health.degraded is None


def test_a_dead_letter_the_topic_refuses_is_fatal() -> None:
    r = rig(claims=16)
    r.cluster.refuse = (
        lambda record: record.topic == SETTINGS.dlq_topic,
        MessageSizeTooLargeError("too large"),
    )
    r.settle()
    assert r.worker.failure is not None
    assert "max.message.bytes" in r.worker.failure.fix
    assert r.worker.wait_for_stop_request(0)


def test_an_authorization_failure_stops_the_worker_after_a_bounded_number_of_tries() -> None:
    r = rig()
    r.cluster.commit_errors = [
        TopicAuthorizationFailedError("claims-dlq") for _ in range(FATAL_ATTEMPTS)
    ]
    r.step()
    ready, detail = r.worker.health.ready()
    assert not ready
    assert "grant" in detail
    assert r.worker.failure is None, "one failure is not yet the end"
    r.settle()
    assert r.worker.failure is not None
    assert "TopicAuthorizationFailedError" in r.worker.failure.cause
    assert r.worker.wait_for_stop_request(0)
    assert r.cluster.committed == []


def test_a_deleted_topic_stops_the_worker() -> None:
    r = rig(claims=0)
    r.consumer.known_topics.discard(SETTINGS.verdicts_topic)
    r.settle()
    assert r.worker.failure is not None
    assert SETTINGS.verdicts_topic in r.worker.failure.cause
    assert "topics create" in r.worker.failure.fix


def test_a_transient_failure_between_fatal_ones_does_not_end_the_worker() -> None:
    r = rig()
    errors: list[BaseException] = [
        TopicAuthorizationFailedError("claims-dlq") for _ in range(FATAL_ATTEMPTS - 1)
    ]
    r.cluster.commit_errors = errors
    r.settle()
    assert r.worker.failure is None
    assert sum(r.verdict_ids().values()) == 8
