"""The checker's options as every command that checks claims reads them: ``check``,
``worker`` and ``replay`` share one definition, so they judge a claim the same way."""

from __future__ import annotations

import sys

from quantcheck.answers.split import Uncited
from quantcheck.checker import CheckOptions, CitationMode
from quantcheck.errors import UsageError
from quantcheck.quantities.categories import Scope
from quantcheck.settings import MIB, Settings

CHECK_SETTINGS: tuple[str, ...] = (
    "scope",
    "bare_numbers",
    "citation_mode",
    "uncited",
    "evidence_cache_size",
    "evidence_cache_mib",
    "document_facts_mib",
)
"""The settings that change verdicts or how they are computed."""

_BARE_NUMBERS_SCOPE = {"true": Scope.ALL, "false": Scope.UNITS}


def check_options(settings: Settings) -> CheckOptions:
    """The checker's options from the settings; a contradiction is a UsageError."""
    return CheckOptions(
        scope=scope_of(settings),
        citation_mode=CitationMode(settings.citation_mode),
        evidence_cache_size=settings.evidence_cache_size,
        evidence_cache_bytes=settings.evidence_cache_mib * MIB,
        document_facts_bytes=settings.document_facts_mib * MIB,
    )


def uncited_of(settings: Settings) -> Uncited:
    """What a sentence of an answer with a number and no marker cites."""
    return Uncited(settings.uncited)


def scope_of(settings: Settings) -> Scope:
    """``--scope``, or the scope the deprecated ``--bare-numbers`` stands for."""
    scope = Scope(settings.scope)
    bare = settings.bare_numbers
    if bare is None:
        return scope
    implied = _BARE_NUMBERS_SCOPE[bare]
    if scope is not Scope.ALL and scope is not implied:
        raise UsageError(f"--bare-numbers {bare} contradicts --scope {scope.value}")
    print(
        f"quantcheck: --bare-numbers is deprecated and will be removed; use --scope "
        f"{implied.value}",
        file=sys.stderr,
    )
    return implied
