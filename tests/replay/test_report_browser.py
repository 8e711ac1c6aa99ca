"""The HTML report rendered by headless Chromium, with every host name unresolvable.

Chromium is a system dependency (``make system-deps`` installs Debian's ``chromium``); a
machine without it fails this test rather than skipping it, so CI cannot pass silently.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from quantcheck.worker.replay.compare import Tally
from quantcheck.worker.replay.report_html import HtmlReport

from tests.replay.samples import changed_claims, handbook_v2

pytestmark = pytest.mark.integration

CHROMIUM_TIMEOUT_S = 90


def chromium() -> str:
    found = shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )
    if found is None:
        pytest.fail("Chromium is missing: `make system-deps` installs it (Debian package chromium)")
    return found


def dump_dom(page: Path, profile: Path) -> str:
    """The DOM Chromium builds from ``page`` with no network: every host maps to nothing."""
    done = subprocess.run(
        [
            chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            f"--user-data-dir={profile}",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=CHROMIUM_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_report_renders_with_its_chart_and_tables_and_needs_no_network(
    tmp_path: Path,
) -> None:
    documents = handbook_v2()
    report = HtmlReport(
        title="quantcheck replay of claims",
        context=[("window", "claims 0:[0,18)")],
        documents=lambda version, doc_id: documents[doc_id].text,
    )
    tally = Tally(comparing=True)
    for item in changed_claims():
        tally.add(item.claim)
        report.add(item)
    page = tmp_path / "report.html"
    report.write(str(page), tally)
    html = page.read_text(encoding="utf-8")
    assert re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", html) is None

    dom = dump_dom(page, tmp_path / "profile")

    assert '<svg id="transition-chart"' in dom
    assert dom.count("<rect ") == 3
    assert '<pre id="summary">claims=18\n' in dom
    assert dom.count('<section class="claim">') == 3
    c01 = dom[dom.index("<h3>C01:") :]
    c01 = c01[: c01.index("</section>")]
    assert '<table class="outcome"><tbody>' in c01  # parsed as a real table
    assert '<mark class="missing" title="time_seconds=15: missing">15 seconds</mark>' in c01
    # The hostile claim stayed text: Chromium built no script element from it.
    assert "<script" not in dom.lower()
    assert '&lt;script&gt;alert("x")&lt;/script&gt; &amp; the logger' in dom
