"""Argument types for the flags that are not settings (``--partitions``, ``--last``): a bad
value is reported by argparse in one line, as every other user mistake is."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_number(minimum: int, *, never: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` for an integer of at least ``minimum`` (and not ``never``)."""

    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if number < minimum or number == never:
            rule = f"at least {minimum}" + ("" if never is None else f" and not {never}")
            raise argparse.ArgumentTypeError(f"{number} is not allowed: it must be {rule}")
        return number

    return parse
