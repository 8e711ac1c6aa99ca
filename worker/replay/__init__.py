"""Replays: re-check a bounded window of a topic offline, and compare with what was recorded.

A replay reads with its own group-less consumer (``assign``, no commits), so the workers'
consumer group never notices it. :mod:`~worker.replay.window` fixes the window when the
replay starts, :mod:`~worker.replay.source` reads it, :mod:`~worker.replay.recorded`
indexes the outcomes recorded for it, :mod:`~worker.replay.replayer` re-checks it exactly
as the worker does and :mod:`~worker.replay.compare` names what changed.
:mod:`~worker.replay.run` ties them to the outputs: :mod:`~worker.replay.outputs` (rows),
:mod:`~worker.replay.report_html` (the page) and :mod:`~worker.replay.publishing` (Kafka).
"""
