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
from sizing.models import MetricName, PointMetric, SourceDocument

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
  text: Array.isArray(t.text) ? t.text.filter(s => typeof s === 'string') : [],
})))"""


def _rate_labels_checked(traces: list[dict[str, Any]], url: str) -> int:
    """Hover labels print a rate as the pages and reports write it (presentation.rate: "0.5",
    "12.5", "8,000"), never rounded to whole transactions by a d3 format; the traces whose
    points are labelled by their rates are counted."""
    labelled = 0
    for trace in traces:
        hover = trace["hover"]
        assert ":,.0f} TPS" not in hover and ":,.2f} TPS" not in hover, (url, hover)
        if "%{customdata} TPS" in hover:
            assert trace["customdata"] == [presentation.rate(x, unit="") for x in trace["x"]], (url, hover)
            labelled += 1
    return labelled


def _measures_checked(traces: list[dict[str, Any]], url: str, measures: set[str]) -> int:
    """A published point's measures read as presentation.measure_text writes them ("8.56% of 10
    engines", "... per transaction" once), on the workbench's points and the reference pages'
    series alike; the hover lines that are such a measure are counted."""
    found = 0
    for trace in traces:
        for text in trace["text"]:
            assert "per transaction per transaction" not in text and " % of" not in text, (url, text)
            found += sum(line in measures for line in text.split("<br>"))
    return found


def _published_measures() -> set[str]:
    """Every published metric as presentation.measure_text says it (the expected hover lines)."""
    labels = dict(MetricName.choices)
    return {
        presentation.measure_text(labels.get(m.name, m.name), m.value, m.unit, m.engines)
        for m in PointMetric.objects.all()
    }


@pytest.fixture
def pages(live_server: Any) -> Iterator[tuple[Any, list[str], set[str]]]:
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
    measures = _published_measures()
    session = api.cookies["sessionid"].value
    connections.close_all()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
        context.add_init_script(WATCH)
        try:
            yield context, urls, measures
        finally:
            context.close()
            browser.close()


def test_every_chart_page_draws_with_the_basic_bundle_and_no_error(live_server: Any, pages: Any) -> None:
    context, urls, measures = pages
    charted = []
    labelled = 0
    sources = {"labelled": 0, "traces": 0, "measures": 0}
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
            traces = page.evaluate(TRACES)
            labelled += _rate_labels_checked(traces, url)
            if url.startswith("/reference/") and "/lspr/" not in url:
                # a source's points: every trace of rates says them through fmt.rate, as the workbench
                sources["traces"] += sum("TPS" in t["hover"] for t in traces)
                sources["labelled"] += _rate_labels_checked(traces, url)
                sources["measures"] += _measures_checked(traces, url, measures)
            else:
                _measures_checked(traces, url, measures)
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
    # the sources' charts: every trace labelled by its rates, every busy point by its measure
    assert sources["traces"] >= 3 and sources["labelled"] == sources["traces"], sources
    assert sources["measures"] > 0, sources


# Where the CPU chart's capacity and ceiling labels are, and how many points of the drawn traces
# (markers, and lines sampled between their points, in screen pixels) fall inside each.
GUIDE_LABELS = """() => {
  const el = document.getElementById('chart-cpu');
  const fl = el._fullLayout, xa = fl.xaxis, ya = fl.yaxis;
  const svg = el.querySelector('.main-svg').getBoundingClientRect();
  const px = (x, y) => [svg.left + fl._size.l + xa.l2p(x), svg.top + fl._size.t + ya.l2p(y)];
  const samples = [];
  for (const t of el._fullData) {
    const xs = Array.from(t.x || []), ys = Array.from(t.y || []);
    for (let i = 0; i < xs.length; i++) {
      if (xs[i] == null || ys[i] == null) continue;
      samples.push(px(xs[i], ys[i]));
      if (i + 1 < xs.length && xs[i + 1] != null && ys[i + 1] != null && (t.mode || '').includes('lines'))
        for (let k = 1; k < 40; k++) samples.push(px(xs[i] + (xs[i + 1] - xs[i]) * k / 40, ys[i] + (ys[i + 1] - ys[i]) * k / 40));
    }
  }
  return [...el.querySelectorAll('.annotation')].map(a => {
    const r = a.querySelector('.annotation-text-g text, text').getBoundingClientRect();
    const hits = samples.filter(([x, y]) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom).length;
    return { text: a.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom, hits };
  }).filter(a => a.text.includes('LPAR capacity') || a.text.includes('ceiling'));
}"""


@pytest.mark.parametrize("width", [390, 1440])
def test_the_capacity_and_ceiling_labels_sit_clear_of_the_lines(live_server: Any, pages: Any, width: int) -> None:
    # On a phone the "85% ceiling" label sat on the fitted line, its band and a published point,
    # at the right where the busy engines reach the target; both labels now sit at the left.
    context, _, _ = pages
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    for question in (
        "path=fiteq-authenticator&configuration=multi-region&machine=z16&tps=8000",  # fitted, zIIPs
        "path=cicstg&configuration=ipic-channel-64&machine=z10&tps=2000",  # published bounds, zAAPs
    ):
        page.goto(f"{live_server.url}/size/?{question}", wait_until="networkidle")
        page.wait_for_function(DRAWN, timeout=30_000)
        labels = page.evaluate(GUIDE_LABELS)
        assert len(labels) == 2, (question, labels)
        capacity, ceiling = sorted(labels, key=lambda a: "ceiling" in a["text"])
        assert "LPAR capacity" in capacity["text"] and "ceiling" in ceiling["text"], labels
        assert capacity["bottom"] <= ceiling["top"], (question, width, labels)  # one above the other
        assert capacity["hits"] == 0 and ceiling["hits"] == 0, (question, width, labels)
    page.close()
