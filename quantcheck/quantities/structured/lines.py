"""A document's lines with their offsets, and which of them no region has taken yet."""

from __future__ import annotations

from collections.abc import Iterable

from quantcheck.quantities.structured.cells import Span


class Lines:
    """The lines of a text split at ``\\n`` (a trailing ``\\r`` is not part of a line),
    each with its start offset, and a mask of the lines still free for a reader."""

    def __init__(self, text: str):
        self.text = text
        self.bodies = text.split("\n")
        self.starts: list[int] = []
        offset = 0
        for number, body in enumerate(self.bodies):
            self.starts.append(offset)
            offset += len(body) + 1
            if body.endswith("\r"):
                self.bodies[number] = body[:-1]
        self.free = [True] * len(self.bodies)

    def __len__(self) -> int:
        return len(self.bodies)

    def end(self, number: int) -> int:
        """Where line ``number`` ends, before its line break."""
        return self.starts[number] + len(self.bodies[number])

    def is_blank(self, number: int) -> bool:
        return not self.bodies[number].strip()

    def take(self, spans: Iterable[Span]) -> None:
        """Mark every line that overlaps one of ``spans`` (sorted) as taken."""
        number = 0
        for start, end in spans:
            while number < len(self.bodies) and self.end(number) < start:
                number += 1
            while number < len(self.bodies) and self.starts[number] < end:
                self.free[number] = False
                number += 1
