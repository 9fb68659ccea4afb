"""The paste page in headless Chromium: paste two RMF extracts, see what was read, fix a value,
be told a wrong model, save, land on the calibration, and size it on another machine.

The extracts are REDP-5320 Figures 6 and 10 (tests/data/rmf/); the values checked on screen are
the ones the figures print.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.db import connections

from tests.sizing.test_ui_browser import CHROMIUM, CHROMIUM_ARGS, LOCAL_HOSTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DATA = Path(__file__).resolve().parents[1] / "data" / "rmf"


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    from django.contrib.auth import get_user_model
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)"
    call_command("load_benchmarks", verbosity=0)  # TransactionTestCase flushed the session's data
    get_user_model().objects.create_user(username="presales", password="sizing-pass-9")
    connections.close_all()  # no ORM under Playwright's event loop (see test_ui_browser.py)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        pg = context.new_page()
        pg.requests = []  # type: ignore[attr-defined]
        pg.errors = []  # type: ignore[attr-defined]
        pg.on("request", lambda r: pg.requests.append(r.url))
        pg.on("pageerror", lambda e: pg.errors.append(str(e)))
        pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" and "400" not in m.text else None)
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


def test_paste_read_fix_and_save_an_rmf_calibration_then_size_it_elsewhere(live_server: Any, page: Any) -> None:
    text = (DATA / "cicsts53_figure6.txt").read_text(encoding="utf-8") + (DATA / "cicsts53_figure10.txt").read_text(
        encoding="utf-8"
    )
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Your data").click()
    page.get_by_role("link", name="New calibration").click()
    page.get_by_label("Report text").fill(text)
    page.get_by_role("button", name="Read").click()

    # What was read: both sections with the figures' values (Figure 6 END/S 1059.11, CP 10.16;
    # Figure 10 END/S 174624.3, CP 1499.4, MOBILE 648.53).
    page.wait_for_selector("#section-table:not([hidden]) tbody tr")
    rows = page.locator("#section-table tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).inner_text().split("\t")[:3] == ["report class CICSTORS", "1,059.11", "10.16"]
    assert rows.nth(1).inner_text().split("\t")[:3] == ["workload CICSCPU", "174,624.30", "1,499.40"]
    assert rows.nth(1).inner_text().split("\t")[6] == "648.53"
    assert page.get_by_label("Interval 2 ETR").input_value() == "174624.3"
    assert page.get_by_label("Interval 2 CPU %").input_value() == "1499.4"
    assert page.get_by_role("status").first.inner_text() == "2 intervals read."

    # Fix one value, then save with a model the capacity table does not have: told next to the field.
    page.get_by_label("Interval 2 response ms").fill("2")
    page.get_by_label("Name").fill("Retail kiosks, promotion day")
    page.get_by_label("Workload path").select_option("cicsts-catalog")
    page.get_by_label("Current model").fill("2964-000")
    page.get_by_role("button", name="Save calibration").click()
    page.wait_for_selector("#err-model:not([hidden])")
    assert "not a model of the capacity table" in page.locator("#err-model").inner_text()
    assert page.locator("#f-model").get_attribute("aria-invalid") == "true"

    page.get_by_label("Current model").fill("2964-718")
    page.get_by_role("button", name="Save calibration").click()
    page.wait_for_url(re.compile(r"/calibrations/\d+/$"))
    calibration_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    assert page.locator("#data-origin").inner_text() == "customer data"
    stored = page.request.get(f"{live_server.url}/api/v1/calibrations/{calibration_id}/").json()
    assert [i["etr"] for i in stored["intervals"]] == [1059.11, 174624.3]
    assert stored["intervals"][1]["response_time_ms"] == 2  # the fixed value
    assert stored["model"] == "2964-718" and stored["cps"] == 18

    # We run this today on a z13: size the same work on a z16 at 200,000 TPS, ±10 % projection band.
    page.get_by_label("Target machine").select_option("z16")
    page.get_by_label("Target rate").fill("200000")
    page.get_by_role("button", name="Size on this machine").click()
    page.wait_for_url("**/size/?*")
    page.wait_for_function("() => document.querySelector('[data-kpi=\"cps_required\"]').textContent.trim() !== '—'")
    shown = page.locator('[data-kpi="cps_required"]').inner_text()
    api = page.request.get(
        f"{live_server.url}/api/v1/estimate",
        params={"calibration": str(calibration_id), "machine": "z16", "tps": "200000", "projection_band": "0.1"},
    )
    assert api.ok, api.text()
    assert int(shown) == api.json()["cps_required"]
    assert api.json()["basis"]["data_origin"] == "customer"
    assert page.get_by_label("Projection band").input_value() == "0.1"

    assert [u for u in page.requests if urlsplit(u).hostname not in LOCAL_HOSTS and not u.startswith("data:")] == []
    assert page.errors == []
