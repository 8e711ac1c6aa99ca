"""Reading evidence documents: prose as claims are read, data cell by cell.

The structured regions of a cited document (a JSON document or Python literal, CSV and
markdown or HTML tables, key: value lists; see :mod:`.structured`) are read cell by
cell: each number takes its unit from what the document states for it (a units map, a
``# unit:`` line, a caption) or from its key, and the scale a caption or header states;
each text cell is read as prose, and each number is stated for the date of its own
record. The rest of the document is read as prose. Claims are always read as prose.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from decimal import Decimal, localcontext
from functools import lru_cache

from quantcheck.quantities import (
    counts,
    datelines,
    dates,
    listings,
    structured,
    units,
    written_units,
)
from quantcheck.quantities.bare_months import bare_months
from quantcheck.quantities.budget import CELL_BYTES, LONG_RUN, RUN_CHAR_BYTES, FactBudget
from quantcheck.quantities.categories import (
    COUNT_PREFIX,
    MEASURE_PREFIXES,
    MONEY_PREFIX,
    NUMBER,
    Scope,
    count_category,
    in_units_scope,
)
from quantcheck.quantities.extract import Extraction, extract
from quantcheck.quantities.facts import (
    CONTEXT,
    Fact,
    Literal,
    Mention,
    Relation,
    SetAside,
    Span,
)
from quantcheck.quantities.numbers import parse_number
from quantcheck.quantities.phrases import (
    CURRENCY_KEYS,
    KEY_DENOMINATORS,
    KEY_UNIT_ALIASES,
    MONEY_KEY_WORDS,
    PERCENT_KEY_WORDS,
    RECORD_CURRENCY_KEYS,
    UNIT_FIELD_KEYS,
    WRITTEN_UNIT_SYMBOLS,
    WRITTEN_UNIT_SYNONYMS,
)

# Units no table lists that a key may end with ("battery_mah", "energy_kcal").
WRITTEN_UNIT_NAMES = WRITTEN_UNIT_SYMBOLS | frozenset(WRITTEN_UNIT_SYNONYMS.values())


def extract_document(
    text: str, *, scope: Scope = Scope.ALL, budget: FactBudget | None = None
) -> Extraction:
    """Like :func:`extract`, but structured regions are read cell by cell (see
    :mod:`quantcheck.quantities.structured`), and a date written without a year
    also gets the year of the nearest full date before it (see :mod:`.datelines`): how
    evidence is read. Every fact, and every cell of data, is spent from ``budget``: the
    cells must be known to fit before they are read."""
    budget = budget or FactBudget(None)
    budget.require(sum(run.end() - run.start() for run in _LONG_RUN.finditer(text)), RUN_CHAR_BYTES)
    budget.require(structured.most_cells(text), CELL_BYTES)
    layout = structured.read(text)
    budget.spend(len(layout.cells), CELL_BYTES)
    if not layout.cells:
        read = extract(text, scope=scope, budget=budget)
        return replace(
            read,
            mentions=tuple(datelines.with_years(bare_months(text, read.mentions, budget))),
            listings=tuple(listings.in_prose(text)),
        )
    cells = _read_cells(text, layout.cells, scope, budget)
    mentions = list(cells.mentions)
    flags = set(cells.flags)
    set_aside: list[SetAside] = []
    listed = listings.in_data(layout.cells)
    for start, end in layout.prose:
        listed += listings.in_prose(text, start, end)
        found = extract(text[start:end], scope=scope, budget=budget)
        mentions += (replace(m, span=_shifted(m.span, start)) for m in found.mentions)
        flags.update(found.flags)
        set_aside += (replace(s, span=_shifted(s.span, start)) for s in found.set_aside)
    mentions.sort(key=lambda m: m.span.start)
    placed = tuple(datelines.with_years(bare_months(text, mentions, budget)))
    return Extraction(placed, tuple(sorted(flags)), tuple(set_aside), tuple(listed))


# Runs of characters long enough that reading them costs memory in proportion (see
# quantities/budget.py).
_LONG_RUN = re.compile(rf"[\w.,+#&\-]{{{LONG_RUN},}}")


def _shifted(span: Span, offset: int) -> Span:
    return Span(span.start + offset, span.end + offset)


# A number as data writes it: "-1.5", "1200", "1,200.50".
_DATA_NUMBER = re.compile(r"-?(?:\d{1,3}(?:,\d{3})++|\d++)(?:\.\d++)?")
# The bracketed part of a key, "price (USD)"; stripped where it is used. Possessive, so
# that a long key cannot make it backtrack.
_KEY_UNIT = re.compile(r"[(\[]([^()\[\]]++)[)\]]")
# Words of a key; a unit symbol keeps its digit ("size_m2", "area_km2").
_KEY_WORDS = re.compile(r"[A-Za-z%°$€£]+(?:[23](?![\d.]))?")


def _read_cells(
    text: str, table: tuple[structured.Cell, ...], scope: Scope, budget: FactBudget
) -> Extraction:
    """Facts of a data document: each number takes its unit from the document's units
    map or its key, each text cell is read as prose, and each number is stated for the
    date of its own record."""
    flags: set[str] = set()
    read: list[tuple[structured.Cell, list[Mention]] | tuple[structured.Cell, str]] = []
    dated: dict[int, Fact] = {}
    # Data repeats its texts ("light rain", "Available") and its keys: each is read once.
    read_texts: dict[str, Extraction] = {}
    key_units: _KeyUnits = {}
    currency = _currency_of(text, table)
    currencies = _record_currencies(text, table)
    stated_units = _stated_units(text, table)
    unnamed = _letters_naming_no_unit(table)
    for cell in table:
        written = text[cell.start : cell.end]
        if _DATA_NUMBER.fullmatch(written) and not _names_a_date(cell.key):
            read.append((cell, written))
            continue
        found = read_texts.get(written)
        if found is None:
            found = read_texts[written] = _read_text(written, scope, budget)
        else:
            budget.spend(len(found.mentions))  # the copies of a text read once
        flags.update(found.flags)
        if found.mentions and not any(c.isalpha() for c in written):
            # "135-145", "<5", "400–1,400" under "Dose (mg)" or beside a "Units" field:
            # a cell of one number form is in its key's unit, as a bare number is. The
            # bare reading of a range or bound is kept beside it: "aged 1-2" may quote an
            # "Age (years)" cell. A single value ("−13.5", "(4.1)") is one reading only,
            # and a fact with a unit of its own ("$40") is not read twice.
            unit = _key_unit(
                cell, key_units, currency, stated_units, unnamed, currencies=currencies
            )
            if unit.category != NUMBER:
                kept = tuple(
                    m
                    for m in found.mentions
                    if m.fact.category == NUMBER and m.fact.relation is not Relation.EQ
                )
                converted = tuple(_in_unit(m, unit) for m in found.mentions)
                found = replace(found, mentions=kept + converted)
        key = _key_path(cell)
        per = _per_measure_of(cell.key)
        moved = [
            _scaled(
                replace(
                    m,
                    fact=_per(m.fact, per),
                    span=_shifted(m.span, cell.start),
                    period=None,
                    key=key,
                    record=cell.record,
                    row=cell.row,
                ),
                cell.scale,
            )
            for m in found.mentions
        ]
        for mention in moved:
            if mention.fact.category in dates.PERIOD_CATEGORIES:
                dated.setdefault(cell.record, mention.fact)
        read.append((cell, moved))
    mentions: list[Mention] = []
    column_periods: dict[str, Fact | None] = {}
    for cell, found_here in read:
        if isinstance(found_here, str):
            unit = _key_unit(
                cell, key_units, currency, stated_units, unnamed, currencies=currencies
            )
            period = None
            if cell.column is not None:
                if cell.column not in column_periods:
                    column_periods[cell.column] = _period_named(cell.column)
                period = column_periods[cell.column]
            period = period or dated.get(cell.record)
            budget.spend()
            mentions.append(_data_value(cell, found_here, unit, period))
        else:
            mentions += found_here
    if scope is Scope.UNITS:
        mentions = [m for m in mentions if in_units_scope(m.fact.category)]
    return Extraction(tuple(mentions), tuple(sorted(flags)))


@lru_cache(maxsize=4096)
def _per_measure_of(key: str) -> str | None:
    """The measure a key states its values per ("Rate/ha", "Dose per kg"): a cell of
    "1.0 L" under it is the rate "1 L per hectare", as the claim "1 L/ha" is."""
    per = _KEY_PER.search(key)
    unit = None if per is None else units.lookup(per[1])
    if unit is None or not unit.category.startswith(MEASURE_PREFIXES):
        return None
    return unit.name


def _per(fact: Fact, measure: str | None) -> Fact:
    """An amount of matter as the rate per ``measure``, when a key states one."""
    category = fact.category
    if measure is None or "/" in category or not category.startswith(MEASURE_PREFIXES):
        return fact
    return replace(fact, category=f"{category}/{measure}")


_KEY_PER = re.compile(r"(?:/|\bper\s+)([A-Za-z]+)\s*$")


_COUNTED_KEY = re.compile(r"(?=\w*[A-Z])[A-Za-z]+s|[A-Z]{3,}")
_KeyUnits = dict[tuple[tuple[str, ...], str | None, units.Unit | None, str | None], units.Unit]
_StatedUnits = list[tuple[tuple[str, ...], int | None, units.Unit]]


def _key_unit(
    cell: structured.Cell,
    known: _KeyUnits,
    currency: str | None,
    stated_units: _StatedUnits,
    unnamed: frozenset[str],
    *,
    currencies: dict[int, str],
) -> units.Unit:
    """The unit of a cell's values (see :func:`_unit_of_key`), once per key, unit, stated
    unit and currency: a "Units" column states one per row, and so does a column of
    currency codes for the row's amounts (see :func:`_record_currencies`)."""
    stated = _stated_for(cell, stated_units)
    own = currencies.get(cell.record)
    signature = (cell.path or (cell.key,), cell.unit, stated, own)
    if signature not in known:
        named = cell.column is None or cell.column not in unnamed
        unit = _unit_of_key(cell, currency, stated, named=named)
        if own is not None and unit.category.startswith(MONEY_PREFIX):
            unit = units.lookup(own) or unit
        known[signature] = unit
    return known[signature]


def _record_currencies(text: str, table: tuple[structured.Cell, ...]) -> dict[int, str]:
    """The currency each record names as a code of its own ("USD" under "Code" or
    "Currency"): the currency of that record's amounts, whatever a caption states for
    the whole ("units of foreign currency per 1 euro (EUR)" over a table of rates)."""
    found: dict[int, str] = {}
    for cell in table:
        if cell.key.casefold() in RECORD_CURRENCY_KEYS:
            written = text[cell.start : cell.end].strip()
            if _CURRENCY_CODE.fullmatch(written) and written in units.CURRENCY_PREFIXES:
                found.setdefault(cell.record, units.BASE_UNITS[units.CURRENCY_PREFIXES[written]])
    return found


# How a currency code is written.
_CURRENCY_CODE = re.compile(r"[A-Z]{3}")


def _letters_naming_no_unit(table: tuple[structured.Cell, ...]) -> frozenset[str]:
    """A table's column headers of one letter, where one of them is no unit: a league
    table's "W", "D", "L" are wins, draws and losses, while "V", "A", "W" over a power
    supply's rows are volts, amps and watts."""
    letters = {
        cell.column
        for cell in table
        if cell.column is not None and len(cell.column) == 1 and cell.column.isalpha()
    }
    if all(units.lookup(letter) is not None for letter in letters):
        return frozenset()
    return frozenset(letters)


def _in_unit(mention: Mention, unit: units.Unit) -> Mention:
    """A plain number of a data cell in the unit its key names; other facts as they are."""
    fact = mention.fact
    if fact.category != NUMBER or not isinstance(fact.value, Decimal):
        return mention
    low, exact = units.to_base(fact.value, Decimal(1), unit)
    high = None
    if isinstance(fact.upper, Decimal):
        high, high_exact = units.to_base(fact.upper, Decimal(1), unit)
        exact = exact and high_exact
    literal = mention.literal
    if literal is not None:
        literal = replace(
            literal, shift=unit.shift, numerator=unit.numerator, denominator=unit.denominator
        )
    return replace(
        mention,
        fact=Fact(unit.category, fact.relation, low, high),
        literal=literal,
        exact=mention.exact and exact,
    )


def _read_text(written: str, scope: Scope, budget: FactBudget) -> Extraction:
    """A text cell read as prose. A string of JSON or a Python literal is spanned as the
    document writes it, escapes included ("\\n2 MP", "€\\u2009118.99"): it is read
    decoded, and its facts are spanned back onto the escapes."""
    if "\\" not in written:
        return extract(written, scope=scope, budget=budget)
    decoded, starts, ends = _decoded(written)
    found = extract(decoded, scope=scope, budget=budget)
    mentions = tuple(
        replace(
            m,
            span=Span(starts[m.span.start], ends[m.span.end - 1]),
            text=written[starts[m.span.start] : ends[m.span.end - 1]],
        )
        if m.span.end > m.span.start
        else m
        for m in found.mentions
    )
    return replace(found, mentions=mentions)


_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(.))", re.DOTALL)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}


def _decoded(written: str) -> tuple[str, list[int], list[int]]:
    """``written`` with its backslash escapes decoded, and for each decoded character the
    original offsets it came from."""
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    position = 0
    for match in _ESCAPE.finditer(written):
        for offset in range(position, match.start()):
            pieces.append(written[offset])
            starts.append(offset)
            ends.append(offset + 1)
        code = match.group(1) or match.group(2)
        char = chr(int(code, 16)) if code else _SIMPLE_ESCAPES.get(match.group(3), match.group(3))
        pieces.append(char)
        starts.append(match.start())
        ends.append(match.end())
        position = match.end()
    for offset in range(position, len(written)):
        pieces.append(written[offset])
        starts.append(offset)
        ends.append(offset + 1)
    return "".join(pieces), starts, ends


def _period_named(header: str) -> Fact | None:
    """The period a column header is, if it is nothing else ("2023", "Q1 2024", "FY
    2024"): the cells under it are stated for that period."""
    found = [
        m
        for m in extract(header).mentions
        if m.fact.category in dates.PERIOD_CATEGORIES and m.fact.relation is Relation.EQ
    ]
    if len(found) == 1 and len(header.strip()) - len(found[0].text) <= _HEADER_SLACK:
        return found[0].fact
    # A year as one part of a key of words: "population_2020", "2019_kt_co2e",
    # "Revenue 2024".
    years = [part for part in _KEY_PARTS.split(header) if _KEY_YEAR.fullmatch(part)]
    if len(years) != 1:
        return None
    return Fact(dates.YEAR, Relation.EQ, years[0])


_KEY_PARTS = re.compile(r"[\s_\-/]+")
_KEY_YEAR = re.compile(r"(?:19|20)\d\d")


# Characters a header may hold beside its period: "FY 2024" is read as the year 2024.
_HEADER_SLACK = 3


def _names_a_date(key: str) -> bool:
    """Whether a key names when its record is ("date", "Year", "fiscal_year"): a number
    under it is a year, read as prose reads one, and dates the values of its record."""
    words = {word.casefold() for word in _KEY_WORDS.findall(key)}
    return not words.isdisjoint(_DATE_KEY_WORDS) and words <= _DATE_KEY_WORDS | _DATE_QUALIFIERS


_DATE_KEY_WORDS = frozenset({"date", "year"})
_DATE_QUALIFIERS = frozenset({"fiscal", "calendar"})


def _data_value(
    cell: structured.Cell, written: str, unit: units.Unit, period: Fact | None
) -> Mention:
    """A number in data, in the unit its document states for its key, stated for the
    date of its record."""
    number = parse_number(written)
    scale = cell.scale if _is_amount(unit.category) or cell.own_scale else Decimal(1)
    base, exact = units.to_base(number.value, scale, unit)
    literal = Literal(
        number.value, number.exponent, scale, unit.shift, unit.numerator, unit.denominator
    )
    fact = Fact(unit.category, Relation.EQ, base)
    return Mention(
        fact,
        Span(cell.start, cell.end),
        written,
        exact=exact,
        literal=literal,
        period=period,
        key=_key_path(cell),
        record=cell.record,
        row=cell.row,
    )


def _key_path(cell: structured.Cell) -> str:
    """Where a value sits, as reasons print it: its key path ("main > temp_max")."""
    return " > ".join(cell.path) if cell.path else cell.key


def _is_amount(category: str) -> bool:
    """Whether a caption's scale ("in thousands") multiplies values of ``category``:
    amounts of money, counts and plain numbers, never percentages or measurements."""
    return category == NUMBER or category.startswith(_SCALED_PREFIXES)


_SCALED_PREFIXES = (MONEY_PREFIX, COUNT_PREFIX)


def _scaled(mention: Mention, scale: Decimal) -> Mention:
    """A mention read from a cell, multiplied by the scale its table states."""
    fact, literal = mention.fact, mention.literal
    if scale == 1 or literal is None or not _is_amount(fact.category):
        return mention
    with localcontext(CONTEXT):
        value = fact.value * scale if isinstance(fact.value, Decimal) else fact.value
        upper = fact.upper * scale if isinstance(fact.upper, Decimal) else fact.upper
    return replace(
        mention,
        fact=replace(fact, value=value, upper=upper),
        literal=replace(literal, scale=literal.scale * scale),
    )


def _stated_units(text: str, table: tuple[structured.Cell, ...]) -> _StatedUnits:
    """The units data states in a field of its own for the values beside and below it:
    ``"unit": "kWh"`` beside ``"readings": [...]``: each with the key path it covers."""
    found = []
    for cell in table:
        if cell.key.casefold() in UNIT_FIELD_KEYS:
            unit = _unit_named(text[cell.start : cell.end].strip(), as_written=True)
            if unit is not None:
                # A table's "Units" column states the unit of its own row only.
                record = cell.record if cell.column is not None else None
                found.append(((cell.path or (cell.key,))[:-1], record, unit))
    return found


def _stated_for(cell: structured.Cell, stated: _StatedUnits) -> units.Unit | None:
    """The unit a field of its own states for ``cell``: the nearest one above it."""
    path = cell.path or (cell.key,)
    covering = [
        (len(scope), unit)
        for scope, record, unit in stated
        if path[: len(scope)] == scope and record in (None, cell.record)
    ]
    return max(covering, key=lambda item: item[0])[1] if covering else None


def _unit_of_key(
    cell: structured.Cell,
    currency: str | None = None,
    stated: units.Unit | None = None,
    *,
    named: bool = True,
) -> units.Unit:
    """The unit of a data value: the one its document states (a units map, a caption,
    ``# unit:``), else from its key ("price (USD)", "duration_seconds", "glucose_mmol_l")
    or the nearest key above it that names one ("memory_gb" > "base"), else the
    document's currency for a key of money ("unit_price"), else a count of the key's
    noun ("employees"), else none."""
    # A unit the document states or brackets ("(hPa)") may be one no table lists; a word
    # of a key itself only names a listed unit ("duration_seconds").
    if cell.unit is not None and (unit := _unit_named(cell.unit, as_written=True)):
        return unit
    path = cell.path or (cell.key,)
    for depth, key in enumerate(reversed(path) if named else ()):
        # A key above the value names its unit only as a suffix ("memory_gb" > "base"); a
        # key of one word there names a collection ("days" > "high", "hours").
        if depth and len(_KEY_WORDS.findall(key)) < 2:
            continue
        unit = _unit_in_key(key)
        if unit is not None:
            return unit
    words = [word.casefold() for key in path[-2:] for word in _KEY_WORDS.findall(key)]
    if currency is not None and not MONEY_KEY_WORDS.isdisjoint(words):
        return units.lookup(currency) or units.Unit(name=NUMBER, category=NUMBER)
    if stated is not None and not _NOT_MEASURED.isdisjoint(words):
        stated = None  # an id, a count or a share is no reading in the stated unit
    if stated is not None:
        return stated
    leaf = _KEY_WORDS.findall(cell.key)
    if leaf:
        tail = _CAMEL_TAIL.search(leaf[-1])  # "maxReplicas" counts replicas
        noun = counts.counted_noun(leaf[-1] if tail is None else tail.group().casefold(), 0)
        if noun is not None and noun.plural:
            return units.Unit(name=noun.lemma, category=count_category(noun.lemma))
    return units.Unit(name=NUMBER, category=NUMBER)


def _unit_in_key(key: str) -> units.Unit | None:
    """The unit one key names: bracketed ("price (USD)"), as its last two words joined
    ("mmol_l"), or as its last word ("hz", "in"); a rate's "per month" is left aside
    ("late_fee_percent_per_month" is a percentage)."""
    for bracketed in _KEY_UNIT.findall(key):
        unit = _unit_named(bracketed.strip(), as_written=True)
        if unit is not None:
            return unit
    # A bracket that names no unit states a scale or a remark: "Harvested acres
    # (thousand)" is in acres.
    words = _KEY_WORDS.findall(_KEY_UNIT.sub(" ", key))
    folded = [word.casefold() for word in words]
    if any(a in _SHARE_WORDS and b == "of" for a, b in itertools.pairwise(folded)):
        return units.lookup("%")  # "max_match_pct_of_pay": a share of something
    if len(words) >= 3 and words[-2].casefold() == "per":
        words = words[:-2]
    scaled = _scaled_currency([word.casefold() for word in words[-2:]])
    if scaled is not None:
        return scaled
    if len(words) >= 2:
        # A unit of two words ends the key: "Sq ft" and "living_area_sq_ft" are square
        # feet, "Volume fl oz" fluid ounces, not feet and ounces.
        unit = units.lookup(f"{words[-2]} {words[-1]}")
        if unit is not None:
            return unit
    # "glucose_mmol_l" is mmol/l: a name, then a unit pair. "carbs_g" and "mtow_kg" are a
    # name and a unit: grams of carbs, not a unit "carbs/g".
    if len(words) >= 3 and words[-1].casefold() in KEY_DENOMINATORS:
        unit = _unit_named(f"{words[-2]}/{words[-1]}", as_written=True)
        if unit is not None:
            return unit
    if not words:
        return None
    last = words[-1]
    unit = _unit_named(KEY_UNIT_ALIASES.get(last.casefold(), last), as_written=False)
    tail = _CAMEL_TAIL.search(last)
    if unit is None and tail is not None and not last[: tail.start()].endswith("Per"):
        # "connectTimeoutMs", "ttlSeconds", "maxRequestBodyMB": a camel-cased key ends
        # with its unit.
        word = tail.group()
        unit = _unit_named(KEY_UNIT_ALIASES.get(word.casefold(), word), as_written=False)
    if unit is None and last.casefold() in WRITTEN_UNIT_SYNONYMS:
        # "Calories: 230" is 230 kcal, as "230 calories" is
        unit = _unit_named(WRITTEN_UNIT_SYNONYMS[last.casefold()], as_written=True)
    if unit is None and _folded_unit_name(last) in WRITTEN_UNIT_NAMES:
        # "battery_mah", "energy_kcal", "peak_brightness_nits": a unit no table lists,
        # which such a key names as plainly as "weight_g" does grams.
        unit = _unit_named(last, as_written=True)
    if (
        unit is None
        and len(words) == 1
        and _COUNTED_KEY.fullmatch(key) is not None
        and (written := written_units.as_written(key))
    ):
        # "vCPUs: 4", "RPM: 7200": a key of one word, a plural with a capital or three
        # capitals, that after a number would be read as a unit no table lists ("4
        # vCPUs") names that unit for its value; other keys are names more often
        # ("spec", "YoY")
        unit = written.unit
    return unit


def _scaled_currency(words: list[str]) -> units.Unit | None:
    """A currency code with a scale letter glued to it or beside it at the end of a key:
    "revenue_musd", "sales_usd_m", "capex_eur_bn" hold amounts in millions or billions."""
    tokens = [words[-1]] if words else []
    if len(words) == 2:
        tokens += [words[0] + words[1], words[1] + words[0]]
    for token in tokens:
        for letters, scale in units.CURRENCY_SCALES.items():
            for code in (token.removeprefix(letters), token.removesuffix(letters)):
                if len(code) != 3 or code == token:
                    continue
                unit = units.lookup(code.upper())
                if unit is not None and unit.category.startswith(MONEY_PREFIX):
                    return replace(unit, numerator=unit.numerator * scale)
    return None


_SHARE_WORDS = frozenset({"pct", "percent", "percentage"})
# Words of keys whose values a unit stated apart does not measure.
_NOT_MEASURED = _SHARE_WORDS | frozenset({"id", "count", "number", "no", "qty", "year", "rank"})
# The last part of a camel-cased key: "Ms" of "connectTimeoutMs", "MB" of "bodyMB".
_CAMEL_TAIL = re.compile(r"(?<=[a-z])(?:[A-Z][a-z]+|[A-Z]+)$")


def _folded_unit_name(word: str) -> str:
    """A key's last word as units no table lists are compared: "nits" is "nit"."""
    folded = word.casefold()
    return folded[:-1] if len(folded) > 3 and folded.endswith("s") else folded


def _currency_of(text: str, table: tuple[structured.Cell, ...]) -> str | None:
    """The currency data states apart, as a code or sign: ``"currency": "EUR"``."""
    for cell in table:
        if cell.key.casefold() in CURRENCY_KEYS:
            written = text[cell.start : cell.end].strip()
            if written in units.CURRENCY_PREFIXES:
                return units.BASE_UNITS[units.CURRENCY_PREFIXES[written]]
    return None


_PRICE_PER = re.compile(r"([$€£¥₹])\s*(?:/|per\s)\s*\w+")


def _unit_named(written: str, *, as_written: bool) -> units.Unit | None:
    """The unit a text names: a unit word or symbol, a currency symbol ("$"), a word that
    names a percentage ("humidity"), or (``as_written``) a unit no table lists ("hPa")."""
    unit = units.lookup(written)
    price = _PRICE_PER.fullmatch(written)
    if unit is None and price is not None:
        written = price.group(1)  # "$/hr" heads prices an hour: amounts of dollars
    if unit is None and written in units.CURRENCY_PREFIXES:
        unit = units.lookup(units.BASE_UNITS[units.CURRENCY_PREFIXES[written]])
    if unit is None and written.casefold() in PERCENT_KEY_WORDS:
        unit = units.lookup("%")
    if unit is None and as_written:
        found = written_units.as_written(written)
        unit = None if found is None else found.unit
    return unit
