"""How much one document may yield: a bound on the memory its facts take, kept by counting
what is made, never by measuring memory.

Reading a document makes objects in proportion to what it holds, not to its length: a
fact for each quantity, an entry for each number it writes, a cell for each value of its
data, a code for each token with a digit. Each kind costs at most so many bytes while the
document is read and indexed, intermediate objects included (measured on the densest
texts there are: ``1:1:1...``, ``1, 1, 1, ...``, tables and JSON arrays of single digits;
see tests/checker/test_fact_budget.py). So a bound in bytes is spent as things are made,
and a document that would go over it stops being read at once, with
:class:`TooManyFacts`, instead of taking the process past its memory. Dense numeric text
yields a fact every two characters: without a bound one document of the 32 MiB the store
accepts would take gigabytes.
"""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1024 * 1024
# The most memory each kind of thing costs while its document is read and indexed.
FACT_BYTES = 1280  # a fact: a mention, a number set aside, an identifier named
NUMBER_BYTES = 192  # a number the text writes, held in the index by value
CELL_BYTES = 384  # a cell of data, with what its reader makes to find it
CODE_BYTES = 192  # a code the text names
# Reading a long unbroken run of the characters a token is made of ("1-1-1-...",
# "1,1,1,...") makes the pattern engine keep state for each of them: a run this long or
# longer must be known to fit first.
LONG_RUN = 1024
RUN_CHAR_BYTES = 80  # a character of such a run
# What normalizing a text that is not plain ASCII holds, which the pattern of small
# strings it makes and frees about doubles: the normalized text, and four offsets of four
# bytes for each cluster that does not become one character.
NORMALIZED_CHAR_BYTES = 4  # times a normalized character's own size
CLUSTER_BYTES = 32
# The default bound on one document: with the process itself (about 60 MiB) and the
# document's text read from the store (at most 32 MiB, held twice while decoded), a worker
# reading the worst document stays within half of a 512 MiB container.
DEFAULT_DOCUMENT_FACTS_MIB = 128


class TooManyFacts(ValueError):
    """A document yields more facts than its bound allows."""

    def __init__(self, max_bytes: int, document: str | None = None):
        self.max_bytes = max_bytes
        self.document = document
        named = "the document" if document is None else f"document {document!r}"
        super().__init__(
            f"{named} yields more facts than the bound of {max_bytes / MIB:g} MiB on one"
            " document's facts allows"
        )

    def of_document(self, document: str) -> TooManyFacts:
        """The same refusal, naming the document."""
        return TooManyFacts(self.max_bytes, document)


@dataclass(slots=True)
class FactBudget:
    """The memory one document may still take; a ``max_bytes`` of None bounds nothing.
    Each thing made is counted at its kind's cost; the few whose size is known exactly
    (the offsets normalization keeps) at their size."""

    max_bytes: int | None
    spent_bytes: int = 0

    def spend(self, count: int = 1, each: int = FACT_BYTES) -> None:
        """Count ``count`` things made of ``each`` bytes; raises :class:`TooManyFacts`
        past the bound."""
        self.spent_bytes += count * each
        self._check(0)

    def spend_bytes(self, size: int) -> None:
        """Count ``size`` bytes taken; raises :class:`TooManyFacts` past the bound."""
        self.spend(size, 1)

    def require(self, count: int, each: int = FACT_BYTES) -> None:
        """Raise :class:`TooManyFacts` unless ``count`` more things of ``each`` bytes fit,
        spending nothing: for what must be known to fit before it is made."""
        self._check(count * each)

    def _check(self, more: int) -> None:
        if self.max_bytes is not None and self.spent_bytes + more > self.max_bytes:
            raise TooManyFacts(self.max_bytes)
