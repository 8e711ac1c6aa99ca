"""A word each test sentence adds for a unit of two meanings ("C", "pounds"), which is read
as a unit only on a line that speaks of what it measures (phrases.CONTEXT_UNITS)."""

from __future__ import annotations

from quantcheck.quantities.phrases import CONTEXT_UNITS

_SUBJECTS = {"temperature_c": "temperature", "mass_kg": "weight"}


def subject_for(alias: str, category: str) -> str:
    """The word a sentence holding ``alias`` needs for it to be read as a unit, or ""."""
    return _SUBJECTS[category] if alias in CONTEXT_UNITS else ""
