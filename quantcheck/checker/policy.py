"""What a claimed number can be in the evidence besides a match, and which of those the
check accepts: the "present but different" policy, as data.

Matching is value-first: when no evidence fact supports a claim fact, the claim's
numbers are looked up among every number the cited evidence writes. A number found
nowhere is *absent*. A number found, but inside a fact that differs from the claim's, is
*present but different*, and the difference says how. Some differences mean the claim
got the number wrong (another unit, another period); others only mean the evidence or
the claim says less (a data value written without its unit). The table below decides,
and docs/quantity-rules.md gives the panel figures each choice was measured with.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Difference(StrEnum):
    """How an evidence occurrence of a claimed number differs from the claim's fact."""

    OTHER_SIGN = "other_sign"  # the evidence writes the value negative, the claim does not
    SIGN_IN_WORDS = "sign_in_words"  # the claim says the minus in words: "down 1.7%"
    OTHER_VALUE = "other_value"  # same category, another value: the number in another scale
    OTHER_UNIT = "other_unit"  # the number in another unit of the same kind (USD vs EUR)
    OTHER_DIMENSION = "other_dimension"  # the number measures another kind of thing
    OTHER_PERIOD = "other_period"  # the value is stated for another period
    OTHER_DATE = "other_date"  # the number belongs to another date
    EVIDENCE_BOUND = "evidence_bound"  # the evidence bounds the value the claim states
    CLAIM_BOUND = "claim_bound"  # the claim bounds a value the evidence states plainly
    OTHER_BOUND = "other_bound"  # both bound the value, differently
    WITHOUT_UNIT = "without_unit"  # the evidence number has no unit, the claim's has one
    DATA_SHARE = "data_share"  # a claimed percentage is a bare number in data
    DOCUMENT_UNIT = "document_unit"  # a bare data value, in the unit the data states
    UNIT_NOT_CLAIMED = "unit_not_claimed"  # the evidence number has a unit the claim omits
    UNIT_STATED_APART = "unit_stated_apart"  # a bare data value; the data states its unit apart
    UNIT_LEFT_OUT = "unit_left_out"  # "42 million" against "£42 million"
    SCALE_UNSTATED = "scale_unstated"  # "30 degrees" against "30 °C": no scale on one side
    OTHER_NOUN = "other_noun"  # both count, different things
    IN_DATE = "in_date"  # the number is part of a date
    IN_CODE = "in_code"  # the number is part of a code or name
    SAME_CODE = "same_code"  # ...of the code the claim writes with it: "Scope 1", "Line 3"
    SAME_CLOCK = "same_clock"  # "2:08:41" a time taken on one side, a time of day on the other
    OTHER_READING = "other_reading"  # a score, an ordinal or a time of day
    UNREAD = "unread"  # the number stands in the evidence outside any fact
    LOOSE_WORD = "loose_word"  # a word that names the number loosely: "a pair", "both"
    RANK = "rank"  # a rank written otherwise: "fourth", "No. 4", "grade 9" for "4th"
    OTHER_CODE = "other_code"  # the claimed code's name is there with another number
    OTHER_THING = "other_thing"  # the value is said of something else (see .anchors)


@dataclass(frozen=True, slots=True)
class Treatment:
    """Whether a difference still supports the claim, and how a reason names it."""

    accepted: bool
    phrase: str


POLICY: dict[Difference, Treatment] = {
    Difference.OTHER_SIGN: Treatment(False, "in cited evidence with the other sign"),
    # "Public Works is down 1.7%" against a table's "-1.7%": the sign said in words.
    Difference.SIGN_IN_WORDS: Treatment(True, "in cited evidence as a decrease"),
    Difference.OTHER_VALUE: Treatment(False, "in cited evidence with another value"),
    Difference.OTHER_UNIT: Treatment(False, "in cited evidence in another unit"),
    Difference.OTHER_DIMENSION: Treatment(False, "in cited evidence measuring something else"),
    Difference.OTHER_PERIOD: Treatment(False, "in cited evidence for another period"),
    Difference.OTHER_DATE: Treatment(False, "in cited evidence as another date"),
    # A bound that the other side's value satisfies: "$105 million" against "at least $105
    # million", "up to 200 contacts" against "200 contacts". One that excludes it ("more
    # than 20%" against "20%") is another bound.
    Difference.EVIDENCE_BOUND: Treatment(True, "in cited evidence as a bound"),
    Difference.CLAIM_BOUND: Treatment(True, "in cited evidence without the claimed bound"),
    Difference.OTHER_BOUND: Treatment(False, "in cited evidence with another bound"),
    Difference.WITHOUT_UNIT: Treatment(False, "in cited evidence without a unit"),
    Difference.DATA_SHARE: Treatment(True, "in cited data as a share without its sign"),
    Difference.DOCUMENT_UNIT: Treatment(True, "in cited data in the unit the data states"),
    Difference.UNIT_NOT_CLAIMED: Treatment(False, "in cited evidence with a unit"),
    # "a positive rate of 0.0429" against a column whose header gives it in %: the claim
    # quotes the value as the data writes it.
    Difference.UNIT_STATED_APART: Treatment(
        True, "in cited data as written, its unit stated apart"
    ),
    # A bare amount of a million or more is as specific as its unit: "made 42 million in
    # profit" against "a £42 million profit". Small bare numbers are not ("12 days"
    # misread as a bare 12 is not "12 months").
    Difference.UNIT_LEFT_OUT: Treatment(
        True, "in cited evidence with the unit the claim leaves out"
    ),
    # "temperatures reached 30 degrees" against "30 °C" or "30 °F": degrees name no scale,
    # so the same written number in either is what the claim says.
    Difference.SCALE_UNSTATED: Treatment(True, "in cited evidence in degrees of a stated scale"),
    Difference.OTHER_NOUN: Treatment(False, "in cited evidence counting something else"),
    Difference.IN_DATE: Treatment(False, "in cited evidence only as part of a date"),
    Difference.IN_CODE: Treatment(False, "in cited evidence only as part of a name or code"),
    Difference.SAME_CODE: Treatment(True, "in cited evidence as the name or code the claim writes"),
    # "won in 2:08:41" against a results table's "2:08:41", or "Wanjiru's 2:23:16"
    # against "ran 2:23:16": hours, minutes and seconds read as a time taken on one side
    # and, with no word saying so, as a time of day on the other (see compare.py for
    # where: a clock of prose is left a time of day).
    Difference.SAME_CLOCK: Treatment(True, "in cited evidence as the same clock reading"),
    Difference.OTHER_READING: Treatment(False, "in cited evidence read otherwise"),
    Difference.UNREAD: Treatment(False, "in cited evidence outside any fact"),
    Difference.LOOSE_WORD: Treatment(True, "in cited evidence as a word for the number"),
    Difference.RANK: Treatment(True, "in cited evidence as the same rank"),
    Difference.OTHER_CODE: Treatment(False, "in cited evidence with another number"),
    # "the small pizza costs $18" where $18 is the large pizza's: the right number for
    # the wrong thing, the failure a citation hides best.
    Difference.OTHER_THING: Treatment(False, "in cited evidence said of something else"),
}

# Which difference a reason reports when several occurrences differ: the closest reading.
CLOSENESS: tuple[Difference, ...] = tuple(Difference)
