"""Properties of extraction that must hold for any input, checked with generated examples."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from quantcheck.quantities import phrases, units
from quantcheck.quantities.categories import Scope
from quantcheck.quantities.extract import extract
from quantcheck.quantities.facts import CONTEXT, Fact, Literal, Relation, format_decimal
from tests.quantities.context_units import subject_for

# Pieces that exercise every branch of the scanner when glued together at random.
TOKENS = [
    *"0123456789",
    "-",
    "\u2212",
    "–",
    ",",
    ".",
    " ",
    "\n",
    "%",
    "$",
    "€",
    "£",
    "°",
    "℃",
    "１",
    "５",
    "ﬁ",
    "\u00a0",
    "\u0301",
    "between ",
    "from ",
    " to ",
    " and ",
    "about ",
    "not ",
    "no more than ",
    "at least ",
    "version ",
    "v",
    "Q",
    "half an ",
    "quarter of ",
    "one ",
    "twenty-",
    "hundred ",
    "million ",
    "k",
    "bn",
    "2026-",
    *phrases.MONTHS,
    *(alias for unit in units.UNITS for alias in unit.aliases),
    *(alias for unit in units.UNITS for alias in unit.exact_aliases),
    *units.CURRENCY_PREFIXES,
]

texts = st.one_of(
    st.text(),
    st.lists(st.sampled_from(TOKENS), max_size=40).map("".join),
    st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=3)), max_size=30).map("".join),
)


@settings(max_examples=400)
@given(text=texts, scope=st.sampled_from(list(Scope)))
def test_extraction_never_raises_and_spans_point_into_the_text(text: str, scope: Scope) -> None:
    result = extract(text, scope=scope)
    for mention in result.mentions:
        assert 0 <= mention.span.start <= mention.span.end <= len(text)
        assert text[mention.span.start : mention.span.end] == mention.text
        if not isinstance(mention.fact.value, str):
            assert "E" not in mention.fact.label().split("=", 1)[-1]


# Every alias with its unit, spelled so it can follow a number after one space.
ALIASES = [(unit, alias) for unit in units.UNITS for alias in (*unit.aliases, *unit.exact_aliases)]
# A sign only where a negative value means something.
SIGNED_CATEGORIES = {"temperature_c"}


@st.composite
def written_values(draw: st.DrawFn) -> tuple[Decimal, str]:
    """A Decimal and the way a writer might put it: sign, thousands separators, places."""
    places = draw(st.integers(min_value=0, max_value=4))
    whole = draw(st.integers(min_value=0, max_value=99_999_999))
    fraction = draw(st.integers(min_value=0, max_value=10**places - 1)) if places else 0
    grouped = draw(st.booleans())
    text = f"{whole:,}" if grouped else str(whole)
    if places:
        text += f".{fraction:0{places}d}"
    return Decimal(text.replace(",", "")), text


@settings(max_examples=500)
@given(pair=st.sampled_from(ALIASES), written=written_values(), negative=st.booleans())
def test_written_value_comes_back_normalized(
    pair: tuple[units.Unit, str], written: tuple[Decimal, str], negative: bool
) -> None:
    unit, alias = pair
    value, text = written
    if negative and unit.category in SIGNED_CATEGORIES:
        value, text = -value, f"-{text}"
    subject = subject_for(alias, unit.category)
    result = extract(f"The {subject} reading is {text} {alias} today.")
    assert len(result.mentions) == 1, (text, alias, result)
    mention = result.mentions[0]
    fact = mention.fact
    assert fact.category == unit.category
    assert fact.relation is Relation.EQ
    assert isinstance(fact.value, Decimal)
    expected = CONTEXT.divide(
        CONTEXT.multiply(CONTEXT.add(value, unit.shift), unit.numerator), unit.denominator
    )
    assert mention.literal is not None
    if mention.exact:
        assert fact.value == expected
        assert mention.literal.from_base(fact.value) == value
    else:
        # Stored to 1e-9 in the base unit, and reads back as written at its own precision.
        assert abs(fact.value - expected) <= Decimal("1e-9")
        assert mention.literal.rounds_to(fact.value)


@given(pair=st.sampled_from(ALIASES), written=written_values())
def test_conversion_round_trips_through_the_base_unit(
    pair: tuple[units.Unit, str], written: tuple[Decimal, str]
) -> None:
    unit, _ = pair
    value, _ = written
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)
    literal = Literal(value, exponent, Decimal(1), unit.shift, unit.numerator, unit.denominator)
    base = CONTEXT.divide(
        CONTEXT.multiply(CONTEXT.add(value, unit.shift), unit.numerator), unit.denominator
    )
    back = literal.from_base(base)
    if unit.denominator == 1:
        assert back == value
    else:
        # a division such as 5/9 leaves a remainder far below any written precision
        assert abs(back - value) <= Decimal("1e-60") * max(Decimal(1), abs(value))
    assert literal.rounds_to(base)


@given(
    value=st.decimals(allow_nan=False, allow_infinity=False, places=None).filter(
        lambda d: abs(d.adjusted()) < 30
    ),
    upper=st.decimals(allow_nan=False, allow_infinity=False, places=6),
    relation=st.sampled_from(list(Relation)),
)
def test_labels_never_contain_exponent_notation(
    value: Decimal, upper: Decimal, relation: Relation
) -> None:
    fact = Fact("size_mb", relation, value, upper if relation is Relation.RANGE else None)
    label = fact.label()
    numbers = label.split("=", 1)[1] if relation in {Relation.EQ, Relation.RANGE} else label
    assert "E" not in numbers
    assert "e" not in numbers.replace("size_mb", "")
    shown = format_decimal(value)
    assert Decimal(shown) == value
    # plain notation without trailing zeros: "90", "2.5", never "90.0" or "9E+1"
    assert shown == "0" or not (shown.endswith(".") or ("." in shown and shown.endswith("0")))
