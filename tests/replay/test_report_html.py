"""The HTML report's content: escaping, highlights, evidence, the chart and the cap."""

from __future__ import annotations

import re

from quantcheck.schemas import FactResult, Span
from quantcheck.worker.replay.compare import Tally
from quantcheck.worker.replay.replayer import Replayed
from quantcheck.worker.replay.report_html import HtmlReport, highlighted

from tests.replay.samples import changed_claims, handbook_v2

EXTERNAL = re.compile(r"""(?:src|href|action)\s*=\s*["']?\s*(?:[a-z]+:)?//""", re.IGNORECASE)


def report_page(items: list[Replayed], max_claims: int = 500) -> str:
    documents = handbook_v2()
    report = HtmlReport(
        title="replay of <claims>",
        context=[("window", "claims 0:[0,18)")],
        documents=lambda version, doc_id: documents[doc_id].text if version == "v2" else None,
        max_claims=max_claims,
    )
    tally = Tally(comparing=True)
    for item in items:
        tally.add(item.claim)
        report.add(item)
    return report.render(tally)


def section_of(page: str, claim_id: str) -> str:
    start = page.index(f"<h3>{claim_id}:")
    return page[start : page.index("</section>", start)]


def test_every_text_from_claims_is_escaped() -> None:
    page = report_page(changed_claims())
    assert "<script" not in page.lower()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; the logger" in page
    assert "<h3>X&lt;1&gt;: supported -&gt; unsupported_quantity</h3>" in page
    assert "<title>replay of &lt;claims&gt;</title>" in page


def test_changed_claims_show_matched_and_missing_quantities_and_the_evidence_span() -> None:
    page = report_page(changed_claims())
    c01 = section_of(page, "C01")
    assert (
        'logger records a reading every <mark class="missing" title="time_seconds=15: missing">'
        "15 seconds</mark>." in c01
    )
    assert "matched cited evidence: time_seconds=15" in c01  # the recorded reason
    assert "not in cited evidence: time_seconds=15" in c01  # the replayed one
    t30 = section_of(page, "T30")
    assert '<mark class="matched" title="time_seconds=30: matched">30 seconds</mark>' in t30
    assert 'S01: Log a sensor reading every <mark class="evidence">30 seconds</mark> during' in t30
    # Unchanged claims get no table.
    assert "<h3>C03:" not in page


def test_the_page_is_self_contained_with_an_inline_chart() -> None:
    page = report_page(changed_claims())
    assert EXTERNAL.search(page) is None
    assert "http://" not in page
    assert "https://" not in page
    for tag in ("<link", "<img", "<iframe", "<object", "@import", "url("):
        assert tag not in page
    chart = page[page.index('<svg id="transition-chart"') : page.index("</svg>")]
    # Two changes and the unchanged ones; nothing was missing, so that bar is left out.
    assert chart.count("<rect") == 3
    assert "supported -&gt; unsupported_quantity: 2" in chart
    assert "unchanged: 15" in chart
    assert "Content-Security-Policy" in page


def test_the_tables_stop_at_the_cap_and_say_how_many_were_left_out() -> None:
    page = report_page(changed_claims(), max_claims=1)
    assert page.count('<section class="claim">') == 1
    assert "Differing claims: 3" in page
    assert "The first 1 are shown; 2 more are left out of this page" in page


def test_overlapping_spans_are_not_nested() -> None:
    def fact(start: int, end: int, *, matched: bool) -> FactResult:
        return FactResult(
            label=f"n={start}",
            category="n",
            relation="=",
            value="1",
            text="x",
            span=Span(start=start, end=end),
            negated=False,
            approximate=False,
            matched=matched,
        )

    text = "a <b> 10 to 20 mm"
    marked = highlighted(text, [fact(6, 17, matched=True), fact(12, 17, matched=False)])
    assert marked == 'a &lt;b&gt; <mark class="matched" title="n=6: matched">10 to 20 mm</mark>'
