"""Workers are SIGKILLed at random points of a 20,000-claim stream and restarted under the
same instance id: a read_committed reader still sees exactly one verdict per claim, with the
workers joining the group as dynamic members (the default) or as static ones, which get
their own partitions back on restart without a rebalance.

The claims arrive over a minute, as a live stream would, so that every kill hits a worker
with work in hand. The kill plan (when, and which worker) comes from a seeded
random generator; the seed is printed and recorded as a test property, and
``QUANTCHECK_FAULT_SEED`` replays the plan (the timing of the run around it varies).
"""

from __future__ import annotations

import random
import time
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
)
from tests.stream.workers import WorkerProcess, load_handbook, make_topics, wait_until
from tests.support.kafka import KafkaBroker, consume_all

pytestmark = [pytest.mark.integration, pytest.mark.faults, pytest.mark.slow]

Names = Callable[[str], str]

CLAIM_COUNT = 20_000
PARTITIONS = 6
INSTANCES = ("a", "b")
# Five rounds of the sample claims four times a second: the stream lasts about a minute,
# long enough for the slowest plan, every kill of a dynamic member the one restarted by the
# kill before (each waits about a session timeout for it to be at work again, see below).
CHUNK = 80
CHUNK_EVERY_S = 0.25
KILLS = 5
# Kills are planned between these times after the stream starts, one in each of KILLS
# equal slices, well before it ends: a kill of a worker restarted by the previous one
# waits until the group has handed it its partitions, about a session timeout (10 s).
FIRST_KILL_S = 2.0
LAST_KILL_S = 24.0
# The most a kill waits after it is due, so that it does not always follow a commit.
MAX_JITTER_S = 0.5
# Each kill costs about a session timeout of rebalancing on top of the checking.
STEP_TIMEOUT_S = 120


@dataclass(frozen=True)
class Kill:
    """SIGKILL ``instance`` ``at_s`` seconds into the stream (or, when it was restarted for
    an earlier kill, once it is at work again), after a further ``jitter_s``."""

    at_s: float
    instance: str
    jitter_s: float


def kill_plan(rng: random.Random) -> list[Kill]:
    """KILLS kills at random times of the stream, each of a randomly chosen worker."""
    slice_s = (LAST_KILL_S - FIRST_KILL_S) / KILLS
    return [
        Kill(
            at_s=round(FIRST_KILL_S + slice_s * (n + rng.random()), 2),
            instance=rng.choice(INSTANCES),
            jitter_s=round(rng.uniform(0, MAX_JITTER_S), 3),
        )
        for n in range(KILLS)
    ]


def working(worker: WorkerProcess) -> bool:
    """Whether the worker has committed a batch since it started."""
    return bool(worker.events("batch committed"))


@pytest.mark.parametrize("membership", ["dynamic", "static"])
def test_random_sigkills_lose_and_duplicate_no_verdict(
    membership: str,
    kafka_broker: KafkaBroker,
    unique_topic: Names,
    tmp_path: Path,
    workers: Callable[..., WorkerProcess],
    record_property: Callable[[str, object], None],
) -> None:
    seed = fault_seed()
    plan = kill_plan(random.Random(seed))
    record_property("fault_seed", seed)
    print(f"kill plan from seed {seed} (replay with {SEED_ENV}={seed}): {plan}")
    context = f"(seed {seed})"

    bootstrap = kafka_broker.bootstrap
    topics = make_topics(bootstrap, unique_topic, partitions=PARTITIONS)
    store_url = load_handbook(f"sqlite:///{tmp_path / 'store.db'}")
    group = unique_topic("group")
    runs = dict.fromkeys(INSTANCES, 0)

    def start(instance: str) -> WorkerProcess:
        runs[instance] += 1
        return workers(
            kafka_broker,
            topics,
            store_url,
            group=group,
            instance=instance,
            log_path=tmp_path / f"{instance}-{runs[instance]}.log",
            extra=("--static-membership", "true" if membership == "static" else "false"),
        )

    running = {name: start(name) for name in INSTANCES}

    def shared() -> bool:
        mine, theirs = (running[name].partitions() for name in INSTANCES)
        return bool(mine) and bool(theirs) and len(mine | theirs) == PARTITIONS

    wait_until(shared, 60, "both workers to share the partitions")
    # Each restarted worker, and the partitions its killed predecessor held.
    handed_back: list[tuple[WorkerProcess, set[int]]] = []

    stream = Trickle(
        bootstrap,
        topics.claims,
        "kill",
        chunk=CHUNK,
        interval_s=CHUNK_EVERY_S,
        total=CLAIM_COUNT,
    ).start()
    began = time.monotonic()
    try:
        with CommittedVerdicts(bootstrap, topics.verdicts, PARTITIONS) as progress:
            for number, kill in enumerate(plan, start=1):
                victim = running[kill.instance]
                wait_until(
                    lambda kill=kill, victim=victim: (
                        time.monotonic() - began >= kill.at_s and working(victim)
                    ),
                    STEP_TIMEOUT_S,
                    f"kill {number} to be due {context}",
                )
                time.sleep(kill.jitter_s)
                held = victim.partitions()
                victim.kill()
                at_kill = progress.count()
                assert at_kill < CLAIM_COUNT, f"the stream was over before kill {number} {context}"
                print(
                    f"kill {number}: worker {kill.instance} at "
                    f"{time.monotonic() - began:.1f}s, after "
                    f"{len(victim.events('batch committed'))} batches of its own, "
                    f"{at_kill} verdicts committed"
                )
                running[kill.instance] = start(kill.instance)
                handed_back.append((running[kill.instance], held))
            wait_until(
                lambda: stream.published() >= CLAIM_COUNT,
                STEP_TIMEOUT_S,
                f"the whole stream to be published {context}",
            )
            wait_until(
                lambda: progress.count() >= CLAIM_COUNT,
                STEP_TIMEOUT_S,
                f"all {CLAIM_COUNT} verdicts {context}",
            )
    finally:
        claim_ids = stream.finish()

    for worker in running.values():
        assert worker.running(), f"a restarted worker died {context}"
        assert worker.stop() == 0
    assert sum(runs.values()) == len(INSTANCES) + KILLS
    if membership == "static":
        for restarted, held in handed_back:
            first = restarted.events("assignment changed")[0]["partitions"]
            assert set(first) == held, "a static member gets its own partitions back"
    assert len(claim_ids) == CLAIM_COUNT

    # With every worker stopped no transaction is open, so this reads everything committed.
    verdicts = consume_all(bootstrap, topics.verdicts, expected=None, timeout_s=120)
    assert_one_verdict_per_claim(verdicts, claim_ids, context)
    letters = consume_all(bootstrap, topics.dlq, expected=None, timeout_s=60)
    assert_only_citation_failures_dead_lettered(letters, claim_ids, context)
