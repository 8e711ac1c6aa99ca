"""Scales and units that a caption, a title or a column header states for a table.

"(in thousands of dollars)", "$ in millions", "in millions, except per share data" above
a table, "Revenue ($M)" or "Amount (in thousands)" as a header. Each is read from a
short text only (a caption line, a header), so the patterns never meet a long input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from quantcheck.quantities import counts, units, written_units
from quantcheck.quantities.categories import MONEY_PREFIX
from quantcheck.quantities.phrases import MONEY_KEY_WORDS

# A caption longer than this is a sentence, not a caption.
MAX_CAPTION = 200

_SCALE_WORD = r"(?:thousand|million|billion|trillion)s?"
# Currency symbols ("$", "US$") and codes ("USD"); a code must not run into a word ("USDA").
_CURRENCY = "|".join(
    re.escape(symbol) + ("(?![A-Za-z])" if symbol[-1].isalpha() else "")
    for symbol in sorted(units.CURRENCY_PREFIXES, key=len, reverse=True)
)
# "in thousands", "in $ millions", "Dollars in thousands", "$ in millions",
# "in millions of U.S. dollars".
_IN_SCALE = re.compile(
    rf"(?:(?P<before>{_CURRENCY}|\b[A-Za-z]{{2,12}})\s+)?"
    rf"\b[Ii]n\s+(?:(?P<currency>{_CURRENCY})\s*)?(?P<scale>(?i:{_SCALE_WORD}))\b"
    r"(?:\s+of\s+(?P<unit>[A-Za-z.]+(?:\s+[A-Za-z]+){0,2}))?"
)
# A bracketed part of a header or caption: "($M)", "(000s)", "[USD millions]".
_MAX_COMPACT = 40
# A currency per a period ("GBP/year", "$/hr"), and a currency ending a header of words
# ("Total GBP").
_PER_PERIOD = re.compile(
    rf"(?P<currency>{_CURRENCY})\s*/\s*(?i:year|yr|annum|month|mo|week|wk|day|hour|hr)\b"
)
_TRAILING_CURRENCY = re.compile(rf"[A-Za-z]\s+(?P<currency>{_CURRENCY})\s*$")
# The brackets may also hold a note beside the statement, a semicolon apart.
_BRACKETED = re.compile(rf"[(\[]([^()\[\]]{{1,{2 * _MAX_COMPACT}}})[)\]]")
_PIECE = re.compile(
    rf"(?P<currency>{_CURRENCY})|(?P<thousands>'?000'?s?)|(?P<word>[A-Za-z]+)|(?P<filler>,)|\S"
)
_SCALE_WORD_ONLY = re.compile(_SCALE_WORD, re.IGNORECASE)
_THOUSANDS = Decimal(1000)
_FILLER_WORDS = frozenset({"in", "of", "amounts"})


@dataclass(frozen=True, slots=True)
class Statement:
    """What a caption or header states: a multiplier and the unit text (None if none);
    a caption may also state units column by column ("MSRP in US dollars", "# units:
    precip mm; snow_depth cm"): each as the words that name the column and the unit."""

    scale: Decimal = Decimal(1)
    unit: str | None = None
    columns: tuple[tuple[frozenset[str], str], ...] = ()

    def unit_of(self, column: str) -> str | None:
        """The unit this statement gives the column named ``column``, if it names one."""
        named = _words(column)
        found = [unit for subject, unit in self.columns if _names(subject, named)]
        return found[0] if len(set(found)) == 1 else None


@lru_cache(maxsize=4096)
def stated(text: str) -> Statement | None:
    """The scale and unit ``text`` (a caption or a header) states, or None. Headers
    repeat from table to table, so each is read once."""
    if len(text) > MAX_CAPTION:
        return None
    # "GBP/year", "$/hr": an amount per period is an amount in that currency.
    text = _PER_PERIOD.sub(r"\g<currency>", text)
    for bracketed in _BRACKETED.finditer(text):
        # "(unaudited; $ millions except per-share data)": a statement may share its
        # brackets with a note, a semicolon apart.
        whole = bracketed.group(1)
        for body in (whole, *whole.split(";")) if ";" in whole else (whole,):
            found = _compact(body) or _listed_currency(body)
            if found is not None:
                return found
    match = _IN_SCALE.search(text)
    if match is None:
        # A text that is nothing but a scale or a currency ("thousands of tonnes", "USD");
        # a bare unit word ("Year", "hours") is a key, read as such by evidence.
        found = _compact(text) if len(text) <= _MAX_COMPACT else None
        if found is None or (found.scale == 1 and found.unit not in units.CURRENCY_PREFIXES):
            # A header of words that ends in its currency: "Total GBP", "Price USD".
            last = _TRAILING_CURRENCY.search(text)
            return None if last is None else Statement(unit=last["currency"])
        return found
    unit = match["currency"] or _unit_after_of(match["unit"]) or _unit_before(match["before"])
    return Statement(_scale_word(match["scale"]), unit)


def _compact(body: str) -> Statement | None:
    """A bracketed statement: currencies, scale words and letters, "000", unit words,
    and nothing else ("$M", "USD millions", "in € thousands", "000s", "$'000")."""
    body = body.split("except", 1)[0]
    if body.strip().casefold() == "in":
        return Statement(unit="inch")  # "Sizes (in)": inches, not a filler word
    scale: Decimal | None = None
    unit: str | None = None
    letters: list[str] = []
    for piece in _PIECE.finditer(body):
        kind = piece.lastgroup
        written = piece.group()
        if kind == "currency":
            unit = unit or written
        elif kind == "thousands":
            scale = _THOUSANDS
        elif kind == "word":
            folded = written.casefold()
            if folded in _FILLER_WORDS:
                continue
            if _SCALE_WORD_ONLY.fullmatch(written):
                scale = _scale_word(written)
            elif written in units.SCALE_LETTERS or folded in units.CURRENCY_SCALES:
                letters.append(written)
            elif units.lookup(written) is not None:
                unit = unit or written
            else:
                return None
        elif kind != "filler":
            return None
    if letters:
        # A scale letter needs a currency beside it: "(m)" alone may be metres.
        if len(letters) > 1 or unit is None or units.CURRENCY_PREFIXES.get(unit) is None:
            return None
        letter = letters[0]
        scale = units.SCALE_LETTERS.get(letter) or units.CURRENCY_SCALES[letter.casefold()]
    if scale is None and unit is None:
        return None
    return Statement(scale or Decimal(1), unit)


def _listed_currency(body: str) -> Statement | None:
    """A currency listed among other remarks in a bracket: "(commercial, per package,
    USD)"."""
    parts = [part.strip() for part in body.split(",")]
    found = [part for part in parts if part in units.CURRENCY_PREFIXES]
    return Statement(unit=found[0]) if len(parts) > 1 and len(found) == 1 else None


def _scale_word(word: str) -> Decimal:
    return units.SCALE_WORDS[word.casefold().removesuffix("s")]


def _unit_after_of(words: str | None) -> str | None:
    """The longest run of the words after "of" that names a unit ("U.S. dollars")."""
    if words is None:
        return None
    parts = words.replace(".", "").split()
    for size in range(len(parts), 0, -1):
        candidate = " ".join(parts[:size])
        if units.lookup(candidate) is not None:
            return candidate
    return None


def _unit_before(word: str | None) -> str | None:
    """The currency or unit word before "in millions" ("$", "Dollars"), not any word."""
    if word is None:
        return None
    if word in units.CURRENCY_PREFIXES or units.lookup(word) is not None:
        return word
    return None


def caption_statement(text: str) -> Statement | None:
    """What a caption or a comment line above a table states: a scale and unit for every
    cell (see :func:`stated`), and units for the columns it names: "Fuel economy in
    EPA-estimated mpg; MSRP in US dollars", "median_household_income in USD", "All
    prices in USD" (every column of money)."""
    found = stated(text)
    columns = _column_units(text)
    if not columns:
        return found
    if found is None:
        return Statement(columns=columns)
    return Statement(found.scale, found.unit, columns)


def units_line(text: str) -> tuple[tuple[frozenset[str], str], ...]:
    """The units a ``# units:`` line gives column by column: "temperature degC; precip
    mm (water equivalent); snow_depth cm"."""
    found = []
    for clause in _CLAUSE_SPLIT.split(text[:MAX_CAPTION]):
        match = _NAMED_UNIT.fullmatch(clause.strip())
        if match is not None and (unit := _unit_text(match["unit"])) is not None:
            found.append((_words(match["subject"]), unit))
    return tuple(found)


# Clauses of a caption: split at a semicolon, or a full stop before a space.
_CLAUSE_SPLIT = re.compile(r";|\.(?=\s)")
# "MSRP in US dollars (base trim)", "All prices are shown in USD".
_SUBJECT_IN = re.compile(
    r"(?i:all\s+)?(?P<subject>[A-Za-z][\w /&'\-]{0,40}?)\s+"
    r"(?i:(?:are|is)\s+)?(?i:(?:given|shown|quoted|listed|expressed|stated|reported)\s+)?"
    r"(?i:in)\s+(?P<unit>[^()]{1,40}?)\s*(?:\(.*)?"
)
# "precip mm (water equivalent)": a column's name and its unit.
_NAMED_UNIT = re.compile(r"(?P<subject>[A-Za-z][\w\-]{0,40})\s+(?P<unit>[^\s()]{1,12})\s*(?:\(.*)?")
_WORD = re.compile(r"[a-z]+")
# Words that name no column: articles, and what every column of a table is.
_NOT_NAMES = frozenset({"the", "a", "an", "of", "and", "all", "data", "figure", "figures", "value",
                        "values", "amount", "amounts", "column", "columns"})  # fmt: skip
# Subjects that mean every column of money: "All prices in USD".
_MONEY_SUBJECTS = frozenset({"price", "prices", "cost", "costs", "fare", "fares", "fee", "fees",
                             "rate", "rates", "charge", "charges", "amount", "amounts",
                             "figure", "figures", "value", "values"})  # fmt: skip
MONEY_COLUMN = frozenset({"*money*"})
ALL_MONEY_COLUMNS = frozenset({"*all money*"})
# Qualifiers a column's name may glue to its quantity: "tmax", "tmin", "tavg".
_GLUED_QUALIFIER = re.compile(r"([a-z]+?)(?:max|min|avg|mean)")
_SHORTEST_STEM = 4


def _column_units(text: str) -> tuple[tuple[frozenset[str], str], ...]:
    if len(text) > 2 * MAX_CAPTION:
        return ()
    found = []
    for clause in _CLAUSE_SPLIT.split(text):
        match = _SUBJECT_IN.fullmatch(clause.strip())
        if match is None or _IN_SCALE.search(clause) is not None:
            continue
        unit = _unit_text(match["unit"])
        if unit is None:
            continue
        subject = _words(match["subject"])
        if subject & _MONEY_SUBJECTS and _is_currency(unit):
            # "All prices in USD": every column of prices; with "all", every column
            # that names no other thing it counts ("Summer (Jun-Sep)" but not "ports").
            everything = clause.strip().casefold().startswith("all ")
            found.append((ALL_MONEY_COLUMNS if everything else MONEY_COLUMN, unit))
        elif subject:
            found.append((subject, unit))
    return tuple(found)


def _unit_text(text: str) -> str | None:
    """The unit a short text names: from its start ("US dollars", "cents per kWh unless
    noted" is cents), else from its end ("EPA-estimated mpg" is mpg, "2024
    inflation-adjusted USD" is USD); None when it names none."""
    parts = text.replace("-", " ").split()
    for size in range(min(len(parts), 3), 0, -1):
        for candidate in (" ".join(parts[:size]), " ".join(parts[-size:])):
            if units.lookup(candidate) is not None or candidate in units.CURRENCY_PREFIXES:
                return candidate
            if size == 1 and written_units.as_written(candidate) is not None:
                return candidate
    return None


def _counts(word: str) -> bool:
    """Whether a word of a column's name is a plural noun, a thing the column counts."""
    noun = counts.counted_noun(word, 0)
    return noun is not None and noun.plural


def _is_currency(unit: str) -> bool:
    found = units.lookup(unit)
    category = units.CURRENCY_PREFIXES.get(unit) or (found.category if found else "")
    return category.startswith(MONEY_PREFIX)


def _words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.casefold())) - _NOT_NAMES


def _names(subject: frozenset[str], column: frozenset[str]) -> bool:
    """Whether a caption's subject names a column: every word of the subject is a word of
    the column's name ("land area" of "land_area_sq_mi"), or one a word of it shortens
    ("precip" of "precipitation"), or the start of one a word glues a qualifier to
    ("tmax" of "temperature")."""
    if subject in (MONEY_COLUMN, ALL_MONEY_COLUMNS):
        if not column.isdisjoint(MONEY_KEY_WORDS):
            return True
        return subject == ALL_MONEY_COLUMNS and not any(_counts(word) for word in column)
    return bool(subject) and all(
        any(_same_word(word, named) for named in column) for word in subject
    )


def _same_word(word: str, named: str) -> bool:
    if word == named:
        return True
    long_enough = len(word) >= _SHORTEST_STEM and len(named) >= _SHORTEST_STEM
    if long_enough and (word.startswith(named) or named.startswith(word)):
        return True
    glued = _GLUED_QUALIFIER.fullmatch(named)
    return glued is not None and word.startswith(glued.group(1))
