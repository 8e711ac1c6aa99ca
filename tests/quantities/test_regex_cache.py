"""A scan loaded from the cache is the scan re.compile builds, and a cache that cannot be
used (damaged, foreign, unwritable) costs a compile, never a wrong or missing scan."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quantcheck.quantities import patterns
from quantcheck.quantities.regex_cache import cache_directory, compile_cached
from tests.checker.real_documents import development_documents, sample_documents

SCAN = patterns.MASTER.pattern
REREAD = patterns.quantities_only().pattern


def matches(scan: re.Pattern[str], text: str) -> list[tuple[int, int, str | None]]:
    return [(m.start(), m.end(), m.lastgroup) for m in scan.finditer(text)]


def texts() -> list[str]:
    return [*sample_documents().values(), *development_documents(every=25).values()]


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.scan"))


@pytest.mark.parametrize("pattern", [SCAN, REREAD], ids=["scan", "re-read"])
def test_a_stored_scan_matches_what_re_compile_matches(tmp_path: Path, pattern: str) -> None:
    fresh = compile_cached(pattern, name="scan", directory=tmp_path)
    assert len(entries(tmp_path)) == 1
    loaded = compile_cached(pattern, name="scan", directory=tmp_path)
    plain = re.compile(pattern)
    assert loaded.groupindex == plain.groupindex
    assert loaded.flags == plain.flags
    assert loaded.groups == plain.groups
    for text in texts():
        expected = matches(plain, text)
        assert matches(fresh, text) == expected
        assert matches(loaded, text) == expected


def test_a_damaged_entry_is_compiled_again_and_replaced(tmp_path: Path) -> None:
    compile_cached(REREAD, name="scan", directory=tmp_path)
    (entry,) = entries(tmp_path)
    blob = bytearray(entry.read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    entry.write_bytes(bytes(blob))
    text = "Switch to a 60-second interval when the charge drops below 20 percent."
    scan = compile_cached(REREAD, name="scan", directory=tmp_path)
    assert matches(scan, text) == matches(re.compile(REREAD), text)
    assert entry.read_bytes() != bytes(blob)
    entry.write_bytes(b"")
    assert matches(compile_cached(REREAD, name="scan", directory=tmp_path), text)


def test_an_unwritable_cache_only_costs_a_compile(tmp_path: Path) -> None:
    # A file where the directory should be: nothing can be stored under it.
    blocked = tmp_path / "cache"
    blocked.write_text("not a directory", encoding="utf-8")
    scan = compile_cached(SCAN, name="scan", directory=blocked)
    text = "Log a reading every 15 seconds from 1 March 2024."
    assert matches(scan, text) == matches(re.compile(SCAN), text)
    assert blocked.read_text(encoding="utf-8") == "not a directory"


def test_a_new_entry_replaces_the_older_entries_of_its_slot_only(tmp_path: Path) -> None:
    compile_cached(r"(?P<a>\d+) old", name="scan", directory=tmp_path)
    compile_cached(r"(?P<b>\d+)", name="other", directory=tmp_path)
    compile_cached(r"(?P<a>\d+) new", name="scan", directory=tmp_path)
    names = [path.name.split("-")[0] for path in entries(tmp_path)]
    assert sorted(names) == ["other", "scan"]
    assert compile_cached(r"(?P<a>\d+) new", name="scan", directory=tmp_path).match("7 new")


def test_the_cache_follows_xdg_cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_directory() == tmp_path / "quantcheck"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_directory() == tmp_path / "home" / ".cache" / "quantcheck"
