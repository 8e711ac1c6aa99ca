"""Resolving the documents a batch of claims cites: one store query per version."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Protocol

from quantcheck.checker.model import Document


class DocumentResolver(Protocol):
    """Where cited documents come from: a document store, or plain dictionaries in tests."""

    def has_version(self, kb_version: str) -> bool:
        """Whether the knowledge-base version exists."""

    def get_documents(self, kb_version: str, doc_ids: Collection[str]) -> dict[str, Document]:
        """The documents of the version with these IDs; unknown IDs are left out."""


def resolve_cited(
    resolver: DocumentResolver, citations: Iterable[tuple[str, Iterable[str]]]
) -> dict[str, dict[str, Document]]:
    """Documents by knowledge-base version and ID for ``(kb_version, cited IDs)`` pairs.

    One query per version. A version the store does not hold is absent from the result;
    IDs a version does not hold are absent from its mapping (the checker reports them as
    unknown citations).
    """
    wanted: dict[str, dict[str, None]] = {}
    for kb_version, doc_ids in citations:
        wanted.setdefault(kb_version, {}).update(dict.fromkeys(doc_ids))
    return {
        kb_version: resolver.get_documents(kb_version, list(doc_ids)) if doc_ids else {}
        for kb_version, doc_ids in wanted.items()
        if resolver.has_version(kb_version)
    }
