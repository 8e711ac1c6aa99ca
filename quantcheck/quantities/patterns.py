"""Regular expressions compiled once from the unit and phrase tables.

Everything is written to run in time linear in the input: numbers use possessive
quantifiers and may only start where no digit, letter or dot precedes them, so a
megabyte of digits or of "1-1-1-" is scanned once instead of being retried at every
offset. Context (bounds, hedges, negation) is read from a bounded window before each
match, never by scanning backwards without limit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from quantcheck.quantities import phrases, units
from quantcheck.quantities.categories import MONEY_PREFIX
from quantcheck.quantities.facts import Relation
from quantcheck.quantities.numbers import EXPONENT
from quantcheck.quantities.regex_cache import compile_cached

_Trie = dict[str, "_Trie"]


def _first_chars(words: Iterable[str], *, fold: bool) -> str:
    """A lookahead that rejects a position whose character can start none of ``words``:
    one cheap test instead of walking a large alternation only to fail."""
    chars = {w[0] for w in words}
    if fold:
        chars |= {c.swapcase() for c in chars}
    return "(?=[" + "".join(re.escape(c) for c in sorted(chars)) + "])"


def alternation(words: Iterable[str]) -> str:
    """A regex matching any of ``words``, built as a trie so a failed match costs one
    character comparison per trie level rather than one per word. Longer words are
    tried before their prefixes ("liters per minute" before "liters"); a space in a
    word matches any run of whitespace."""
    trie: _Trie = {}
    for word in set(words):
        node = trie
        for token in _tokens(word):
            node = node.setdefault(token, {})
        node[""] = {}
    return _emit(trie)


def _tokens(word: str) -> list[str]:
    parts = word.split()
    tokens: list[str] = []
    for index, part in enumerate(parts):
        if index:
            tokens.append(" ")
        tokens.extend(part)
    return tokens


def _emit(node: _Trie) -> str:
    branches = []
    for token in sorted(k for k in node if k):
        piece = r"\s+" if token == " " else re.escape(token)
        branches.append(piece + _emit(node[token]))
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if "" in node:
        # the word may end here; trying the longer continuation first keeps matches greedy
        return f"(?:{body})?" if len(branches) == 1 else body + "?"
    return body


def _unit_alternation(spaced: bool) -> str:
    chosen = [u for u in units.UNITS if u.spaced == spaced]
    parts = []
    # Currencies first: the two alternations are tried in order, so "pounds sterling"
    # must be offered before the mass unit "pounds" that is its prefix.
    for money in (True, False):
        kind = [u for u in chosen if u.category.startswith(MONEY_PREFIX) == money]
        folded = [a for u in kind for a in u.aliases]
        exact = [a for u in kind for a in u.exact_aliases]
        names = []
        if folded:
            names.append(f"(?i:{alternation(folded)})")
        if exact:
            names.append(f"(?:{alternation(exact)})")
        # A currency written before a number is that number's ("aged 3–12 CAD 21.95"):
        # no suffix of the number before it.
        if names:
            parts.append(f"(?:{'|'.join(names)})" + (r"(?!\s*\d)" if money else ""))
    everything = [a for u in chosen for a in (*u.aliases, *u.exact_aliases)]
    guard = _first_chars(everything, fold=True)
    # A unit ends where a word ends; "/" and "²"-style suffixes make it another unit.
    return f"{guard}(?:{'|'.join(parts)})(?![\\w/])"


UNIT = _unit_alternation(spaced=False)
SPACED_UNIT = _unit_alternation(spaced=True)
# A unit right after a position: used to refuse identifiers such as "level 5%".
UNIT_AHEAD = re.compile(rf"\s*-?\s*{UNIT}|\s+{SPACED_UNIT}|\s*%")

_WORD_NUMBER_WORDS = (
    list(phrases.SMALL_NUMBER_WORDS) + list(phrases.TENS_WORDS) + list(phrases.MULTIPLIER_WORDS)
)
_WORD = f"(?:{alternation(_WORD_NUMBER_WORDS)})"
# A number in words is at most this many words after its first: enough for "nine hundred
# ninety-nine thousand nine hundred ninety-nine", and a bound that keeps a long run of
# number words ("one two three ...") from being rescanned to its end at every word.
MAX_EXTRA_NUMBER_WORDS = 12


def _not_after_number_word() -> str:
    """Lookbehinds refusing a start right after a number word and a space or hyphen.

    A run of number words is then entered only at its first word, so "one two three ..."
    costs one bounded attempt rather than one per word. Lookbehinds need a fixed width,
    so the words are grouped by length.
    """
    by_length: dict[int, list[str]] = {}
    for word in _WORD_NUMBER_WORDS:
        by_length.setdefault(len(word), []).append(word)
    return "".join(
        rf"(?<!\b(?:{'|'.join(sorted(words))})[\s-])" for _, words in sorted(by_length.items())
    )


_FRESH_NUMBER = _not_after_number_word()


def _word_number(joiner: str) -> str:
    return (
        rf"{_first_chars(_WORD_NUMBER_WORDS, fold=True)}"
        rf"(?i:{_FRESH_NUMBER}\b{_WORD}(?:{joiner}{_WORD}){{0,{MAX_EXTRA_NUMBER_WORDS}}}+\b)"
    )


WORD_NUMBER = _word_number(r"(?:\s+|-)(?:and\s+)?")
# After "between", "and" ends the first number: "between one and two seconds".
WORD_NUMBER_WITHOUT_AND = _word_number(r"(?:\s+|-)(?!and\b)")

# Digits, with any commas: whether "1,500" groups thousands or "1,5" is an ambiguous
# decimal comma is decided afterwards, so the scan never has to backtrack over digits.
DIGITS = r"\d++(?:,\d++)*+(?:\.\d++)?+(?!\.\d)"
SIGN = "[-\u2212]"
# A decimal written without its leading zero, as statistics write it: "p < .05", "r = .45".
LEADING_POINT = r"\.\d++(?![.,]\d)"
# Where a number may begin: not inside a word, an identifier like S01 or P-7, a version
# like 3.2.1, a URL escape like %20, the tail of 1,5, or the far end of a hyphenated
# pair like 3-4: that end is read with its range from the first number or not at all,
# never as -4 alone.
# ...except right after "<digits>x", where a count multiplies what follows: "4x1.6 GHz",
# and after a word that bounds a count by a hyphen: "the top-8 nations".
# Lookbehinds (fixed width, so one per word) refusing the position after "top-" and its kin.
_NOT_AFTER_BOUND_WORD = "".join(
    rf"(?<!\b(?i:{re.escape(word)})-)" for word in phrases.HYPHENED_BOUND_WORDS
)
START = (
    r"(?:(?<![\w.%])|(?<=\dx)|(?<=\d×))(?<!\d,)"
    rf"(?!(?<=[\w][-\u2212]){_NOT_AFTER_BOUND_WORD})"
)


def _number(name: str) -> str:
    words = (
        f"(?(q_between){WORD_NUMBER_WITHOUT_AND}|{WORD_NUMBER})"
        if name == "q_num1"
        else WORD_NUMBER
    )
    # "minus 5 °C" is -5 °C; not "plus or minus 3 points" or "plus/minus 3" (a margin),
    # "T minus 10 seconds" (a countdown) or "10 minus 3" (arithmetic).
    not_sign = r"(?<!or )(?<!/)(?<!T )(?<!T-)(?<!\d )"
    sign = rf"(?:{SIGN}(?=\.?\d)|{not_sign}(?i:minus)\s++(?=\.?\d))?"
    # "three (3) years": contracts restate a number in digits between the word and its
    # unit; the pair is one number, and the unit belongs to it.
    restated = rf"(?:\s*+\(\s*+{DIGITS}\s*+\))?+"
    digits = rf"{sign}(?:{DIGITS}|{LEADING_POINT})(?:{EXPONENT}(?![\w]|\.\d))?+"
    return rf"(?P<{name}>{digits}|{words}{restated})"


_SCALE_GUARD = _first_chars(units.SCALE_WORDS, fold=True)


def _scale(name: str) -> str:
    # A scale word ("million") or, glued to digits, a scale letter ("1.1M", "50k", "2bn").
    return (
        rf"(?:(?<=\d)(?P<{name}_letter>{alternation(units.SCALE_LETTERS)})(?![\w])"
        rf"|\s*+{_SCALE_GUARD}(?P<{name}>(?i:{alternation(units.SCALE_WORDS)}))\b)?"
    )


# "two and a half hours", "3 and a quarter miles": a whole number and a fraction.
_FRACTION = (
    rf"(?:\s++(?i:and)\s++(?i:an?)\s++(?P<q_frac>(?i:{alternation(phrases.FRACTION_WORDS)}))\b)?"
)
# A comparative between a number and its unit: "395 more miles", "3 additional days".
_COMPARED = rf"(?:\s++(?i:{alternation(phrases.COMPARED_WORDS)})(?=\s))?"


def _unit(name: str) -> str:
    return (
        rf"(?:{_COMPARED}\s*+-?\s*+(?P<{name}>{UNIT})"
        rf"|{_COMPARED}\s++(?P<{name}_spaced>{SPACED_UNIT}))"
    )


_TRAILING = alternation(phrases.TRAILING_BOUNDS)
_AFTER_UNIT = alternation([*phrases.TRAILING_AFTER_UNIT, *phrases.TRAILING_BOUNDS_AFTER_UNIT])


def _tail(name: str) -> str:
    """A trailing bound between a number and its unit: "5 or more years", "5+ years"."""
    return rf"(?:(?P<{name}>\+|-(?i:plus)|[ \t]++(?i:{_TRAILING}))(?![\w]))?"


# Full month names in any case ("april 14" in lower-cased news text); abbreviations only
# capitalized, as "mar" or "jan" in lower case are more often something else.
# Full month names in any case ("april 14" in lower-cased news text). "may" and "march"
# are also a verb in lower case: they are months only right before a day that ends the
# phrase ("on may 25,"); abbreviations only capitalized ("mar", "jan" are words too).
_FULL_MONTHS = [n for n in phrases.MONTHS if len(n) > 4 or n in {"June", "July"}]
_VERB_MONTHS = ["May", "March"]
_MONTH = (
    f"(?:(?i:{alternation(m for m in _FULL_MONTHS if m not in _VERB_MONTHS)})"
    f"|{alternation([*_VERB_MONTHS, *(m.upper() for m in _VERB_MONTHS)])}"
    f"|(?:may|march)(?=\\s+\\d{{1,2}}(?:st|nd|rd|th)?(?:\\s*[.,;:!?)]|\\s*$|\\s+\\d{{4}}))"
    f"|{alternation(n for n in phrases.MONTHS if n not in _FULL_MONTHS and n != 'May')})\\.?"
)
_DAY = r"\d{1,2}(?:st|nd|rd|th)?(?!\d)"
# A day after another: with its ordinal suffix, or bare where no unit or word follows
# ("June 19 and 20 percent" is no second day).
_SECOND_DAY = r"\d{1,2}(?:st|nd|rd|th)(?![\w:])|\d{1,2}(?![\d:])(?!\s*+(?:%|[A-Za-z]))"
_YEAR = r"\d{4}(?![\d])"
_ORDINAL = f"(?i:{alternation(phrases.ORDINAL_WORDS)})"
_FISCAL = r"(?i:fiscal(?:\s+year)?|FY)"

# The start of a date written with digits first, which a range must not swallow ("from
# 2026-10-01 to 2026-10-14", "from 1 Oct 2026").
_DAY_RANGE = r"\s*+(?:[-–—]|to|through|until|till)\s*+"
_DATE_AHEAD = rf"\d{{4}}-\d{{2}}-\d{{2}}|(?:{_DAY}{_DAY_RANGE})?{_DAY}\s+(?:of\s+)?{_MONTH}(?![\w])"

DATE_ALTERNATIVES = (
    # ISO dates, with a time of day as in data ("2024-01-04T00:00", "2024-01-04 06:00Z")
    r"(?<![\w.\-/])(?P<iso>\d{4}(?P<iso_sep>[-./])\d{2}(?P=iso_sep)\d{2})"
    r"(?:[T ](?P<iso_h>\d{2}):(?P<iso_m>\d{2})(?::(?P<iso_s>\d{2})(?:\.\d+)?)?"
    r"(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w\-/]|\.\d)",
    rf"\b(?P<mdy_m>{_MONTH})\s+(?P<mdy_d>{_DAY})(?![:\w])"
    # a second day of the same month: "January 7th and 8th", "March 6–7", "June 19 and 20"
    rf"(?:\s*+(?P<mdy_join>and|or|&|[-–—]|to|through)\s*+(?P<mdy_d2>{_SECOND_DAY}))?"
    rf"(?:,?\s+(?P<mdy_y>{_YEAR}))?",
    # a first day before the day and month: "16 to 19 May 2025", "6–7 March"
    rf"(?<![\w.])(?:(?P<dmy_d0>{_DAY}){_DAY_RANGE})?(?P<dmy_d>{_DAY})\s+(?:of\s+)?"
    rf"(?P<dmy_m>{_MONTH})(?![\w])"
    # "17 Jul 19": a two-digit year after a day and a month, as date lines abbreviate
    rf"(?:,?\s+(?P<dmy_y>{_YEAR})|\s+(?P<dmy_yy>\d{{2}})(?![\d:.,%\w]|\s*+[A-Za-z%]))?",
    rf"\b(?P<my_m>{_MONTH}),?\s+(?:of\s+)?(?P<my_y>{_YEAR})",
    # the year first, as spec sheets write it: "2022, May"
    rf"(?<![\w.])(?P<ym_y>{_YEAR}),\s*+(?P<ym_m>{_MONTH})(?![\w])"
    rf"(?:\s++(?P<ym_d>{_DAY})(?![:\w])|(?!\s*+\d))",
    # Day, month and a four-digit year in digits where the order is not in doubt: a day
    # above 12 first ("22/02/2024", "31-10-2024") or second ("02/22/2024"), or dots, which
    # only day-first writing uses ("16.08.2009"). "03/04/2024" could be either and stays
    # three numbers, matched as written.
    r"(?<![\w.\-/])(?:(?P<nd_d>1[3-9]|2\d|3[01])(?P<nd_s>[/\-])(?P<nd_m>0?[1-9]|1[0-2])(?P=nd_s)"
    r"|(?P<nd_m2>0?[1-9]|1[0-2])(?P<nd_s2>[/\-])(?P<nd_d2>1[3-9]|2\d|3[01])(?P=nd_s2)"
    r"|(?P<nd_d3>0?[1-9]|[12]\d|3[01])\.(?P<nd_m3>0?[1-9]|1[0-2])\.)"
    r"(?P<nd_y>(?:19|20)\d\d)(?![\w\-/]|\.\d)",
)


# Quarters and halves, with the year before or after in the common forms: "Q4 2020",
# "Q4'20", "4Q20", "1H 2024", "fourth quarter of 2020", "2020 fourth quarter",
# "fiscal 2022 second-quarter", "third-quarter 2023", "first half of fiscal 2024".
def _period_year_after(p: str) -> str:
    """The year written after a quarter or half; ``p`` prefixes its group names."""
    return (
        rf"(?:\s*+['’](?P<{p}_yy>\d{{2}})(?!\d)"
        rf"|\s++(?:(?i:of)\s++)?(?:{_FISCAL}\s*+)?(?P<{p}_y>{_YEAR})"
        rf"|\s*+(?i:FY)\s*+['’]?(?P<{p}_fy>\d{{4}}|\d{{2}})(?!\d))?"
    )


PERIOD_ALTERNATIVES = (
    rf"\b(?P<pq_k>Q(?=[1-4])|H(?=[12]))(?P<pq_n>\d)(?![\w]){_period_year_after('pq')}",
    # "3Q", "4Q20", "1H 2024"; a digit and H alone is no half ("1H NMR", "3H ago")
    rf"(?<![\w.])(?P<pn_n>[1-4])(?P<pn_k>Q|H)(?:['’]?(?P<pn_yy>\d{{2}})(?!\d)|\s*+(?P<pn_y>{_YEAR})"
    rf"|(?<=Q))(?![\w])",
    rf"(?:(?:{_FISCAL}\s*+)?(?P<pw_pre>{_YEAR})\s++)?\b(?P<pw_n>{_ORDINAL})"
    rf"[-\s]++(?P<pw_k>(?i:quarter|half))\b{_period_year_after('pw')}",
    rf"\b(?P<fy_k>{_FISCAL})\s*+['’]?(?P<fy_y>\d{{4}}|\d{{2}})(?![\w])",
    # decades: "the 1990s", "the late 1970s", "mid-1990s", "'90s"
    r"(?:\b(?P<dec_part>(?i:early|mid|late))[-\s]++)?(?P<dec>\d{3}0)['’]?s\b",
    r"(?:(?<![\w])['’]|(?<=\bthe\s))(?P<dec_yy>\d0)s\b",
    # a year with a part or a side: "mid-2020", "early 2021", "pre-2020", "post-2019"
    rf"\b(?P<yr_mod>(?i:early|mid|late|pre|post))[-\s]++(?P<yr>{_YEAR})",
    # centuries: "the 19th century", "early 20th-century", "the mid-1900s" is a decade
    r"(?:\b(?P<cen_part>(?i:early|mid|late))[-\s]++)?(?<![\w.])(?P<cen>\d{1,2})(?i:st|nd|rd|th)"
    r"[-\s]++(?i:century|centuries)\b",
)

# A year and the next written with its last two digits after a slash, as fiscal years and
# seasons are ("2023/24", "1998/99"): read as the span "2023-24" is. Which pairs are a year
# and its next is checked by the reader.
YEAR_SPAN = r"(?<![\w.\-/])(?P<ys_y>(?:1[89]|20)\d\d)/(?P<ys_yy>\d\d)(?![\w\-/]|[.,]\d)"

# A year and a month in digits, as data writes a month ("2024-03"): a month where the two
# digits are no next year ("2011-12" stays the season, see the reader).
ISO_MONTH = r"(?<![\w.\-/])(?P<im_y>(?:1[89]|20)\d\d)-(?P<im_m>0[1-9]|1[0-2])(?![\w\-/]|[.,:]\d)"

_AMPM = r"(?:[ap]\.?\s?m\.|[ap]m|[AP]\.?\s?M\.|[AP]M)(?![A-Za-z])"
# A change's first value is spanned with its "from" ("up from 200 MB", "from 40.2").
FROM_VALUE = re.compile(r"(?i:from)\s+")
# After hours and minutes only: "6:30 in the evening"; "5 in the morning" may be a count.
_DAYPART = rf"(?i:in\s+the\s+(?:{alternation(phrases.DAYPARTS)}))\b"


def _clock(p: str, *, first: bool = False) -> str:
    """One time of day; ``p`` prefixes its group names so a range can hold two. The first
    of a range may be a bare hour whose marker the second gives: "between 4 and 9 p.m."."""
    shared = (
        rf"|(?P<{p}_hb>\d{{1,2}})(?=\s*+(?:–|—|-|(?i:to|until|till|and))\s*+"
        rf"\d{{1,2}}(?::\d{{2}})?\s*+{_AMPM})"
        if first
        else ""
    )
    return (
        rf"(?:(?P<{p}_h>\d{{1,2}}):(?P<{p}_m>\d{{2}})(?::(?P<{p}_s>\d{{2}}))?(?![\d:])"
        rf"(?:\s*+(?P<{p}_ap>{_AMPM}|{_DAYPART}))?"
        rf"|(?P<{p}_hh>\d{{1,2}})\s*+(?P<{p}_ap2>{_AMPM})"
        rf"{shared}"
        rf"|(?P<{p}_w>(?i:{alternation(phrases.CLOCK_WORDS)}))\b)"
    )


CLOCK = (
    rf"(?<![\w.:])(?:(?P<c_between>(?i:between))\s++|(?i:from)\s++)?{_clock('c1', first=True)}"
    rf"(?:(?:(?(c_between)\s++(?i:and)\s++|(?!))|\s*+(?:–|—|-|(?i:to|until|till))\s*+)"
    rf"{_clock('c2')})?"
    r"(?P<c_hrs>\s*+(?i:hrs|hours|hour|hr|h)\b)?"
)

# Identifiers. A word that introduces one ("version 3.1", "Section 5 A", "flight 448"),
# a capitalized name and a number ("Kafka 3.7", "ISO 9001", "COVID-19", "X-200"), a
# code mixing letters and digits ("IP68", "A320", "3D"), or "737 MAX 9". Whether a
# candidate really is one (not "In 2019", not "10m") is decided when it is read.
_ID_WORD = alternation(phrases.IDENTIFIER_WORDS)
# Lengths are bounded so that a long run such as "1-1-1-..." costs constant work per
# offset, never a scan to its end.
_ID_NUMBER = r"\d(?:[\w.\-]{0,30}[\w])?"
IDENTIFIER_ALTERNATIVES = (
    rf"(?P<idw>(?i:{_ID_WORD}))(?![A-Za-z])[ \t]*+(?:#[ \t]*+)?(?P<idw_n>{_ID_NUMBER})"
    r"(?:\s(?P<idw_l>[A-Z])(?![\w\-]))?",
    r"\b(?P<idv>[vV])(?P<idv_n>\d+(?:\.\d+)*+)(?![\w])",
    r"\b(?P<idn>[A-Z][A-Za-z]++(?:-[A-Z][A-Za-z]++)?|[A-Z](?=-))[ \t-]"
    r"(?P<idn_n>\d++(?:[.\-]\d++){0,6}+)(?![\w\-]|\.\w|[,:]\d)",
    r"(?P<idc>(?=[A-Za-z0-9\-]{0,40}\d)[A-Za-z][A-Za-z0-9]*+(?:-[A-Za-z0-9]++){0,6}+"
    r"|\d++(?:-\d++){0,6}+-?[A-Za-z][A-Za-z0-9]*+(?:-[A-Za-z0-9]++){0,6}+)(?![\w\-]|\.\w)",
    r"(?P<idm>\d++\s[A-Z]{2,}+\s\d++)(?![\w.])",
    # a dotted version or address: "3.2.1", "192.168.0.1"
    r"(?P<iddot>\d++(?:\.\d++){2,6}+)(?![\w.])",
)

# A reference to a source by its number ("passage 2", "Sources 1 and 3", "Passage ID 4").
SOURCE_REFERENCE = (
    rf"(?i:{alternation(phrases.SOURCE_WORDS)})[ \t]++(?:(?i:id)[ \t]*+|#[ \t]*+)?\d{{1,3}}"
    r"(?:[ \t]*+(?:,|&|(?i:and))[ \t]*+\d{1,3}){0,6}+(?![\w\-]|[.,:]\d)"
)

# A citation marker such as "[2]", "[1, 3]", "[^2]", "^[3]" or "【2】": a reference to a
# source, not a value.
CITATION_MARKER = r"(?=[\[【^])\^?[\[【]\^?\d{1,3}(?:\s*,\s*\d{1,3})*[\]】]"

_CURRENCY = alternation(units.CURRENCY_PREFIXES)
_CURRENCY_SCALE = alternation(list(units.SCALE_WORDS) + list(units.CURRENCY_SCALES))


def _money_amount(p: str) -> str:
    # A sign before the symbol ("-$250", "−€1.4 million") is the amount's; the second
    # amount of a range takes none, as "$10-$20" joins its ends with the same dash.
    # A dash opening a line is a bullet ("-$25 late fee"), not a sign.
    sign = rf"(?P<{p}_sign>(?<=[^\n]){SIGN}(?=\S))?" if p == "m1" else ""
    return (
        rf"{sign}(?P<{p}_cur>{_CURRENCY})\s?(?P<{p}_num>{DIGITS})"
        rf"(?:\s*(?P<{p}_scale>(?i:{_CURRENCY_SCALE}))(?![\w]))?"
    )


MONEY = (
    rf"(?:(?P<m_between>(?i:between))\s++|(?i:from)\s++)?{_money_amount('m1')}"
    rf"(?P<m_tail>\+|[ \t]++(?i:{_TRAILING}))?(?![\w])"
    rf"(?:(?:(?(m_between)\s++(?i:and)\s++|(?!))|\s*+(?:–|—|-|(?i:to|through))\s*+)"
    rf"(?:{_money_amount('m2')}|(?P<m2_bare>{DIGITS})(?!\s*%)"
    rf"(?:\s*(?P<m2_bscale>(?i:{_CURRENCY_SCALE}))(?![\w]))?))?"
)

# "half an hour", "half hour", "half-hour", "a quarter of an hour".
MULTIPLE_WORD = rf"\b(?P<mult>(?i:{alternation(phrases.MULTIPLE_WORDS)}))\b"

HALF = (
    rf"\b(?:(?P<half>(?i:{alternation(phrases.FRACTION_WORDS)}))(?:\s+(?i:of))?(?:\s+(?i:an?))?"
    # "three-quarters of an hour", "two-fifths of a mile": a fraction of one unit.
    rf"|(?P<half_n>(?i:{alternation(phrases.SHARE_NUMERATORS)}))(?:-|\s+)"
    rf"(?P<half_d>(?i:{alternation(phrases.UNIT_FRACTION_DENOMINATORS)}))\s+(?i:of\s+an?))"
    rf"(?:\s+|-)(?P<half_unit>{UNIT})"
)

# "two-thirds of", "a quarter of", "half of": a share of a whole. A spaced fraction needs
# its "of" ("three quarters" may be three calendar quarters); a hyphenated one does not
# ("a two-thirds majority").
SHARE = (
    rf"\b(?:(?P<sh_n>(?i:{alternation(phrases.SHARE_NUMERATORS)}))(?P<sh_sep>-|\s++)"
    rf"(?P<sh_d>(?i:{alternation(phrases.SHARE_DENOMINATORS)}))|(?P<sh_half>(?i:half)))\b"
    # ...of a whole, not of a unit or a number: "a quarter of an hour" is read by HALF,
    # "a quarter of a million" is an amount
    rf"(?!\s++(?i:of)\s++(?:(?i:an?)\s++)?"
    rf"(?:{UNIT}|(?i:{alternation(phrases.MULTIPLIER_WORDS)}))(?![A-Za-z]))"
    rf"(?P<sh_of>\s++(?i:of)\b)?"
)

# One alternative reads a point ("15 seconds") and a range ("2–8 °C", "between 2 and
# 8 °C", "from 30 seconds to 2 minutes") so each number is parsed once. "and" only joins
# a range after "between"; otherwise "3 and 5 seconds" would become an interval.
_CONNECTOR = r"(?:(?(q_between)\s++(?i:and)\s++|(?!))|\s*+(?:–|—|-|(?i:to|through))\s*+)"
# A bound word after a value is on its line: "Height: 6 ft\nMinimum: 5 kg" bounds nothing.
_AFTER_UNIT_BOUND = rf"(?:[ \t]++(?P<q_after>(?i:{_AFTER_UNIT}))(?![\w]))?"
# The same bound after a unit read outside the scan (a written unit, a counted noun).
AFTER_UNIT_BOUND = re.compile(rf"[ \t]++(?P<bound>(?i:{_AFTER_UNIT}))(?![\w])")


def _quantity(bare: bool) -> str:
    # Without a unit after the first number, a range tail must supply one; in bare-number
    # mode a unitless number stands on its own, and so does a unitless range ("3-5"),
    # which is one interval rather than 3 and -5. A tail without a unit after a first
    # number with one ("5 MB to 10") is no range: the first value then stands alone.
    if bare:
        unit2 = rf"(?P<q_has_unit2>{_unit('q_unit2')})?(?(q_has_unit2)|(?(q_has_unit1)(?!)|))"
        no_unit = ""
    else:
        unit2 = _unit("q_unit2")
        no_unit = "(?(q_has_unit1)|(?!))"
    return (
        rf"{START}(?:(?=[bBfF])(?:(?P<q_between>(?i:between))\s++|(?i:from)\s++)(?!{_DATE_AHEAD}))?"
        rf"{_number('q_num1')}{_FRACTION}{_scale('q_scale1')}{_tail('q_tail1')}"
        rf"(?P<q_has_unit1>{_unit('q_unit1')})?"
        rf"(?:{_CONNECTOR}{_number('q_num2')}{_scale('q_scale2')}{_tail('q_tail2')}{unit2}"
        rf"|{no_unit})"
        rf"{_AFTER_UNIT_BOUND}"
    )


# The words a candidate without a digit close ahead may start with.
_DIGITLESS_START = (
    "(?i:"
    + alternation(
        [
            *_WORD_NUMBER_WORDS,
            *phrases.FRACTION_WORDS,
            # "a third of", "an eighth of": the article alone would make every "a" a start
            *(f"{n} {d}" for n in ("a", "an") for d in phrases.SHARE_DENOMINATORS),
            *phrases.CLOCK_WORDS,
            *phrases.ORDINAL_WORDS,
            *phrases.MULTIPLE_WORDS,
            "between",
            "from",
            "fiscal",
        ]
    )
    + ")"
)


def _scan(body: str, *, name: str) -> re.Pattern[str]:
    """A scan for the alternatives of ``body``, entered only where a candidate may start;
    compiled through the cache of :mod:`~quantcheck.quantities.regex_cache` as ``name``."""
    # Nothing starts right after a letter or digit. Tested once per offset, before any
    # alternative is entered, this makes the inside of every word and digit run cost one
    # step; it also keeps "A$5" (Australian dollars) from being read as US dollars.
    # Citation markers ("[2]", "【2】", "[^2]") are the exception: they may follow a word.
    # Nor does anything start at a digit inside "1-2", "1.2" or "1,2": the tail of a range,
    # a decimal or a group is read with its head or not at all.
    # Every candidate has a digit close ahead or starts with one of a few words ("seven",
    # "half", "noon", "second quarter"): one cheap test spares most words the alternation.
    return compile_cached(
        rf"(?P<a_marker>{CITATION_MARKER})|(?:(?<!\w)|(?<=\d[x×]))"
        rf"(?!(?<=\w[-.,\u2212]){_NOT_AFTER_BOUND_WORD}\d)"
        rf"(?=[^\n]{{0,16}}?\d|{_DIGITLESS_START}\b)(?:{body})",
        name=name,
    )


def _master() -> re.Pattern[str]:
    iso, mdy, dmy, month_year, year_month, numeric = DATE_ALTERNATIVES
    q_letter, q_digit, q_words, fiscal_year, decade, decade_yy, year_part, century = (
        PERIOD_ALTERNATIVES
    )
    id_word, id_v, id_name, id_code, id_multi, id_dotted = IDENTIFIER_ALTERNATIVES
    # Each alternative is fronted by a one-character lookahead so that, at most offsets,
    # the engine rejects it with a single test instead of entering it. Order matters
    # where two may start at one offset: the more specific reading comes first. Each is
    # a named group, so a match's ``lastgroup`` says which one matched.
    alternatives = [
        ("a_source", rf"{_first_chars(phrases.SOURCE_WORDS, fold=True)}{SOURCE_REFERENCE}"),
        ("a_year_span", rf"(?=[12]){YEAR_SPAN}"),
        ("a_iso_month", rf"(?=[12]){ISO_MONTH}"),
        ("a_date", rf"(?=\d)(?:{iso}|{dmy}|{year_month})"),
        ("a_numeric_date", rf"(?=\d){numeric}"),
        ("a_month", rf"{_first_chars(phrases.MONTHS, fold=True)}(?:{mdy}|{month_year})"),
        ("a_qletter", rf"(?=[QH]){q_letter}"),
        (
            "a_qwords",
            rf"{_first_chars([*phrases.ORDINAL_WORDS, 'f', *'0123456789'], fold=True)}{q_words}",
        ),
        ("a_qdigit", rf"(?=[1-4]){q_digit}"),
        ("a_fiscal", rf"(?=[fF]){fiscal_year}"),
        ("a_decade", rf"(?=[\deEmMlL]){decade}"),
        ("a_decade_short", rf"(?=['’\d]){decade_yy}"),
        ("a_year_part", rf"(?=[eEmMlLpP]){year_part}"),
        ("a_century", rf"(?=[\deEmMlL]){century}"),
        ("a_clock", rf"(?=[\dnNmMfFbB]){CLOCK}"),
        (
            "a_money",
            rf"{_first_chars([*units.CURRENCY_PREFIXES, 'between', 'from', '-', '−'], fold=True)}"
            rf"{MONEY}",
        ),
        (
            "a_half",
            rf"{_first_chars([*phrases.FRACTION_WORDS, *phrases.SHARE_NUMERATORS], fold=True)}"
            rf"{HALF}",
        ),
        (
            "a_share",
            rf"{_first_chars([*phrases.SHARE_NUMERATORS, 'half'], fold=True)}{SHARE}",
        ),
        ("a_multiple", rf"{_first_chars(phrases.MULTIPLE_WORDS, fold=True)}{MULTIPLE_WORD}"),
        ("a_idword", rf"{_first_chars(phrases.IDENTIFIER_WORDS, fold=True)}{id_word}"),
        ("a_idv", rf"(?=[vV]){id_v}"),
        ("a_idname", rf"(?=[A-Z]){id_name}"),
        ("a_idmulti", rf"(?=\d){id_multi}"),
        ("a_iddotted", rf"(?=\d){id_dotted}"),
        ("a_idcode", rf"(?=[A-Za-z0-9]){id_code}"),
        # Last: the re-read of a refused identifier relies on nothing following it.
        ("a_quantity", _QUANTITY),
    ]
    return _scan("|".join(f"(?P<{name}>{pattern})" for name, pattern in alternatives), name="scan")


_QUANTITY = _quantity(bare=True)
MASTER = _master()


@cache
def quantities_only() -> re.Pattern[str]:
    """The scan with the quantity alternative alone, for the re-read of an identifier that
    turns out to be something else ("10m", "In 2019"). MASTER tries its alternatives in
    order and the identifiers come after every other one but the quantity, so at an offset
    where one matched, only the quantity (or nothing) can match without them. Built on first
    use: a process whose cache holds no compiled copy pays half the whole scan's compile
    time for it."""
    return _scan(f"(?P<a_quantity>{_QUANTITY})", name="quantities")


def _phrase_key(phrase: str) -> str:
    return " ".join(phrase.split()).casefold()


# The words before a number are read backwards, from the number outwards, on the reversed
# text: one anchored match per number instead of a search that restarts at every offset
# of the window. Phrases are reversed to match; one trie holds every bound so the longest
# phrase wins ("no less than" is at least, never "less than").
BOUND_OF: dict[str, Relation] = {
    _phrase_key(phrase): relation
    for relation, words in phrases.BOUND_PHRASES.items()
    for phrase in words
}
TRAILING_OF: dict[str, Relation] = {
    "+": Relation.GE,
    "-plus": Relation.GE,
    **{
        _phrase_key(phrase): relation
        for table in (phrases.TRAILING_BOUNDS, phrases.TRAILING_AFTER_UNIT)
        for phrase, relation in table.items()
    },
}
# A bound that starts with a word must not be the tail of a longer word ("under" in
# "thunder"); one that starts with a symbol may follow a letter directly ("p<0.001").
_REVERSED_WORD_BOUNDS = alternation(phrase[::-1] for phrase in BOUND_OF if phrase[0].isalpha())
_REVERSED_SYMBOL_BOUNDS = alternation(
    phrase[::-1] for phrase in BOUND_OF if not phrase[0].isalpha()
)
_REVERSED_HEDGES = alternation(phrase[::-1] for phrase in phrases.HEDGES)
# Reversed, the window just before a number reads: a hedge, then a bound. A phrase must
# not continue a word ("handsome 5" holds no "some").
REVERSED_PREFIX = re.compile(
    rf"(?:\s*(?P<hedge>{_REVERSED_HEDGES})(?![A-Za-z]))?"
    rf"(?:\s*(?P<bound>(?:{_REVERSED_WORD_BOUNDS})(?![A-Za-z])"
    # ...but not the end of a markup tag: "<b>10 hours</b>", "Life:<br>10 hours"
    rf"|(?:{_REVERSED_SYMBOL_BOUNDS})(?![^<>\n]{{0,40}}<)))?",
    re.IGNORECASE,
)
# A limit noun a few words before a value, with no digit or clause mark between them:
# searched in the clause before the value, anchored at its end.
LIMIT_NOUN_BEFORE = re.compile(
    rf"\b(?P<noun>{alternation(phrases.LIMIT_NOUNS)})\b"
    rf"(?:[\s:()\-–]+[^\s\d.,;:!?()]+){{0,{phrases.LIMIT_NOUN_REACH}}}[\s:=()\-–]*$",
    re.IGNORECASE,
)

# An "of" between the qualifying words and the number ("nearly all of 5"), stepped over
# when nothing qualifies the number without it.
REVERSED_OF = re.compile(r"\s+fo(?![A-Za-z])", re.IGNORECASE)

_NEGATION_CUE = (
    rf"\b(?:{alternation(phrases.NEGATION_WORDS)})\b"
    rf"|\B(?:{alternation(phrases.NEGATION_SUFFIXES)})\b"
)
# Bound phrases that contain a cue ("no more than", "must not exceed"): they state a
# bound, not a negation, wherever they stand in the clause, so the scan steps over them.
_NEGATED_BOUNDS = [phrase for phrase in BOUND_OF if re.search(_NEGATION_CUE, phrase, re.IGNORECASE)]
_NEGATION_STARTS = list(phrases.NEGATION_WORDS) + list(phrases.NEGATION_SUFFIXES) + _NEGATED_BOUNDS
NEGATION = re.compile(
    rf"{_first_chars(_NEGATION_STARTS, fold=True)}"
    rf"(?:\b(?P<bound>{alternation(_NEGATED_BOUNDS)})(?![A-Za-z])|(?P<cue>{_NEGATION_CUE}))",
    re.IGNORECASE,
)
# The start of the predicate a fact belongs to, searched backwards on reversed text: a
# conjunction or dash after which a negation no longer applies.
_WORD_BREAKS = [w for w in phrases.PREDICATE_BREAKS if w[0].isalpha()]
_MARK_BREAKS = [w for w in phrases.PREDICATE_BREAKS if not w[0].isalpha()]
REVERSED_PREDICATE_BREAK = re.compile(
    rf"(?<![A-Za-z])(?:{alternation(w[::-1] for w in _WORD_BREAKS)})(?![A-Za-z])"
    rf"|(?<=\s)(?:{alternation(_MARK_BREAKS)})(?=\s)|\(",
    re.IGNORECASE,
)
# The end of the clause a fact belongs to, on reversed text: sentence punctuation, or a
# comma or full stop followed (in reading order) by a space, so 1,500 and 2.5 are not
# boundaries, nor is the full stop of an abbreviated hedge ("approx. 5 MB"). A search
# finds the break nearest to the number.
_ABBREVIATIONS = [p[:-1] for p in (*phrases.HEDGES, *BOUND_OF) if p.endswith(".")]
REVERSED_CLAUSE_BREAK = re.compile(
    r"[;:!?\n]|(?<=\s),"
    rf"|(?<=\s)\.(?!(?:{alternation(p[::-1] for p in _ABBREVIATIONS)})(?![A-Za-z]))",
    re.IGNORECASE,
)
# A verb of change shortly before "from X to Y": the two ends are values, not an interval.
_REVERSED_CHANGE_WORDS = alternation(w[::-1] for w in phrases.CHANGE_WORDS)
REVERSED_CHANGE = re.compile(
    rf"^(?:\s*+[\w%$£€¥₹.,'’-]++){{0,6}}?\s*+(?<![A-Za-z])(?P<word>{_REVERSED_CHANGE_WORDS})"
    r"(?![A-Za-z])",
    re.IGNORECASE,
)
CHANGE_ADVERBS = frozenset(phrases.CHANGE_ADVERBS)
REVERSED_ESTIMATE = re.compile(
    rf"(?<![A-Za-z])(?:{alternation(w[::-1] for w in phrases.ESTIMATE_WORDS)})(?![A-Za-z])",
    re.IGNORECASE,
)
# Reversed, the text right before a range that is an interval estimate: "CI, ", "IQR ".
REVERSED_INTERVAL = re.compile(
    rf"\s*+[,:=]?\s*+(?:{alternation(w[::-1] for w in phrases.INTERVAL_WORDS)})(?![A-Za-z])",
    re.IGNORECASE,
)
LIST_MARKER_AFTER = re.compile(r"[.)]\s")
# Digits and quantifying number words: every one of them in a claim must end up inside
# a fact or a set-aside span ("one" is left out: it is far more often a pronoun).
# TOKEN_CHARS are those of a written token holding digits ("A-1x", "1/2", "+44").
TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,-/:+#_&'")
NUMBER_TOKEN = re.compile(
    rf"\d++|\b(?i:{alternation(w for w in _WORD_NUMBER_WORDS if w != 'one')})\b"
)
