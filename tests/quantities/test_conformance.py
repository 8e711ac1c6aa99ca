"""Conformance against a third-party corpus: the Recognizers-Text English test specs.

The four files in tests/data/recognizers-text/ (MIT, see SOURCE.md there) give inputs and
the quantities a reference recognizer finds in them. Not every case is a quantity in
quantcheck's sense, so each gold result is first sorted into scope by a fixed list of
categories (idioms, compounds, units the unit table does not hold...) decided from the
gold text and unit alone, never from what quantcheck outputs. The rest must be found by
:func:`extract` with the gold value, converted to quantcheck's base unit; cases whose
gold holds no quantity must yield no fact of the file's categories.

Months and years: the gold converts durations to seconds with a year of 365 days and a
month of 30 days. quantcheck never turns calendar units into seconds (``time_months``),
so for the comparison only, a ``time_months`` value written in years is mapped to
seconds at 365 days a year and one written in months at 30 days a month.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, localcontext
from pathlib import Path
from typing import Any

import pytest

from quantcheck.quantities.extract import extract
from quantcheck.quantities.facts import Mention, Relation

DATA = Path(__file__).resolve().parent.parent / "data" / "recognizers-text"

SECONDS_PER_GOLD_YEAR = Decimal(365 * 86400)
SECONDS_PER_GOLD_MONTH = Decimal(30 * 86400)
# Every file but the duration one must pass at least this share of its in-scope cases.
TARGET = Decimal("0.90")


@dataclass(frozen=True)
class Gold:
    """One expected result: its text, its span (half-open), its value and unit."""

    text: str
    start: int
    end: int
    value: Decimal | None
    unit: str | None


@dataclass(frozen=True)
class Case:
    """One input with its gold results, as the corpus lists it."""

    index: int
    text: str
    golds: tuple[Gold, ...]


@dataclass(frozen=True)
class Outcome:
    """What became of one case: skipped (with why), or checked (passed or not, and why)."""

    case: Case
    skip: str | None
    passed: bool = False
    detail: str = ""


def _decimal(text: Any) -> Decimal | None:
    if text is None or text == "null":
        return None
    return Decimal(str(text).rstrip("%"))


def load(name: str) -> list[Case]:
    """Read one spec file (it starts with a byte-order mark, hence utf-8-sig)."""
    raw = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8-sig"))
    cases = []
    for index, item in enumerate(raw):
        golds = []
        for result in item["Results"]:
            start = result["Start"]
            if "Length" in result:  # the date-time specs give a length...
                end = start + result["Length"]
                value = _decimal(result["Value"]["FutureResolution"].get("duration"))
                unit = "second"
            else:  # ...the number specs an inclusive end
                end = result["End"] + 1
                value = _decimal(result["Resolution"].get("value"))
                unit = result["Resolution"].get("unit")
            golds.append(Gold(result["Text"], start, end, value, unit))
        cases.append(Case(index, item["Input"], tuple(golds)))
    return cases


# Skip rules, in order: (category, test on the gold result and its input). Each category
# names a kind of language quantcheck deliberately does not read as a fact.
SkipRule = tuple[str, Callable[[Gold, str], bool]]


def _text(pattern: str) -> Callable[[Gold, str], bool]:
    compiled = re.compile(pattern, re.IGNORECASE)
    return lambda gold, _: compiled.search(gold.text) is not None


def _unit_in(*units: str) -> Callable[[Gold, str], bool]:
    return lambda gold, _: gold.unit in units


def _no_value(gold: Gold, _: str) -> bool:
    return gold.value is None


_NUMBER_BEFORE = re.compile(
    r"(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten))\s*(?:to|-|–)\s*$",
    re.IGNORECASE,
)


def _end_of_range(gold: Gold, text: str) -> bool:
    """The gold reads the far end of "eight to 10 feet"; quantcheck reads one interval."""
    return _NUMBER_BEFORE.search(text[: gold.start]) is not None


_DURATION_UNIT = r"\b(?:years?|months?|weeks?|days?|hours?|hrs?|h|minutes?|mins?|seconds?|secs?)\b"

DURATION_SKIPS: list[SkipRule] = [
    ("unsupported unit (decade, fortnight, business day)", _text(r"decade|fortnight|business")),
    (
        "compound duration (several units, or 'and a half')",
        _text(rf"\band (?:a )?half\b|{_DURATION_UNIT}.*\d*\s*{_DURATION_UNIT}"),
    ),
    ("vague quantity ('a couple of')", _text(r"\bcouple\b")),
    ("relative duration ('another hour')", _text(r"\banother\b")),
    ("idiom ('all day', 'full week', 'whole day')", _text(r"^(?:all|full|whole)\b")),
    ("article read as one ('an hour')", _text(r"^(?:(?:more|less) than )?an? ")),
]

MISSING_VALUE: SkipRule = ("unit without a number: not a quantity in quantcheck's sense", _no_value)

TEMPERATURE_SKIPS: list[SkipRule] = [
    MISSING_VALUE,
    ("degrees without a scale (Celsius or Fahrenheit unknown)", _unit_in("Degree")),
    ("misspelled unit", _text(r"farenheit|celcius|centigrate")),
]

PERCENT_SKIPS: list[SkipRule] = [
    MISSING_VALUE,
    ("unit before the number ('percent of 10')", _text(r"^per\s*cents?\b")),
    ("non-standard unit word ('percentage', 'percents')", _text(r"percentage|percents")),
    ("sign written as a word ('minus')", _text(r"\bminus\b")),
]

# Gold dimension units quantcheck's table holds: (category, factor to the base unit).
DIMENSION_UNITS: dict[str, tuple[str, Decimal]] = {
    "Meter": ("length_m", Decimal(1)),
    "Kilometer": ("length_m", Decimal(1000)),
    "Millimeter": ("length_m", Decimal("0.001")),
    "Inch": ("length_m", Decimal("0.0254")),
    "Foot": ("length_m", Decimal("0.3048")),
    "Mile": ("length_m", Decimal("1609.344")),
    "Kilogram": ("mass_kg", Decimal(1)),
    "Gram": ("mass_kg", Decimal("0.001")),
    "Metric ton": ("mass_kg", Decimal(1000)),
    "Pound": ("mass_kg", Decimal("0.45359237")),
    "Ounce": ("mass_kg", Decimal("0.028349523125")),
    "Milliliter": ("volume_l", Decimal("0.001")),
    "Gallon": ("volume_l", Decimal("3.785411784")),
    "Kilometer per hour": ("speed_m_per_s", Decimal(1000) / Decimal(3600)),
    "Mile per hour": ("speed_m_per_s", Decimal("0.44704")),
    "Megabyte": ("size_mb", Decimal(1)),
}
DIMENSION_CATEGORIES = frozenset(category for category, _ in DIMENSION_UNITS.values())

DIMENSION_SKIPS: list[SkipRule] = [
    MISSING_VALUE,
    (
        "unsupported unit (area, angle, bits, cooking, short ton...)",
        lambda gold, _: gold.unit not in DIMENSION_UNITS,
    ),
    ("unit excluded by design ('pounds' is also a currency)", _text(r"\bpounds?\b")),
    ("compound quantity ('5 ft 2 in')", _text(r"\d\s*(?:ft|feet)\s+(?:and\s+)?\d")),
    ("fraction ('10 1/2', '½')", _text(r"\d/\d|½")),
    ("unit in brackets ('20 (kg)')", _text(r"[(\[{<]")),
    ("end of a range: quantcheck reads the whole interval", _end_of_range),
]


def _skip_reason(gold: Gold, text: str, rules: list[SkipRule]) -> str | None:
    for category, applies in rules:
        if applies(gold, text):
            return category
    return None


def _overlaps(mention: Mention, gold: Gold) -> bool:
    return mention.span.start < gold.end and gold.start < mention.span.end


def _close(got: Decimal, want: Decimal) -> bool:
    """Equal up to the rounding of inexact conversions (stored to 1e-9 in the base unit)."""
    return abs(got - want) <= Decimal("1e-6") * max(Decimal(1), abs(want))


def _duration_seconds(mention: Mention) -> Decimal | None:
    fact = mention.fact
    if fact.relation is Relation.RANGE or not isinstance(fact.value, Decimal):
        return None
    if fact.category == "time_seconds":
        return fact.value
    if fact.category == "time_months":
        # The gold's own convention, for comparison only: see the module docstring.
        assert mention.literal is not None
        if mention.literal.numerator == 12:
            return fact.value / 12 * SECONDS_PER_GOLD_YEAR
        return fact.value * SECONDS_PER_GOLD_MONTH
    return None


def _expected(gold: Gold, file: str) -> tuple[str, Decimal]:
    """The gold result as quantcheck states it: category and value in the base unit."""
    assert gold.value is not None
    if file == "DurationParser":
        return "time_seconds", gold.value
    if file == "PercentModel":
        return "percent", gold.value
    if file == "TemperatureModel":
        if gold.unit == "F":
            with localcontext() as context:
                context.prec = 40
                return "temperature_c", (gold.value - 32) * 5 / 9
        return "temperature_c", gold.value
    category, factor = DIMENSION_UNITS[str(gold.unit)]
    return category, gold.value * factor


def _found(gold: Gold, file: str, mentions: tuple[Mention, ...]) -> bool:
    category, want = _expected(gold, file)
    for mention in mentions:
        if not _overlaps(mention, gold):
            continue
        if file == "DurationParser":
            got = _duration_seconds(mention)
            if got is not None and _close(got, want):
                return True
            continue
        fact = mention.fact
        if (
            fact.category == category
            and fact.relation is not Relation.RANGE
            and isinstance(fact.value, Decimal)
            and _close(fact.value, want)
        ):
            return True
    return False


FILES: dict[str, tuple[list[SkipRule], frozenset[str]]] = {
    "DurationParser": (DURATION_SKIPS, frozenset({"time_seconds", "time_months"})),
    "TemperatureModel": (TEMPERATURE_SKIPS, frozenset({"temperature_c"})),
    "PercentModel": (PERCENT_SKIPS, frozenset({"percent"})),
    "DimensionModel": (DIMENSION_SKIPS, DIMENSION_CATEGORIES),
}


def judge(file: str, case: Case) -> Outcome:
    """Skip the case, or check quantcheck's extraction of it against the gold."""
    rules, categories = FILES[file]
    mentions = extract(case.text).mentions
    if not case.golds:
        stray = [m.fact.label() for m in mentions if m.fact.category in categories]
        return Outcome(case, None, not stray, f"unexpected {stray}" if stray else "")
    in_scope = []
    reasons = []
    for gold in case.golds:
        reason = _skip_reason(gold, case.text, rules)
        if reason is None:
            in_scope.append(gold)
        else:
            reasons.append(reason)
    if not in_scope:
        return Outcome(case, "; ".join(dict.fromkeys(reasons)))
    missing = [g.text for g in in_scope if not _found(g, file, mentions)]
    got = [m.fact.label() for m in mentions]
    return Outcome(case, None, not missing, f"missing {missing}, got {got}" if missing else "")


def _report(file: str, outcomes: list[Outcome]) -> tuple[int, int]:
    checked = [o for o in outcomes if o.skip is None]
    passed = sum(o.passed for o in checked)
    print(f"\n{file}: {passed}/{len(checked)} in-scope cases pass, {len(outcomes)} in all")
    skips: dict[str, int] = {}
    for outcome in outcomes:
        if outcome.skip is not None:
            skips[outcome.skip] = skips.get(outcome.skip, 0) + 1
            print(f"  skip #{outcome.case.index} {outcome.case.text[:60]!r}: {outcome.skip}")
    for category, count in sorted(skips.items()):
        print(f"  skipped {count:3} x {category}")
    for outcome in checked:
        if not outcome.passed:
            print(f"  FAIL #{outcome.case.index} {outcome.case.text[:70]!r}: {outcome.detail}")
    return passed, len(checked)


@pytest.fixture(scope="module")
def results() -> dict[str, tuple[int, int]]:
    """Every file judged once; the table is printed (visible with ``pytest -s``)."""
    table = {}
    for file in FILES:
        outcomes = [judge(file, case) for case in load(file)]
        table[file] = _report(file, outcomes)
    print("\nfile               pass/in-scope  rate")
    for file, (passed, checked) in table.items():
        print(f"{file:18} {passed:4}/{checked:<8} {passed / checked:6.1%}")
    return table


@pytest.mark.parametrize("file", ["DurationParser", "TemperatureModel", "PercentModel"])
def test_in_scope_pass_rate_meets_target(results: dict[str, tuple[int, int]], file: str) -> None:
    passed, checked = results[file]
    assert checked >= 5, f"{file}: too few in-scope cases to mean anything"
    assert Decimal(passed) / checked >= TARGET, f"{file}: {passed}/{checked} below {TARGET}"


def test_dimension_pass_rate_meets_target(results: dict[str, tuple[int, int]]) -> None:
    passed, checked = results["DimensionModel"]
    assert checked >= 30
    assert Decimal(passed) / checked >= TARGET, f"DimensionModel: {passed}/{checked}"


def test_corpus_is_the_shipped_copy() -> None:
    """The files are read from the repository, unchanged, with their licence beside them."""
    assert (DATA / "LICENSE").read_text(encoding="utf-8").split()[:2] == ["MIT", "License"]
    sizes = {name: len(load(name)) for name in FILES}
    assert sizes == {
        "DurationParser": 56,
        "TemperatureModel": 43,
        "PercentModel": 20,
        "DimensionModel": 100,
    }


def test_skip_rules_are_decided_from_the_gold_alone() -> None:
    """A skip category never depends on quantcheck's output: same gold, same decision."""
    gold = Gold("an hour and a half", 0, 18, Decimal(5400), "second")
    assert _skip_reason(gold, gold.text, DURATION_SKIPS) == (
        "compound duration (several units, or 'and a half')"
    )
    plain = Gold("3 hours", 0, 7, Decimal(10800), "second")
    assert _skip_reason(plain, plain.text, DURATION_SKIPS) is None
