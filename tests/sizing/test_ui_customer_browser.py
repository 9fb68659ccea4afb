"""In headless Chromium: an overloaded answer beyond a software limit (charts drawn, advice that
proposes no CPs) and an answer without CPU data (no actions that produce nothing), issue 30.  Every
page at a phone's 390 px: tests/sizing/test_ui_every_page_browser.py."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.sizing.test_ui_browser import page  # noqa: F401 (the logged-in page fixture)

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

#: 2 CPs of a z16 A01 at 20,000 TPS: overloaded, and beyond FiTeq's software station.
OVERLOADED = {
    "path": "fiteq-authenticator",
    "configuration": "multi-region",
    "machine": "z16",
    "cps": "2",
    "tps": "20000",
}
NO_CPU = {"path": "hostbridge-http", "configuration": "tuned-tcpip", "machine": "z16", "tps": "1000"}


def _answer(pg: Any, base: str, inputs: dict[str, str]) -> None:
    pg.goto(f"{base}/size/?{urlencode(inputs)}")
    pg.wait_for_function(
        "() => !document.getElementById('results').hidden && document.getElementById('result-title').textContent.length > 0"
    )


def test_overloaded_beyond_the_software_limit(page: Any, live_server: Any) -> None:  # noqa: F811
    _answer(page, live_server.url, OVERLOADED)
    page.wait_for_function("() => document.querySelectorAll('#chart-cpu .scatterlayer .trace').length >= 2")
    assert page.locator("#chart-cpu .chart-empty").count() == 0
    assert page.locator("#chart-response .chart-empty").count() == 0
    advice = page.locator("#advice")
    assert advice.is_visible()
    text = advice.inner_text()
    # the advice says that more CPs do not help; the card (since issue 32's one predicate, 2 CPs
    # given past the software limit do not fit) proposes no count of CPs either
    assert "software limit" in text and "more cps do not help" in text.lower()
    card = page.locator('[data-kpi-sub="cps_required"]').inner_text()
    assert "does not fit" in card and "needs" not in card and "in all" not in card


def test_no_cpu_data_offers_no_empty_actions(page: Any, live_server: Any) -> None:  # noqa: F811
    _answer(page, live_server.url, NO_CPU)
    assert page.locator("#targets-panel").is_hidden()
    assert page.locator("#jobs").is_hidden()
    assert page.locator("#save-button").is_disabled()


def test_prepared_for_is_typed_once_and_carried_by_every_pdf_link(page: Any, live_server: Any) -> None:  # noqa: F811
    # Issue 30 item 6: a "Prepared for" field beside each PDF link, remembered for the session.
    from django.contrib.auth import get_user_model
    from django.db import connections

    from sizing.services.estimates import estimate_create

    def saved() -> list[Any]:  # in a thread of its own: Playwright's loop runs in this one
        user = get_user_model().objects.get(username="presales")
        inputs = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z16", "tps": 7000.0}
        made = [estimate_create(user=user, inputs={**inputs, "tps": t}) for t in (7000.0, 4000.0)]
        connections.close_all()
        return made

    with ThreadPoolExecutor(1) as pool:
        a, b = pool.submit(saved).result()
    page.goto(f"{live_server.url}/estimates/{a.pk}/")
    field = page.get_by_label("Prepared for")
    field.fill("Bank A & Co")
    link = page.get_by_role("link", name="Download PDF")
    with page.expect_download() as download:
        link.click()
    assert "customer=Bank+A+%26+Co" in link.get_attribute("href") or "customer=Bank%20A%20%26%20Co" in str(
        link.get_attribute("href")
    )
    assert download.value.suggested_filename == f"zsizer-estimate-{a.pk}.pdf"
    # another page of the same session: the field is filled in, its link carries the customer
    page.goto(f"{live_server.url}/estimates/compare/?id={a.pk}&id={b.pk}")
    assert page.get_by_label("Prepared for").input_value() == "Bank A & Co"
    with page.expect_download():
        page.get_by_role("link", name="Download PDF").click()
    href = page.get_by_role("link", name="Download PDF").get_attribute("href")
    assert "customer=" in href and f"ids={a.pk},{b.pk}" in href.replace("%2C", ",")
    # cleared: the link no longer names anyone
    page.get_by_label("Prepared for").fill("")
    with page.expect_download():
        page.get_by_role("link", name="Download PDF").click()
    assert "customer=" not in page.get_by_role("link", name="Download PDF").get_attribute("href")
