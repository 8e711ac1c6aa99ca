"""Write ``quantcheck/quantities/lemma_table.py``, the word readings the checker looks up,
from lemminflect's dictionary.

``python -m tools.lemma_table`` rewrites the table; ``python -m tools.lemma_table --check``
writes nothing and exits 1 when the committed table differs from what lemminflect gives, so
the table cannot drift from its source. Only this tool needs lemminflect (the ``test``
extra): the checker reads the generated table, about a megabyte, where lemminflect's own
dictionaries took about 60 MB of every process's memory. The line format is described in
``quantcheck/quantities/lemmas.py``, which reads it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

import lemminflect
from lemminflect.core.Lemmatizer import Lemmatizer

TABLE_FILE: Final = (
    Path(__file__).resolve().parent.parent / "quantcheck" / "quantities" / "lemma_table.py"
)
# The part-of-speech letters of the table, as quantcheck/quantities/lemmas.py reads them.
PART_LETTERS: Final = {"NOUN": "N", "VERB": "V", "ADJ": "A", "ADV": "R", "AUX": "X"}
_LICENCE = """\
Derived from LemmInflect {version} (https://github.com/bjascob/LemmInflect), whose
dictionary is derived from the NIH SPECIALIST Lexicon, under this licence:

The MIT License (MIT)

Copyright (C) 2019 Brad Jascob

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in
all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
THE SOFTWARE.
"""


def dictionary_words() -> list[str]:
    """Every word lemminflect's dictionary reads, in the order the table is searched: the
    lower-case keys of its lookup table and of its overrides (it lower-cases what it is
    asked, so no other key is ever reached)."""
    lemmatizer = Lemmatizer()
    keys = set(lemmatizer._getLemmaDict()) | set(lemmatizer._getOverridesDict())
    return sorted(key for key in keys if key == key.lower())


def form_code(word: str, form: str) -> str:
    """A lemma written against its word: empty for the word itself, else how many letters
    to drop from the word's end and the letters to add ("companies", "company": "3y")."""
    if form == word:
        return ""
    kept = 0
    while kept < min(len(word), len(form)) and word[kept] == form[kept]:
        kept += 1
    return f"{len(word) - kept}{form[kept:]}"


def line(word: str, readings: Mapping[str, tuple[str, ...]], same_plural: bool) -> str:
    """One word's line of the table."""
    parts = ";".join(
        PART_LETTERS[part] + ",".join(form_code(word, form) for form in forms)
        for part, forms in readings.items()
    )
    return f"{word}:{parts}{'!' if same_plural else ''}"


def same_plural(word: str, readings: Mapping[str, tuple[str, ...]]) -> bool:
    """Whether a noun that is its own lemma is written the same in the plural ("people",
    "sheep", "personnel"): the one inflection the checker asks of a word."""
    nouns = readings.get("NOUN")
    if not nouns or nouns[0] != word:
        return False
    plurals: tuple[str, ...] = lemminflect.getInflection(word, "NNS")
    return bool(plurals) and plurals[0] == word


def table_lines(words: Iterable[str]) -> list[str]:
    """The table's lines for ``words``, in order."""
    lines = []
    for word in words:
        readings: dict[str, tuple[str, ...]] = lemminflect.getAllLemmas(word)
        if readings:
            lines.append(line(word, readings, same_plural(word, readings)))
    return lines


def module_text() -> str:
    """The generated module: the licence of its source, then the table as one string, a
    single literal, which Python compiles in milliseconds where a literal a line would take
    a tenth of a second."""
    licence = _LICENCE.format(version=lemminflect.__version__)
    entries = table_lines(dictionary_words())
    # Words and lemmas hold letters, hyphens, apostrophes and spaces: nothing that would end
    # the literal, escape in it, or be read as the separator after a word.
    assert not any('"' in entry or "\\" in entry or entry.count(":") != 1 for entry in entries)
    body = "".join(entry + "\n" for entry in entries)
    return (
        '"""The readings of English words, one line a word: generated by'
        " ``python -m tools.lemma_table``\nfrom lemminflect; do not edit. The format is"
        " described in ``lemmas.py``, which reads it.\n\n"
        f"{licence}"
        '"""\n\n'
        f'TABLE = """\\\n{body}"""\n'
    )


def main(argv: list[str] | None = None) -> int:
    """Write the table, or with ``--check`` compare it; 1 when it differs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    wanted = module_text()
    current = TABLE_FILE.read_text(encoding="utf-8") if TABLE_FILE.exists() else ""
    if current == wanted:
        return 0
    if args.check:
        print(
            f"{TABLE_FILE.name} differs from lemminflect {lemminflect.__version__}:"
            " run python -m tools.lemma_table",
            file=sys.stderr,
        )
        return 1
    TABLE_FILE.write_text(wanted, encoding="utf-8")
    print(f"wrote {TABLE_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
