"""Every page that draws charts draws them with the vendored basic plotly.js bundle, in Chromium.

The basic bundle (frontend/static/vendor/plotly, tests/test_plotly_bundle.py) holds the scatter
and bar traces, which are all the pages draw; a trace type it lacks would leave an empty plot and
log an error.  Each page is opened in Debian's Chromium under the app's Content-Security-Policy
and Subresource Integrity, and must draw every visible chart with its traces, load no other
plotly.js, log no console error and report no policy violation.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connections
from django.test import Client

from sizing import presentation
from sizing.models import SourceDocument

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Runs before the page's scripts: any refusal of the Content-Security-Policy is kept.
WATCH = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', e => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
"""

# Every visible chart container has a Plotly SVG with at least one scatter or bar trace.
DRAWN = """() => {
  const charts = [...document.querySelectorAll('div.chart')].filter(c => c.offsetParent !== null);
  return charts.length > 0 && charts.every(c => c.querySelector('.main-svg') &&
    c.querySelectorAll('.scatterlayer .trace, .barlayer .trace').length > 0);
}"""

# Each drawn trace's rates and hover labels.
TRACES = """() => [...document.querySelectorAll('div.chart')].flatMap(c => (c.data || []).map(t => ({
  x: t.x ? Array.from(t.x) : [], hover: t.hovertemplate || '', customdata: t.customdata ? Array.from(t.customdata) : null,
})))"""


def _rate_labels_checked(traces: list[dict[str, Any]], url: str) -> int:
    """Hover labels print a rate as the pages and reports write it (presentation.rate: "0.5",
    "12.5", "8,000"), never rounded to whole transactions by a d3 format; the traces whose
    points are labelled by their rates are counted."""
    labelled = 0
    for trace in traces:
        hover = trace["hover"]
        assert ":,.0f} TPS" not in hover, (url, hover)
        if "%{customdata} TPS" in hover:
            assert trace["customdata"] == [presentation.rate(x, unit="") for x in trace["x"]], (url, hover)
            labelled += 1
    return labelled


@pytest.fixture
def pages(live_server: Any) -> Iterator[tuple[Any, list[str]]]:
    """A signed-in Chromium context and the pages to open (a saved estimate among them)."""
    from django.contrib.auth import get_user_model
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)"
    # All database work before Playwright's event loop starts (Django refuses the ORM under it).
    call_command("load_benchmarks", verbosity=0)
    user = get_user_model().objects.create_user(username="charts", password="sizing-pass-5")
    api = Client()
    api.force_login(user)
    saved = api.post(
        "/api/v1/estimates/",
        {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z16", "tps": 7000},
        content_type="application/json",
    )
    assert saved.status_code == 201, saved.content
    urls = [
        "/size/",
        "/size/?path=fiteq-authenticator&configuration=multi-region&machine=z17&tps=7000",
        f"/estimates/{saved.json()['id']}/",
        "/reference/lspr/",
        "/reference/lspr/z16/",
        *(f"/reference/{slug}/" for slug in SourceDocument.objects.values_list("slug", flat=True)),
    ]
    session = api.cookies["sessionid"].value
    connections.close_all()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
        context.add_init_script(WATCH)
        try:
            yield context, urls
        finally:
            context.close()
            browser.close()


def test_every_chart_page_draws_with_the_basic_bundle_and_no_error(live_server: Any, pages: Any) -> None:
    context, urls = pages
    charted = []
    labelled = 0
    for url in urls:
        page = context.new_page()
        errors: list[str] = []
        scripts: list[str] = []
        page.on("console", lambda m, errors=errors: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.on("request", lambda r, scripts=scripts: scripts.append(r.url) if r.resource_type == "script" else None)
        page.goto(f"{live_server.url}{url}", wait_until="networkidle")
        # The first five draw charts (asserted below): wait for them, as a page asked with its
        # question shows its charts only once its answer arrives (late on a loaded machine).
        has_charts = url in urls[:5] or page.evaluate(
            "() => [...document.querySelectorAll('div.chart')].some(c => c.offsetParent !== null)"
        )
        if has_charts:
            page.wait_for_function(DRAWN, timeout=30_000)
            charted.append(url)
            labelled += _rate_labels_checked(page.evaluate(TRACES), url)
        plotly = [u for u in scripts if "plotly" in u]
        assert plotly == [f"{live_server.url}/static/vendor/plotly/plotly-basic.min.js"], (url, plotly)
        assert page.evaluate("typeof window.Plotly.react") == "function", url
        assert page.evaluate("window.__cspViolations") == [], url
        assert errors == [], (url, errors)
        page.close()
    # The workbench twice, the saved estimate and both LSPR pages draw charts, and so do the
    # sources that publish busy CPU or response times against ETR (three of them here).
    assert charted[:5] == urls[:5]
    assert len(charted) >= 5 + 3, charted
    # the workbench's fitted line and response curve among them, on each of its pages
    assert labelled >= 4, labelled
