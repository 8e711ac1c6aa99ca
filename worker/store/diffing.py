"""Comparing two sets of stored documents in SQL, the same way on every backend."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from quantcheck.worker.store.base import VersionDiff

# A row source to compare: a label for the result, SQL yielding (doc_id, topic, sha256)
# rows, and that SQL's parameters.
Rows = tuple[str, str, tuple[str, ...]]
# Runs one query and returns the first column of every row.
Query = Callable[[str, tuple[str, ...]], Iterable[str]]

_ONLY_IN = (
    "SELECT a.doc_id FROM {a} AS a WHERE NOT EXISTS"
    " (SELECT 1 FROM {b} AS b WHERE b.doc_id = a.doc_id) ORDER BY a.doc_id"
)


def version_diff(query: Query, old: Rows, new: Rows) -> VersionDiff:
    """Added, removed and changed document IDs between two row sources, each sorted."""
    old_label, old_rows, old_params = old
    new_label, new_rows, new_params = new
    added = tuple(query(_ONLY_IN.format(a=new_rows, b=old_rows), new_params + old_params))
    removed = tuple(query(_ONLY_IN.format(a=old_rows, b=new_rows), old_params + new_params))
    changed = tuple(
        query(
            f"SELECT n.doc_id FROM {new_rows} AS n JOIN {old_rows} AS o ON o.doc_id = n.doc_id"
            " WHERE o.sha256 <> n.sha256 OR o.topic <> n.topic ORDER BY n.doc_id",
            new_params + old_params,
        )
    )
    return VersionDiff(old_label, new_label, added, removed, changed)
