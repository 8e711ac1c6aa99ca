"""The contracts spell the worker's enumerations and limits the same way.

The only test module of this package that imports the worker: the contracts must not.
"""

from __future__ import annotations

from quantcheck.schemas import DIFFERENCES, MATCH_KINDS, RELATIONS, STATUSES
from quantcheck.schemas.limits import MAX_CLAIM_MESSAGE_BYTES

from quantcheck.checker.model import MatchKind, Status, sha256_text
from quantcheck.checker.policy import Difference
from quantcheck.quantities.facts import Relation
from quantcheck.settings import BY_NAME
from tests.schemas.samples import EMPTY_SHA256


def test_statuses_equal_the_checker_statuses_in_gate_order() -> None:
    assert list(STATUSES) == [status.value for status in Status]


def test_match_kinds_equal_the_checker_match_kinds() -> None:
    assert list(MATCH_KINDS) == [kind.value for kind in MatchKind]


def test_differences_equal_the_policy_differences() -> None:
    assert list(DIFFERENCES) == [difference.value for difference in Difference]


def test_relations_equal_the_extractor_relations() -> None:
    assert list(RELATIONS) == [relation.value for relation in Relation]


def test_message_size_limit_is_the_worker_default() -> None:
    assert BY_NAME["max_message_bytes"].default == str(MAX_CLAIM_MESSAGE_BYTES)


def test_hashes_are_the_checker_document_hashes() -> None:
    assert sha256_text("") == EMPTY_SHA256
