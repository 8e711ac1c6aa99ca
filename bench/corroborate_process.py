"""corroborate 0.1.0 as a whole program over the sample CSV layout, for ``bench.distinct_process``.

Run by the interpreter of the peer's own environment (``bench.peer_env``), never
quantcheck's: it imports the standard library and corroborate alone. Both CSV files are
read into lists of rows; every claim is checked by ``corroborate.check_answer`` with its
text as the answer and the documents it cites as the retrieved chunks (corroborate has no
citation gates: a cited ID the documents lack gives no chunk); each row is written out
with a status and the first critical finding as its reason.

    PEER_PYTHON -m bench.corroborate_process DOCUMENTS.csv CLAIMS.csv RESULTS.csv
"""

from __future__ import annotations

import csv
import sys

import corroborate  # type: ignore[import-not-found,unused-ignore]


def read_csv(path: str) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def evaluate_claim(claim: dict[str, str], documents: dict[str, str]) -> tuple[str, str]:
    """corroborate's status of one claim and the reason for it."""
    cited = [doc_id.strip() for doc_id in claim["cited_doc_id"].split("|") if doc_id.strip()]
    chunks = [documents[doc_id] for doc_id in cited if doc_id in documents]
    report = corroborate.check_answer("", chunks, claim["claim_text"])
    if report.ok():
        return "supported", "every number, date and quote is in a cited document"
    return "unsupported_quantity", str(report.critical[0].message)


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
