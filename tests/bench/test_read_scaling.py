"""Reading evidence stays linear in every format: the time per megabyte at two megabytes
is within a generous factor of the time per megabyte at a tenth of one. Only the ratio
is checked, so the test holds on a slow machine as on a fast one."""

from __future__ import annotations

import pytest

from bench.common import cpu_timed
from bench.read_scaling import FORMATS, MEGABYTE, SIZES, document
from quantcheck.quantities import structured
from quantcheck.quantities.evidence import extract_document

# Quadratic reading shows as a ratio of about 20 between these sizes; noise stays far
# below this bound.
MAX_RATIO = 3.0
SMALL_ROUNDS = 3
# A machine busy with other work can slow one measurement down; linear reading passes
# on some attempt, quadratic reading on none.
ATTEMPTS = 3


def per_megabyte(text: str, rounds: int) -> float:
    """The fastest of ``rounds`` readings, in seconds per megabyte: the least noisy."""
    return min(cpu_timed(lambda: extract_document(text)) for _ in range(rounds)) / (
        len(text) / MEGABYTE
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", list(FORMATS))
def test_time_per_megabyte_is_flat_up_to_the_cut_off(name: str) -> None:
    small, large = document(name, SIZES["0.1"]), document(name, SIZES["2"])
    assert len(large) < structured.MAX_CHARACTERS
    # A data document must be read as data, or the test times prose.
    assert (not structured.read(small).cells) == (name == "prose")
    extract_document(small)  # warms the extractor's caches
    ratios: list[float] = []
    for _ in range(ATTEMPTS):
        ratios.append(per_megabyte(large, 1) / per_megabyte(small, SMALL_ROUNDS))
        if ratios[-1] < MAX_RATIO:
            break
    assert min(ratios) < MAX_RATIO, f"{name}: {min(ratios):.2f}x the time per megabyte at 2 MB"
