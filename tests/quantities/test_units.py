"""The unit table: aliases, base units and exact conversion factors."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest

from quantcheck.quantities import units
from quantcheck.quantities.extract import extract
from tests.quantities.context_units import subject_for

ALL_ALIASES = [(unit, alias) for unit in units.UNITS for alias in unit.aliases]
ALL_EXACT = [(unit, alias) for unit in units.UNITS for alias in unit.exact_aliases]


def _id(pair: tuple[units.Unit, str]) -> str:
    return f"{pair[0].name}:{pair[1]}"


def factor(unit: units.Unit) -> Decimal:
    return unit.numerator / unit.denominator


@pytest.mark.parametrize("pair", ALL_ALIASES, ids=[_id(p) for p in ALL_ALIASES])
def test_alias_resolves_to_its_unit_in_any_case(pair: tuple[units.Unit, str]) -> None:
    unit, alias = pair
    assert units.lookup(alias) is unit
    assert units.lookup(alias.upper()) is unit or alias.upper() in units.EXACT_ALIASES
    assert units.lookup(alias.lower()) is unit or alias.lower() in units.EXACT_ALIASES


@pytest.mark.parametrize("pair", ALL_EXACT, ids=[_id(p) for p in ALL_EXACT])
def test_exact_alias_resolves_only_as_written(pair: tuple[units.Unit, str]) -> None:
    unit, alias = pair
    assert units.lookup(alias) is unit


@pytest.mark.parametrize(
    "pair", ALL_ALIASES + ALL_EXACT, ids=[_id(p) for p in ALL_ALIASES + ALL_EXACT]
)
def test_alias_is_read_in_text(pair: tuple[units.Unit, str]) -> None:
    unit, alias = pair
    mentions = extract(f"The {subject_for(alias, unit.category)} is 7 {alias} now.").mentions
    assert len(mentions) == 1, alias
    mention = mentions[0]
    assert mention.fact.category == unit.category
    assert mention.literal is not None
    assert mention.literal.numerator == unit.numerator
    assert mention.literal.denominator == unit.denominator
    assert mention.literal.shift == unit.shift


def test_no_alias_is_listed_twice() -> None:
    folded = Counter(" ".join(a.split()).casefold() for _, a in ALL_ALIASES)
    assert [alias for alias, count in folded.items() if count > 1] == []
    exact = Counter(alias for _, alias in ALL_EXACT)
    assert [alias for alias, count in exact.items() if count > 1] == []


def test_exact_aliases_do_not_shadow_other_units() -> None:
    for unit, alias in ALL_EXACT:
        other = units.FOLDED_ALIASES.get(alias.casefold())
        assert other is None or other is unit, alias


def test_index_refuses_a_duplicate(monkeypatch: pytest.MonkeyPatch) -> None:
    doubled = (*units.UNITS, units.Unit("again", "size_mb", aliases=("MB",)))
    monkeypatch.setattr(units, "UNITS", doubled)
    with pytest.raises(ValueError, match="listed twice"):
        units._index()


def test_every_category_has_its_base_unit() -> None:
    categories = {unit.category for unit in units.UNITS}
    assert categories == set(units.BASE_UNITS)
    for category, symbol in units.BASE_UNITS.items():
        base = units.lookup(symbol)
        assert base is not None, symbol
        assert base.category == category
        assert factor(base) == 1
        assert base.shift == 0


@pytest.mark.parametrize(
    ("alias", "base_value"),
    [
        ("ms", "0.001"),
        ("minute", 60),
        ("hour", 3600),
        ("day", 86400),
        ("week", 604800),
        ("year", 12),
        ("KB", "0.001"),
        ("GB", 1000),
        ("TB", 1000000),
        ("KiB", "0.001024"),
        ("MiB", "1.048576"),
        ("GiB", "1073.741824"),
        ("TiB", "1099511.627776"),
        ("B", "0.000001"),
        ("km", 1000),
        ("cm", "0.01"),
        ("mm", "0.001"),
        ("g", "0.001"),
        ("mg", "0.000001"),
        ("tonne", 1000),
        ("mL", "0.001"),
        ("Pa", "0.001"),
        ("MPa", 1000),
        ("bar", 100),
        ("mbar", "0.1"),
        ("mV", "0.001"),
        ("kV", 1000),
        ("mA", "0.001"),
        ("kW", 1000),
        ("MW", 1000000),
        ("kWh", 1000),
        ("MWh", 1000000),
        ("kHz", 1000),
        ("MHz", 1000000),
        ("GHz", 1000000000),
        ("L/s", 60),
        ("mL/min", "0.001"),
        ("cents", "0.01"),
    ],
)
def test_decimal_prefixes_are_exact(alias: str, base_value: str | int) -> None:
    unit = units.lookup(alias)
    assert unit is not None
    assert factor(unit) == Decimal(base_value)


def test_imperial_definitions_are_exact() -> None:
    def f(alias: str) -> Decimal:
        unit = units.lookup(alias)
        assert unit is not None
        return factor(unit)

    assert f("inch") == Decimal("0.0254")  # international inch
    assert f("foot") == 12 * f("inch")
    assert f("yard") == 3 * f("foot")
    assert f("mile") == 1760 * f("yard")
    assert f("lb") == Decimal("0.45359237")  # international pound
    assert f("ounce") * 16 == f("lb")
    # The US gallon is 231 cubic inches; a litre is a cubic decimetre.
    assert f("gallon") == 231 * (f("inch") * 10) ** 3
    assert f("gpm") == f("gallon")
    assert f("mph") == f("mile") / 3600
    # psi: a pound-force (pound times standard gravity) on a square inch, in kPa.
    psi = units.lookup("psi")
    assert psi is not None
    assert psi.numerator == f("lb") * Decimal("9.80665")
    assert psi.denominator == (f("inch") ** 2) * 1000


def test_temperature_conversions() -> None:
    fahrenheit = units.lookup("°F")
    kelvin = units.lookup("kelvin")
    assert fahrenheit is not None
    assert kelvin is not None
    assert (fahrenheit.shift, fahrenheit.numerator, fahrenheit.denominator) == (-32, 5, 9)
    assert (kelvin.shift, factor(kelvin)) == (Decimal("-273.15"), 1)
    assert extract("212 °F").mentions[0].fact.value == 100
    assert extract("0 K").mentions[0].fact.value == Decimal("-273.15")


def test_inexact_conversion_is_marked() -> None:
    inexact = extract("100 °F").mentions[0]
    assert not inexact.exact
    exact = extract("36 km/h").mentions[0]
    assert exact.exact
    assert exact.fact.value == 10


def test_months_and_years_never_become_seconds() -> None:
    for alias in ("month", "months", "year", "years", "yr"):
        unit = units.lookup(alias)
        assert unit is not None
        assert unit.category == "time_months"


def test_currency_tables_cover_every_money_category() -> None:
    money = {c for c in units.BASE_UNITS if c.startswith("money_")}
    assert set(units.CURRENCY_PREFIXES.values()) == money
    assert units.CURRENCY_SCALES["k"] == 1000
    assert units.SCALE_WORDS["million"] == 1000000
