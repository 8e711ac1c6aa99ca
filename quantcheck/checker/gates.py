"""The citation gates: a claim's evidence must exist, be known, and have been retrieved."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from quantcheck.checker.model import Claim, Document, Status


def citation_failure(claim: Claim, documents: Mapping[str, Document]) -> tuple[Status, str] | None:
    """The first citation gate the claim fails, with its reason; None when all pass.

    Gates apply in a fixed order across every cited ID: no citation at all, then any ID
    the knowledge base does not hold, then any ID retrieval did not supply. Reading
    evidence through an unknown or unretrieved ID would judge the claim against text the
    model never saw.
    """
    if not claim.cited_doc_ids:
        return Status.MISSING_CITATION, "claim has no citation"
    unknown = [doc_id for doc_id in claim.cited_doc_ids if doc_id not in documents]
    if unknown:
        return Status.UNKNOWN_CITATION, f"{_names(unknown, 'is', 'are')} not in the knowledge base"
    not_retrieved = [d for d in claim.cited_doc_ids if d not in claim.retrieved_doc_ids]
    if not_retrieved:
        return (
            Status.CITATION_NOT_RETRIEVED,
            f"{_names(not_retrieved, 'was', 'were')} not supplied in retrieved_doc_ids",
        )
    return None


def _names(doc_ids: Collection[str], singular: str, plural: str) -> str:
    verb = singular if len(doc_ids) == 1 else plural
    return f"{', '.join(doc_ids)} {verb}"
