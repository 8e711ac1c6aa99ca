"""Replays: re-check a bounded window of a topic offline, and compare with what was recorded.

A replay reads with its own group-less consumer (``assign``, no commits), so the workers'
consumer group never notices it. :mod:`.window` fixes the window when the replay starts,
:mod:`.source` reads it, :mod:`.recorded` indexes the outcomes recorded for it,
:mod:`.replayer` re-checks it exactly as the worker does and :mod:`.compare` names what
changed. :mod:`.run` ties them to the outputs: :mod:`.outputs` (rows), :mod:`.report_html`
(the page) and :mod:`.publishing` (Kafka).
"""
