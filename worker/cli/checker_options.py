"""The checker's options as every command that checks claims reads them: ``check``,
``worker`` and ``replay`` share one definition, so they judge a claim the same way."""

from __future__ import annotations

import argparse
import sys

from worker.checker import CheckOptions, CitationMode
from worker.errors import UsageError
from worker.quantities.categories import Scope
from worker.settings import as_int, as_mib

CHECK_SETTINGS: tuple[str, ...] = (
    "scope",
    "bare_numbers",
    "citation_mode",
    "evidence_cache_size",
    "evidence_cache_mib",
)
"""The settings that change verdicts or how they are computed."""

_BARE_NUMBERS_SCOPE = {"true": Scope.ALL, "false": Scope.UNITS}


def check_options(args: argparse.Namespace) -> CheckOptions:
    """The checker's options from the parsed settings; a bad value is a UsageError."""
    return CheckOptions(
        scope=scope_of(args),
        citation_mode=CitationMode(args.citation_mode),
        evidence_cache_size=as_int(args.evidence_cache_size, name="evidence_cache_size", minimum=1),
        evidence_cache_bytes=as_mib(args.evidence_cache_mib, name="evidence_cache_mib"),
    )


def scope_of(args: argparse.Namespace) -> Scope:
    """``--scope``, or the scope the deprecated ``--bare-numbers`` stands for."""
    try:
        scope = Scope(args.scope)
    except ValueError:
        raise UsageError(f"scope must be all or units, got {args.scope!r}") from None
    bare = str(args.bare_numbers).strip().lower()
    if not bare:
        return scope
    if bare not in _BARE_NUMBERS_SCOPE:
        raise UsageError(f"bare_numbers must be true or false, got {args.bare_numbers!r}")
    implied = _BARE_NUMBERS_SCOPE[bare]
    if scope is not Scope.ALL and scope is not implied:
        raise UsageError(f"--bare-numbers {bare} contradicts --scope {scope.value}")
    print(
        f"quantcheck: --bare-numbers is deprecated and will be removed; use --scope "
        f"{implied.value}",
        file=sys.stderr,
    )
    return implied
