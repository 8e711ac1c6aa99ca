"""The document store's contract: immutable knowledge-base versions of cited documents.

A knowledge-base version (``kb_version``) is a named, immutable set of documents. Once a
version is loaded its content never changes, so a claim generated from version ``v1`` is
always checked against the documents exactly as they were in ``v1``.

Manifest hash
    Each version is identified by the SHA-256 of its manifest. The manifest has one line
    per document, ``f"{doc_id}:{sha256}\\n"`` where ``sha256`` is the lowercase hex SHA-256
    of the document text's UTF-8 encoding; the lines are sorted by ``doc_id`` in Unicode
    code point order (Python's ``sorted``, byte order of the UTF-8 encoding), concatenated
    and UTF-8 encoded. The manifest hash is the lowercase hex SHA-256 of those bytes.
    Topics are not part of the manifest: two loads with equal manifests but different
    topics still conflict (see :meth:`DocumentStore.load_version`).

Document IDs may not contain control characters, so a manifest line cannot be forged
by an ID with a newline in it.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Self

from quantcheck.schemas.limits import MAX_KB_VERSION_CHARS
from quantcheck.worker.store.indexing import (
    Contents,
    Indexer,
    IndexFailure,
    Progress,
    ReindexResult,
    index_pending,
)

from quantcheck.checker.model import (
    Document,
    FactsStamp,
    doc_id_problem,
    has_control_character,
    sha256_text,
    text_problem,
)
from quantcheck.errors import UsageError

# How many IDs per category a conflict message names before it only counts them.
_CONFLICT_EXAMPLES = 3


class UnknownVersionError(UsageError):
    """A command named a knowledge-base version that was never loaded."""

    def __init__(self, kb_version: str):
        super().__init__(f"unknown knowledge-base version {kb_version!r}")
        self.kb_version = kb_version


class VersionConflictError(UsageError):
    """A load tried to give an existing version different content; the old one is kept."""

    def __init__(self, kb_version: str, diff: VersionDiff):
        parts = []
        for label, ids in (
            ("changed", diff.changed),
            ("added", diff.added),
            ("removed", diff.removed),
        ):
            if ids:
                shown = ", ".join(ids[:_CONFLICT_EXAMPLES])
                more = (
                    f", and {len(ids) - _CONFLICT_EXAMPLES} more"
                    if len(ids) > _CONFLICT_EXAMPLES
                    else ""
                )
                parts.append(f"{len(ids)} {label}: {shown}{more}")
        super().__init__(
            f"knowledge-base version {kb_version!r} already exists with different content "
            f"({'; '.join(parts)}); versions are immutable, load this content under a new version"
        )
        self.kb_version = kb_version
        self.diff = diff


class InvalidDocumentError(UsageError):
    """A document handed to a load breaks a rule the store enforces for every backend."""


@dataclass(frozen=True, slots=True)
class StoreTimeouts:
    """Bounds on waiting for a store server (PostgreSQL; SQLite has its busy timeout).

    A lookup that runs longer than ``statement_s`` (a lock held by a load, a server that
    stalls) fails as the store being unavailable, which the worker retries with backoff;
    TCP keepalives notice a server that vanished without closing the connection.
    """

    statement_s: float = 5.0
    connect_s: int = 5
    keepalive_idle_s: int = 30
    keepalive_interval_s: int = 10
    keepalive_count: int = 3


@dataclass(frozen=True, slots=True)
class VersionInfo:
    """One loaded knowledge-base version."""

    kb_version: str
    created_at: datetime  # timezone-aware, UTC
    document_count: int
    manifest_sha256: str


@dataclass(frozen=True, slots=True)
class LoadResult:
    """The outcome of a load: the version as stored, and whether this load created it."""

    version: VersionInfo
    created: bool

    @property
    def unchanged(self) -> bool:
        """True when the version already held exactly this content and nothing was written."""
        return not self.created


@dataclass(frozen=True, slots=True)
class VersionDiff:
    """Document IDs that differ between two versions, each tuple sorted.

    A document is *changed* when its text (hence its SHA-256) or its topic differs.
    """

    old: str
    new: str
    added: tuple[str, ...]
    removed: tuple[str, ...]
    changed: tuple[str, ...]

    @property
    def identical(self) -> bool:
        """True when both versions hold the same documents with the same content."""
        return not (self.added or self.removed or self.changed)


class ManifestHasher:
    """Builds the manifest hash from ``(doc_id, sha256)`` pairs fed in ``doc_id`` order.

    Streaming, so that a version with millions of documents is hashed in constant memory
    straight from a sorted database cursor.
    """

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self._last: str | None = None
        self.count = 0

    def add(self, doc_id: str, sha256: str) -> None:
        """Add the next manifest line; IDs must arrive strictly ascending."""
        if self._last is not None and doc_id <= self._last:
            raise ValueError(f"manifest IDs out of order: {self._last!r} then {doc_id!r}")
        self._last = doc_id
        self._hash.update(f"{doc_id}:{sha256}\n".encode())
        self.count += 1

    def hexdigest(self) -> str:
        """The manifest hash of the lines added so far."""
        return self._hash.hexdigest()


def manifest_sha256(documents: Iterable[Document]) -> str:
    """The manifest hash of a small, in-memory set of documents (see the module docstring)."""
    hasher = ManifestHasher()
    for doc in sorted(documents, key=lambda d: d.doc_id):
        hasher.add(doc.doc_id, doc.sha256)
    return hasher.hexdigest()


def unique_ids(doc_ids: Collection[str]) -> list[str]:
    """The requested IDs without repeats, in order; a lone string is refused, not split."""
    if isinstance(doc_ids, str):
        raise TypeError("doc_ids must be a collection of IDs, not one string")
    return list(dict.fromkeys(doc_ids))


def validate_kb_version(kb_version: str) -> str:
    """Return ``kb_version`` if it is a usable version name, else raise :class:`UsageError`."""
    if not kb_version:
        raise UsageError(
            "a knowledge-base version is required (--kb-version or QUANTCHECK_KB_VERSION)"
        )
    if kb_version != kb_version.strip():
        raise UsageError(f"knowledge-base version {kb_version!r} has surrounding whitespace")
    if len(kb_version) > MAX_KB_VERSION_CHARS:
        raise UsageError(f"knowledge-base version is longer than {MAX_KB_VERSION_CHARS} characters")
    if has_control_character(kb_version):
        raise UsageError(f"knowledge-base version {kb_version!r} contains a control character")
    return kb_version


def checked_documents(kb_version: str, documents: Iterable[Document]) -> Iterator[Document]:
    """Pass documents through, raising :class:`InvalidDocumentError` on the first bad one.

    The rules every backend enforces whatever the documents' source: a valid ID, a
    non-empty text, a topic without NUL and a SHA-256 that matches the text. Duplicates
    are caught by the staging table's key.
    """
    for doc in documents:
        problem = doc_id_problem(doc.doc_id) or text_problem(doc.text)
        if problem is None and "\x00" in doc.topic:
            problem = "topic contains a NUL character"
        if problem is None and doc.sha256 != sha256_text(doc.text):
            problem = "sha256 does not match the text"
        if problem is not None:
            raise InvalidDocumentError(
                f"document {doc.doc_id!r} for version {kb_version!r}: {problem}"
            )
        yield doc


def refuse_unindexable(kb_version: str) -> Callable[[IndexFailure], None]:
    """What a load does with a document whose facts cannot be made: refuse the load."""

    def refuse(failure: IndexFailure) -> None:
        raise InvalidDocumentError(
            f"document {failure.doc_id!r} for version {kb_version!r}: its facts cannot be "
            f"indexed: {failure.reason}"
        )

    return refuse


class DocumentStore(ABC):
    """Versioned documents, shared by every worker; implementations are thread-safe."""

    @abstractmethod
    def get_documents(self, kb_version: str, doc_ids: Collection[str]) -> dict[str, Document]:
        """The requested documents as of ``kb_version``, in one query.

        IDs the version does not hold, and every ID of a version that does not exist, are
        simply absent from the result.
        """

    @abstractmethod
    def has_version(self, kb_version: str) -> bool:
        """True when ``kb_version`` has been loaded (and is therefore complete)."""

    @abstractmethod
    def get_version(self, kb_version: str) -> VersionInfo | None:
        """The version's summary, or None when it was never loaded."""

    @abstractmethod
    def list_versions(self) -> list[VersionInfo]:
        """Every loaded version, oldest first."""

    @abstractmethod
    def load_version(
        self, kb_version: str, documents: Iterable[Document], indexer: Indexer | None = None
    ) -> LoadResult:
        """Store ``documents`` as ``kb_version``, atomically.

        Documents are consumed once, as a stream. Loading identical content again is a
        no-op (``created`` is False). Different content under an existing name raises
        :class:`VersionConflictError` and leaves the stored version untouched. Any error,
        or the process dying, before the end leaves no trace of the version.

        With an ``indexer``, a new version is published with the facts of every content
        that lacks facts under the indexer's stamp (see :mod:`.indexing`); a document whose
        facts cannot be made raises :class:`InvalidDocumentError` naming it.
        """

    @abstractmethod
    def contents_to_index(self, kb_version: str, stamp: FactsStamp) -> Contents:
        """The contents of a loaded version, for a reindex under ``stamp``."""

    def reindex(
        self, kb_version: str, indexer: Indexer, progress: Progress | None = None
    ) -> ReindexResult:
        """Make the facts of every content of ``kb_version`` that lacks them under the
        indexer's stamp, writing each as soon as it is made; contents whose facts cannot
        be made are reported, not fatal. Raises :class:`UnknownVersionError`."""
        self.require_version(kb_version)
        contents = self.contents_to_index(kb_version, indexer.stamp)
        pending = contents.count()
        failures: list[IndexFailure] = []
        advance = None if progress is None else lambda done: progress(done, pending)
        if progress is not None:
            progress(0, pending)
        indexed = index_pending(contents, indexer, failures.append, advance)
        return ReindexResult(kb_version, pending, indexed, tuple(failures))

    @abstractmethod
    def diff(self, old: str, new: str) -> VersionDiff:
        """Documents added, removed and changed from ``old`` to ``new``.

        Raises :class:`UnknownVersionError` when either version was never loaded.
        """

    @abstractmethod
    def ping(self) -> None:
        """Return if the store answers a trivial query, else raise ``StoreUnavailableError``."""

    @abstractmethod
    def close(self) -> None:
        """Release connections; the store cannot be used afterwards."""

    def get_document(self, kb_version: str, doc_id: str) -> Document | None:
        """One document as of ``kb_version``, or None."""
        return self.get_documents(kb_version, (doc_id,)).get(doc_id)

    def require_version(self, kb_version: str) -> VersionInfo:
        """The version's summary; raises :class:`UnknownVersionError` when it does not exist."""
        info = self.get_version(kb_version)
        if info is None:
            raise UnknownVersionError(kb_version)
        return info

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
