"""The cold-worker benchmark runs end to end against the real broker, tiny: both kinds of
run deliver every verdict and the result has every figure the summary quotes."""

from __future__ import annotations

import argparse

import pytest

from bench import cold_worker
from bench.run_all import md_cold_worker
from tests.support.kafka import KafkaBroker

CLAIMS = 150


@pytest.mark.integration
def test_a_tiny_run_reports_both_kinds_and_the_speed_up(kafka_broker: KafkaBroker) -> None:
    result = cold_worker.measure(
        kafka_broker.bootstrap, argparse.Namespace(claims=CLAIMS, rounds=1)
    )
    assert (result["claims"], result["rounds"]) == (CLAIMS, 1)
    assert result["documents"] >= 800
    for kind in cold_worker.KINDS:
        figures = result[kind]
        assert figures["seconds"] > 0
        assert figures["claims_per_s"] > 0
        assert figures["first_minute_claims_per_s"] > 0
        assert figures["peak_rss_mib"] > 0
    assert result["speedup"] == result["rounds_speedup"][0] > 0
    assert result["goal"]["met"] is (result["speedup"] >= cold_worker.SPEEDUP_GOAL)
    load = result["load"]
    assert load["facts_mib"] > 0
    assert load["text_mib"] > 0
    reading = result["reading"]
    assert reading["documents"] == result["documents"]
    assert reading["decode_cpu_seconds"] > 0
    assert reading["extract_cpu_seconds"] > 0
    summary = "\n".join(md_cold_worker(result))
    assert "| stored facts |" in summary
    assert "| extracting from text |" in summary
    assert f"**{result['speedup']}x**" in summary
