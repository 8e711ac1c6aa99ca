"""A worker frozen (SIGSTOP) with a batch in hand for longer than the session timeout is
evicted; the other worker takes its partitions over and checks the batch again. Thawed
(SIGCONT), the frozen worker must not commit its stale batch: a read_committed reader still
sees exactly one verdict per claim.

The freeze plan (when, whom, and how long after a burst of claims) comes from a seeded
random generator, printed and recorded like the kill test's; ``QUANTCHECK_FAULT_SEED``
replays it.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.faults.streams import (
    SEED_ENV,
    CommittedVerdicts,
    Trickle,
    assert_one_verdict_per_claim,
    assert_only_citation_failures_dead_lettered,
    fault_seed,
    freeze_process,
    record_figures,
    verdict_claim_ids,
)
from tests.stream.workers import WorkerProcess, load_handbook, make_topics, wait_until
from tests.support.kafka import KafkaBroker, consume_all

pytestmark = [pytest.mark.integration, pytest.mark.faults, pytest.mark.slow]

Names = Callable[[str], str]

CLAIM_COUNT = 20_000
PARTITIONS = 6
INSTANCES = ("a", "b")
# The broker's smallest allowed session timeout keeps each eviction short.
SESSION_TIMEOUT_MS = 6_000
# Longer than the session timeout plus the broker's expiry check, shorter than the
# transaction timeout (30 s), so the frozen worker's open transaction is not aborted for it.
FREEZE_S = 9.0
# Bursts of claims: each worker gets a few hundred at once and spends a good part of a
# second checking them, which is when a freeze should land.
BURST = 500
BURST_EVERY_S = 1.75
BATCH_RECORDS = 250
FREEZES = 5
# After a burst is acknowledged, the worker polls it within ~0.1 s and checks it for the
# next ~0.5 s; the freeze lands somewhere in that window.
LAND_AFTER_S = (0.1, 0.4)
STEP_TIMEOUT_S = 120


@dataclass(frozen=True)
class Freeze:
    """Freeze ``instance`` ``after_s`` seconds after the next burst of claims is published."""

    instance: str
    after_s: float


def freeze_plan(rng: random.Random) -> list[Freeze]:
    """FREEZES freezes, each of a randomly chosen worker at a random point after a burst."""
    return [
        Freeze(instance=rng.choice(INSTANCES), after_s=round(rng.uniform(*LAND_AFTER_S), 3))
        for _ in range(FREEZES)
    ]


def test_a_frozen_evicted_worker_commits_nothing_stale(
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
    record_property: Callable[[str, object], None],
) -> None:
    seed = fault_seed()
    plan = freeze_plan(random.Random(seed))
    record_property("fault_seed", seed)
    print(f"freeze plan from seed {seed} (replay with {SEED_ENV}={seed}): {plan}")
    context = f"(seed {seed})"

    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic, partitions=PARTITIONS)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    group = unique_topic("group")
    running = {
        name: workers(
            kafka_broker,
            topics,
            store_url,
            group=group,
            instance=name,
            extra=(
                "--session-timeout-ms",
                str(SESSION_TIMEOUT_MS),
                "--batch-max-records",
                str(BATCH_RECORDS),
            ),
        )
        for name in INSTANCES
    }

    def shared() -> bool:
        mine, theirs = (running[name].partitions() for name in INSTANCES)
        return bool(mine) and bool(theirs) and len(mine | theirs) == PARTITIONS

    wait_until(shared, 60, "both workers to share the partitions")
    stream = Trickle(
        bootstrap, topics.claims, "freeze", chunk=BURST, interval_s=BURST_EVERY_S, total=CLAIM_COUNT
    ).start()
    recoveries: list[float] = []
    try:
        with CommittedVerdicts(bootstrap, topics.verdicts, PARTITIONS) as progress:
            for number, freeze in enumerate(plan, start=1):
                victim = running[freeze.instance]
                holds = lambda victim=victim: bool(victim.partitions())  # noqa: E731
                wait_until(holds, STEP_TIMEOUT_S, f"freeze {number}'s victim to hold partitions")
                before = stream.published()
                wait_until(
                    lambda before=before: stream.published() > before,
                    STEP_TIMEOUT_S,
                    f"the burst before freeze {number} {context}",
                )
                time.sleep(freeze.after_s)
                started = time.monotonic()
                assert stream.published() < CLAIM_COUNT, f"the stream was over by freeze {number}"
                freeze_process(victim.pid, FREEZE_S)
                published = stream.published()
                wait_until(
                    lambda published=published: progress.count() >= published,
                    STEP_TIMEOUT_S,
                    f"the verdicts of every claim published before thaw {number} {context}",
                )
                recoveries.append(time.monotonic() - started)
                print(f"freeze {number}: {freeze}, recovered in {recoveries[-1]:.1f}s")
            wait_until(
                lambda: progress.count() >= CLAIM_COUNT,
                STEP_TIMEOUT_S,
                f"all {CLAIM_COUNT} verdicts {context}",
            )
    finally:
        claim_ids = stream.finish()

    for worker in running.values():
        assert worker.running(), f"a thawed worker died {context}"
        assert worker.stop() == 0
    verdicts = consume_all(bootstrap, topics.verdicts, expected=None, timeout_s=120)
    record_figures("eviction", seed, claim_ids, Counter(verdict_claim_ids(verdicts)), recoveries)
    assert_one_verdict_per_claim(verdicts, claim_ids, context)
    letters = consume_all(bootstrap, topics.dlq, expected=None, timeout_s=60)
    assert_only_citation_failures_dead_lettered(letters, claim_ids, context)
