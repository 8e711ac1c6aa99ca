"""The HTML page of ``quantcheck check --report``: the claims not supported or not as
expected, each compared with its expected status, with its numbers in their evidence.

A module of its own because ``check`` imports it only when a page is asked for: the page's
code, shared with replay's reports, is a noticeable part of the command's start-up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from quantcheck.checker import CHECKER_VERSION, Status
from quantcheck.reports.checked import CheckedRow
from quantcheck.reports.results import OfflineVerdicts
from quantcheck.schemas import AnswerEvent, ClaimEvent
from quantcheck.worker.replay.compare import Coordinates, Decision, ReplayedClaim, transition_of
from quantcheck.worker.replay.report_html import (
    CHECK_WORDING,
    HtmlReport,
    status_chart,
    write_page,
)
from quantcheck.worker.store import mask_url

DocumentText = Callable[[str, str], str | None]
"""A document's text by knowledge-base version and ID, or None when there is none."""


class CheckReport:
    """The page of one run: claims are added as they are checked, the page written last."""

    def __init__(
        self,
        *,
        claims: str,
        documents_file: str | None,
        store_url: str,
        kb_version: str,
        scope: str,
        documents: DocumentText,
        verdicts: OfflineVerdicts,
    ) -> None:
        version = kb_version or "each claim's own version"
        source = documents_file or f"{mask_url(store_url)}, {version}"
        self._verdicts = verdicts
        self._page = HtmlReport(
            title=f"quantcheck check of {claims}",
            context=[
                ("claims", claims),
                ("documents", source),
                ("checker version", CHECKER_VERSION),
                ("scope", scope),
                ("compared with", "each claim's expected_status, where it has one"),
            ],
            documents=documents,
            keep=lambda claim: claim.new.status != Status.SUPPORTED or claim.differs,
            wording=CHECK_WORDING,
        )

    def add(self, row: CheckedRow, event: ClaimEvent | AnswerEvent) -> None:
        """A checked claim; ``event`` is the text its spans point into (its answer's, for
        a sentence of an answer)."""
        self._page.add_claim(self._claim(row), event)

    def write(self, path: str, summary: Sequence[str], statuses: Counter[str]) -> None:
        """Write the page, headed by the run's summary lines and its counts by status."""
        page = self._page.page(summary, "Statuses", status_chart(statuses), statuses)
        write_page(path, page)

    def _claim(self, row: CheckedRow) -> ReplayedClaim:
        """A checked claim as the page shows it: its verdict compared with its expected
        status, where it has one."""
        claim = row.claim
        where = self._verdicts.source(claim.row)
        place = Coordinates(where.topic, where.partition, where.offset)
        new = Decision(row.status, row.reason, verdict=row.verdict is not None)
        expected = (
            None
            if claim.expected_status is None
            else Decision(claim.expected_status, "", verdict=True)
        )
        return ReplayedClaim(
            claim_id=claim.event.claim_id,
            read_at=place,
            source=place,
            source_timestamp=-1,
            recorded=expected,
            new=new,
            transition=transition_of(expected, new, compared=expected is not None),
            verdict_json=self._verdicts.verdict(row),
            answer_id=claim.event.answer_id,
        )
