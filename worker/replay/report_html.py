"""The ``--report`` page of a replay: one self-contained HTML file.

Styles and the chart are inline (the chart is SVG drawn here), there is no script and no
external asset, and a Content-Security-Policy forbids loading any, so the page renders the
same from a laptop, a ticket attachment or an air-gapped host. Every text that comes from a
claim, a document or a verdict is HTML-escaped.

Only the first :data:`MAX_CLAIMS` differing claims get a table (the page says how many were
left out), so the report's memory stays bounded however long the replay.
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from quantcheck.schemas import ClaimEvent, FactResult, VerdictEvent, parse_verdicts_topic_value
from quantcheck.worker.errors import UsageError
from quantcheck.worker.replay.compare import ReplayedClaim, Tally, Transition
from quantcheck.worker.replay.replayer import Replayed
from quantcheck.worker.reports.chart import colour_of
from quantcheck.worker.reports.summary import ordered_counts

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
    ) -> None:
        self._title = title
        self._context = tuple(context)
        self._documents = documents
        self._max_claims = max_claims
        self._views: list[ClaimView] = []
        self.left_out = 0

    def add(self, replayed: Replayed) -> None:
        """Keep ``replayed`` for the page if it differs and the cap is not reached."""
        if not replayed.claim.differs:
            return
        if len(self._views) >= self._max_claims:
            self.left_out += 1
            return
        verdict = (
            None
            if replayed.claim.verdict_json is None
            else parse_verdicts_topic_value(replayed.claim.verdict_json)
        )
        # An answer's record has no facts; each of its claims' facts point into the answer.
        facts = tuple(verdict.facts) if isinstance(verdict, VerdictEvent) else ()
        kb_version = verdict.kb_version if verdict is not None else None
        event = replayed.event
        text = (
            None
            if event is None
            else event.claim_text
            if isinstance(event, ClaimEvent)
            else event.answer_text
        )
        self._views.append(
            ClaimView(
                replayed.claim,
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
        """The whole page."""
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
            f'<pre id="summary">{html.escape(chr(10).join(tally.lines()))}</pre>',
            "<h2>Transitions</h2>",
            transition_chart(tally),
            _status_table(tally),
            *self._claims_section(),
            "</body></html>",
        ]
        return "\n".join(parts) + "\n"

    def write(self, path: str, tally: Tally) -> None:
        """Write the page to ``path``."""
        try:
            with open(path, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(self.render(tally))
        except OSError as exc:
            raise UsageError(f"cannot write {os.fspath(path)!r}: {exc.strerror or exc}") from None

    def _claims_section(self) -> list[str]:
        shown = len(self._views)
        parts = [f'<h2 id="changed">Differing claims: {shown + self.left_out}</h2>']
        if self.left_out:
            parts.append(
                f'<p class="muted">The first {shown} are shown; {self.left_out} more are left '
                "out of this page (the --out file lists every claim).</p>"
            )
        if not shown:
            parts.append('<p class="muted">No claim differs from what was recorded.</p>')
        parts.extend(_claim_section(view) for view in self._views)
        return parts


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


def _status_table(tally: Tally) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(status)}</td><td>{count}</td></tr>"
        for status, count in ordered_counts(tally.statuses.elements())
    )
    return f'<table id="statuses"><tr><th>new status</th><th>claims</th></tr>{rows}</table>'


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
        (label, tally.transitions[label])
        for label in _chart_order(tally)
        if tally.transitions[label] or label == Transition.UNCHANGED
    ]
    label_width, bar_width, row = 300, 420, 28
    top = max((count for _, count in bars), default=0) or 1
    height = row * max(len(bars), 1) + 10
    items = []
    for index, (label, count) in enumerate(bars):
        y = 5 + index * row
        width = round(bar_width * count / top)
        name = html.escape(label)
        items.append(
            f'<g class="bar"><title>{name}: {count}</title>'
            f'<text x="{label_width - 8}" y="{y + 18}" text-anchor="end">{name}</text>'
            f'<rect x="{label_width}" y="{y + 4}" width="{width}" height="{row - 8}" '
            f'fill="{_bar_colour(label)}"></rect>'
            f'<text x="{label_width + width + 6}" y="{y + 18}">{count}</text></g>'
        )
    total = label_width + bar_width + 80
    return (
        f'<svg id="transition-chart" role="img" aria-label="claims per transition" '
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


def _claim_section(view: ClaimView) -> str:
    claim = view.claim
    name = html.escape(
        claim.claim_id or (f"answer {claim.answer_id}" if claim.answer_id else "(no claim ID)")
    )
    where = f"{claim.source.topic} partition {claim.source.partition} offset {claim.source.offset}"
    rows = [
        ("read at", f"{claim.read_at.topic} {claim.read_at.partition}:{claim.read_at.offset}"),
        ("claim message", where),
        ("knowledge-base version", view.kb_version or "-"),
    ]
    recorded = claim.recorded
    outcome = [
        "<tr><th></th><th>status</th><th>reason</th></tr>",
        "<tr><th>recorded</th>"
        + (
            f'<td class="status">{html.escape(recorded.status)}</td>'
            f"<td>{html.escape(recorded.reason)}</td>"
            if recorded is not None
            else '<td class="muted">(none recorded)</td><td></td>'
        )
        + "</tr>",
        f'<tr><th>replayed</th><td class="status">{html.escape(claim.new.status)}</td>'
        f"<td>{html.escape(claim.new.reason)}</td></tr>",
    ]
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
        f'<section class="claim"><h3>{name}: {html.escape(claim.label)}</h3>'
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
