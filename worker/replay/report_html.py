"""The ``--report`` page of a replay: one self-contained HTML file.

Styles and the chart are inline (the chart is SVG drawn here), there is no script and no
external asset, and a Content-Security-Policy forbids loading any, so the page renders the
same from a laptop, a ticket attachment or an air-gapped host. Every text that comes from a
claim, a document or a verdict is HTML-escaped.

Only the first :data:`MAX_CLAIMS` differing claims get a table (the page says how many were
left out), so the report's memory stays bounded however long the replay.

``quantcheck check --report`` makes the same page of an offline run: its claims are kept
by another rule (not supported, or not as expected) and worded as checked against
expected (:data:`CHECK_WORDING`).
"""

from __future__ import annotations

import html
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from quantcheck.schemas import (
    AnswerEvent,
    ClaimEvent,
    FactResult,
    VerdictEvent,
    parse_verdicts_topic_value,
)
from quantcheck.worker.replay.compare import ReplayedClaim, Tally, Transition

from quantcheck.errors import UsageError
from quantcheck.reports.chart import colour_of
from quantcheck.reports.summary import ordered_counts

if TYPE_CHECKING:
    # Only a type here: the replayer needs kafka-python, which `quantcheck check`, the
    # other user of this page, does without.
    from quantcheck.worker.replay.replayer import Replayed

MAX_CLAIMS = 500
CONTEXT_CHARS = 60
"""Characters of document text shown either side of an evidence span."""

DocumentLookup = Callable[[str, str], str | None]
"""The text of a document as of a knowledge-base version, or None: (kb_version, doc_id)."""

UNCHANGED_COLOUR = "#9e9e9e"
MISSING_COLOUR = "#6a1b9a"

_CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem;
  color: #212121; padding: 0 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid #ddd; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f5f5f5; }
pre { background: #f5f5f5; padding: .75rem; overflow-x: auto; }
section.claim { border-top: 2px solid #ddd; margin-top: 1.5rem; }
mark.matched { background: #c8e6c9; } mark.missing { background: #ffcdd2; }
mark.evidence { background: #fff59d; }
.status { font-weight: 600; } .muted { color: #757575; }
"""


def _replayed_from(claim: ReplayedClaim) -> list[tuple[str, str]]:
    read, source = claim.read_at, claim.source
    return [
        ("read at", f"{read.topic} {read.partition}:{read.offset}"),
        ("claim message", f"{source.topic} partition {source.partition} offset {source.offset}"),
    ]


def _checked_from(claim: ReplayedClaim) -> list[tuple[str, str]]:
    return [("claims file", f"{claim.source.topic} row {claim.source.offset}")]


def _replay_heading(claim: ReplayedClaim) -> str:
    # Without a comparison the transition says nothing; the status says what happened.
    return claim.new.status if claim.transition is Transition.NOT_COMPARED else claim.label


def _check_heading(claim: ReplayedClaim) -> str:
    expected = claim.recorded
    if claim.differs and expected is not None:
        return f"{claim.new.status}, expected {expected.status}"
    return claim.new.status


@dataclass(frozen=True, slots=True)
class Wording:
    """How the page names the two outcomes it compares, the claims it keeps, and for each
    claim its outcome (``heading``) and where it was read (``where``: rows of its table)."""

    recorded: str
    new: str
    none_recorded: str
    claims_heading: str
    no_claims: str
    status_column: str
    heading: Callable[[ReplayedClaim], str]
    where: Callable[[ReplayedClaim], list[tuple[str, str]]]


REPLAY_WORDING = Wording(
    "recorded",
    "replayed",
    "(none recorded)",
    "Differing claims",
    "No claim differs from what was recorded.",
    "new status",
    _replay_heading,
    _replayed_from,
)
CHECK_WORDING = Wording(
    "expected",
    "checked",
    "(no expected_status)",
    "Claims not supported or not as expected",
    "Every claim is supported and as expected.",
    "status",
    _check_heading,
    _checked_from,
)
"""The words of an offline check's page: each claim's ``expected_status`` against its
verdict, and its row in the claims file."""


def differs(claim: ReplayedClaim) -> bool:
    """Whether a replayed claim goes on a replay's page."""
    return claim.differs


@dataclass(frozen=True, slots=True)
class EvidenceView:
    """One fact of a differing claim, with the evidence span that supports it, if any."""

    fact: str
    text: str
    matched: bool
    doc_id: str | None
    before: str
    span: str
    after: str


@dataclass(frozen=True, slots=True)
class ClaimView:
    """What the page shows for one differing claim; built when it is replayed."""

    claim: ReplayedClaim
    text: str | None
    kb_version: str | None
    facts: tuple[FactResult, ...]
    evidence: tuple[EvidenceView, ...]


class HtmlReport:
    """Collects the differing claims of a replay (up to ``max_claims``) and writes the page."""

    def __init__(
        self,
        *,
        title: str,
        context: Sequence[tuple[str, str]],
        documents: DocumentLookup,
        max_claims: int = MAX_CLAIMS,
        keep: Callable[[ReplayedClaim], bool] = differs,
        wording: Wording = REPLAY_WORDING,
    ) -> None:
        self._title = title
        self._context = tuple(context)
        self._documents = documents
        self._max_claims = max_claims
        self._keep = keep
        self._wording = wording
        self._views: list[ClaimView] = []
        self.left_out = 0

    def add(self, replayed: Replayed) -> None:
        """Keep ``replayed`` for the page if it differs and the cap is not reached."""
        self.add_claim(replayed.claim, replayed.event)

    def add_claim(self, claim: ReplayedClaim, event: ClaimEvent | AnswerEvent | None) -> None:
        """Keep ``claim``, read as ``event``, for the page if the page keeps such claims and
        the cap is not reached."""
        if not self._keep(claim):
            return
        if len(self._views) >= self._max_claims:
            self.left_out += 1
            return
        verdict = (
            None if claim.verdict_json is None else parse_verdicts_topic_value(claim.verdict_json)
        )
        # An answer's record has no facts; each of its claims' facts point into the answer.
        facts = tuple(verdict.facts) if isinstance(verdict, VerdictEvent) else ()
        kb_version = verdict.kb_version if verdict is not None else None
        text = (
            None
            if event is None
            else event.claim_text
            if isinstance(event, ClaimEvent)
            else event.answer_text
        )
        self._views.append(
            ClaimView(
                claim,
                text,
                kb_version,
                facts,
                tuple(self._evidence(fact, kb_version) for fact in facts),
            )
        )

    def _evidence(self, fact: FactResult, kb_version: str | None) -> EvidenceView:
        match = fact.evidence
        if match is None:
            return EvidenceView(fact.label, fact.text, fact.matched, None, "", "", "")
        document = None if kb_version is None else self._documents(kb_version, match.doc_id)
        start, end = match.span.start, match.span.end
        if document is None or end > len(document):
            # Without the document, the span's own text is all there is to show.
            return EvidenceView(
                fact.label, fact.text, fact.matched, match.doc_id, "", match.text, ""
            )
        return EvidenceView(
            fact.label,
            fact.text,
            fact.matched,
            match.doc_id,
            _clip_left(document[:start]),
            document[start:end],
            _clip_right(document[end:]),
        )

    def render(self, tally: Tally) -> str:
        """The whole page of a replay."""
        return self.page(tally.lines(), "Transitions", transition_chart(tally), tally.statuses)

    def page(
        self, summary: Sequence[str], chart_heading: str, chart: str, statuses: Counter[str]
    ) -> str:
        """The whole page: the context, the ``summary`` lines, a chart under its heading,
        the count of each status, and the claims kept."""
        title = html.escape(self._title)
        parts = [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            # Nothing may be fetched: the page is complete as it is.
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            "style-src 'unsafe-inline'\">",
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{title}</title><style>{_CSS}</style></head><body>",
            f"<h1>{title}</h1>",
            _context_table(self._context),
            "<h2>Summary</h2>",
            f'<pre id="summary">{html.escape(chr(10).join(summary))}</pre>',
            f"<h2>{html.escape(chart_heading)}</h2>",
            chart,
            _status_table(statuses, self._wording.status_column),
            *self._claims_section(),
            "</body></html>",
        ]
        return "\n".join(parts) + "\n"

    def write(self, path: str, tally: Tally) -> None:
        """Write the page of a replay to ``path``."""
        write_page(path, self.render(tally))

    def _claims_section(self) -> list[str]:
        shown = len(self._views)
        heading = html.escape(self._wording.claims_heading)
        parts = [f'<h2 id="changed">{heading}: {shown + self.left_out}</h2>']
        if self.left_out:
            parts.append(
                f'<p class="muted">The first {shown} are shown; {self.left_out} more are left '
                "out of this page (the --out file lists every claim).</p>"
            )
        if not shown:
            parts.append(f'<p class="muted">{html.escape(self._wording.no_claims)}</p>')
        parts.extend(_claim_section(view, self._wording) for view in self._views)
        return parts


def write_page(path: str, page: str) -> None:
    """Write ``page`` to ``path``; a path that cannot be written is a UsageError."""
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(page)
    except OSError as exc:
        raise UsageError(f"cannot write {os.fspath(path)!r}: {exc.strerror or exc}") from None


def _clip_left(text: str) -> str:
    return text if len(text) <= CONTEXT_CHARS else "…" + text[-CONTEXT_CHARS:]


def _clip_right(text: str) -> str:
    return text if len(text) <= CONTEXT_CHARS else text[:CONTEXT_CHARS] + "…"


def _context_table(context: Sequence[tuple[str, str]]) -> str:
    rows = "".join(
        f"<tr><th>{html.escape(name)}</th><td>{html.escape(value)}</td></tr>"
        for name, value in context
    )
    return f'<table id="context">{rows}</table>'


def _status_table(statuses: Counter[str], column: str) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(status)}</td><td>{count}</td></tr>"
        for status, count in ordered_counts(statuses.elements())
    )
    heading = f"<tr><th>{html.escape(column)}</th><th>claims</th></tr>"
    return f'<table id="statuses">{heading}{rows}</table>'


def _bar_colour(label: str) -> str:
    if label == Transition.UNCHANGED:
        return UNCHANGED_COLOUR
    if label == Transition.RECORDED_MISSING:
        return MISSING_COLOUR
    if label == Transition.NOT_COMPARED:
        return UNCHANGED_COLOUR
    return colour_of(label.rpartition(" -> ")[2])


def transition_chart(tally: Tally) -> str:
    """A horizontal bar chart of the transition counts as inline SVG, coloured by the new
    status like the other charts of the project."""
    bars = [
        (label, tally.transitions[label], _bar_colour(label))
        for label in _chart_order(tally)
        if tally.transitions[label] or label == Transition.UNCHANGED
    ]
    return _bar_chart("transition-chart", "claims per transition", bars)


def status_chart(statuses: Counter[str]) -> str:
    """A horizontal bar chart of the status counts as inline SVG, most common first,
    coloured like the status chart of ``quantcheck check --chart``."""
    bars = [
        (status, count, colour_of(status)) for status, count in ordered_counts(statuses.elements())
    ]
    return _bar_chart("status-chart", "claims per status", bars)


def _bar_chart(svg_id: str, label: str, bars: Sequence[tuple[str, int, str]]) -> str:
    label_width, bar_width, row = 300, 420, 28
    top = max((count for _, count, _ in bars), default=0) or 1
    height = row * max(len(bars), 1) + 10
    items = []
    for index, (name, count, colour) in enumerate(bars):
        y = 5 + index * row
        width = round(bar_width * count / top)
        shown = html.escape(name)
        items.append(
            f'<g class="bar"><title>{shown}: {count}</title>'
            f'<text x="{label_width - 8}" y="{y + 18}" text-anchor="end">{shown}</text>'
            f'<rect x="{label_width}" y="{y + 4}" width="{width}" height="{row - 8}" '
            f'fill="{colour}"></rect>'
            f'<text x="{label_width + width + 6}" y="{y + 18}">{count}</text></g>'
        )
    total = label_width + bar_width + 80
    return (
        f'<svg id="{svg_id}" role="img" aria-label="{html.escape(label)}" '
        f'width="{total}" height="{height}" viewBox="0 0 {total} {height}" '
        f'font-family="system-ui, sans-serif" font-size="13">{"".join(items)}</svg>'
    )


def _chart_order(tally: Tally) -> list[str]:
    named = {t.value for t in Transition}
    changes = sorted(
        (label for label in tally.transitions if label not in named),
        key=lambda label: (-tally.transitions[label], label),
    )
    return [*changes, Transition.UNCHANGED, Transition.RECORDED_MISSING, Transition.NOT_COMPARED]


def highlighted(text: str, facts: Sequence[FactResult]) -> str:
    """``text`` escaped, with each fact's span marked as matched or missing.

    Spans that overlap an earlier one are left unmarked rather than nested.
    """
    parts: list[str] = []
    position = 0
    for fact in sorted(facts, key=lambda f: (f.span.start, f.span.end)):
        start, end = fact.span.start, fact.span.end
        if start < position or end > len(text):
            continue
        kind = "matched" if fact.matched else "missing"
        parts.append(html.escape(text[position:start]))
        parts.append(
            f'<mark class="{kind}" title="{html.escape(fact.label)}: {kind}">'
            f"{html.escape(text[start:end])}</mark>"
        )
        position = end
    parts.append(html.escape(text[position:]))
    return "".join(parts)


def _claim_section(view: ClaimView, wording: Wording) -> str:
    claim = view.claim
    name = html.escape(
        claim.claim_id or (f"answer {claim.answer_id}" if claim.answer_id else "(no claim ID)")
    )
    rows = [*wording.where(claim), ("knowledge-base version", view.kb_version or "-")]
    recorded = claim.recorded
    outcome = [
        "<tr><th></th><th>status</th><th>reason</th></tr>",
        f"<tr><th>{html.escape(wording.recorded)}</th>"
        + (
            f'<td class="status">{html.escape(recorded.status)}</td>'
            f"<td>{html.escape(recorded.reason)}</td>"
            if recorded is not None
            else f'<td class="muted">{html.escape(wording.none_recorded)}</td><td></td>'
        )
        + "</tr>",
        f'<tr><th>{html.escape(wording.new)}</th><td class="status">'
        f"{html.escape(claim.new.status)}</td><td>{html.escape(claim.new.reason)}</td></tr>",
    ]
    label = wording.heading(claim)
    text = (
        f'<p class="claim-text">{highlighted(view.text, view.facts)}</p>'
        if view.text is not None
        else '<p class="muted">(the message is not a readable claim)</p>'
    )
    facts = "".join(_fact_row(evidence) for evidence in view.evidence)
    facts_table = (
        '<table class="facts"><tr><th>fact</th><th>in the claim</th><th>found</th>'
        f"<th>evidence</th></tr>{facts}</table>"
        if facts
        else ""
    )
    details = "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows
    )
    return (
        f'<section class="claim"><h3>{name}: {html.escape(label)}</h3>'
        f'<table class="where">{details}</table>'
        f'<table class="outcome">{"".join(outcome)}</table>{text}{facts_table}</section>'
    )


def _fact_row(evidence: EvidenceView) -> str:
    found = "matched" if evidence.matched else "missing"
    if evidence.doc_id is None:
        cell = '<span class="muted">no supporting span</span>'
    else:
        cell = (
            f"{html.escape(evidence.doc_id)}: {html.escape(evidence.before)}"
            f'<mark class="evidence">{html.escape(evidence.span)}</mark>'
            f"{html.escape(evidence.after)}"
        )
    return (
        f"<tr><td>{html.escape(evidence.fact)}</td><td>{html.escape(evidence.text)}</td>"
        f'<td><mark class="{found}">{found}</mark></td><td>{cell}</td></tr>'
    )
