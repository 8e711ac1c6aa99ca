"""Liveness follows the poll loop; readiness needs the group, the store and no degradation."""

from __future__ import annotations

from quantcheck.worker.stream.health import Health

from quantcheck.errors import StoreUnavailableError


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Store:
    def __init__(self) -> None:
        self.up = True
        self.pings = 0

    def ping(self) -> None:
        self.pings += 1
        if not self.up:
            raise StoreUnavailableError("connection refused")


def health(clock: Clock, store: Store) -> Health:
    return Health(store_ping=store.ping, stale_after_s=30.0, clock=clock)


def test_liveness_fails_once_the_loop_stops_turning() -> None:
    clock, store = Clock(), Store()
    probe = health(clock, store)
    assert probe.live()
    clock.now += 31
    assert not probe.live()
    probe.beat()
    assert probe.live()


def test_ready_with_partitions_and_a_reachable_store() -> None:
    clock, store = Clock(), Store()
    probe = health(clock, store)
    assert probe.ready() == (False, "not subscribed to the claims topic yet")
    probe.set_group(subscribed=True, assigned=0, stable=False)
    assert probe.ready() == (False, "joining the consumer group")
    probe.set_group(subscribed=True, assigned=3, stable=True)
    assert probe.ready() == (True, "3 partition(s) assigned")
    assert store.pings == 1


def test_an_idle_member_of_a_settled_group_is_ready() -> None:
    probe = health(Clock(), Store())
    probe.set_group(subscribed=True, assigned=0, stable=True)
    ready, detail = probe.ready()
    assert ready
    assert "without partitions" in detail


def test_not_ready_while_the_store_is_away_or_the_worker_degraded() -> None:
    store = Store()
    probe = health(Clock(), store)
    probe.set_group(subscribed=True, assigned=2, stable=True)
    store.up = False
    assert probe.ready() == (False, "document store unreachable: connection refused")
    store.up = True
    probe.set_degraded("document store unavailable")
    assert probe.ready() == (False, "degraded: document store unavailable")
    assert probe.degraded == "document store unavailable"
    probe.set_degraded(None)
    assert probe.ready()[0]


def test_not_ready_once_stopping() -> None:
    probe = health(Clock(), Store())
    probe.set_group(subscribed=True, assigned=2, stable=True)
    probe.set_stopping()
    assert probe.ready() == (False, "shutting down")
