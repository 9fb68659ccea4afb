"""The plan workbench in headless Chromium (Debian's ``/usr/bin/chromium``, Playwright's sync API,
pytest-django's ``live_server``): build the issue's plan, find the chart, the tables and the PDF
link, and read the recommendation back from the PDF with pdftotext.  A 1280x900 screenshot goes
to ``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from tests.sizing.test_ui_browser import ARTIFACTS, _non_local, page  # noqa: F401 (the signed-in page fixture)

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_build_the_plan_in_the_workbench_and_read_the_recommendation_from_its_pdf(
    live_server: Any,
    page: Any,  # noqa: F811 (the fixture imported above)
    tmp_path: Any,
) -> None:
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Plans").click()
    page.get_by_label("Name").fill("API layer and CICS")
    page.get_by_label("Horizon").fill("5")
    rows = page.locator("#workload-table tbody tr")
    rows.nth(1).wait_for()
    assert rows.count() == 2, page.errors  # the example: z/OS Connect and CICS TS V5.3
    first, second = rows.nth(0), rows.nth(1)
    first.get_by_label("Path", exact=True).select_option("zosconnect-cics")
    first.get_by_label("Configuration").select_option("channel")
    first.get_by_label("Average TPS").fill("2000")
    first.get_by_label("Peak over average").fill("1.5")
    first.get_by_label("Growth, % a year").fill("25")
    second.get_by_label("Path", exact=True).select_option("cicsts-catalog")
    second.get_by_label("Configuration").select_option("v5.3")
    second.get_by_label("Average TPS").fill("60000")
    second.get_by_label("Peak over average").fill("1.3")
    second.get_by_label("Growth, % a year").fill("10")
    page.get_by_label("Models").fill("3931-708, 3931-710, 9175-708, 9175-710")
    page.get_by_role("button", name="Evaluate the plan").click()

    # The chart: stacked bars per workload (CPs and zIIPs) and the capacity lines.
    page.wait_for_selector("#plan-chart .main-svg")
    assert page.locator("#plan-chart .barlayer .trace").count() == 4
    assert page.locator("#plan-chart .scatterlayer .trace").count() == 3
    # The legend names each workload by its product's and configuration's names, never its slugs
    # (the seeds' names, read in a thread: Playwright's loop makes this one async to Django).
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    from sizing.models import Configuration

    slugs = ("zosconnect-cics/channel", "cicsts-catalog/v5.3")

    def names() -> list[str]:
        try:
            rows = [
                Configuration.objects.select_related("path").get(path__slug=p, slug=c)
                for p, c in (s.split("/") for s in slugs)
            ]
            return [f"{row.path.name}, {row.name}" for row in rows]
        finally:
            connection.close()  # the thread's own connection

    with ThreadPoolExecutor(1) as pool:
        expected = pool.submit(names).result()
    legend = page.evaluate("() => document.getElementById('plan-chart').data.map((t) => t.name)")
    assert all(f"{name} · CPs" in legend for name in expected), legend
    assert not any(slug in name for slug in slugs for name in legend), legend
    # The tables: a row per candidate (4 models + z16 and z17), a row per candidate and year.
    assert page.locator("#runout-table tbody tr").count() == 6
    assert page.locator("#period-table tbody tr").count() == 6 * 5
    sentence = page.locator("#plan-recommendation").inner_text()
    assert sentence.startswith("Buy ")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "plan-workbench.png"), full_page=True)

    link = page.get_by_role("link", name="PDF proposal")
    response = page.request.get(link.get_attribute("href"))
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    pdf = tmp_path / "plan.pdf"
    pdf.write_bytes(response.body())
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, check=True, text=True).stdout
    assert sentence in " ".join(text.split())
    assert page.get_by_role("link", name="CSV table").get_attribute("href").endswith("/result.csv")

    # The plan is stored: reopened from "Your plans", it draws the same answer.
    page.goto(f"{live_server.url}/plans/")
    page.get_by_role("link", name="API layer and CICS").click()
    page.wait_for_selector("#plan-chart .main-svg")
    assert page.locator("#plan-recommendation").inner_text() == sentence
    assert not page.errors, page.errors
    assert not _non_local(page.requests)
