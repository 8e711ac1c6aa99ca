"""Resolving the documents a batch of claims cites: one store query per version."""

from __future__ import annotations

from collections.abc import Iterable

from worker.checker.model import Document
from worker.store.base import DocumentStore


def resolve_cited(
    store: DocumentStore, citations: Iterable[tuple[str, Iterable[str]]]
) -> dict[str, dict[str, Document]]:
    """Documents by knowledge-base version and ID for ``(kb_version, cited IDs)`` pairs.

    IDs the version does not hold are simply absent: the checker reports them as unknown
    citations.
    """
    wanted: dict[str, set[str]] = {}
    for kb_version, doc_ids in citations:
        wanted.setdefault(kb_version, set()).update(doc_ids)
    return {
        kb_version: store.get_documents(kb_version, sorted(doc_ids))
        for kb_version, doc_ids in wanted.items()
    }
