"""The words around a number that change what it claims, and the words that name numbers.

Tables only; :mod:`quantcheck.quantities.patterns` turns them into regular expressions. A
phrase that starts earlier wins over one nested inside it, so "no more than" (at most)
is never read as "more than" (above), nor "not exceed" as a negation.
"""

from __future__ import annotations

from quantcheck.quantities.facts import Relation

# fmt: off

# Bound phrases written before the number.
BOUND_PHRASES: dict[Relation, tuple[str, ...]] = {
    Relation.LT: (
        "below", "under", "less than", "fewer than", "lower than", "shorter than",
        "younger than", "smaller than", "lighter than", "earlier than", "cooler than",
        "colder than", "<",
    ),
    Relation.LE: (
        "at most", "at the most", "no more than", "not more than", "up to", "a maximum of",
        "maximum of", "maximum", "max", "not exceed", "not exceeding", "never exceed",
        "never exceeds", "not to exceed", "cannot exceed", "can't exceed", "can’t exceed",
        "at or below", "no higher than", "no greater than", "≤", "<=",
        # the negations of the comparatives above and below: "no later than 30 days"
        "no later than", "not later than", "no longer than", "not longer than",
        "no larger than", "no bigger than", "no heavier than", "no taller than",
        "no wider than", "no older than", "not older than", "no warmer than", "no hotter than",
        # limits said as a cap or a reach: "capped at $200 a night", "within 30 days"
        "capped at", "limited to", "within", "as many as", "as much as",
        # a tolerance: "180 N·m ± 5%", "+/- 5%"
        "±", "+/-", "+/−", "plus or minus",
    ),
    Relation.GT: (
        "above", "over", "more than", "greater than", "higher than", "larger than",
        "longer than", "older than", "bigger than", "heavier than", "taller than",
        "wider than", "later than", "warmer than", "hotter than", "beyond",
        "exceeds", "exceeding", "exceed", "exceeded", "surpass", "surpasses", "surpassed",
        "surpassing", "in excess of", "north of", "upwards of", "tops", "topped", "topping",
        ">",
    ),
    Relation.GE: (
        "at least", "at the least", "no less than", "not less than", "no fewer than",
        "a minimum of", "minimum of", "minimum", "at or above", "≥", ">=",
        "no earlier than", "not earlier than", "no sooner than", "no lower than",
        "no shorter than", "no smaller than", "no lighter than", "no younger than",
        "not younger than", "no cooler than", "no colder than",
    ),
}

# Verbs of an amount that may stand between a negation and the comparative it turns into
# the inclusive bound the other way: "must not take more than 3 g", "did not rise above
# 5%". Others ("do not store probes above 25 °C", "not much above 2%") leave the negation
# to the negation rule.
NEGATED_AMOUNT_VERBS: frozenset[str] = frozenset({
    "be", "is", "are", "was", "were", "go", "goes", "went", "take", "takes", "took", "get",
    "gets", "got", "rise", "rises", "rose", "risen", "fall", "falls", "fell", "fallen", "grow",
    "grew", "climb", "climbed", "drop", "dropped", "reach", "reached", "cost", "costs",
    "weigh", "weighs", "last", "lasts", "run", "runs", "use", "uses", "need", "needs",
    "require", "requires", "pay", "pays", "spend", "spends", "earn", "earns",
})

# Nouns of a limit that bound a value a few words later in their clause, where the bound
# phrases above must touch the number: "a minimum opening deposit of $500", "Maximum
# loan-to-value 95%". "max" and "min" are left out: a name ("Max"), and minutes.
LIMIT_NOUNS: dict[str, Relation] = {"maximum": Relation.LE, "minimum": Relation.GE}
# How many words may stand between a limit noun and its value.
LIMIT_NOUN_REACH = 4
# Words between them that make the noun the subject of a statement about a measured
# value, not a limit: "the maximum gust recorded was 120 km/h", "Maximum temperatures
# will reach 35 °C", "the minimum wage rose to $15.50".
LIMIT_NOUN_BREAKS: frozenset[str] = frozenset({
    "is", "are", "was", "were", "be", "been", "will", "would", "can", "could", "may",
    "might", "shall", "should", "must", "has", "have", "had", "to", "reach", "reached",
    "reaches", "rose", "rise", "rises", "fell", "fall", "falls", "hit", "hits", "recorded",
    "stood", "stands", "remained", "remains", "increased", "decreased", "climbed",
})

# Bound phrases written after the number ("5 or more years") or after its unit ("$100 or
# less"). A "+" glued to the number ("5+ years") is read by the pattern itself.
TRAILING_BOUNDS: dict[str, Relation] = {
    "or more": Relation.GE, "or greater": Relation.GE,
    "or higher": Relation.GE, "or above": Relation.GE, "or over": Relation.GE,
    "or longer": Relation.GE, "and up": Relation.GE, "and above": Relation.GE,
    "and over": Relation.GE, "and more": Relation.GE,
    "plus": Relation.GE,
    "or less": Relation.LE, "or fewer": Relation.LE, "or lower": Relation.LE,
    "or below": Relation.LE, "or under": Relation.LE, "or shorter": Relation.LE,
    # ages: "65 and older", "children 12 and under"
    "or older": Relation.GE, "and older": Relation.GE, "or younger": Relation.LE,
    "and younger": Relation.LE, "and under": Relation.LE,
}
# Of those, the ones that also bound a value after its unit ("126 mg/dL or more", "18
# years and older"): after a unit, "plus" adds ("10 GB plus 2 GB") and "and more" lists.
TRAILING_BOUNDS_AFTER_UNIT: tuple[str, ...] = tuple(
    phrase for phrase in TRAILING_BOUNDS if phrase not in ("plus", "and more")
)
# Only after a unit: before one, "maximum" and "minimum" would read as nouns.
TRAILING_AFTER_UNIT: dict[str, Relation] = {
    "maximum": Relation.LE, "max": Relation.LE, "at most": Relation.LE,
    "at the most": Relation.LE, "at maximum": Relation.LE, "at a maximum": Relation.LE,
    "tops": Relation.LE,
    "minimum": Relation.GE, "at least": Relation.GE, "at the least": Relation.GE,
    "at minimum": Relation.GE, "at a minimum": Relation.GE,
}

# Words that make a value approximate: "about 96 percent" may stand for 96.4 percent.
HEDGES: tuple[str, ...] = (
    "about", "approximately", "approx.", "approx", "around", "roughly", "nearly", "almost",
    "some", "close to", "circa", "~", "estimated at", "an estimated", "est.",
)

# Cues that negate a fact later in the same predicate. Bound phrases containing "not" or
# "no" are matched first and removed from the clause, so they never count here.
NEGATION_WORDS: tuple[str, ...] = ("not", "no", "never", "cannot")
# Contractions negate the word they end: "don't", "isn't", "mustn’t".
NEGATION_SUFFIXES: tuple[str, ...] = ("n't", "n’t")
# Words that start a new predicate: a negation before one of them does not reach a fact
# after it ("is not waterproof and lasts 10 hours" negates nothing numeric).
PREDICATE_BREAKS: tuple[str, ...] = (
    "and", "but", "or", "yet", "while", "whereas", "although", "though", "because",
    "which", "who", "where", "when", "so", "then", "–", "—", "-", "(",
)

# Verbs of change: "fell from 5% to 3%" states two values, not an interval between them.
CHANGE_WORDS: tuple[str, ...] = (
    "rose", "rise", "rises", "risen", "rising", "grew", "grow", "grows", "grown", "growing",
    "increased", "increase", "increases", "increasing", "decreased", "decrease", "decreases",
    "decreasing", "declined", "decline", "declines", "declining", "fell", "fall", "falls",
    "fallen", "falling", "dropped", "drop", "drops", "dropping", "climbed", "climb",
    "climbs", "jumped", "jump", "jumps", "surged", "surge", "surges", "slipped", "slid",
    "went", "go", "goes", "gone", "moved", "improved", "improve", "improves", "expanded",
    "shrank", "shrunk", "widened", "narrowed", "raised", "raise", "raises", "lowered",
    "lower", "lowers", "cut", "cuts", "reduced", "reduce", "reduces", "boosted", "boost",
    "changed", "change", "changes", "upgraded", "downgraded", "revised", "up", "down",
    "soared", "plunged", "tumbled", "dipped", "edged", "ticked", "shifted", "postponed",
    "delayed", "rescheduled", "pushed", "extended", "brought", "moved",
    # multiplied: "doubles to 200 from 100" (not "double", a room or a bed as often)
    "doubled", "doubles", "tripled", "triples", "quadrupled", "halved", "halves",
)

# Of the words above, those that state a change only before "from": "sales to be up 2%
# to 4%" is a range of growth, "up from 2% to 4%" two values.
CHANGE_ADVERBS: tuple[str, ...] = ("up", "down")

# Words before a claimed value that say it is an end of something (a bracket that "tops
# out at $94,300", "a maximum of 4 g", "prices start at $9"): such a value is an end of an
# evidence range, never any value inside it.
RANGE_END_WORDS: tuple[str, ...] = (
    "max", "maximum", "top", "tops", "topped", "peak", "peaks", "peaked", "highest",
    "upper", "ceiling", "cap", "capped", "min", "minimum", "lowest", "floor", "start",
    "starts", "starting", "begin", "begins", "beginning",
)  # fmt: skip

# Words before a range that make it an estimate rather than a limit: a value inside
# "guidance of $45 million to $50 million" is not what the evidence states, while one
# inside "store between 2 and 8 °C" is.
ESTIMATE_WORDS: tuple[str, ...] = (
    "expect", "expects", "expected", "expecting", "expectation", "expectations",
    "guidance", "guide", "guides", "guided", "project", "projects", "projected",
    "projection", "projections", "forecast", "forecasts", "forecasted", "estimate",
    "estimates", "estimated", "anticipate", "anticipates", "anticipated", "outlook",
    "target", "targets", "targeted", "predict", "predicts", "predicted", "sees", "see",
    "plan", "plans", "planned", "aim", "aims", "budget", "budgeted", "likely",
)

# Words right before a range that make it an interval around a measured value, whose
# inside is not the value: "efficacy was 94.1% (95% CI, 89.3 to 96.8%)", "IQR 35-51".
INTERVAL_WORDS: tuple[str, ...] = (
    "CI", "CIs", "confidence interval", "confidence intervals", "credible interval",
    "credible intervals", "IQR", "interquartile range", "margin of error",
)

# A number right after one of these words names something rather than measuring it.
IDENTIFIER_WORDS: tuple[str, ...] = (
    "version", "versions", "ver.", "ver", "v.", "revision", "rev.", "firmware", "model",
    "step", "section", "chapter", "page", "item", "no.", "number", "#", "flight", "route",
    "gate", "room", "tier", "level", "phase", "stage", "grade", "class", "type", "part",
    "article", "clause", "appendix", "figure", "fig.", "slide", "exhibit", "platform",
    "suite", "floor", "category", "division", "district", "ward", "generation", "gen",
)

# Words joined by a hyphen to the number they bound, which is then a count rather than
# part of a code: "the top-8 nations", "an under-21 side".
HYPHENED_BOUND_WORDS: tuple[str, ...] = ("top", "bottom", "under", "over")

# Words by which an answer refers to the sources it was given ("as passage 2 says",
# "Source 1 notes", "Passage ID 3"): the number picks a source, it states nothing.
SOURCE_WORDS: tuple[str, ...] = (
    "passage", "passages", "source", "sources", "snippet", "snippets", "excerpt",
    "excerpts", "chunk", "chunks", "document", "documents", "doc", "docs", "context",
    "search result", "search results",
)

# Names that always stand for one numbered thing: where evidence writes the name alone
# ("the impact of COVID"), it supports the numbered identifier ("COVID-19").
IDENTIFIER_ALIASES: dict[str, tuple[str, ...]] = {
    "COVID19": ("COVID", "coronavirus", "novel coronavirus", "coronavirus disease"),
    # Formulas of gases and particles name a substance, spelled out as often ("CO2" for
    # "carbon dioxide"); "carbon dioxide equivalent" names CO2e and CO2 both.
    "CO2": ("carbon dioxide",),
    "CO2E": (
        "carbon dioxide equivalent", "carbon dioxide-equivalent", "CO2 equivalent",
        "CO2-equivalent",
    ),
    "NO2": ("nitrogen dioxide",),
    "SO2": ("sulfur dioxide", "sulphur dioxide"),
    "CH4": ("methane",),
    "N2O": ("nitrous oxide",),
    "O3": ("ozone",),
    "PM2.5": ("fine particulate matter", "fine particles"),
}

# The word a code's letter stands for, written before the number instead: "a magnitude
# 6.2 quake" is the evidence's "M6.2".
CODE_LETTER_WORDS: dict[str, tuple[str, ...]] = {
    "M": ("magnitude",),
}

# Plurals of people before a number, which state an age rather than name a product or a
# series: "Adults 65 and older", "Children 12 and under" (while "Terminals 2 and 3",
# "Warriors 112" and "Windows 11" are names).
AGE_GROUP_PLURALS: frozenset[str] = frozenset({
    "adults", "children", "seniors", "infants", "toddlers", "teens", "teenagers",
    "adolescents", "kids", "women", "men", "girls", "boys", "patients", "people", "persons",
    "youths", "students", "workers", "employees", "residents",
})

# Capitalized words that are never the name part of an identifier such as "Kafka 3.7":
# a capital at the start of a sentence makes them look like names.
NOT_NAMES: tuple[str, ...] = (
    "A", "An", "The", "In", "On", "At", "By", "For", "From", "To", "Of", "Since", "Until",
    "Till", "During", "Before", "After", "About", "Around", "Over", "Under", "Nearly",
    "Approximately", "Almost", "Roughly", "Some", "All", "And", "But", "Or", "With",
    "Without", "Between", "Within", "Across", "Into", "Than", "Per", "Each", "Every",
    "Only", "Just", "More", "Less", "Fewer", "Up", "Down", "Below", "Above", "Exactly",
    "Total", "Through", "Throughout", "Circa", "Around", "Another", "Both", "These",
    "Those", "This", "That", "Its", "Our", "Their", "His", "Her", "My", "Your", "We",
    "They", "It", "He", "She", "I", "You", "As", "If", "When", "While", "Of", "Also",
    "Fiscal", "Calendar", "Year", "Years", "Early", "Mid", "Late", "Spring", "Summer",
    "Fall", "Autumn", "Winter", "Week", "Weeks", "Day", "Days", "Top", "Last", "Next",
    "First", "Second", "Third", "Fourth", "Q", "H", "FY", "Page", "Among", "Against",
    "Via", "Including", "Excluding", "Plus", "Minus", "Nearly", "Over", "Just", "Only",
    "Least", "Most", "Many", "Few", "Several", "Some", "Any", "No", "Not", "Never",
    "Is", "Are", "Was", "Were", "Be", "Has", "Have", "Had", "Will", "Would", "Can",
    "Could", "Should", "May", "Might", "Must", "Do", "Does", "Did", "Where", "Which",
    "Who", "Whom", "Whose", "Why", "How", "What", "So", "Yet", "Then", "Now", "Here",
    "There", "Still", "Again", "Even", "Already", "Once", "Twice",
)

# A four-digit number after these words is a year even outside 1800-2100 or before a
# plural noun: "in 1492", "since 1998", "in 2019 stores reopened".
YEAR_WORDS: tuple[str, ...] = (
    "in", "since", "by", "during", "until", "till", "through", "throughout", "before",
    "after", "circa", "c.", "fiscal", "fy", "calendar", "year", "early", "mid", "late",
    "spring", "summer", "fall", "autumn", "winter", "end", "start", "beginning", "middle",
    "pre", "post",
)
# Before "<year> <noun>", these make the number a year even when the noun is plural:
# "our 2019 results" is a year, "2000 employees" a count.
YEAR_DETERMINERS: tuple[str, ...] = (
    "the", "its", "our", "their", "his", "her", "my", "your", "this", "that", "last",
    "next", "whose", "'s", "’s", "a", "an",
)
# Plural nouns that a year commonly qualifies ("2019 sales", "2020 results").
YEARLY_NOUNS: tuple[str, ...] = (
    "sales", "results", "earnings", "revenues", "figures", "numbers", "levels", "prices",
    "estimates", "targets", "plans", "goals", "forecasts", "projections", "expectations",
    "financials", "accounts", "returns", "profits", "losses", "costs", "expenses",
    "volumes", "shipments", "deliveries", "elections", "olympics", "games", "awards",
    "guidelines", "rules", "standards", "regulations", "models", "editions", "seasons",
)

# Function words end a noun phrase: the noun a number counts comes before them.
FUNCTION_WORDS: frozenset[str] = frozenset((
    "a", "an", "the", "and", "or", "but", "nor", "of", "in", "on", "at", "by", "for",
    "from", "to", "with", "without", "within", "into", "onto", "over", "under", "about",
    "above", "below", "between", "among", "through", "during", "before", "after", "since",
    "until", "than", "as", "per", "via", "versus", "vs", "that", "which", "who", "whom",
    "whose", "where", "when", "while", "whereas", "if", "because", "so", "yet", "is",
    "are", "was", "were", "be", "been", "being", "has", "have", "had", "will", "would",
    "can", "could", "should", "may", "might", "must", "shall", "do", "does", "did", "not",
    "no", "each", "every", "this", "these", "those", "it", "its", "they", "their", "them",
    "we", "our", "us", "he", "his", "she", "her", "you", "your", "i", "my", "me", "more",
    "less", "fewer", "most", "least", "also", "only", "just", "even", "still", "again",
    "respectively", "including", "excluding", "compared", "against", "across", "around",
    "up", "down", "out", "off", "there", "here", "then", "now", "ago", "later", "earlier",
    "year", "years", "each", "apiece", "total", "combined", "altogether", "overall",
))

# "at least one", "two or more": quantifiers that say "some" or "several", not a count;
# written in words with these bounds, such a number is set aside.
PLURAL_QUANTIFIERS: dict[str, tuple[str, ...]] = {
    ">=": ("one", "two"),
    ">": ("one",),
}

# Words between a number and a unit of time that say which days or how they run: "10
# business days", "5 consecutive years", "6 full weeks" are durations, as "10 days" is.
DURATION_MODIFIERS: tuple[str, ...] = (
    "business", "working", "calendar", "consecutive", "successive", "full", "whole",
    "straight", "clear", "school", "trading", "banking",
)

# Numbers in fixed phrases that state no quantity: "open 24/7" means always, not 24 and 7.
# "24-7" and "24x7" are left out: they are as often a score or a size ("a 24x7 inch board").
NUMBER_IDIOMS: tuple[str, ...] = ("24/7", "24 / 7", "24/7/365")

# The top of a rating scale is no claim: the 5 in "rated 4.6 out of 5" or "4.6/5". Set aside
# when the rating has decimals or a unit (stars, points) or follows one of RATING_WORDS,
# and nothing but stars or points follows the scale.
RATING_SCALES: tuple[str, ...] = ("5", "10", "100")
# ("score" and "scored" are left out: "scored 8 out of 10 free throws" counts shots.)
RATING_WORDS: tuple[str, ...] = ("rated", "rating", "ratings", "stars", "reviews")

# A plain number after these words is an age in years: "aged 25", "(age 34)", "at the age
# of 84", "the age was set at 25". Only function words and AGE_LINK_WORDS may stand between.
AGE_WORDS: tuple[str, ...] = ("age", "aged", "ages")
AGE_LINK_WORDS: tuple[str, ...] = ("set", "fixed", "raised", "lowered")
# A whole number set off by commas right after a name is that person's age, as news writes
# it: "Anna Vogt, 52, said", "tsarnaev , 21 , will". The word before the first comma must
# be one that can end a name: not a function word nor one of ANCHOR_UNWORDS (months, days,
# number words), and a word, never a digit, follows the second comma ("pages 3, 12, 15"
# and "Calle Mayor, 12, 28013 Madrid" are no ages). Oldest age read so: APPOSITIVE_AGE_MAX.
APPOSITIVE_AGE_MAX = 119

# Words before or after "<n>-<m>" that make it a score rather than a range.
SCORE_BEFORE: tuple[str, ...] = (
    "won", "win", "wins", "winning", "beat", "beats", "beating", "defeated", "defeat",
    "lost", "lose", "loses", "losing", "tied", "drew", "draw", "edged", "trailed", "led",
    "leads", "leading", "score", "scored", "scoreline", "final", "vote", "voted",
)
SCORE_AFTER: tuple[str, ...] = (
    "victory", "win", "loss", "defeat", "draw", "tie", "lead", "triumph", "decision",
    "scoreline", "vote", "margin", "advantage", "deficit", "aggregate", "thrashing",
    "rout", "home", "away",
)

# Units no table lists, spelled out, and the symbol they are compared as (see
# written_units): "13 megapixels" is "13MP", "270 pixels per inch" is "270 ppi".
WRITTEN_UNIT_SYNONYMS: dict[str, str] = {
    "megapixel": "mp", "megapixels": "mp", "mega pixels": "mp", "pixels per inch": "ppi",
    "pixel per inch": "ppi", "frames per second": "fps", "frame per second": "fps",
    "dots per inch": "dpi", "revolutions per minute": "rpm", "beats per minute": "bpm",
    "milliamp hours": "mah", "milliamp-hours": "mah", "milliampere-hours": "mah",
    "milliamp hour": "mah",
    "kilocalories": "kcal", "kilocalorie": "kcal", "calories": "kcal",
    "parts per million": "ppm", "megabits per second": "mbps", "nit": "nit",
    "horsepower": "hp", "brake horsepower": "hp", "bhp": "hp",
    # Candela per square metre is the nit: spec sheets write either.
    "cd/m2": "nit", "cd/m²": "nit",
}
# Unit symbols the conversion tables do not list that are units however they are cased
# and although a dictionary may hold the letters as a word ("Ah", "MP", "lux"). Other
# capitals after a number name a thing ("Adreno 130 GPU", "8VC"); other lower- and
# mixed-case letters no dictionary holds ("hPa", "kcal") are units too.
WRITTEN_UNIT_SYMBOLS: frozenset[str] = frozenset((
    "mp", "hp", "ppi", "fps", "dpi", "rpm", "bpm", "mah", "wh", "kcal", "ppm", "ppb", "iu",
    "mbps", "kbps", "gbps", "tbps", "gsm", "mmhg", "nm", "μm", "µm", "lm", "lux",
    "db", "dba", "cc", "mpg", "sqft", "rms", "vac", "vdc", "kva", "ah", "cp",
))
# Letters after a number that are no unit although no dictionary holds them: ordinal
# suffixes, abbreviations of words, eras, countries.
NOT_WRITTEN_UNITS: frozenset[str] = frozenset((
    "st", "nd", "rd", "th", "vs", "et", "al", "eg", "ie", "nos", "oh", "ok", "mr", "mrs",
    "dr", "jr", "sr", "tv", "uk", "us", "usa", "eu", "un", "co", "inc", "ltd", "yo", "bc",
    "ad", "bce", "ce", "etc", "aka", "cf", "ca", "approx", "est", "vol", "pp", "ed", "eds",
))
# The markers of the 12-hour clock, which follow a number but are no unit.
CLOCK_MARKERS: frozenset[str] = frozenset(("am", "pm", "a.m", "p.m"))

# Words that say a claimed value is computed, and so may be derived from evidence values
# (see checker.derived): a total, a difference, a change. Without them a sum of two
# evidence numbers is a coincidence, not support.
TOTAL_WORDS: tuple[str, ...] = (
    "total", "totals", "totaled", "totalled", "totaling", "totalling", "combined",
    "altogether", "in all", "sum", "together", "cumulative", "cumulatively", "aggregate",
    "overall", "add up", "adds up", "added up", "comes to", "come to", "came to", "brings",
    "bring", "brought", "whole", "entire", "plus",
)
# Units whose word or letter also means something else after a number, read as units only
# on a line that speaks of what they measure: "26 C" is degrees on a line about heat, a
# grade elsewhere; "70 pounds" is a weight beside "kg" or "weighs", money elsewhere. The
# pattern each alias needs on its line.
# Words of heat and cold: also what makes a bare "30 degrees" a temperature, not an angle.
HEAT_CUE = (
    r"temp|\bheat|\bhot\b|\bcold|\bcool|\bchill|\bwarm|\bthaw|\bfreez|\bboil|\bbak(?:e|ing)"
    r"|\boven|ferment|incubat|\bsoak|\bcur(?:e|ing)\b|setpoint|\bhold|\bheld|\breflow|\b[CF]\)"
    r"|weather|forecast|celsius|fahrenheit"
)
_TEMPERATURE_CUE = rf"degree|°|{HEAT_CUE}"
_WEIGHT_CUE = (
    r"\bweigh|\bheav|\blight(?:er|est)?\b|\bkg\b|kilogram|\blbs?\b|\bmass\b|payload"
    r"|baggage|luggage|\bbags?\b|\bload\b|\bcarry|\blift"
)
CONTEXT_UNITS: dict[str, str] = {
    "C": _TEMPERATURE_CUE, "F": _TEMPERATURE_CUE, "pounds": _WEIGHT_CUE, "pound": _WEIGHT_CUE,
}  # fmt: skip

# Words that make a claimed percentage a share of one value in another: "an acceptance rate
# of roughly 71%", "made up about 19% of enrollment".
SHARE_WORDS: tuple[str, ...] = (
    "% of", "percent of", "share", "proportion", "rate", "ratio", "margin", "made up",
    "make up", "makes up",
    "accounts for", "account for", "accounted for", "represents", "represent",
    "represented", "comprise", "comprises", "comprised",
)
# Adverbs of frequency that, right after an amount of matter, make it a rate per that unit
# of time (the unit's table name): "3 g daily" is "3 g a day".
RATE_ADVERBS: dict[str, str] = {
    "hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month",
    "yearly": "year", "annually": "year",
}  # fmt: skip

# The periods an amount of money may be stated per, as "per <word>" or "a <word>" after
# it, and the period each names: "$120 per month" and "$1,440 a year" are prices of
# different periods, whatever their amounts.
PRICE_PERIODS: dict[str, str] = {
    "hour": "hour", "hr": "hour", "day": "day", "night": "night", "week": "week",
    "fortnight": "fortnight", "month": "month", "mo": "month", "quarter": "quarter",
    "term": "term", "semester": "semester", "year": "year", "yr": "year", "annum": "year",
}  # fmt: skip
PRICE_PERIOD_ADVERBS: dict[str, str] = {
    **RATE_ADVERBS, "nightly": "night", "fortnightly": "fortnight", "quarterly": "quarter",
    "per annum": "year", "p.a.": "year",
}  # fmt: skip

# Words that make a claimed value a rate, an amount per one of something: "each bar costs
# about 92 cents", "about $189 a month".
RATE_WORDS: tuple[str, ...] = (
    "per", "each", "apiece", "every", "a day", "a night", "a week", "a month", "a year",
    "an hour", "a head", "a person", "daily", "nightly", "weekly", "monthly", "yearly",
    "annually", "hourly", "average", "averaged", "averages", "works out",
)
# Words after a value with a unit that give it to a bare number next: "two hours
# instead of three and a half", "12 °C against 9".
UNIT_CARRYING_WORDS: tuple[str, ...] = (
    "instead of", "rather than", "versus", "vs.", "vs", "compared with", "compared to",
    "against", "as opposed to",
)
# What may stand between those words and the bare number: "instead of every 10", "rather
# than the usual 20".
UNIT_CARRIED_DETERMINERS: tuple[str, ...] = ("a", "an", "the", "every", "its", "their")
UNIT_CARRIED_QUALIFIERS: tuple[str, ...] = (
    "usual", "normal", "current", "previous", "old", "former", "regular", "standard",
    "scheduled", "planned", "original", "earlier", "typical",
)
# Words that may stand between a number and what it measures: "395 more miles".
COMPARED_WORDS: tuple[str, ...] = ("more", "fewer", "less", "extra", "additional", "further")
DIFFERENCE_WORDS: tuple[str, ...] = (
    "difference", "differ", "differs", "gap", "margin", "spread", "apart", "ahead",
    "behind", "more", "less", "fewer", "larger", "smaller", "bigger", "higher", "lower",
    "longer", "shorter", "cheaper", "above", "below", "saves", "save", "saving",
    "savings", "surplus", "deficit", "extra", "better", "worse",
)
# Words that say a value is a decrease, as data writes with a minus sign: "Public Works is
# down 1.7%", "slipping 1.1% in April".
DECREASE_WORDS: tuple[str, ...] = (
    "down", "fell", "fall", "falls", "fallen", "falling", "decline", "declined", "declines",
    "declining", "decrease", "decreased", "decreases", "drop", "dropped", "drops",
    "dropping", "slip", "slipped", "slipping", "slid", "lost", "lose", "loss", "lower",
    "cut", "cuts", "shrank", "shrunk", "contracted", "reduction", "reduced", "negative",
    "deficit", "decrement",
)
# Words that speak of a difference only right beside the value they compute: "up 582
# students", "rose by $150", "4.1 million over budget".
NEAR_DIFFERENCE_WORDS: tuple[str, ...] = ("over", "under", "beat", "beats", "up", "down", "by")
# Which way a claimed percentage change goes, by the word of change nearest the value:
# "rose 20%" and "a 20% gain" are up, "fell 20%" and "a 20% cut" down. A change up is
# taken on the smaller value, one down on the larger, so "rose 20% to $125 million" is no
# reading of "$100 million to $125 million" (25% up; 20% is the fall from 125 to 100).
CHANGE_UP_WORDS: tuple[str, ...] = (
    "rose", "rise", "rises", "risen", "rising", "grew", "grow", "grows", "grown", "growing",
    "growth", "increased", "increase", "increases", "increasing", "climbed", "climb",
    "climbs", "jumped", "jump", "jumps", "surged", "surge", "surges", "soared", "gained",
    "gain", "gains", "expanded", "widened", "raised", "raise", "raises", "boosted", "boost",
    "up", "higher", "more",
)
CHANGE_DOWN_WORDS: tuple[str, ...] = (
    "fell", "fall", "falls", "fallen", "falling", "declined", "decline", "declines",
    "declining", "decreased", "decrease", "decreases", "decreasing", "dropped", "drop",
    "drops", "dropping", "slipped", "slid", "shrank", "shrunk", "narrowed", "lowered",
    "lower", "lowers", "cut", "cuts", "reduced", "reduce", "reduces", "reduction",
    "plunged", "tumbled", "dipped", "lost", "loss", "losses", "down", "less", "fewer",
)
CHANGE_NOUNS: tuple[str, ...] = (
    "growth", "gain", "gains", "loss", "losses", "rise", "drop", "decline", "jump",
    "increase", "decrease", "change", "higher", "lower", "more", "less",
)
# Keys of data whose values are fractions a claim may state as percentages ("pop": 0.2
# for a 20% chance of rain).
FRACTION_KEY_WORDS: frozenset[str] = frozenset((
    "pop", "probability", "fraction", "ratio", "share", "proportion", "chance",
))

# Keys of data whose values are percentages though no "%" is written: "humidity": 87.
PERCENT_KEY_WORDS: frozenset[str] = frozenset((
    "humidity", "percent", "percentage", "pct", "share", "rate_percent", "prob",
    "probability", "chance",
))

# Words of data keys that hold amounts of money, in the currency a record or document
# states apart ("currency": "EUR" beside "unit_price": 950.00).
MONEY_KEY_WORDS: frozenset[str] = frozenset((
    "amount", "price", "prices", "total", "subtotal", "cost", "costs", "fee", "fees",
    "balance", "tax", "vat", "charge", "charges", "payment", "revenue", "sales", "income",
    "profit", "rent", "deposit", "salary", "wage", "budget", "spend", "paid", "due",
    "fare", "fares", "nightly", "hourly", "msrp", "premium", "premiums", "tuition",
))

# Keys that name a document's currency, and the unit words keys end with that no unit
# table lists as such: "size_in" in inches, "temp_c" in degrees Celsius.
CURRENCY_KEYS: frozenset[str] = frozenset(("currency", "currency_code", "ccy"))
# Keys under which a record of data writes its own currency code ("| US dollar | USD |").
RECORD_CURRENCY_KEYS: frozenset[str] = CURRENCY_KEYS | {"code", "iso", "iso code"}
# Keys whose value is the unit of the data beside it: "unit": "kWh".
UNIT_FIELD_KEYS: frozenset[str] = frozenset({"unit", "units", "uom", "unit_of_measure"})
KEY_UNIT_ALIASES: dict[str, str] = {
    "in": "inch", "pct": "%", "c": "°C", "f": "°F", "ms": "ms", "s": "s", "w": "W",
    "kw": "kW", "v": "V", "kv": "kV", "mv": "mV", "ma": "mA", "wh": "Wh", "kwh": "kWh",
    # no "mw": a key's "mw" is megawatts on a grid and milliwatts on a radio
    "gw": "GW", "gwh": "GWh", "twh": "TWh",
    "age": "years",  # "age": 25 is an age in years, as "aged 25" is
}  # fmt: skip
# Last words of keys that divide the word before them: "glucose_mmol_l" is in mmol/L,
# "egfr_ml_min" in mL/min, "speed_km_h" in km/h.
KEY_DENOMINATORS: frozenset[str] = frozenset(
    ("l", "dl", "ml", "min", "h", "hr", "s", "sec", "kg", "g", "m", "day")
)

# Times of day written as words, and the markers of the 12-hour clock.
CLOCK_WORDS: dict[str, str] = {"noon": "12:00", "midday": "12:00", "midnight": "00:00"}
# Parts of the day that say a clock time's half after its minutes, as "a.m." and "p.m."
# do: "6:30 in the evening" is 18:30. Whether each is after noon.
DAYPARTS: dict[str, bool] = {"morning": False, "afternoon": True, "evening": True}

# Number words: values of single words and the multipliers that scale what precedes them.
SMALL_NUMBER_WORDS: dict[str, int] = {
    word: value
    for value, word in enumerate(
        [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
            "seventeen", "eighteen", "nineteen",
        ]
    )
}
TENS_WORDS: dict[str, int] = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}
MULTIPLIER_WORDS: dict[str, int] = {
    "dozen": 12, "hundred": 100, "thousand": 1000, "million": 1000000, "billion": 1000000000,
}

# Words that name a number only loosely, read as numbers in evidence alone: evidence keeps
# every plausible reading of its numbers ("a pair of entangled particles" supports "two
# particles"), while a claim's "one" or "second" commits to nothing.
EVIDENCE_NUMBER_WORDS: dict[str, str] = {
    "one": "1", "single": "1", "once": "1", "a pair": "2", "pair": "2", "a couple": "2",
    "couple": "2", "both": "2", "twice": "2", "double": "2", "doubled": "2", "twofold": "2",
    "thrice": "3", "triple": "3", "tripled": "3", "threefold": "3", "quadruple": "4",
    "half": "0.5", "a dozen": "12",
}
# Ordinal words, which evidence may write for a claim's "4th".
ORDINAL_NUMBER_WORDS: dict[str, str] = {
    "first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6",
    "seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10", "eleventh": "11",
    "twelfth": "12",
}

# Words that state a multiple without a digit, as "two times" does with one: "sales
# doubled", "twice as many", "won it twice", "the price halved".
MULTIPLE_WORDS: dict[str, str] = {
    "doubled": "2", "doubling": "2", "tripled": "3", "trebled": "3", "tripling": "3",
    "quadrupled": "4", "halved": "0.5", "twice": "2", "two-fold": "2", "twofold": "2",
    "threefold": "3", "three-fold": "3",
}

# "half an hour", "half a day", "a quarter of an hour": a fraction word before a unit.
FRACTION_WORDS: dict[str, str] = {"half": "0.5", "quarter": "0.25"}

# Fractions of a whole, read as the share they name: "two-thirds of voters" is the 66.7%
# of a table, "half of respondents" its 50%. A numerator word, then a denominator word.
SHARE_NUMERATORS: dict[str, int] = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9,
}
SHARE_DENOMINATORS: dict[str, int] = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
    "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6, "seventh": 7, "sevenths": 7,
    "eighth": 8, "eighths": 8, "ninth": 9, "ninths": 9, "tenth": 10, "tenths": 10,
}
# The fractions of one unit read as a decimal of it ("three-quarters of an hour" is 0.75
# hours): those whose decimal ends; "two-thirds of a mile" is left as written.
UNIT_FRACTION_DENOMINATORS: dict[str, int] = {
    word: n for word, n in SHARE_DENOMINATORS.items() if n in (2, 4, 5, 8, 10)
}
# Words right before "half of" that make it a part of a period or a thing rather than a
# share: "the second half of the season", "the other half of the deal", the "a half" of
# "a day and a half of leave".
HALF_OF_PARTS: tuple[str, ...] = (
    "a", "the", "first", "second", "1st", "2nd", "other", "latter", "former", "back", "front",
    "top", "bottom", "upper", "lower", "northern", "southern", "eastern", "western",
    "better",
)

# Words right before a clock reading with seconds that make it a time taken, not a time
# of day: "won in 2:04:37", "a lap of 1:28.293", "winning time 2:08:13". Not after "as"
# ("as of 10:30:00").
ELAPSED_CLOCK_CUES: frozenset[str] = frozenset({
    "in", "clocked", "timed", "ran", "finished", "lasted", "took", "duration", "runtime",
    "record",
})
# With a fraction of a second ("a lap of 1:28.293"), or after a word of racing before
# "time" ("winning time 2:08:13"), these cue it too; a plain "time of 09:00:00" is a
# time of day.
ELAPSED_FRACTION_CUES: frozenset[str] = frozenset({"of", "lap", "time"})
# Words right after a clock that make it a gap between finishers: "3:13 behind the winner".
GAP_WORDS: frozenset[str] = frozenset({"behind", "ahead", "adrift"})
RACE_TIME_WORDS: frozenset[str] = frozenset({
    "winning", "finishing", "running", "total", "race", "lap", "chip", "gun", "elapsed",
})

# Words right before an evidence value that give it for an earlier time: "up from 4.1%"
# (see checker/earlier.py). "compared with" and "versus" compare sizes and places as
# often as times ("250 calories, compared with 190 for the 12-ounce size"): they count
# only with a time after the value ("compared with $268 million a year earlier").
EARLIER_BEFORE: tuple[str, ...] = (
    "up from", "down from", "from a year-earlier", "from the year-earlier",
)
# Words right after an evidence value that date it back: "$268 million a year earlier".
EARLIER_AFTER: tuple[str, ...] = (
    "a year earlier", "a year ago", "a year before", "the year before", "last year",
    "the previous year", "the prior year", "in the previous year", "in the prior year",
    "in the prior-year period", "in the prior-year quarter", "in the year-ago quarter",
    "in the year-ago period", "a quarter earlier", "the previous quarter",
    "in the previous quarter", "the prior quarter", "a month earlier", "last month",
    "the previous month",
)
# Words of a claim that speak of an earlier time or compare, so that it may quote the
# earlier side of a comparison (the verbs of change above count too).
EARLIER_CLAIM_WORDS: tuple[str, ...] = (
    "earlier", "ago", "last", "previous", "previously", "prior", "before", "up from",
    "down from", "compared", "versus", "vs", "against", "than", "year-ago", "year-earlier",
    "prior-year", "used to", "instead", "in place of", "usual", "usually", "normally",
)
# Words right before an evidence value that say another replaced it: "every 40 minutes
# instead of the usual 20" (a determiner and a qualifier of UNIT_CARRIED_* may stand
# between).
REPLACED_BEFORE: tuple[str, ...] = ("instead of", "rather than", "as opposed to", "in place of")

# The words beside an amount that say it is stated per a period ("2,000 mg once daily"),
# by the period a rate names (see checker/compare.py).
PERIOD_WORDS: dict[str, tuple[str, ...]] = {
    "hour": ("hourly", "hour", "an hour", "per hour"),
    "day": ("daily", "a day", "per day", "each day"),
    "week": ("weekly", "a week", "per week", "each week"),
    "month": ("monthly", "a month", "per month", "each month"),
    "year": ("yearly", "annual", "annually", "a year", "per year", "each year", "per annum"),
}

# Month names and the abbreviations accepted in dates.
MONTHS: dict[str, int] = {
    "January": 1, "Jan": 1, "February": 2, "Feb": 2, "March": 3, "Mar": 3, "April": 4,
    "Apr": 4, "May": 5, "June": 6, "Jun": 6, "July": 7, "Jul": 7, "August": 8, "Aug": 8,
    "September": 9, "Sept": 9, "Sep": 9, "October": 10, "Oct": 10, "November": 11,
    "Nov": 11, "December": 12, "Dec": 12,
}

# Ordinals that name quarters and halves: "third quarter", "3rd quarter", "second half".
ORDINAL_WORDS: dict[str, int] = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
}

# The years of a decade that "early", "mid" and "late" name.
DECADE_PARTS: dict[str, tuple[int, int]] = {"early": (0, 3), "mid": (4, 6), "late": (7, 9)}
# The years of a century that "early", "mid" and "late" name: "the late 19th century" is
# 1867-1899.
CENTURY_PARTS: dict[str, tuple[int, int]] = {"early": (0, 33), "mid": (34, 66), "late": (67, 99)}
# fmt: on


# Words that say nothing of what a number is of (see checker/anchors.py): function words,
# verbs of being and having, hedges, number and period words, and the words data wraps
# its values in ("details", "value", "list").
def _words(text: str) -> frozenset[str]:
    """The words of a table written as text, one or more to a line."""
    return frozenset(text.split())


ANCHOR_UNWORDS: frozenset[str] = _words(
    """
    a an the this that these those it its it's they them their there here he she his her
    him we our us you your i me my who whom whose what which when where why how
    of in on at by for from to into onto with without within about around over under
    above below between among across through during before after since until till upon
    per via than as like near off out up down
    and or but nor so yet if then else also too only just even still very more most less
    however though
    least much many some any all each every both either neither no not none other another
    such same own few several
    be is are was were been being am have has had having do does did done doing
    will would shall should can could may might must
    get gets got include includes included including feature features featuring come
    comes came offer offers provide provides provided make makes made take takes took
    give gives gave show shows showed shown reach reaches reached remain remains remained
    say says said report reports reported state states stated note notes noted
    approximately about around roughly nearly almost some estimated total overall
    average up down rise fall increase decrease grow
    one two three four five six seven eight nine ten eleven twelve hundred thousand
    million billion trillion dozen half quarter percent per cent
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday today yesterday tomorrow
    day week month year time date period
    detail details spec specs specification specifications value values data list item
    items record records name names id info information attribute attributes field
    fields entry entries
    """
)

# Words that name one thing (see checker/anchors.py), by their canonical word: "sales"
# is said of what "revenue" is, "temp" of what "temperature" is.
ANCHOR_SYNONYMS: dict[str, str] = {
    "sale": "revenue",
    "sales": "revenue",
    "turnover": "revenue",
    "temp": "temperature",
    "max": "maximum",
    "highest": "maximum",
    "peak": "maximum",
    "min": "minimum",
    "lowest": "minimum",
    "mtow": "takeoff",
    "profit": "income",
    "earnings": "income",
    "humid": "humidity",
    "precipitation": "rain",
    "rainfall": "rain",
    "employee": "staff",
    # listings head rooms by the short word: "Beds", "Baths"
    "bedroom": "bed",
    "bathroom": "bath",
    # adverbs say what their adjectives do: "currently costs" is the "current" price
    "currently": "current",
    "previously": "previous",
    "originally": "original",
    "worker": "staff",
    # abbreviations tables use for the words answers spell out
    "hwy": "highway",
    "avg": "average",
    "qty": "quantity",
    "yr": "year",
    "precip": "rain",
    "pop": "population",
    "dept": "department",
    "govt": "government",
    "intl": "international",
    "approx": "approximate",
    "loss": "lose",
}

# Conjunctions where the words between two values of a clause change hands ("the small
# costs $12 and the large $18"); a comma does too (checker/anchors.py, checker/rows.py).
HANDOVER_WORDS: frozenset[str] = frozenset(
    {"and", "or", "but", "while", "whereas", "versus", "vs", "compared"}
)

# Words that say what a claimed amount includes or leaves out ("including 19% VAT",
# "before city tax", "plus delivery"): the words after them name another amount's thing,
# never what the value is of (checker/compare.py).
INCLUSION_WORDS: tuple[str, ...] = (
    "including",
    "incl",
    "inclusive of",
    "excluding",
    "excl",
    "exclusive of",
    "before",
    "plus",
    "without",
    "on top of",
    "in addition to",
    "net of",
)

# Abbreviations written after a number for the noun they stand for: "64 pts" counts
# points as "64 points" does, "97.6 deg" is an angle as "97.6 degrees" is.
NOUN_ABBREVIATIONS: dict[str, str] = {
    "pts": "point",
    "deg": "degree",
    "degs": "degree",
}

# Column headers of one or a few letters that stand for a word, as a league table's
# "W", "D", "L": what a claim says of the value ("lost five matches") names the column.
COLUMN_ABBREVIATIONS: dict[str, str] = {
    "w": "win",
    "d": "draw",
    "l": "lose",
    "pts": "point",
}

# Words of a data key that make its value a name rather than a quantity ("homeTeam >
# id", "zip_code"): such a value is never a rival of a claimed one (checker/anchors.py).
IDENTIFIER_KEYS: frozenset[str] = frozenset(
    {
        "id",
        "ids",
        "uid",
        "uuid",
        "code",
        "codes",
        "zip",
        "postcode",
        "phone",
        "isbn",
        "sku",
        "ean",
        "upc",
        "key",
        "slug",
        "hash",
        "ref",
        "no",
    }
)

# Events a date is said of, as anchors (lemmas): a date of prose belongs to another event
# only where such a word sets the two apart ("married in 1823" where the marriage is
# dated 1827); other words ("tax", "quarter") name what a date is of too loosely.
EVENT_WORDS: tuple[str, ...] = (
    "bear", "born", "die", "death", "marry", "marriage", "divorce", "join", "leave",
    "retire", "resign", "elect", "election", "appoint", "hire", "found", "establish",
    "build", "construct", "open", "opening", "close", "closure", "launch", "release",
    "premiere", "debut", "publish", "sign", "win", "award", "climb", "scrap", "sink",
    "demolish", "complete", "incorporate", "begin", "start", "end", "finish", "discover",
    "invent", "graduate", "enter", "inaugurate", "crown", "splash", "land", "ceremony",
    "finale",
)  # fmt: skip
