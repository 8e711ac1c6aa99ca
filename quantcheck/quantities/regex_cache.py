"""The compiled form of the two large scans, kept between processes like bytecode.

Compiling the scan of :mod:`~quantcheck.quantities.patterns` (about 22,000 characters)
and its quantity-only re-read takes ``re`` some 55 ms, a sixth of a one-claim command,
and every process pays it again: ``re`` caches compiled patterns in memory only. The
compiled program is a list of integers that the regex engine checks and loads in well
under a millisecond, so the first process to compile a scan stores that list in the
user's cache directory and later ones load it.

This is the one place the checker's core touches the file system, and it changes no
result: an entry is keyed by the exact pattern, flags and interpreter (the program's
format belongs to the interpreter's regex engine), carries a digest of its contents,
and any entry that is missing, stale, damaged or unreadable is compiled afresh, as is
everything when the cache directory cannot be written. It uses the interpreter's own
compiler internals (``re._parser``, ``re._compiler``, ``_sre``), which is why any
failure there also falls back to ``re.compile``.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import marshal
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

_SUFFIX = ".scan"
_DIGEST_BYTES = 32
# What a missing, damaged or foreign entry, or foreign compiler internals, raise.
_UNUSABLE = (OSError, EOFError, ValueError, TypeError, AttributeError, ImportError, RuntimeError)


def cache_directory() -> Path:
    """Where compiled scans are kept: ``$XDG_CACHE_HOME/quantcheck``, else
    ``~/.cache/quantcheck`` (the convention pip and mypy follow)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "quantcheck"


def compile_cached(pattern: str, *, name: str, directory: Path | None = None) -> re.Pattern[str]:
    """``re.compile(pattern)``, loaded from ``directory`` when an earlier process stored
    it there. ``name`` is the scan's slot: storing a new entry removes older entries of
    the same slot, so an upgrade does not leave the cache growing."""
    folder = cache_directory() if directory is None else directory
    key = hashlib.sha256(
        repr((sys.version, _engine_magic(), pattern)).encode("utf-8", "surrogatepass")
    ).hexdigest()[:32]
    path = folder / f"{name}-{key}{_SUFFIX}"
    with contextlib.suppress(*_UNUSABLE):
        return _load(path, pattern)
    try:
        compiled, program = _compile(pattern)
    except _UNUSABLE:
        # The interpreter's compiler internals are not the ones this was written for.
        return re.compile(pattern)
    with contextlib.suppress(OSError, ValueError):
        _store(path, name, program)
    return compiled


def _engine() -> Any:
    # The regex engine and its compiler have no public interface or type stubs.
    return importlib.import_module("_sre")


def _engine_magic() -> int:
    try:
        return int(_engine().MAGIC)
    except _UNUSABLE:
        return -1


def _load(path: Path, pattern: str) -> re.Pattern[str]:
    blob = path.read_bytes()
    digest, body = blob[:_DIGEST_BYTES], blob[_DIGEST_BYTES:]
    if hashlib.sha256(body).digest() != digest:
        raise ValueError(f"{path}: damaged entry")
    flags, code, groups, groupindex, indexgroup = marshal.loads(body)
    compiled: re.Pattern[str] = _engine().compile(
        pattern, flags, code, groups, groupindex, indexgroup
    )
    return compiled


def _compile(pattern: str) -> tuple[re.Pattern[str], bytes]:
    """The compiled pattern and its program, as ``re._compiler.compile`` builds them."""
    parser = importlib.import_module("re._parser")
    compiler = importlib.import_module("re._compiler")
    parsed = parser.parse(pattern, 0)
    code = [int(op) for op in compiler._code(parsed, 0)]
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for group, index in groupindex.items():
        indexgroup[index] = group
    arguments = (int(parsed.state.flags), code, parsed.state.groups - 1, groupindex)
    program = marshal.dumps((*arguments, tuple(indexgroup)))
    compiled: re.Pattern[str] = _engine().compile(pattern, *arguments, tuple(indexgroup))
    return compiled, program


def _store(path: Path, name: str, program: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written whole under another name and renamed, so a reader never sees half an entry.
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{name}-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(hashlib.sha256(program).digest() + program)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    for older in path.parent.glob(f"{name}-*{_SUFFIX}"):
        if older != path:
            with contextlib.suppress(OSError):
                older.unlink()
