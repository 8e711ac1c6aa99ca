"""Values an evidence sentence gives for an earlier time than its own: the comparison.

"Net income was $312 million, compared with $268 million a year earlier": the $268
million is last year's, and "net income was $268 million" is not what the evidence says
of now. A value is earlier when the words right before it say it was left behind ("up
from", "down from") or replaced ("instead of the usual 20"), or the words right after it
date it back ("a year earlier", "last year", "in the prior-year quarter"). A claim that
itself speaks of an earlier time or a comparison (`phrases.EARLIER_CLAIM_WORDS`) may
still be supported by it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from quantcheck.quantities.facts import Mention
from quantcheck.quantities.patterns import FROM_VALUE, alternation
from quantcheck.quantities.phrases import (
    CHANGE_ADVERBS,
    CHANGE_WORDS,
    EARLIER_AFTER,
    EARLIER_BEFORE,
    EARLIER_CLAIM_WORDS,
    REPLACED_BEFORE,
    UNIT_CARRIED_DETERMINERS,
    UNIT_CARRIED_QUALIFIERS,
)

# Right before the value, at most a hedge between, after a comma or a verb of being:
# "$312 million, up from (about) $268 million", "is down from 4.1%" (not "the trail runs
# down from 2,000 m").
_BEFORE = re.compile(
    r"(?:[,;(—–]|\b(?i:is|was|are|were))\s*"
    rf"(?i:{alternation(EARLIER_BEFORE)})\s+(?:(?i:about|roughly|around|nearly)\s+)?$"
)
# Right before it, what says another value replaced it: "40 minutes instead of the usual
# 20".
_REPLACED = re.compile(
    rf"\b(?i:{alternation(REPLACED_BEFORE)})\s+"
    rf"(?:(?i:{alternation(UNIT_CARRIED_DETERMINERS)})\s+)?"
    rf"(?:(?i:{alternation(UNIT_CARRIED_QUALIFIERS)})\s+)?$"
)
# Right after it, past a short restatement ("or $1.25 per diluted share,", "per diluted
# share,") at most; not "last year's", which starts a clause of its own.
_AFTER = re.compile(
    r"^(?:\s*,?\s*[^,;]{1,40}?,)?\s*,?\s*"
    rf"(?i:{alternation(EARLIER_AFTER)})\b(?!['’]s)"
)
_DATED = re.compile(
    r"\s*,?\s*(?i:in|for|on|during)\s+(?:(?i:the)\s+)?"
    r"(?:[A-Z][a-z]+\b|\d{4}\b|(?i:first|second|third|fourth)\s+(?i:quarter|half)\b|Q[1-4]\b)"
)
# A claim that compares: an earlier time, a verb of change ("rises to 35 cents from 32"),
# or "from" before a number.
_CHANGE_VERBS = tuple(word for word in CHANGE_WORDS if word not in CHANGE_ADVERBS)
_CLAIM = re.compile(
    rf"\b(?i:{alternation(EARLIER_CLAIM_WORDS + _CHANGE_VERBS)})\b"
    r"|\b(?i:from)\s+(?:(?i:about|roughly|around|nearly)\s+)?[$€£¥]?\d"
)
# A verb of change earlier in the sentence of a value spanned with its "from": the value
# the change left ("narrowed to 3.21% from 3.34%", "rose from $100 million to $125
# million"); not "runs down from 2,000 m", where nothing changed.
_CHANGED = re.compile(
    rf"\b(?i:{alternation(_CHANGE_VERBS)})\b"
    r"(?:(?![.;!?](?:\s|$))[^\n]){0,60}$"
)
_REACH = 60


@lru_cache(maxsize=4096)
def claims_now(wording: str) -> bool:
    """Whether a claim speaks of no earlier time and makes no comparison (asked once per
    fact of a claim, so kept per wording)."""
    return _CLAIM.search(wording) is None


def said_as_earlier(mention: Mention, text: str) -> bool:
    """Whether the prose around an evidence value gives it for an earlier time."""
    if mention.key is not None:
        return False  # data states periods by its keys
    start, end = mention.span.start, mention.span.end
    if _REPLACED.search(text, max(0, start - _REACH), start) is not None:
        return True  # the sentence's date is the new value's, not the one it replaced
    if mention.period is not None:
        return False  # a dated value is stated for its date
    opening = FROM_VALUE.match(mention.text)
    stop = start + (opening.end() if opening is not None else 0)
    changed = opening is not None and _CHANGED.search(text, max(0, start - _REACH), start)
    if changed or _BEFORE.search(text, max(0, start - _REACH), stop) is not None:
        # ...unless a date (or a name) follows that places it: "down from 3.1% in May"
        return _DATED.match(text, end, end + _REACH) is None
    return _AFTER.match(text[end : end + _REACH]) is not None
