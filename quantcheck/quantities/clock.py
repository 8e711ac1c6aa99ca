"""Times of day: "12:30 AM", "8 p.m.", "14:30", "noon", as ``HH:MM`` on the 24-hour clock.

A time of day is a point on the clock, never a duration; the one exception is an
hours-and-minutes reading followed by "hours" ("took 2:05 hours"), which is 2 h 5 min.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from quantcheck.quantities.phrases import CLOCK_WORDS, DAYPARTS

# A 12-hour marker right after a position: "Monday 5 pm" is a time, not an identifier.
AMPM_AHEAD = re.compile(r"\s*(?:[ap]\.?\s?m\b|[AP]\.?\s?M\b)")


@dataclass(frozen=True, slots=True)
class ClockTime:
    """A time of day as ``HH:MM`` (``HH:MM:SS`` when seconds were written), and why it is
    not a real time when it is not."""

    text: str
    problem: str | None = None


def time_of_day(m: re.Match[str], prefix: str) -> ClockTime:
    """The time of day matched by the groups ``<prefix>_*`` of the clock pattern."""
    word = m[f"{prefix}_w"]
    if word is not None:
        return ClockTime(CLOCK_WORDS[word.casefold()])
    hour_text = m[f"{prefix}_h"] or m[f"{prefix}_hh"] or m.groupdict()[f"{prefix}_hb"]
    hour = int(hour_text)
    minute = int(m[f"{prefix}_m"] or 0)
    second = m[f"{prefix}_s"]
    marker = m[f"{prefix}_ap"] or m[f"{prefix}_ap2"]
    problem = None
    if marker is not None:
        if not 1 <= hour <= 12:
            problem = "not a time of day"
        hour = hour % 12 + (12 if _after_noon(marker) else 0)
    time = clock_text(str(hour), str(minute), second)
    return ClockTime(time.text, problem or time.problem)


def shared_marker(m: re.Match[str], first: ClockTime, second: ClockTime) -> ClockTime:
    """The first time of a range that has no marker of its own, read with the second's
    afternoon marker when that keeps it before the second: "from 2:00 to 3:15 p.m." is
    14:00 to 15:15, "from 11 to 1 p.m." stays 11:00 to 13:00."""
    own = m["c1_ap"] or m["c1_ap2"] or m["c1_w"]
    marker = m["c2_ap"] or m["c2_ap2"]
    if own is not None or marker is None or not _after_noon(marker):
        return first
    hour, rest = first.text.split(":", 1)
    if not 1 <= int(hour) <= 11:
        return first
    later = f"{int(hour) + 12:02d}:{rest}"
    return ClockTime(later, first.problem) if later <= second.text else first


def _after_noon(marker: str) -> bool:
    """Whether a marker ("p.m.", "AM", "in the evening") puts its time after noon."""
    part = marker.rsplit(maxsplit=1)[-1].casefold()
    return DAYPARTS[part] if part in DAYPARTS else marker.casefold().startswith("p")


def clock_text(hour: str, minute: str, second: str | None) -> ClockTime:
    """``HH:MM`` (``HH:MM:SS`` with seconds) on the 24-hour clock, with a problem when
    the parts name no time of day."""
    problem = None
    if int(hour) > 23 or int(minute) > 59 or (second is not None and int(second) > 59):
        problem = "not a time of day"
    # Whole minutes print as HH:MM however they were written: "15:30" is "15:30:00".
    seconds = "" if second is None or int(second) == 0 else f":{int(second):02d}"
    text = f"{int(hour):02d}:{int(minute):02d}{seconds}"
    return ClockTime(text, problem)


def duration(m: re.Match[str], prefix: str) -> Decimal | None:
    """Seconds of an hours-and-minutes duration ("2:05 hours"), or None when the written
    time is a time of day ("14:30 hrs", "08:30 hrs", "9:00 am")."""
    hour_text = m[f"{prefix}_h"]
    if hour_text is None or m[f"{prefix}_ap"] is not None:
        return None
    hour = int(hour_text)
    if hour >= 13 or (len(hour_text) == 2 and hour_text.startswith("0")):
        return None
    minute = int(m[f"{prefix}_m"])
    if minute > 59:
        return None
    second = int(m[f"{prefix}_s"] or 0)
    return Decimal(hour * 3600 + minute * 60 + second)
