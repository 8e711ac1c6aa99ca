"""Which way a claimed change goes, and which evidence value it started from.

"Revenue rose 20% to $125 million" against "rose to $125 million from $100 million": the
percentage between the two figures is 25% taken on the $100 million the evidence left
behind, and 20% only taken on the $125 million, which is the fall from 125 to 100. A
percentage change is read one way only: from the value the evidence gives as the start
("from $100 million", "up from") or the one stated for the earlier period, in the
direction the claim's word of change says.
"""

from __future__ import annotations

import re
from decimal import Decimal

from quantcheck.checker.earlier import said_as_earlier
from quantcheck.checker.periods import ends_before
from quantcheck.quantities.facts import Mention
from quantcheck.quantities.patterns import FROM_VALUE, alternation
from quantcheck.quantities.phrases import CHANGE_DOWN_WORDS, CHANGE_UP_WORDS

# How far the words that say what a claimed value computes stand from it, in characters.
NEAR = 40
_SENTENCE_STOP = re.compile(r"[.;!?](?:\s|$)")
_WAY = re.compile(
    rf"\b(?:(?P<up>(?i:{alternation(CHANGE_UP_WORDS)}))"
    rf"|(?P<down>(?i:{alternation(CHANGE_DOWN_WORDS)})))\b"
)


def around(wording: str, claim: Mention) -> tuple[str, str]:
    """The words of the claim's sentence within :data:`NEAR` characters before and after
    a claimed value."""
    start, end = claim.span.start, claim.span.end
    before = _SENTENCE_STOP.split(wording[max(0, start - NEAR) : start])[-1]
    after = _SENTENCE_STOP.split(wording[end : end + NEAR])[0]
    return before, after


def direction(wording: str, claim: Mention) -> int:
    """Which way the claim says its value changed, by the word of change nearest it in
    its sentence: 1 up ("rose 20%", "a 20% gain"), -1 down ("fell 20%"), 0 not said."""
    before, after = around(wording, claim)
    said_before = list(_WAY.finditer(before))
    last = said_before[-1] if said_before else None
    nearest = _WAY.search(after)
    if last is not None and (nearest is None or len(before) - last.end() <= nearest.start()):
        nearest = last
    if nearest is None:
        return 0
    return 1 if nearest["up"] is not None else -1


def left_behind(mention: Mention, text: str, other: Mention) -> bool:
    """Whether a text gives a value as the one a change to ``other`` started from: "from
    $100 million", "up from 4.1%", "$268 million a year earlier", or a value stated for a
    period that ends before the other's begins ("$100 million in 2023 and $125 million in
    2024")."""
    if mention.period is not None and other.period is not None:
        return ends_before(mention.period, other.period)
    return FROM_VALUE.match(mention.text) is not None or said_as_earlier(mention, text)


def may_go(old: Decimal, new: Decimal, way: int, *, old_left: bool, new_left: bool) -> bool:
    """Whether a change may be read as going from ``old`` to ``new``: not when only
    ``new`` is the value left behind, nor against the way the claim says it went."""
    return (old_left or not new_left) and way * (new - old) >= 0
