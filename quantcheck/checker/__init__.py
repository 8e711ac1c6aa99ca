"""The numeric evidence check: pure functions from claim and cited documents to a verdict."""

from quantcheck.checker.check import CHECKER_VERSION, Checker, CheckOptions, CitationMode
from quantcheck.checker.model import (
    Claim,
    Document,
    EvidenceRef,
    FactCheck,
    MatchKind,
    Status,
    Verdict,
)

__all__ = [
    "CHECKER_VERSION",
    "CheckOptions",
    "Checker",
    "CitationMode",
    "Claim",
    "Document",
    "EvidenceRef",
    "FactCheck",
    "MatchKind",
    "Status",
    "Verdict",
]
