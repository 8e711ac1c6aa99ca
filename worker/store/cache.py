"""An in-process LRU cache in front of any document store.

Versions are immutable once loaded, so a cached document never goes stale and needs no
invalidation. Only facts that cannot change are cached: documents, the existence and
summary of a loaded version, and the absence of an ID from a version known to exist.
That a version does *not* exist is never cached, because it may be loaded at any time.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Collection, Iterable

from quantcheck.worker.store.base import (
    DocumentStore,
    LoadResult,
    VersionDiff,
    VersionInfo,
    unique_ids,
)
from quantcheck.worker.store.indexing import Contents, Indexer

from quantcheck.checker.model import Document, FactsStamp


def document_bytes(doc: Document | None) -> int:
    """The memory a cached document holds: its text, ID, topic and hash as Python strings,
    and its stored facts."""
    if doc is None:
        return 0
    facts = 0 if doc.facts is None else sys.getsizeof(doc.facts.data)
    return facts + sum(
        sys.getsizeof(part) for part in (doc.text, doc.doc_id, doc.topic, doc.sha256)
    )


class CachingStore(DocumentStore):
    """Wraps ``inner``, keeping up to ``max_documents`` entries keyed by ``(kb_version, doc_id)``
    and at most ``max_bytes`` of document text (None: no byte bound).

    Documents may be up to tens of megabytes each, so a count alone does not bound memory.
    A document larger than ``max_bytes`` is returned but not cached. Each
    :meth:`get_documents` call sends at most one query to ``inner``, for all the IDs it
    missed. Thread-safe as long as ``inner`` is.
    """

    def __init__(self, inner: DocumentStore, max_documents: int, max_bytes: int | None = None):
        if max_documents < 0:
            raise ValueError(f"max_documents must not be negative, got {max_documents}")
        if max_bytes is not None and max_bytes < 0:
            raise ValueError(f"max_bytes must not be negative, got {max_bytes}")
        self.inner = inner
        self.max_documents = max_documents
        self.max_bytes = max_bytes
        self.cached_bytes = 0
        self._lock = threading.Lock()
        # None marks an ID the (existing, immutable) version does not hold.
        self._entries: OrderedDict[tuple[str, str], Document | None] = OrderedDict()
        self._versions: dict[str, VersionInfo] = {}
        self.hits = 0
        self.misses = 0

    def __repr__(self) -> str:
        return f"CachingStore({self.inner!r}, max_documents={self.max_documents})"

    def get_documents(self, kb_version: str, doc_ids: Collection[str]) -> dict[str, Document]:
        """The requested documents, from the cache where possible, else in one inner query."""
        found: dict[str, Document] = {}
        missing: list[str] = []
        ids = unique_ids(doc_ids)
        with self._lock:
            for doc_id in ids:
                key = (kb_version, doc_id)
                if key in self._entries:
                    self._entries.move_to_end(key)
                    cached = self._entries[key]
                    if cached is not None:
                        found[doc_id] = cached
                else:
                    missing.append(doc_id)
            self.hits += len(ids) - len(missing)
            self.misses += len(missing)
        if not missing:
            return found
        fetched = self.inner.get_documents(kb_version, missing)
        found.update(fetched)
        if self.max_documents:
            with self._lock:
                # Absence is only final for a version that exists; otherwise it may yet load.
                absence_is_final = kb_version in self._versions
                for doc_id in missing:
                    doc = fetched.get(doc_id)
                    size = document_bytes(doc)
                    fits = self.max_bytes is None or size <= self.max_bytes
                    if (doc is not None or absence_is_final) and fits:
                        key = (kb_version, doc_id)
                        self.cached_bytes += size - document_bytes(self._entries.get(key))
                        self._entries[key] = doc
                        self._entries.move_to_end(key)
                while len(self._entries) > self.max_documents or (
                    self.max_bytes is not None and self.cached_bytes > self.max_bytes
                ):
                    _, dropped = self._entries.popitem(last=False)
                    self.cached_bytes -= document_bytes(dropped)
        return found

    def has_version(self, kb_version: str) -> bool:
        """True when the version exists; only a positive answer is remembered."""
        return self.get_version(kb_version) is not None

    def get_version(self, kb_version: str) -> VersionInfo | None:
        """The version's summary, cached once the version exists."""
        with self._lock:
            cached = self._versions.get(kb_version)
        if cached is not None:
            return cached
        info = self.inner.get_version(kb_version)
        if info is not None:
            self._remember(info)
        return info

    def _remember(self, info: VersionInfo) -> None:
        with self._lock:
            self._versions[info.kb_version] = info

    def list_versions(self) -> list[VersionInfo]:
        """Every loaded version, always asked of the inner store."""
        versions = self.inner.list_versions()
        for info in versions:
            self._remember(info)
        return versions

    def load_version(
        self, kb_version: str, documents: Iterable[Document], indexer: Indexer | None = None
    ) -> LoadResult:
        """Load through the inner store."""
        result = self.inner.load_version(kb_version, documents, indexer)
        self._remember(result.version)
        return result

    def contents_to_index(self, kb_version: str, stamp: FactsStamp) -> Contents:
        """The inner store's contents: a reindex writes through to it."""
        return self.inner.contents_to_index(kb_version, stamp)

    def diff(self, old: str, new: str) -> VersionDiff:
        """Compare two versions in the inner store."""
        return self.inner.diff(old, new)

    def ping(self) -> None:
        """Check that the inner store answers."""
        self.inner.ping()

    def close(self) -> None:
        """Close the inner store and forget the cache."""
        with self._lock:
            self._entries.clear()
            self._versions.clear()
            self.cached_bytes = 0
        self.inner.close()
