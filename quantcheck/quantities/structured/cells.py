"""What the readers of data produce: cells with their spans, and the regions that hold them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

# Record numbers come from one counter per document, shared by every reader, so that two
# regions never share a record by accident.
Records = Iterator[int]

# A span of the document: half-open character offsets.
Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Cell:
    """One value in data: where it sits (its key, its key path, its record, and for a
    table its row and column), the span of its text in the original document, and the
    unit and scale the document states for it."""

    key: str
    path: tuple[str, ...]
    start: int
    end: int
    record: int
    unit: str | None = None
    scale: Decimal = Decimal(1)
    row: str | None = None
    column: str | None = None
    # Whether the scale is the value's own header's ("Harvested acres (thousand)"), which
    # multiplies a measurement too, not a caption's over a table of amounts.
    own_scale: bool = False


@dataclass(frozen=True, slots=True)
class Layout:
    """A document split into its data and its prose: every cell of every structured
    region in document order, and the spans to be read as prose (titles, captions and
    table headers are prose; so is everything outside the regions)."""

    cells: tuple[Cell, ...]
    prose: tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class Region:
    """One structured part of a document, ``[start, end)``: its cells, and the spans
    inside it that are prose (a list's title, a table's header, a comment line)."""

    start: int
    end: int
    cells: tuple[Cell, ...]
    prose: tuple[Span, ...] = ()
