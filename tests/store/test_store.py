"""The document store's contract, run against every backend (see the ``store_url`` fixture)."""

from __future__ import annotations

import hashlib
import multiprocessing
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from quantcheck.schemas import ClaimDecodeError, parse_claim
from quantcheck.schemas.limits import MAX_KB_VERSION_CHARS
from quantcheck.worker.store import (
    DocumentStore,
    InvalidDocumentError,
    UnknownVersionError,
    VersionConflictError,
    manifest_sha256,
    open_store,
    validate_kb_version,
)

from quantcheck.checker.model import Document
from quantcheck.errors import InputError, UsageError
from quantcheck.inputs.documents import iter_documents, read_documents
from tests.schemas.samples import claim_bytes
from tests.store import procs

SPAWN = multiprocessing.get_context("spawn")


@pytest.fixture
def store(store_url: str) -> Iterator[DocumentStore]:
    with open_store(store_url) as opened:
        yield opened


@pytest.fixture
def handbook(examples_dir: Path) -> Path:
    return examples_dir / "field_sensor_handbook.csv"


def edited(docs: dict[str, Document], doc_id: str, old: str, new: str) -> list[Document]:
    """The documents with one text edited."""
    doc = docs[doc_id]
    assert old in doc.text
    return [
        Document(d.doc_id, d.text.replace(old, new), d.topic) if d.doc_id == doc_id else d
        for d in docs.values()
    ]


def test_load_then_resolve(store: DocumentStore, handbook: Path) -> None:
    before = datetime.now(UTC)
    result = store.load_version("v1", iter_documents(handbook))
    expected = read_documents(handbook)

    assert result.created
    info = result.version
    assert (info.kb_version, info.document_count) == ("v1", 8)
    assert info.manifest_sha256 == manifest_sha256(expected.values())
    assert info.created_at.tzinfo is not None
    assert (
        before - timedelta(seconds=5) <= info.created_at <= datetime.now(UTC) + timedelta(seconds=5)
    )

    assert store.has_version("v1")
    assert store.get_version("v1") == info
    assert store.list_versions() == [info]
    found = store.get_documents("v1", ["S01", "S03", "S01", "nope"])
    assert found == {"S01": expected["S01"], "S03": expected["S03"]}
    assert store.get_document("v1", "S02") == expected["S02"]


def test_lookups_that_find_nothing_are_empty_not_errors(
    store: DocumentStore, handbook: Path
) -> None:
    store.load_version("v1", iter_documents(handbook))
    assert store.get_documents("v1", []) == {}
    assert store.get_documents("v1", ["missing"]) == {}
    assert store.get_documents("never-loaded", ["S01"]) == {}
    assert not store.has_version("never-loaded")
    assert store.get_version("never-loaded") is None
    with pytest.raises(UnknownVersionError):
        store.require_version("never-loaded")


def test_many_ids_in_one_lookup(store: DocumentStore) -> None:
    store.load_version("big", procs.generated("big", 5000))
    ids = [f"D{i:06d}" for i in range(0, 5000, 2)] + ["absent"]
    found = store.get_documents("big", ids)
    assert len(found) == 2500
    assert found["D004998"].text == procs.generated_text("big", 4998)


def test_identical_reload_is_a_no_op(store: DocumentStore, handbook: Path) -> None:
    first = store.load_version("v1", iter_documents(handbook))
    again = store.load_version("v1", iter_documents(handbook))
    assert again.unchanged
    assert again.version == first.version
    assert store.list_versions() == [first.version]


def test_conflicting_reload_is_refused_and_v1_kept(store: DocumentStore, handbook: Path) -> None:
    original = store.load_version("v1", iter_documents(handbook)).version
    docs = read_documents(handbook)
    with pytest.raises(VersionConflictError) as caught:
        store.load_version("v1", edited(docs, "S01", "15 seconds", "30 seconds"))
    assert isinstance(caught.value, UsageError)
    assert caught.value.diff.changed == ("S01",)
    assert "1 changed: S01" in str(caught.value)
    assert store.get_version("v1") == original
    assert store.get_documents("v1", list(docs)) == docs


def test_a_changed_topic_alone_also_conflicts(store: DocumentStore, handbook: Path) -> None:
    store.load_version("v1", iter_documents(handbook))
    docs = read_documents(handbook)
    retitled = [
        Document(d.doc_id, d.text, d.topic + "!") if d.doc_id == "S02" else d for d in docs.values()
    ]
    with pytest.raises(VersionConflictError) as caught:
        store.load_version("v1", retitled)
    assert caught.value.diff.changed == ("S02",)


def test_diff(store: DocumentStore) -> None:
    store.load_version("a", [Document("k1", "one"), Document("k2", "two"), Document("k3", "three")])
    store.load_version(
        "b",
        [
            Document("k1", "one"),
            Document("k3", "THREE"),
            Document("k0", "zero"),
            Document("k9", "nine"),
        ],
    )
    diff = store.diff("a", "b")
    assert (diff.added, diff.removed, diff.changed) == (("k0", "k9"), ("k2",), ("k3",))
    assert not diff.identical
    assert store.diff("a", "a").identical
    with pytest.raises(UnknownVersionError, match="'zz'"):
        store.diff("a", "zz")
    with pytest.raises(UnknownVersionError):
        store.diff("zz", "a")


def test_versions_share_unchanged_texts(store: DocumentStore, handbook: Path) -> None:
    docs = read_documents(handbook)
    store.load_version("v1", docs.values())
    store.load_version("v2", edited(docs, "S01", "15 seconds", "30 seconds"))
    v1 = store.get_documents("v1", list(docs))
    v2 = store.get_documents("v2", list(docs))
    assert "30 seconds" in v2["S01"].text
    assert "15 seconds" in v1["S01"].text
    assert {k: v for k, v in v2.items() if k != "S01"} == {
        k: v for k, v in v1.items() if k != "S01"
    }


def test_manifest_follows_its_definition_in_code_point_order(store: DocumentStore) -> None:
    # Mixed case, accents and symbols: a locale-aware database order would differ.
    ids = ["b", "B", "a", "_x", "é", "Z", "a-1", "a1", "ß", "日本"]
    docs = [Document(doc_id, f"text of {doc_id}") for doc_id in ids]
    info = store.load_version("mixed", docs).version
    lines = "".join(f"{d.doc_id}:{d.sha256}\n" for d in sorted(docs, key=lambda d: d.doc_id))
    assert info.manifest_sha256 == hashlib.sha256(lines.encode("utf-8")).hexdigest()
    assert info.document_count == len(ids)


def test_same_text_under_two_ids(store: DocumentStore) -> None:
    store.load_version("v", [Document("a", "same"), Document("b", "same")])
    assert {d.doc_id for d in store.get_documents("v", ["a", "b"]).values()} == {"a", "b"}


@pytest.mark.parametrize(
    ("documents", "message"),
    [
        ([Document("a", "x"), Document("b", "y"), Document("a", "z")], "more than once"),
        ([Document("a", "x"), Document("b", "   ")], "text is empty"),
        ([Document("a", "x"), Document("", "y")], "doc_id is empty"),
        ([Document("a", "x\x00y")], "NUL"),
        ([Document("a\nb", "x")], "control character"),
        ([Document("a", "x", sha256="0" * 64)], "sha256 does not match"),
        ([], "no documents"),
    ],
    ids=["duplicate", "empty-text", "empty-id", "nul", "newline-in-id", "bad-hash", "empty"],
)
def test_invalid_documents_write_nothing(
    store: DocumentStore, documents: list[Document], message: str
) -> None:
    with pytest.raises(InvalidDocumentError, match=message):
        store.load_version("bad", documents)
    assert not store.has_version("bad")
    assert store.list_versions() == []
    store.load_version("good", [Document("a", "fine")])
    assert [v.kb_version for v in store.list_versions()] == ["good"]


def test_a_bad_file_row_aborts_the_load(store: DocumentStore, tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    rows = "".join(f"D{i},t,text {i}\n" for i in range(2000))
    path.write_text("doc_id,topic,text\n" + rows + "D5,t,again\n", encoding="utf-8")
    with pytest.raises(InputError, match="duplicate doc_id 'D5', first used in row 7"):
        store.load_version("v1", iter_documents(path))
    assert store.list_versions() == []
    assert store.get_documents("v1", ["D0"]) == {}


@pytest.mark.parametrize("name", ["", " v1", "v\n1", "x" * 201])
def test_bad_version_names(store: DocumentStore, name: str) -> None:
    with pytest.raises(UsageError):
        store.load_version(name, [Document("a", "x")])


def test_two_loads_of_one_version_at_once(store_url: str) -> None:
    with open_store(store_url) as store:
        store.load_version("v0", [Document("a", "x")])  # migrate before the race
    loaders = [
        SPAWN.Process(target=procs.load, args=(store_url, "same", "same", 3000)) for _ in range(2)
    ]
    for loader in loaders:
        loader.start()
    for loader in loaders:
        loader.join(120)
    assert [loader.exitcode for loader in loaders] == [0, 0]
    with open_store(store_url) as store:
        info = store.require_version("same")
        assert info.document_count == 3000
        assert len(store.get_documents("same", [f"D{i:06d}" for i in range(3000)])) == 3000


@pytest.mark.slow
@pytest.mark.parametrize("signal_after", [5000, None], ids=["mid-load", "all-staged"])
def test_killed_load_leaves_no_version(
    store_url: str, tmp_path: Path, signal_after: int | None
) -> None:
    with open_store(store_url) as store:
        store.load_version("v1", [Document("a", "x")])
    big = procs.write_csv(tmp_path / "big.csv", "big", 20_000)
    staged = SPAWN.Event()
    child = SPAWN.Process(
        target=procs.load_file_and_hang, args=(store_url, "v2", big, signal_after, staged)
    )
    child.start()
    try:
        assert staged.wait(120), "the child never staged its rows"
        child.kill()
        child.join(30)
        assert child.exitcode == -9
    finally:
        if child.is_alive():
            child.kill()
    ids = [f"D{i:06d}" for i in range(20_000)]
    with open_store(store_url) as store:
        assert not store.has_version("v2")
        assert [v.kb_version for v in store.list_versions()] == ["v1"]
        assert store.get_documents("v2", ids) == {}
        # Nothing the dead load held (locks, staging) gets in the way of loading again.
        result = store.load_version("v2", iter_documents(big))
        assert result.created
        assert len(store.get_documents("v2", ids)) == 20_000


@pytest.mark.slow
def test_readers_never_see_a_partial_version(store_url: str) -> None:
    with open_store(store_url) as store:
        store.load_version("v1", procs.generated("one", 1000))
    readers_count = 4
    versions = {"v1": ("one", 1000), "v2": ("two", 20_000)}
    ready = SPAWN.Barrier(readers_count + 1)
    stop = SPAWN.Event()
    results = SPAWN.Queue()
    readers = [
        SPAWN.Process(target=procs.read_loop, args=(store_url, versions, ready, stop, results))
        for _ in range(readers_count)
    ]
    for reader in readers:
        reader.start()
    writer = None
    try:
        ready.wait(120)  # every reader has resolved once, so each saw v2 absent
        writer = SPAWN.Process(target=procs.load, args=(store_url, "v2", "two", 20_000))
        writer.start()
        writer.join(180)
        assert writer.exitcode == 0
        time.sleep(1.0)  # let every reader resolve the finished version a few times
    finally:
        stop.set()
    reports = [results.get(timeout=120) for _ in readers]
    for process in [*readers, writer]:
        if process is not None:
            process.join(30)
    for report in reports:
        assert report["errors"] == []
        assert report["seen"]["v1"]["absent"] == 0
        assert report["seen"]["v2"]["absent"] >= 1
        assert report["seen"]["v2"]["complete"] >= 1


def test_the_store_takes_exactly_the_versions_a_claim_can_name() -> None:
    """One limit for both: a version the claim contract refuses is refused at load time,
    instead of loading fine and dead-lettering every claim that names it."""
    longest = "v" * MAX_KB_VERSION_CHARS
    assert validate_kb_version(longest) == longest
    assert parse_claim(claim_bytes(kb_version=longest)).kb_version == longest
    with pytest.raises(UsageError, match=f"longer than {MAX_KB_VERSION_CHARS}"):
        validate_kb_version(longest + "v")
    with pytest.raises(ClaimDecodeError):
        parse_claim(claim_bytes(kb_version=longest + "v"))
