"""Transitions between recorded and replayed outcomes, and the summary they add up to."""

from __future__ import annotations

import pytest
from quantcheck.worker.replay.compare import (
    Coordinates,
    Decision,
    ReplayedClaim,
    Tally,
    transition_of,
)

SUPPORTED = Decision("supported", "matched", verdict=True)
UNSUPPORTED = Decision("unsupported_quantity", "not in cited evidence", verdict=True)
UNKNOWN_VERSION = Decision("unknown_kb_version", "no such version", verdict=False)


@pytest.mark.parametrize(
    ("recorded", "new", "compared", "expected"),
    [
        (SUPPORTED, Decision("supported", "other words", verdict=True), True, "unchanged"),
        (SUPPORTED, UNSUPPORTED, True, "changed"),
        (None, SUPPORTED, True, "recorded_missing"),
        # No verdict then, none now: the worker would not have recorded one either.
        (None, UNKNOWN_VERSION, True, "unchanged"),
        (UNKNOWN_VERSION, SUPPORTED, True, "changed"),
        (SUPPORTED, UNSUPPORTED, False, "not_compared"),
    ],
)
def test_transitions(
    recorded: Decision | None, new: Decision, compared: bool, expected: str
) -> None:
    assert transition_of(recorded, new, compared=compared) == expected


def claim(recorded: Decision | None, new: Decision, *, compared: bool = True) -> ReplayedClaim:
    where = Coordinates("claims", 0, 1)
    return ReplayedClaim(
        "C1", where, where, 5, recorded, new, transition_of(recorded, new, compared=compared)
    )


def test_the_summary_starts_in_the_project_format_and_counts_transitions() -> None:
    tally = Tally(comparing=True)
    for _ in range(15):
        tally.add(claim(SUPPORTED, SUPPORTED))
    tally.add(claim(SUPPORTED, UNSUPPORTED))
    tally.add(claim(UNKNOWN_VERSION, SUPPORTED))
    tally.add(claim(UNKNOWN_VERSION, UNSUPPORTED))
    tally.add(claim(SUPPORTED, UNSUPPORTED))
    tally.add(claim(None, SUPPORTED))
    assert tally.lines() == [
        "claims=20",
        "supported=17",
        "unsupported_quantity=3",
        "supported -> unsupported_quantity: 2",
        "unknown_kb_version -> supported: 1",
        "unknown_kb_version -> unsupported_quantity: 1",
        "unchanged: 15",
        "recorded_missing: 1",
    ]
    assert tally.differences == 5


def test_without_comparison_nothing_differs() -> None:
    tally = Tally(comparing=False)
    tally.add(claim(None, SUPPORTED, compared=False))
    assert tally.lines() == ["claims=1", "supported=1", "not_compared: 1"]
    assert tally.differences == 0


def test_an_empty_replay_still_prints_every_line_scripts_look_for() -> None:
    assert Tally(comparing=True).lines() == ["claims=0", "unchanged: 0", "recorded_missing: 0"]
