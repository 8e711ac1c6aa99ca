"""Retry delays double up to a cap and start over after a success."""

from __future__ import annotations

import pytest
from quantcheck.worker.stream.backoff import Backoff


def test_delays_double_up_to_the_cap() -> None:
    backoff = Backoff(initial_s=0.25, maximum_s=2.0, jitter=0.0)
    assert [backoff.next_delay() for _ in range(6)] == [0.25, 0.5, 1.0, 2.0, 2.0, 2.0]
    assert backoff.attempts == 6


def test_reset_starts_over() -> None:
    backoff = Backoff(initial_s=1.0, maximum_s=8.0, jitter=0.0)
    backoff.next_delay()
    backoff.next_delay()
    backoff.reset()
    assert backoff.next_delay() == 1.0


def test_jitter_stays_within_its_band() -> None:
    seen: list[tuple[float, float]] = []

    def uniform(low: float, high: float) -> float:
        seen.append((low, high))
        return high

    backoff = Backoff(initial_s=1.0, maximum_s=1.0, jitter=0.2, uniform=uniform)
    assert backoff.next_delay() == pytest.approx(1.2)
    assert seen == [(0.8, 1.2)]


def test_a_cap_below_the_first_delay_is_refused() -> None:
    with pytest.raises(ValueError, match="initial_s"):
        Backoff(initial_s=2.0, maximum_s=1.0)
