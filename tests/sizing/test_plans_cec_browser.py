"""The Plans page with one of your machines as a candidate, in headless Chromium (Debian's
``/usr/bin/chromium``): pick the machine, the LPAR taking the work and each LPAR's growth,
evaluate, find the machine's run-outs, its table and its chart (each pool stacked by LPAR), the
LPAR table's downloads, and read the machine's section back from the PDF with pdftotext.
Screenshots at 1440 and 390 px go to ``test-artifacts/`` (git-ignored)."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from tests.sizing.test_cecs import EXAMPLE
from tests.sizing.test_ui_browser import ARTIFACTS, _non_local, at_width, page  # noqa: F401 (the signed-in page fixture)

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_choose_one_of_your_machines_as_a_candidate(
    live_server: Any,
    page: Any,  # noqa: F811 (the fixture imported above)
    tmp_path: Any,
) -> None:
    # The machine is stored through the API as the signed-in user (the session and its CSRF token).
    page.goto(f"{live_server.url}/plans/")
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    created = page.request.post(f"{live_server.url}/api/v1/cecs/", data=EXAMPLE, headers={"X-CSRFToken": token})
    assert created.status == 201, created.text()
    page.reload()

    page.get_by_label("Name").fill("CICS into PROD")
    page.get_by_label("Horizon").fill("5")
    rows = page.locator("#workload-table tbody tr")
    rows.nth(1).wait_for()
    rows.nth(1).get_by_role("button", name="Remove").click()
    first = rows.nth(0)
    first.get_by_label("Path", exact=True).select_option("cicsts-catalog")
    first.get_by_label("Configuration").select_option("v5.3")
    first.get_by_label("Average TPS").fill("2000")
    first.get_by_label("Peak over average").fill("1")
    first.get_by_label("Growth, % a year").fill("25")
    page.get_by_label("Models").fill("8561-710")
    checked = page.locator('[name="generations"]:checked')
    while checked.count():
        checked.first.uncheck()
    page.get_by_label("Machine", exact=True).select_option(label="Production z15 (8561-710)")
    page.get_by_label("LPAR taking the work").select_option("PROD")
    page.get_by_label("PROD growth, % a year").fill("10")
    page.get_by_label("TEST growth, % a year").fill("30")
    page.get_by_role("button", name="Evaluate the plan").click()

    answer = page.locator(".machine-answer")
    answer.wait_for()
    assert answer.locator("h3").inner_text() == "Your machine: Production z15 (8561-710), LPAR PROD"
    outs = answer.locator(".run-outs li").all_inner_texts()
    assert [o.split(":")[0] for o in outs] == ["PROD", "TEST", "DEV", "The CEC"]
    assert outs[1].startswith("TEST: year ")  # 1.2 CPs growing 30 % a year pass 85 % of its 2-CP share
    # 5 years x (3 LPARs x 2 pools + the CEC's 2 pools)
    assert answer.locator(".machine-table tbody tr").count() == 5 * 8
    assert page.locator("#runout-table tbody tr").count() == 2
    page.get_by_label("Chart of").select_option(label="Production z15 (8561-710), LPAR PROD")
    page.wait_for_selector("#plan-chart .main-svg")
    assert page.locator("#plan-chart .barlayer .trace").count() == 3 * 2  # each LPAR in each pool
    assert page.get_by_role("link", name="LPARs as CSV").get_attribute("href").endswith("/result.csv?table=lpars")
    ARTIFACTS.mkdir(exist_ok=True)
    at_width(page, 1440, 900)
    page.screenshot(path=str(ARTIFACTS / "plan-cec-1440.png"), full_page=True)
    # On a phone: the stored plan reopened at 390 px (its chart drawn at that width) fits.
    pdf_url = page.get_by_role("link", name="PDF proposal").get_attribute("href")
    plan_id = pdf_url.rstrip("/").split("/")[-2]
    phone = page.context.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(f"{live_server.url}/plans/?plan={plan_id}")
    phone.locator(".machine-answer").wait_for()
    phone.get_by_label("Chart of").select_option(label="Production z15 (8561-710), LPAR PROD")
    phone.wait_for_selector("#plan-chart .main-svg")
    phone.screenshot(path=str(ARTIFACTS / "plan-cec-390.png"), full_page=True)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    chart = phone.locator("#plan-chart").bounding_box()
    assert chart is not None and chart["x"] + chart["width"] <= 390
    phone.close()

    csv = page.request.get(page.get_by_role("link", name="LPARs as CSV").get_attribute("href"))
    assert csv.status == 200 and "All LPARs (the CEC)" in csv.text()
    link = page.get_by_role("link", name="PDF proposal")
    response = page.request.get(link.get_attribute("href"))
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    pdf = tmp_path / "plan.pdf"
    pdf.write_bytes(response.body())
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, check=True, text=True).stdout
    flat = " ".join(text.split())
    assert "Your machine: Production z15 (8561-710), LPAR PROD" in flat
    for line in outs:
        assert line in flat, line
    assert not page.errors, page.errors
    assert not _non_local(page.requests)


def test_a_bad_machine_candidate_is_named_beside_the_machine(
    live_server: Any,
    page: Any,  # noqa: F811
) -> None:
    page.goto(f"{live_server.url}/plans/")
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    created = page.request.post(f"{live_server.url}/api/v1/cecs/", data=EXAMPLE, headers={"X-CSRFToken": token})
    assert created.status == 201, created.text()
    page.reload()
    page.get_by_label("Machine", exact=True).select_option(label="Production z15 (8561-710)")
    page.get_by_label("DEV growth, % a year").fill("-5")
    page.get_by_role("button", name="Evaluate the plan").click()
    error = page.locator("#err-machine")
    error.wait_for()
    assert error.inner_text().startswith("lpar_growth DEV: ")
    assert page.locator("#plan-answer").is_hidden()


def test_a_new_lpar_takes_the_work_from_the_page(
    live_server: Any,
    page: Any,  # noqa: F811
) -> None:
    # "A new LPAR" in the LPAR list: its name, logical CPs and zIIPs and their weights go to the
    # API as the candidate's lpar (as POST /api/v1/plans/ takes it); the stored plan has them, the
    # answer names the new LPAR, and the plan reopened fills them back.
    page.goto(f"{live_server.url}/plans/")
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    created = page.request.post(f"{live_server.url}/api/v1/cecs/", data=EXAMPLE, headers={"X-CSRFToken": token})
    assert created.status == 201, created.text()
    page.reload()
    page.get_by_label("Name").fill("CICS into a new LPAR")
    page.get_by_label("Horizon").fill("3")
    page.get_by_label("Models").fill("8561-710")
    checked = page.locator('[name="generations"]:checked')
    while checked.count():
        checked.first.uncheck()
    page.get_by_label("Machine", exact=True).select_option(label="Production z15 (8561-710)")
    assert page.locator("#machine-new-lpar").is_hidden()
    page.get_by_label("LPAR taking the work").select_option(label="A new LPAR")
    page.get_by_label("New LPAR").fill("web")
    page.get_by_label("Logical CPs").fill("3")
    page.get_by_label("CP weight").fill("150")
    page.get_by_label("Logical zIIPs").fill("2")
    page.get_by_label("zIIP weight").fill("120")
    page.get_by_role("button", name="Evaluate the plan").click()
    answer = page.locator(".machine-answer")
    answer.wait_for()
    assert answer.locator("h3").inner_text() == "Your machine: Production z15 (8561-710), new LPAR WEB"
    outs = answer.locator(".run-outs li").all_inner_texts()
    assert [o.split(":")[0] for o in outs] == ["PROD", "TEST", "DEV", "WEB", "The CEC"]
    plan_id = page.get_by_role("link", name="PDF proposal").get_attribute("href").rstrip("/").split("/")[-2]
    stored = page.request.get(f"{live_server.url}/api/v1/plans/{plan_id}/").json()
    (machine,) = [c for c in stored["inputs"]["candidates"] if c.get("kind") == "cec"]
    new = machine["new_lpar"]
    assert (machine["lpar"], new["name"], new["cp"]["logical"], new["cp"]["weight"]) == ("WEB", "WEB", 3, 150)
    assert (new["ziip"]["logical"], new["ziip"]["weight"]) == (2, 120)
    page.goto(f"{live_server.url}/plans/?plan={plan_id}")
    page.locator(".machine-answer").wait_for()
    assert page.get_by_label("Machine", exact=True).input_value() == str(created.json()["id"])
    assert page.locator("#machine-new-lpar").is_visible()
    assert [page.get_by_label(x).input_value() for x in ("New LPAR", "Logical CPs", "CP weight", "Logical zIIPs",
                                                          "zIIP weight")] == ["WEB", "3", "150", "2", "120"]  # fmt: skip
    assert not page.errors, page.errors
