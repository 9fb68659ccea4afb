"""Every page of the app, with real content, at a phone's 390 px and a desktop's 1440 px (issue 30
item 7): nothing scrolls sideways on the phone, and axe-core finds no violation at all, at any
impact, on the app's own pages.

The pages and their content are frontend/page_corpus.py's (the same ``make screenshot`` draws for
docs/pictures/): the workbench with each kind of answer (fits, overloaded on given CPs, does not
fit, a lower-bound saturation, no CPU data), with "Which model fits?", the newest machines, a curve
job and a batch job drawn on a real worker; the saved estimates, each saved estimate's page, a
comparison and a refused one; a capacity plan; a machine of "Your machines"; the calibrations, the
paste page and a calibration; the price book; the reference data and the LSPR pages; the login
page and the API docs signed out; a 404 and a refused form (403).

axe-core is axe-playwright-python's (requirements-dev.txt).  The one exception is /api/docs/,
Swagger UI's own markup (drf-spectacular-sidecar): our template and stylesheet fix what they can
reach (a language, contrast, no link inside a button); what they cannot is listed in VENDORED with
its count, and docs/ui.md says why.

One browser, one live server, one test: each page is opened once on the phone (a fresh load), then
the same window is widened to the desktop.  The pages' data is built once (a transactional test's
data is flushed when it ends, so a test per page would build it again for each).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from frontend.page_corpus import Page, build, pages, visit
from tests.celery_worker import Worker
from tests.sizing.test_ui_browser import CHROMIUM, CHROMIUM_ARGS, at_width

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
#: axe-core findings inside Swagger UI's own markup that no stylesheet or setting of ours reaches
#: (docs/ui.md, "Accessibility"): rule -> nodes, at either width.
VENDORED = {
    # Swagger UI titles the API with an h1 and each tag of operations with an h3.
    "heading-order": 1,
    # Swagger UI puts its <main> around the operations only; the title block is outside it, and
    # a landmark of ours around both would hold a <main> (landmark-main-is-top-level).
    "region": 1,
}


def _axe(pg: Any) -> dict[str, tuple[str, int]]:
    from axe_playwright_python.sync_playwright import Axe

    return {v["id"]: (v["impact"], len(v["nodes"])) for v in Axe().run(pg).response["violations"]}


def _sign_in(pg: Any, base: str) -> None:
    pg.goto(f"{base}/login/")
    pg.get_by_label("User name").fill("presales")
    pg.get_by_label("Password").fill("sizing-pass-9")
    pg.get_by_role("button", name="Log in").click()
    pg.wait_for_url(re.compile(r"/size/(\?.*)?$"))


def _expected(page: Page) -> dict[str, Any]:
    found = {rule: ("moderate", n) for rule, n in VENDORED.items()} if page.name == "api-docs" else {}
    return {"axe 390": found, "axe 1440": found, "wider than 390": False}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_every_page_fits_a_phone_and_passes_axe_core(jobs_worker: Worker, live_server: Any) -> None:
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)"
    user = get_user_model().objects.create_user(username="presales", password="sizing-pass-9")
    ids = build(user)
    every = pages(ids)
    connections.close_all()  # no ORM under Playwright's event loop (see test_ui_browser.py)
    # every page of sizing/urls.py and config/urls.py that a person reads is here
    names = {p.name for p in every}
    assert {"login", "paths", "estimates", "compare", "plans", "cecs", "calibrations", "calibration-new"} <= names
    assert {"calibration", "prices", "reference", "reference-fiteq", "lspr", "lspr-z16", "api-docs"} <= names
    assert {f"size-{k}" for k in ("fits", "overloaded", "does-not-fit", "lower-bound", "no-cpu")} <= names
    assert {"not-found", "form-expired"} <= names

    found: dict[str, dict[str, Any]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            windows = {}
            for signed_in in (True, False):
                context = browser.new_context(viewport=PHONE)
                context.set_default_timeout(60_000)
                windows[signed_in] = context.new_page()
            _sign_in(windows[True], live_server.url)
            for page in every:
                pg = windows[page.signed_in]
                pg.set_viewport_size(PHONE)
                visit(pg, live_server.url, page)
                width = pg.evaluate("() => document.documentElement.scrollWidth")
                result = {"wider than 390": width > PHONE["width"], "axe 390": _axe(pg)}
                at_width(pg, DESKTOP["width"], DESKTOP["height"])  # the charts redrawn at the new width
                result["axe 1440"] = _axe(pg)
                found[page.name] = result
        finally:
            browser.close()

    # the line first: nothing serious or critical anywhere, the API docs included
    serious = {
        (name, at, rule)
        for name, result in found.items()
        for at in ("axe 390", "axe 1440")
        for rule, (impact, _) in result[at].items()
        if impact in ("serious", "critical")
    }
    assert serious == set()
    assert found == {page.name: _expected(page) for page in every}


def _route(resolver: Any, url: str) -> str | None:
    from django.urls import Resolver404

    try:
        return str(resolver.resolve(url).url_name)
    except Resolver404:
        return None  # the 404 page


def test_the_corpus_names_every_page_route() -> None:
    """Each route of sizing/urls.py that answers a page (not a form's POST, a JSON endpoint or the
    logout) is opened by the corpus, so that a new page cannot escape the test above."""
    from django.urls import get_resolver

    from sizing import urls

    ids = {k: 1 for k in ("fits", "overloaded", "does-not-fit", "lower-bound", "plan", "cec", "calibration")}
    opened = {re.sub(r"\?.*$", "", p.url) for p in pages(ids)}
    not_pages = {"logout", "chart-data", "models-data", "estimate-remove", "calibration-remove"}
    resolver = get_resolver()
    for pattern in urls.urlpatterns:
        if pattern.name in not_pages:
            continue
        assert [u for u in opened if _route(resolver, u) == pattern.name], pattern.name
    assert "/api/docs/" in opened


@pytest.mark.django_db(transaction=True)
def test_a_page_that_does_not_complete_is_named_with_what_the_console_said(live_server: Any) -> None:
    """The test above opens some thirty pages; one that never completes fails with its name, the
    step it was at and the browser's uncaught exceptions, not with a bare Playwright timeout."""
    from playwright.sync_api import sync_playwright

    throws = "() => { setTimeout(() => { throw new Error('corpus probe') }, 0); return false; }"
    page = Page("probe", "/no-such-page/", throws, signed_in=False, status=404)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            pg = browser.new_context(viewport=PHONE).new_page()
            with pytest.raises(AssertionError) as failed:
                visit(pg, live_server.url, page, timeout_ms=5_000)
        finally:
            browser.close()
    said = str(failed.value)
    assert said.startswith("page 'probe' (/no-such-page/) at ready: "), said
    assert "uncaught: Error: corpus probe\n    at " in said, said
