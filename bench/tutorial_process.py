"""The tutorial's checker as a whole program: the baseline of ``bench.check_process``.

The algorithm of the tutorial the project started from, step for step: both CSV files
read into lists of rows, a frozen ``Fact`` data class, one pattern for ISO dates and one
for number-unit pairs, a normalization function, set difference against the facts of the
cited document for every claim, a status and a reason per claim, and the rows written out
with their status and reason. It reads less than quantcheck (five categories and dates,
one citation per claim) and gives it the fixed point the issue names.

    python -m bench.tutorial_process DOCUMENTS.csv CLAIMS.csv RESULTS.csv
"""

from __future__ import annotations

import csv
import re
import sys
from dataclasses import dataclass
from decimal import Decimal

DATE_PATTERN = re.compile(r"\b20\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b")
QUANTITY_PATTERN = re.compile(
    r"(?P<value>\d+(?:\.\d+)?)\s*-?\s*"
    r"(?P<unit>liters?\s+per\s+minute|l/min|degrees?\s+celsius|°\s*c|"
    r"megabytes?|mb|percent|%|seconds?|minutes?|hours?|days?|weeks?)(?=$|\W)",
    re.IGNORECASE,
)


@dataclass(frozen=True, order=True)
class Fact:
    """A normalized fact: a category and a value."""

    category: str
    value: Decimal | str

    def label(self) -> str:
        return f"{self.category}={self.value}"


def canonical_fact(value_text: str, unit_text: str) -> Fact:
    """The fact a number and its unit state."""
    value = Decimal(value_text)
    unit = re.sub(r"\s+", " ", unit_text.lower().replace("°", "")).strip()
    time_factors = {
        "second": Decimal(1), "seconds": Decimal(1), "minute": Decimal(60),
        "minutes": Decimal(60), "hour": Decimal(3600), "hours": Decimal(3600),
        "day": Decimal(86400), "days": Decimal(86400), "week": Decimal(604800),
        "weeks": Decimal(604800),
    }  # fmt: skip
    if unit in time_factors:
        return Fact("time_seconds", value * time_factors[unit])
    if unit in {"percent", "%"}:
        return Fact("percent", value)
    if unit in {"degree celsius", "degrees celsius", "c"}:
        return Fact("temperature_c", value)
    if unit in {"liter per minute", "liters per minute", "l/min"}:
        return Fact("flow_l_per_min", value)
    return Fact("size_mb", value)


def extract_facts(text: str) -> set[Fact]:
    """Every date and number-unit fact of ``text``."""
    facts = {Fact("date", match.group(0)) for match in DATE_PATTERN.finditer(text)}
    for match in QUANTITY_PATTERN.finditer(text):
        facts.add(canonical_fact(match.group("value"), match.group("unit")))
    return facts


def split_ids(value: str) -> set[str]:
    return {item.strip() for item in value.split("|") if item.strip()}


def evaluate_claim(claim: dict[str, str], documents: dict[str, str]) -> tuple[str, str]:
    """The status of one claim and the reason for it."""
    citation = claim["cited_doc_id"].strip()
    retrieved = split_ids(claim["retrieved_doc_ids"])
    if not citation:
        return "missing_citation", "claim has no citation"
    if citation not in documents:
        return "unknown_citation", f"{citation} is not in the handbook"
    if citation not in retrieved:
        return "citation_not_retrieved", f"{citation} was not supplied in retrieved_doc_ids"
    claim_facts = extract_facts(claim["claim_text"])
    evidence_facts = extract_facts(documents[citation])
    if not claim_facts:
        return "needs_review_no_quantity", "no supported number-unit or date pattern was found"
    missing = claim_facts - evidence_facts
    if missing:
        labels = ", ".join(fact.label() for fact in sorted(missing))
        return "unsupported_quantity", f"not in cited evidence: {labels}"
    labels = ", ".join(fact.label() for fact in sorted(claim_facts))
    return "supported", f"matched cited evidence: {labels}"


def read_csv(path: str) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def main(documents_path: str, claims_path: str, results_path: str) -> None:
    """Check every claim of ``claims_path`` and write ``results_path``."""
    documents = {row["doc_id"]: row["text"] for row in read_csv(documents_path)}
    results = []
    for claim in read_csv(claims_path):
        status, reason = evaluate_claim(claim, documents)
        results.append({**claim, "status": status, "reason": reason})
    with open(results_path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(results[0]))
        writer.writeheader()
        writer.writerows(results)


if __name__ == "__main__":
    main(*sys.argv[1:4])
