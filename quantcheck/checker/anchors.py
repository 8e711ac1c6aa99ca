"""What a number is said of: the words bound to each value, in the claim and in the evidence.

A value's *anchors* are the content words of its clause, lemmatized: in data, its cell's
words and those of its key path and row label. Where a clause holds several values, the
words between two of them change hands at a conjunction or a comma ("the small pizza
costs $12 | and the large $18"); between two values of one category with no conjunction,
each takes the nearer half. Values listed side by side ("19% and 38%") share their words.
A counted noun ("25 saves") is an anchor of its count; unit words are not anchors.

The binding rule (see docs/quantity-rules.md, "Binding"): an evidence occurrence of the
claimed value is *said of something else* when the claim names a word that sets a rival
apart (another value of the same category in the same document, stated for the claim's
period) and no word that sets the occurrence apart. "The small pizza costs $18" names
"small", which only $12 has, and nothing only $18 has: the $18 is the large pizza's. An
occurrence without anchors is never said of something else: what cannot be read does not
become a false alarm.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache

from quantcheck.quantities import lemmas, units
from quantcheck.quantities.categories import COUNT_PREFIX, IDENTIFIER
from quantcheck.quantities.dates import PERIOD_CATEGORIES
from quantcheck.quantities.facts import Mention
from quantcheck.quantities.phrases import (
    ANCHOR_SYNONYMS,
    ANCHOR_UNWORDS,
    COLUMN_ABBREVIATIONS,
    HANDOVER_WORDS,
    IDENTIFIER_KEYS,
)

Anchors = frozenset[str]

# How much of a document's start is read for its title and caption, and the lines of it
# that are markup, keys or the columns of a table aligned by spaces rather than words
# about the data.
_TOPIC_REACH = 400
_NOT_TOPIC = re.compile(r"[|<\t{\[]|:\s*$|\S  +\S")
# How far a window reaches on each side of a value: a clause rarely says what a number is
# of from further away, and the bound keeps the cost per value constant.
_REACH = 160
# A word, hyphens inside it dropped ("take-off" is the word takeoff); an ampersand between
# letters joins a name ("AT&T").
_WORD = re.compile(r"[A-Za-z](?:[A-Za-z']|[-&](?=[A-Za-z]))*")
# Between two values of one kind, these start the second one's phrase: "25.86°C with a
# feels like temperature of 26.88°C".
_SECOND_OPENERS = frozenset({"with", "against"})
_COMMA = ","
# Conjunctions that join clauses, not items of a list ("five days or fewer").
_JOINERS = frozenset({"and", "but", "while", "whereas"})
# A clause stops at a full stop, a semicolon, a line break or a conjunction that starts a
# contrasting or subordinate clause ("..., while full-year revenue growth is expected");
# in data, a cell also stops at a quote, a bracket or a field separator. "However" and
# "though" set off by commas are asides inside one clause: "Shipments, however, grew".
_CLAUSE_STOP = re.compile(
    r"[.!?;](?=\s)|\n|\b(?:while|whereas|although|but|despite|because)\b"
    r"|\b(?:though|however)\b(?!\s*,)"
)
_CELL_STOP = re.compile(r"[.!?;](?=\s)|[\n'\"{}\[\]|\t,]")
# At most this many characters, all conjunctions and commas, between listed values, and
# at most this many values on each side of one.
_LIST_GAP = 12
_LIST_REACH = 8
# "detailSpec" is the words detail and spec; "temp_max" is temp and max.
_KEY_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_TOKEN = re.compile(rf"{_WORD.pattern}|{_COMMA}")


@lru_cache(maxsize=65536)
def anchor_words(word: str) -> tuple[str, ...]:
    """The anchors a word stands for: nothing for a word that names nothing (an article, a
    preposition, a month, a unit); else its lemmas as a noun and as a verb ("scoring":
    scoring and score), each replaced by a listed synonym's canonical form ("sales" and
    "revenues" are "revenue")."""
    folded = word.casefold().strip("'")
    if folded.endswith("'s"):
        folded = folded[:-2]  # "Oslo's low" is said of Oslo
    if len(folded) < 2 or folded in ANCHOR_UNWORDS or units.lookup(folded) is not None:
        return ()
    readings = lemmas.lemmas(folded)
    forms = [lemma[0] for part in ("NOUN", "VERB", "ADJ") if (lemma := readings.get(part))]
    anchors: list[str] = []
    for form in forms or [folded]:
        if form not in ANCHOR_UNWORDS:
            canonical = ANCHOR_SYNONYMS.get(form, form)
            if canonical not in anchors:
                anchors.append(canonical)
    return tuple(anchors)


def key_words(key: str) -> Anchors:
    """The anchor words of a key path or a row label ("main > temp_max": temp, max), and
    the names of the records it passes through that are numbers ("variants > 45mm")."""
    words = {anchor for part in _KEY_PART.findall(key) for anchor in anchor_words(part)}
    spelled = COLUMN_ABBREVIATIONS.get(key.strip().casefold())
    if spelled is not None:
        words.add(spelled)
    # A hyphenated label is also the one word prose reads it as ("Semi-finalist"), and
    # so is a name joined by an ampersand ("AT&T", whose letters alone name nothing).
    words.update(
        anchor
        for word in _WORD.findall(key)
        if "-" in word or "&" in word
        for anchor in anchor_words(word.replace("-", ""))
    )
    for component in key.split(" > "):
        if _NUMBER_NAME.fullmatch(component.strip()):
            words |= number_anchors(component)
        elif named := _NAME_AND_NUMBER.fullmatch(component.strip()):
            # A column or row of one named model, version or route ("Aero 16", "Aero 16
            # Pro", "Version 3.6.1"): it is named by the name and number together, as
            # the claim's code is (see named_records), and by a code of digits and
            # letters alone ("Arcline 34W" is the 34W); a number alone names nothing.
            parts = [named[1], named[0]]
            if not named[2].isdigit():
                parts.append(named[2])
            words.update(_NUMBER_MARK + _folded(part) for part in parts)
    return frozenset(words)


def number_anchors(written: str) -> Anchors:
    """What a written value names a record by: "41 mm" and a key "41mm" both name the
    record "41mm", and "41" alone."""
    digits = _DIGITS.findall(written)
    return frozenset({_NUMBER_MARK + _folded(written), *(_NUMBER_MARK + d for d in digits)})


def _folded(written: str) -> str:
    return _NOT_NAME_CHARACTERS.sub("", written.casefold())


# A key that names its record by a number, perhaps with a unit or a letter: "45mm",
# "128", "2024", "Q3"; not a key of words with a number ("period3", "pop_2020").
_NUMBER_NAME = re.compile(r"[A-Za-z]{0,3}\s?\d+(?:[.,]\d+)?\s?[A-Za-z²]{0,3}")
# A key that names a model, a version or a route, perhaps with a word after: "Aero 16 Pro",
# "Version 3.6.1", "Route 12", "Arcline 34W"; a space apart, not a word with a number
# ("period1").
_NAME_AND_NUMBER = re.compile(
    r"([A-Za-z][A-Za-z\-]{0,20}\s(\d+(?:\.\d+)*[A-Za-z]{0,3}))(?:\s[A-Za-z]{1,12})?"
)
_NOT_NAME_CHARACTERS = re.compile(r"[^0-9a-z.]")
_DIGITS = re.compile(r"\d+(?:\.\d+)?")
# Marks an anchor that is a number, so that it never equals a word.
_NUMBER_MARK = "#"


def _tokens(text: str, start: int, end: int) -> list[str]:
    """The words and commas of ``text[start:end]``, hyphens inside words dropped."""
    return [token.replace("-", "") for token in _TOKEN.findall(text, start, end)]


def _hands_over(token: str) -> bool:
    return token == _COMMA or token.casefold() in HANDOVER_WORDS


def _first_handover(tokens: Sequence[str]) -> int | None:
    return next((n for n, token in enumerate(tokens) if _hands_over(token)), None)


def _last_handover(tokens: Sequence[str]) -> int | None:
    return next((n for n in range(len(tokens) - 1, -1, -1) if _hands_over(tokens[n])), None)


@dataclass(frozen=True, slots=True)
class Values:
    """The values of one text in order, for finding a value's neighbours."""

    text: str
    everything: Sequence[Mention]
    starts: Sequence[int]

    @classmethod
    def of(cls, text: str, mentions: Sequence[Mention]) -> Values:
        """The values among ``mentions``: dates and periods are bound on their own (see
        quantities/binding.py) and do not take words from the values beside them."""
        ordered = sorted(
            (m for m in mentions if m.fact.category not in PERIOD_CATEGORIES),
            key=lambda m: m.span.start,
        )
        return cls(text, ordered, [m.span.start for m in ordered])

    def nearest_before(self, start: int) -> Mention | None:
        at = bisect.bisect_left(self.starts, start) - 1
        while at >= 0 and self.everything[at].span.end > start:
            at -= 1
        return self.everything[at] if at >= 0 else None

    def nearest_after(self, end: int) -> Mention | None:
        at = bisect.bisect_left(self.starts, end)
        return self.everything[at] if at < len(self.everything) else None


def window(values: Values, same: Sequence[Mention], at: int, *, data: bool) -> Anchors:
    """The anchors of ``same[at]``, one of the values of one category in order: the words
    of its clause (its cell, in data) within reach, shared with the values listed beside
    it in prose, and cut where the words between it and a neighbouring value change hands."""
    text = values.text
    stop = _CELL_STOP if data else _CLAUSE_STOP
    first = last = at
    # A list shares its words only within reach: a long run of values ("1, 2, 3, ...")
    # must cost each of them constant work, never a walk to the run's end.
    while first > max(0, at - _LIST_REACH) and _listed(
        text, same[first - 1], same[first], data=data
    ):
        first -= 1
    while last + 1 < min(len(same), at + _LIST_REACH + 1) and _listed(
        text, same[last], same[last + 1], data=data
    ):
        last += 1
    start, end = same[first].span.start, same[last].span.end
    low = max(0, start - _REACH)
    for match in stop.finditer(text, low, start):
        low = match.end()
    high = min(len(text), end + _REACH)
    cut = stop.search(text, end, high)
    if cut is not None:
        high = cut.start()
    kin = same[first - 1] if first > 0 else None
    left = _left(values, kin, low, start, same[first].fact.category)
    right = _right(values, same[last + 1] if last + 1 < len(same) else None, end, high)
    found = {anchor for token in (*left, *right) for anchor in anchor_words(token)}
    for member in same[first : last + 1]:
        if member.fact.category.startswith(COUNT_PREFIX):
            found.update(anchor_words(member.fact.category[len(COUNT_PREFIX) : -1]))
    return frozenset(found)


def _left(values: Values, kin: Mention | None, low: int, start: int, category: str) -> list[str]:
    """The words before a value that are its own: back to the last conjunction or comma
    with a value of its category before it, past values of other categories ("Revenue
    rose 5% to $3.1 billion": revenue is said of both), halfway to a value of its own
    category."""
    text = values.text
    passed: list[str] = []
    position = start
    while True:
        neighbour = values.nearest_before(position)
        if neighbour is None or neighbour.span.end <= low:
            return _tokens(text, low, position) + passed
        gap = _tokens(text, neighbour.span.end, position)
        # Words change hands at a comma or a conjunction between values of one kind ("the
        # small costs $12, and the large $18"); after a value of another kind, only where a
        # conjunction joins another clause: a phrase before a comma that qualifies it
        # still speaks of this value ("For tours of five days or fewer, the deposit is $250").
        if neighbour.fact.category == category:
            cut = _last_handover(gap)
        else:
            joiners = (n for n in range(len(gap) - 1, -1, -1) if gap[n].casefold() in _JOINERS)
            cut = next(joiners, None)
        if cut is not None:
            return gap[cut + 1 :] + passed
        if neighbour is kin:
            opener = next((n for n, token in enumerate(gap) if token in _SECOND_OPENERS), None)
            return gap[len(gap) // 2 if opener is None else opener + 1 :] + passed
        # A name passed over is said of the value too: "sa-east-1 has six zones".
        named = []
        if neighbour.fact.category == IDENTIFIER:
            named = _tokens(text, neighbour.span.start, neighbour.span.end)
        passed = named + gap + passed
        position = neighbour.span.start


def _right(values: Values, kin: Mention | None, end: int, high: int) -> list[str]:
    """The words after a value that are its own: up to the next value, conjunction or
    comma; halfway, when the next value is of its own category."""
    neighbour = values.nearest_after(end)
    if neighbour is not None and neighbour.span.start < high:
        high = neighbour.span.start
    else:
        neighbour = None
    tokens = _tokens(values.text, end, high)
    cut = _first_handover(tokens)
    if cut is not None:
        return tokens[:cut]
    if neighbour is not None and neighbour is kin:
        return tokens[: (len(tokens) + 1) // 2]
    return tokens


def _listed(text: str, one: Mention, two: Mention, *, data: bool) -> bool:
    """Whether two values stand side by side as one list or one figure ("19% and 38%",
    "$5, $7", "18:9"): nothing but conjunctions and commas between them, and in data
    nothing at all but a sign ("32GB 3GB RAM" is two values, and RAM is the second's)."""
    gap = text[one.span.end : two.span.start]
    if data and (not gap or any(c.isspace() for c in gap)):
        return False
    return (
        len(gap) <= _LIST_GAP
        and "." not in gap
        and ";" not in gap
        and all(_hands_over(token) for token in _tokens(gap, 0, len(gap)))
    )


def claim_anchors(text: str, mention: Mention, mentions: Sequence[Mention]) -> Anchors:
    """The anchors of a claim's value among the claim's other values."""
    modified = _modified_noun(text, mention)
    if modified is not None:
        return modified
    values = Values.of(text, mentions)
    same = [m for m in values.everything if m.fact.category == mention.fact.category]
    at = next((n for n, m in enumerate(same) if m is mention), None)
    if at is None:
        return window(values, (mention,), 0, data=False)
    return window(values, same, at, data=False)


def _modified_noun(text: str, mention: Mention) -> Anchors | None:
    """The words of the noun a claimed value modifies, between a determiner and that noun
    ("a 45 g serving", "the 25 mg group", "a 20-kilogram dog"): the value is said of the
    noun, not of the clause around it, whose words speak of the clause's own value ("the
    25 mg group reported nausea in 14%"). None where the value is no such modifier."""
    category = mention.fact.category
    if category.startswith(COUNT_PREFIX) or category in PERIOD_CATEGORIES:
        return None  # a count's noun is what it counts, and already its anchor
    before = _tokens(text, max(0, mention.span.start - _LEAD_REACH), mention.span.start)
    if not before or before[-1].casefold() not in _DETERMINERS:
        return None
    # After a verb the phrase is what the clause says of its subject ("the ultrawide camera
    # uses a 50-megapixel sensor"): the clause's words are the value's. Opening the claim
    # or a clause, or after a preposition, it only qualifies.
    if len(before) > 1 and before[-2] != _COMMA and before[-2].casefold() not in _PREPOSITIONS:
        return None
    after = _NEXT_WORDS.match(text, mention.span.end)
    nouns: list[str] = []
    for word in (after[0] if after else "").split()[:_MODIFIED_WORDS]:
        if "NOUN" not in lemmas.lemmas(word.casefold()):
            break
        nouns.append(word)
    if not nouns:
        return None
    return frozenset(anchor for word in nouns for anchor in anchor_words(word))


# The words before a value that make it modify the noun after it, and how many nouns
# after it (a compound: "cabin bag") are that noun.
_DETERMINERS = frozenset({"a", "an", "the", "each", "every", "this", "that"})
_PREPOSITIONS = frozenset(
    {"on", "in", "of", "for", "with", "at", "from", "to", "into", "by", "under", "over",
     "within", "after", "before", "among", "between", "like"}
)  # fmt: skip
# How far back the determiner and the word before it are looked for.
_LEAD_REACH = 24
_MODIFIED_WORDS = 2
_NEXT_WORDS = re.compile(r"(?:[ \-]?[A-Za-z]+(?=[\s,.;:!?)]|$))*")


def text_words(text: str) -> Anchors:
    """The anchor words of a whole text: what a short claim speaks of anywhere in it."""
    return frozenset(anchor for word in _WORD.findall(text) for anchor in anchor_words(word))


def named_records(mention: Mention, mentions: Sequence[Mention]) -> Anchors:
    """The numbers of a claim's other values that may name the record its value is said
    of: "41 mm" in "the 41 mm version has a 425 mAh battery" (see :func:`key_words`)."""
    return frozenset(
        anchor
        for other in mentions
        if other is not mention and other.fact.category not in PERIOD_CATEGORIES
        for anchor in number_anchors(other.text)
    )


@dataclass(slots=True)
class DocumentAnchors:
    """The anchors of one document's values, computed on first use and kept: a document
    is read once and checked against many claims."""

    text: str
    mentions: Sequence[Mention]
    by_category: Mapping[str, tuple[Mention, ...]]
    _values: Values | None = None
    _starts: dict[str, list[int]] = field(default_factory=dict)
    _anchors: dict[tuple[str, int, int], Anchors] = field(default_factory=dict)
    _by_word: dict[str, dict[str, list[Mention]]] = field(default_factory=dict)
    _topic: Anchors | None = None

    @property
    def topic(self) -> Anchors:
        """The words of what comes before a document's data (its title and caption): what
        every value of the data is said of ("General Fund Appropriations by Department")."""
        if self._topic is None:
            first = next((m.span.start for m in self.mentions if m.key is not None), 0)
            # A table's header and a record's keys name columns and keys, not the whole:
            # the line the data starts on and the one above it (a CSV header), lines of
            # table markup, and lines that open a nested part ("server:") are left out.
            lines = self.text[: min(first, _TOPIC_REACH)].split("\n")[:-2]
            self._topic = frozenset(
                anchor
                for line in lines
                if not _NOT_TOPIC.search(line)
                for token in _WORD.findall(line)
                for anchor in anchor_words(token)
            )
        return self._topic

    def of(self, mention: Mention) -> Anchors:
        """The anchors of one value of the document."""
        key = (mention.fact.category, mention.span.start, mention.span.end)
        found = self._anchors.get(key)
        if found is None:
            found = self._anchors[key] = self._read(mention)
        return found

    def rivals(self, category: str, words: Anchors) -> Iterator[Mention]:
        """The values of ``category`` whose anchors share a word with ``words``; values
        under a key that names them ("id", "code") are names, never rivals."""
        by_word = self._by_word.get(category)
        if by_word is None:
            by_word = self._by_word[category] = {}
            for mention in self.by_category.get(category, ()):
                if _names_something(mention) or is_share_word(mention):
                    continue
                for word in self.of(mention):
                    by_word.setdefault(word, []).append(mention)
        seen: set[int] = set()
        for word in words:
            for mention in by_word.get(word, ()):
                if id(mention) not in seen:
                    seen.add(id(mention))
                    yield mention

    def spread(self, category: str, word: str) -> int:
        """How many values of ``category`` a word is an anchor of (after :meth:`rivals`)."""
        return len(self._by_word.get(category, {}).get(word, ()))

    def _read(self, mention: Mention) -> Anchors:
        if self._values is None:
            self._values = Values.of(self.text, self.mentions)
        category = mention.fact.category
        same = self.by_category.get(category, ())
        starts = self._starts.get(category)
        if starts is None:
            starts = self._starts[category] = [m.span.start for m in same]
        at = bisect.bisect_left(starts, mention.span.start)
        while at < len(same) and same[at] is not mention and starts[at] == mention.span.start:
            at += 1
        if at >= len(same) or same[at] is not mention:
            same, at = (mention,), 0  # a value read under no fact of the index
        data = mention.key is not None
        found = window(self._values, same, at, data=data)
        if mention.key is not None:
            found |= key_words(mention.key)
        if mention.row is not None:
            found |= key_words(mention.row)
        return found


def is_share_word(mention: Mention) -> bool:
    """Whether a percentage is a share written as a fraction ("over two-thirds of the
    increase"): a loose description, never a rival of a figure the text states."""
    literal = mention.literal
    return literal is not None and literal.numerator == _HUNDRED and literal.denominator != 1


_HUNDRED = Decimal(100)


def _names_something(mention: Mention) -> bool:
    """Whether a data value sits under a key that makes it a name ("homeTeam > id")."""
    if mention.key is None:
        return False
    leaf = mention.key.rpartition(" > ")[2]
    words = {part.casefold() for part in _KEY_PART.findall(leaf)}
    return bool(words) and words <= IDENTIFIER_KEYS


# The most values of a passage a prose word the claim shares with an occurrence may be
# said of and still tie the claim to it (see said_of_something_else). Measured on
# realistic passages: at one, correct claims sharing a word such as "diluted" or "GAAP"
# with their figure were flagged; at two, none were, and wrong figures were caught in
# three sets.
_KEEPING_SPREAD = 2


def said_of_something_else(
    claimed: Anchors,
    occurrence: Mention,
    found: Anchors,
    rivals: Sequence[tuple[Mention, Anchors]],
    spread: Callable[[str], int],
    *,
    topic: Anchors = frozenset(),
) -> Mention | None:
    """The rival an occurrence's value belongs to instead, by the rule above; None when
    the claim's words do not set it apart from the occurrence."""
    if not found or not claimed:
        return None
    for rival, theirs in rivals:
        if _same_cell(rival, occurrence) and _marked_apart(claimed, found, theirs):
            return rival
        naming = claimed & (theirs - found)
        keeping = claimed & (found - theirs)
        if rival.key is None:
            # In prose, a word said of several values ("CareBridge" in an article on its
            # sale) is the document's topic, not what sets one value apart; nor does a
            # word said of more than two keep the occurrence ("copay" beside $35, $70
            # and $400: "urgent care visits have a $70 copay" names the $75 said of
            # urgent care, not the specialists' $70). Data keys are what they are
            # wherever they repeat.
            naming = frozenset(word for word in naming if spread(word) <= 1)
            if occurrence.key is None:
                # (A cell's own row and key words are said of the whole row or column.)
                keeping = frozenset(w for w in keeping if spread(w) <= _KEEPING_SPREAD)
        else:
            # A word of the data's title is said of all of it: "general fund" of a
            # "General Fund Appropriations" table names no row ("General Government").
            naming -= topic
        if naming and not keeping:
            return rival
    return None


def _marked_apart(claimed: Anchors, found: Anchors, theirs: Anchors) -> bool:
    """Whether a data cell marks the occurrence apart from a rival under the same key and
    the claim leaves the mark out: in "Internal": "32GB 3GB RAM", 3GB is marked RAM, so
    "3GB of internal storage" names 32GB's key and not 3GB's mark."""
    return theirs < found and bool(claimed & theirs) and not claimed & (found - theirs)


def _same_cell(one: Mention, two: Mention) -> bool:
    return one.key is not None and one.key == two.key and one.record == two.record


def phrase_before(text: str, start: int) -> str:
    """The words before ``start`` back to where their phrase starts: "He was mayor from 2002
    to 2010 and | governor from 2011 to 2015". A value in brackets takes the words before
    the bracket ("Head coach (2007–2013)"), and one set off by a comma the words before
    the comma ("aired for eight seasons, from 2009 to 2017")."""
    before = text[max(0, start - _PHRASE_REACH) : start]
    if before.rstrip().endswith(("(", ",")):
        before = before.rstrip()[:-1]
    return _PHRASE_START.split(before)[-1]


def words_and_names(text: str) -> tuple[Anchors, Anchors]:
    """The anchor words of the lower-case words of a text, and its capitalized words
    (names). A first word is capitalized anyway: it is a name only where it is no function
    word and can be read as nothing but a noun ("Smith coached", not "Head coach")."""
    words: set[str] = set()
    names: set[str] = set()
    for number, word in enumerate(_WORD.findall(text)):
        folded = word.casefold()
        if word[0].isupper() and (number or _only_a_noun(folded)):
            names.add(folded)
        else:
            words.update(anchor_words(word))
    return frozenset(words), frozenset(names)


def says_what(
    claimed: tuple[Anchors, Anchors], phrase: tuple[Anchors, Anchors], *, by_name: bool = False
) -> bool:
    """Whether a phrase of the evidence speaks of what a claim does: it shares a lower-case
    word with it (or, ``by_name``, a name), and names no one but whom the claim names, if
    either names anyone. A name alone is too little where a phrase may name a person
    without saying what the value is of ("Queen Victoria (1819–1901)" is no reign)."""
    (said, names), (words, theirs) = claimed, phrase
    if names and theirs and names.isdisjoint(theirs):
        return False
    return bool(said & words) or (by_name and bool(names & theirs))


def _only_a_noun(word: str) -> bool:
    if word in ANCHOR_UNWORDS:
        return False
    return lemmas.lemmas(word).keys() <= {"NOUN", "PROPN"}


_PHRASE_REACH = 120
_PHRASE_START = re.compile(r"[.!?;,()](?:\s|$)|[()|\n]|\b(?:and|but|while|then)\b")
