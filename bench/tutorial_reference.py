"""The baseline the pure check is measured against: the tutorial-style membership test.

Five quantity categories (time, percent, temperature, flow, file size) plus ISO dates
found by one regular expression each, normalized, and compared as sets: a claim passes
when every fact it states is in the cited text. No ranges, bounds, hedges, negation,
number words or caching. It exists only to give the benchmark a fixed point.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal

_DATE = re.compile(r"\b20\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b")
_QUANTITY = re.compile(
    r"(?P<value>\d+(?:\.\d+)?)\s*-?\s*"
    r"(?P<unit>litres?\s+per\s+minute|liters?\s+per\s+minute|l/min|degrees?\s+celsius|°\s*c|"
    r"megabytes?|mb|percent|%|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?)(?=$|\W)",
    re.IGNORECASE,
)
_SECONDS = {
    "sec": 1, "secs": 1, "second": 1, "seconds": 1, "min": 60, "mins": 60, "minute": 60,
    "minutes": 60, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "day": 86400,
    "days": 86400, "week": 604800, "weeks": 604800,
}  # fmt: skip


def facts(text: str) -> set[tuple[str, Decimal | str]]:
    """The normalized facts of ``text`` as (category, value) pairs."""
    found: set[tuple[str, Decimal | str]] = {("date", m.group(0)) for m in _DATE.finditer(text)}
    for match in _QUANTITY.finditer(text):
        value = Decimal(match["value"])
        unit = " ".join(match["unit"].lower().replace("°", "").split())
        if unit in _SECONDS:
            found.add(("time_seconds", value * _SECONDS[unit]))
        elif unit in {"percent", "%"}:
            found.add(("percent", value))
        elif unit.startswith(("degree", "c")):
            found.add(("temperature_c", value))
        elif unit.startswith(("lit", "l/")):
            found.add(("flow_l_per_min", value))
        else:
            found.add(("size_mb", value))
    return found


def check(
    text: str, cited: tuple[str, ...], retrieved: frozenset[str], documents: Mapping[str, str]
) -> str:
    """The status the membership test gives one claim."""
    if not cited:
        return "missing_citation"
    if any(doc_id not in documents for doc_id in cited):
        return "unknown_citation"
    if any(doc_id not in retrieved for doc_id in cited):
        return "citation_not_retrieved"
    claimed = facts(text)
    if not claimed:
        return "needs_review_no_quantity"
    evidence: set[tuple[str, Decimal | str]] = set()
    for doc_id in cited:
        evidence |= facts(documents[doc_id])
    return "unsupported_quantity" if claimed - evidence else "supported"
