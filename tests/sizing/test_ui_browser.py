"""End to end in headless Chromium: log in, size FiTeq multi-region on zEC12 at 7,000 TPS, see the
charts, compare the CPs with the API, run a curve job on a real worker, and never leave the machine.

Debian's chromium (``/usr/bin/chromium``, installed by ``make browser``) driven by Playwright's sync
API against pytest-django's ``live_server``.  A 1280x800 screenshot of the sizing page is written
to ``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.db import connections

from frontend.page_corpus import SETTLED
from tests.celery_worker import Worker

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}

#: True once every drawn chart is as wide as its box: Plotly redraws a chart at a new width a
#: moment after the window's resize event (longer on a loaded machine), and until then the chart
#: keeps its old width, wider than its box once the window narrows, narrower once it widens.
#: (Plotly takes the box's computed width, fractional, and redraws only for a change of more than
#: a pixel: 2 px of slack against the box's whole-pixel clientWidth.)
CHARTS_AT_WIDTH = """() => [...document.querySelectorAll('.js-plotly-plot')].every((el) => {
  const svg = el.querySelector('.main-svg');
  return !svg || el.offsetParent === null || Math.abs(svg.getBoundingClientRect().width - el.clientWidth) <= 2;
})"""


def at_width(pg: Any, width: int, height: int) -> None:
    """The viewport set to width x height, and the charts redrawn at that width."""
    pg.set_viewport_size({"width": width, "height": height})
    pg.wait_for_function(CHARTS_AT_WIDTH, timeout=15_000)


#: The workbench's status once an answer is drawn (workbench.js: "Updated: 5 CPs.").
UPDATED = "() => document.getElementById('size-status').textContent.startsWith('Updated')"

#: The workbench's question to the server (GET /ui/chart-data?path=...).
CHART_DATA = re.compile(r"/ui/chart-data\?")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def page(jobs_worker: Worker, live_server: Any) -> Iterator[Any]:
    """A logged-in 1280x800 page; every request it makes is recorded in ``page.requests``.

    It needs the worker (and its reload of the benchmarks) set up first: see below."""
    from django.contrib.auth import get_user_model
    from playwright.sync_api import sync_playwright

    # `make test` installs Debian's chromium (`make browser`); never a downloaded browser.
    assert CHROMIUM.exists(), f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)"

    # All database work of this process happens before Playwright starts: its sync API runs an
    # event loop in this thread, under which Django would refuse the ORM ("async unsafe"), and a
    # connection opened there would live in another context (never closed, so the test database
    # could not be dropped).  The live server answers the browser from its own threads.
    call_command("load_benchmarks", verbosity=0)  # TransactionTestCase flushed the session's data
    get_user_model().objects.create_user(username="presales", password="sizing-pass-9")
    connections.close_all()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        pg = context.new_page()
        pg.requests = []  # type: ignore[attr-defined]
        pg.errors = []  # type: ignore[attr-defined]
        pg.on("request", lambda r: pg.requests.append(r.url))
        pg.on("pageerror", lambda e: pg.errors.append(str(e)))
        pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
        pg.set_default_timeout(20_000)
        pg.goto(f"{live_server.url}/login/")
        pg.get_by_label("User name").fill("presales")
        pg.get_by_label("Password").fill("sizing-pass-9")
        pg.get_by_role("button", name="Log in").click()
        pg.wait_for_url(re.compile(r"/size/(\?.*)?$"))  # signed in: the sizing page
        try:
            yield pg
        finally:
            context.close()
            browser.close()


def _non_local(urls: list[str]) -> list[str]:
    return [u for u in urls if not u.startswith(("data:", "blob:")) and urlsplit(u).hostname not in LOCAL_HOSTS]


def test_size_fiteq_multi_region_on_zec12_and_run_a_curve_job(jobs_worker: Worker, live_server: Any, page: Any) -> None:
    started = time.monotonic()
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Size").click()
    page.get_by_label("Workload path").select_option("fiteq-authenticator")
    page.get_by_label("Configuration").select_option("multi-region")
    page.get_by_label("Target machine").select_option("zec12")
    page.get_by_label("Target rate").fill("7000")
    page.get_by_role("button", name="Size", exact=True).click()

    # The charts are drawn: Plotly SVGs with their traces (band, line, points, target).
    page.wait_for_selector("#chart-cpu .main-svg")
    page.wait_for_function("() => document.querySelectorAll('#chart-cpu .scatterlayer .trace').length >= 4")
    assert page.locator("#chart-cpu .scatterlayer .trace .point").count() >= 4 + 1  # Table 11-1 + target
    assert page.locator("#chart-response .scatterlayer .trace").count() >= 3
    assert page.locator("#chart-demand .barlayer .trace").count() == 3

    # The CPs shown are the API's for the same inputs.
    shown = page.locator('[data-kpi="cps_required"]').inner_text()
    api = page.request.get(
        f"{live_server.url}/api/v1/estimate",
        params={"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "zec12", "tps": "7000"},
    )
    assert api.ok, api.text()
    assert int(shown) == api.json()["cps_required"]
    assert page.url.endswith("?path=fiteq-authenticator&configuration=multi-region&machine=zec12&tps=7000")

    # Save it (POST /api/v1/estimates/ with the session and the CSRF token).
    page.get_by_label("Estimate name").fill("Bank A peak")
    page.get_by_role("button", name="Save estimate").click()
    saved = page.get_by_role("link", name="Saved as estimate")
    saved.wait_for()
    stored = page.request.get(f"{live_server.url}/api/v1/estimates/").json()["results"]
    assert [(e["name"], e["cps_required"]) for e in stored] == [("Bank A peak", int(shown))]
    assert saved.get_attribute("href") == f"/estimates/{stored[0]['id']}/"

    # A bad input is the API's sentence next to the field, and the field is marked invalid.
    page.get_by_label("Target rate").fill("-5")
    page.get_by_role("button", name="Size", exact=True).click()
    page.wait_for_selector("#err-tps:not([hidden])")
    assert page.locator("#f-tps").get_attribute("aria-invalid") == "true"
    page.get_by_label("Target rate").fill("7000")
    page.get_by_role("button", name="Size", exact=True).click()
    page.wait_for_selector("#err-tps", state="hidden")

    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "sizing-page.png"
    page.wait_for_function(SETTLED)  # no transition under way
    page.screenshot(path=str(shot))
    print(f"\nscreenshot of the sizing page: {shot}")

    # A curve job on the real worker: progress bar, then its charts and its CSV.
    jobs = page.locator("#jobs")
    jobs.get_by_label("Curve").check()
    jobs.get_by_label("CP counts").fill("8, 10")
    jobs.get_by_role("button", name="Start").click()
    page.wait_for_selector("#job-progress:not([hidden])")
    page.wait_for_function("() => document.getElementById('job-state').dataset.status === 'succeeded'", timeout=90_000)
    assert page.locator("#job-progress").get_attribute("aria-valuenow") == "100"
    page.wait_for_selector("#job-chart-a .main-svg")
    assert page.locator("#job-chart-a .scatterlayer .trace").count() >= 2  # one line per CP count
    assert page.locator("#job-chart-b .scatterlayer .trace").count() == 2
    csv_href = page.locator("#job-csv").get_attribute("href")
    csv = page.request.get(f"{live_server.url}{csv_href}")
    assert csv.ok and csv.text().startswith("cps,tps,"), csv.text()[:200]
    assert (
        jobs_worker.hostname
        in page.request.get(page.evaluate("document.getElementById('job-state').dataset.jobUrl")).json()["worker_host"]
    )

    page.evaluate("window.scrollTo(0, 0)")
    full = ARTIFACTS / "sizing-page-full.png"
    page.screenshot(path=str(full), full_page=True)
    print(f"full page with the job's result: {full}")

    # The one 400 is the bad input above; anything else logged as an error is a bug.
    unexpected = [e for e in page.errors if "status of 400" not in e]
    assert unexpected == [], unexpected
    assert _non_local(page.requests) == []
    print(f"browser test took {time.monotonic() - started:.1f} s")


def test_an_answer_belongs_to_its_inputs_and_decisions_show_on_the_card(live_server: Any, page: Any) -> None:
    """The workbench opens on its example and answers it; an edit greys the answer out and blocks
    saving until it is recomputed; an error clears it; a decision warning is on the main card;
    compare marks what differs."""
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Size").click()
    page.wait_for_selector("#example-note")
    page.wait_for_selector("#chart-cpu .main-svg")
    example = {k: page.locator(f"#f-{k}").input_value() for k in ("path", "configuration", "machine", "tps")}
    assert example["path"] == "fiteq-authenticator" and example["tps"] == "7000"
    api = page.request.get(f"{live_server.url}/api/v1/estimate", params=example).json()
    assert page.locator('[data-kpi="cps_required"]').inner_text() == str(api["cps_required"])
    # Used against installed on the sized model: the API's capacity block, CP MSU apart.
    cap = api["capacity"]
    gauge = page.locator("#capacity-gauge").inner_text()
    assert cap["model"] in gauge
    assert f"{round(cap['cp']['msu_used']):,} of {round(cap['cp']['msu_installed']):,} MSU" in gauge
    save = page.get_by_role("button", name="Save estimate")
    assert save.is_enabled()

    # Editing an input (without pressing Size) makes the answer stale and unsaveable.
    page.get_by_label("Target rate").fill("9000")
    page.wait_for_selector("#stale-banner:not([hidden])")
    assert save.is_disabled()
    # Back to the inputs of the answer on screen: it is current again.
    page.get_by_label("Target rate").fill("7000")
    page.wait_for_selector("#stale-banner", state="hidden")
    assert save.is_enabled()

    # Two CPs given for 7,000 TPS: overloaded, said in words, with a decision warning on the card.
    page.locator("#optional-inputs summary").click()
    page.locator("#f-cps").fill("2")
    page.get_by_role("button", name="Size", exact=True).click()
    page.wait_for_selector('#decisions:not([hidden]) li[data-code="utilization-above-ceiling"]')
    given = page.request.get(f"{live_server.url}/api/v1/estimate", params={**example, "cps": "2"}).json()
    more = given["cps_required"] - 2
    assert page.locator('[data-kpi="cps_required"]').inner_text() == "Overloaded"
    assert f"needs {more} more CPs" in page.locator('[data-kpi-sub="cps_required"]').inner_text()
    decisions = [w["code"] for w in given["warnings"] if w["level"] == "decision"]
    shown = page.locator("#decisions li").evaluate_all("els => els.map(e => e.dataset.code)")
    assert shown == decisions
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "workbench-decisions.png"
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function(SETTLED)  # no transition under way
    page.screenshot(path=str(shot))
    print(f"\nscreenshot of a decision warning on the card: {shot}")
    page.get_by_label("Estimate name").fill("two CPs")
    save.click()
    page.get_by_role("link", name="Saved as estimate").wait_for()

    # An error clears the answer: nothing stays on screen that belongs to other inputs.
    page.get_by_label("Target rate").fill("-5")
    page.get_by_role("button", name="Size", exact=True).click()
    page.wait_for_selector("#err-tps:not([hidden])")
    page.wait_for_selector("#result", state="hidden")
    assert save.is_disabled()

    # A second estimate with the CPs sized, then compare: the question and the answer differ.
    page.locator("#f-cps").fill("")
    page.get_by_label("Target rate").fill("7000")
    page.get_by_role("button", name="Size", exact=True).click()
    page.wait_for_selector("#result:not([hidden])")
    page.get_by_label("Estimate name").fill("sized")
    save.click()
    page.get_by_role("link", name="Saved as estimate").wait_for()
    ids = [e["id"] for e in page.request.get(f"{live_server.url}/api/v1/estimates/").json()["results"]]
    page.goto(f"{live_server.url}/estimates/compare/?id={ids[0]}&id={ids[1]}")
    cps_row = page.locator("tr", has=page.locator("th", has_text="CPs given"))
    assert cps_row.locator(".differs-tag").count() == 1
    shot = ARTIFACTS / "compare.png"
    page.screenshot(path=str(shot), full_page=True)
    print(f"screenshot of compare: {shot}")
    unexpected = [e for e in page.errors if "status of 400" not in e]
    assert unexpected == [], unexpected


def test_an_answer_that_arrives_after_an_edit_is_drawn_stale(live_server: Any, page: Any) -> None:
    """An input edited while its answer is on its way: the answer, once drawn, is marked stale
    (the form no longer says its inputs) and cannot be saved, as after any other edit."""
    from playwright.sync_api import expect

    page.goto(f"{live_server.url}/size/")
    page.wait_for_function(UPDATED)  # the example answered
    held: list[Any] = []  # the answer to 6,000 TPS, held on its way
    page.route(CHART_DATA, lambda route: held.append(route))
    page.get_by_label("Target rate").fill("6000")
    page.get_by_role("button", name="Size", exact=True).click()
    deadline = time.monotonic() + 20
    while not held:
        assert time.monotonic() < deadline, "the form sent no question"
        page.wait_for_timeout(20)  # (Playwright's events are handled while it waits)
    page.get_by_label("Target rate").fill("5000")
    held[0].continue_()
    page.unroute(CHART_DATA)
    page.wait_for_function(UPDATED)
    assert "tps=6000" in page.url and page.locator("#f-tps").input_value() == "5000"
    expect(page.locator("#stale-banner")).to_be_visible()
    assert page.get_by_role("button", name="Save estimate").is_disabled()
    # Sized again: current.
    page.get_by_role("button", name="Size", exact=True).click()
    expect(page.locator("#stale-banner")).to_be_hidden()
    page.wait_for_function(UPDATED)
    assert "tps=5000" in page.url and page.get_by_role("button", name="Save estimate").is_enabled()
    assert page.errors == []


def test_the_workbench_answers_from_the_keyboard(live_server: Any, page: Any) -> None:
    """The workbench answers from the keyboard alone (axe-core on every page:
    tests/sizing/test_ui_every_page_browser.py)."""
    # Keyboard only: focus the target rate, type, submit with Enter.
    page.goto(f"{live_server.url}/size/")
    page.wait_for_selector("#chart-cpu .main-svg")
    page.focus("#f-tps")
    page.keyboard.press("Control+A")
    page.keyboard.type("4000")
    page.wait_for_selector("#stale-banner:not([hidden])")
    page.keyboard.press("Enter")
    page.wait_for_selector("#stale-banner", state="hidden")
    assert page.locator("#f-tps").input_value() == "4000"
    assert "tps=4000" in page.url


def test_a_word_explains_itself_on_hover_focus_and_tap(live_server: Any, page: Any) -> None:
    """A glossary word (sizing/glossary.py) shows its definition on hover, on keyboard focus and
    on a tap (a touch screen has no hover); Escape and a tap elsewhere close it."""
    from sizing.glossary import term

    page.goto(f"{live_server.url}/size/")
    word = page.locator('.kpi .term[data-term="MIPS"]')
    tip = word.locator(".term-tip")
    assert tip.is_hidden()
    word.hover()
    assert tip.is_visible() and tip.inner_text() == term("MIPS").sentence
    page.mouse.move(0, 0)
    assert tip.is_hidden()
    page.locator('h3 .term[data-term="ETR"]').focus()  # the keyboard
    assert page.locator('h3 .term[data-term="ETR"] .term-tip').is_visible()
    page.keyboard.press("Escape")
    page.locator("#f-tps").focus()
    # A tap: a touch screen's click, with no hover.
    page.mouse.move(0, 0)
    word.dispatch_event("click")
    assert word.get_attribute("class") == "term open" and tip.is_visible()
    page.locator("h1, h2").first.dispatch_event("click")  # a tap elsewhere
    assert "open" not in (word.get_attribute("class") or "")
    word.dispatch_event("click")
    page.keyboard.press("Escape")
    assert "open" not in (word.get_attribute("class") or "")
