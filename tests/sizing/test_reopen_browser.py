"""Pages keep their question (issue 30, item 5), in headless Chromium against pytest-django's
``live_server`` with a real worker: a plan, a saved estimate and a job, each made with inputs
that are not the page's defaults, reopened show every one of their own inputs and none of the
built-in example's; the mix builder adds what is typed, not the answer on screen.  Screenshots of
the reopened pages at 1440 and 390 px go to ``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.sizing.test_ui_browser import ARTIFACTS, at_width, page  # noqa: F401 (the signed-in page fixture)

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

#: The plan page's built-in example (frontend/static/zsizer/plans.js and templates/sizing/plans.html).
PLAN_EXAMPLE_NAME = "API layer and CICS, 5 years"
PLAN_EXAMPLE_MODELS = "3931-708, 3931-710, 9175-708, 9175-710"

#: A plan that differs from the example in every input the form has.
PLAN_WORKLOADS = [
    ("fiteq-authenticator", "single-region", "3210", "1.4", "12"),
    ("cicstg", "ipic-channel-64", "1500", "1.1", "5"),
    ("cicsts-catalog", "v5.2", "4567", "1.25", "3"),
]


def _shots(pg: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in ((1440, 900), (390, 844)):
        at_width(pg, width, height)
        pg.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
        if width == 390:
            scroll = pg.evaluate("() => document.documentElement.scrollWidth")
            assert scroll <= 390, f"{name} is {scroll} px wide at 390 px"
    pg.set_viewport_size({"width": 1280, "height": 800})


def test_a_reopened_plan_shows_its_own_inputs_and_answer(live_server: Any, page: Any) -> None:  # noqa: F811
    page.goto(f"{live_server.url}/plans/")
    rows = page.locator("#workload-table tbody tr")
    rows.nth(1).wait_for()
    page.get_by_label("Name").fill("Three paths, quarterly")
    page.get_by_label("Horizon").fill("6")
    page.get_by_label("Periods").select_option("quarter")
    page.get_by_label("CP ceiling").fill("0.8")
    page.get_by_role("button", name="Add workload").click()
    assert rows.count() == 3
    for i, (path, config, tps, peak, growth) in enumerate(PLAN_WORKLOADS):
        row = rows.nth(i)
        row.get_by_label("Path", exact=True).select_option(path)
        row.get_by_label("Configuration").select_option(config)
        row.get_by_label("Average TPS").fill(tps)
        row.get_by_label("Peak over average").fill(peak)
        row.get_by_label("Growth, % a year").fill(growth)
    page.get_by_label("Models").fill("3931-710")
    page.locator('[name="generations"][value="z16"]').uncheck()
    page.locator('[name="generations"][value="z17"]').check()
    page.get_by_role("button", name="Evaluate the plan").click()
    page.wait_for_selector("#plan-chart .main-svg")
    sentence = page.locator("#plan-recommendation").inner_text()
    assert page.locator("#runout-table tbody tr").count() == 2  # 3931-710 and z17

    # Reopened from "Your plans" (a fresh page: nothing kept in the browser's memory).
    page.goto(f"{live_server.url}/plans/")
    page.get_by_role("link", name="Three paths, quarterly").click()
    page.wait_for_url(re.compile(r"/plans/\?plan=\d+$"))
    page.wait_for_selector("#plan-chart .main-svg")
    assert page.get_by_label("Name").input_value() == "Three paths, quarterly"
    assert page.get_by_label("Horizon").input_value() == "6"
    assert page.get_by_label("Periods").input_value() == "quarter"
    assert page.get_by_label("CP ceiling").input_value() == "0.8"
    assert rows.count() == 3
    for i, (path, config, tps, peak, growth) in enumerate(PLAN_WORKLOADS):
        row = rows.nth(i)
        assert row.get_by_label("Path", exact=True).input_value() == path
        assert row.get_by_label("Configuration").input_value() == config
        assert row.get_by_label("Average TPS").input_value() == tps
        assert row.get_by_label("Peak over average").input_value() == peak
        assert row.get_by_label("Growth, % a year").input_value() == growth
    assert page.get_by_label("Models").input_value() == "3931-710"
    checked = page.eval_on_selector_all('[name="generations"]:checked', "els => els.map((e) => e.value)")
    assert checked == ["z17"]
    # Its own answer, and nothing of the example's question above it.
    assert page.locator("#plan-recommendation").inner_text() == sentence
    assert page.locator("#runout-table tbody tr").count() == 2
    assert PLAN_EXAMPLE_NAME not in page.get_by_label("Name").input_value()
    assert page.get_by_label("Models").input_value() != PLAN_EXAMPLE_MODELS
    tps_shown = [rows.nth(i).get_by_label("Average TPS").input_value() for i in range(rows.count())]
    assert "2000" not in tps_shown and "60000" not in tps_shown
    for name, ext in (("PDF proposal", "/report.pdf"), ("CSV table", "/result.csv"), ("XLSX workbook", "/result.xlsx")):
        href = page.get_by_role("link", name=name).get_attribute("href")
        assert href.endswith(ext), href
        assert page.request.get(href).status == 200
    _shots(page, "plan-reopened")
    assert not page.errors, page.errors


#: A saved estimate with every optional input the workbench has given (CICS TS: cics_regions and
#: lpar_overhead apply), on a sub-capacity model.
ESTIMATE = {
    "path": "cicsts-catalog",
    "configuration": "v5.3",
    "model": "3931-506",
    "tps": "9000",
    "ziips": "2",
    "max_utilization": "0.8",
    "payload_bytes": "1000",
    "response_time_sla_ms": "40",
    "projection_band": "0.1",
    "lpar_overhead": "0.2",
    "smt2_factor": "1.2",
    "cics_regions": "9",
    "objective": "least-msu-consumed",
}


def test_a_saved_estimate_opened_in_the_workbench_fills_every_input(live_server: Any, page: Any) -> None:  # noqa: F811
    page.goto(f"{live_server.url}/size/?{urlencode(ESTIMATE)}")
    page.wait_for_function("() => !document.getElementById('result').hidden")
    page.get_by_label("Estimate name").fill("Catalog on a 506")
    page.get_by_role("button", name="Save estimate").click()
    page.get_by_role("link", name=re.compile(r"Saved as estimate #\d+")).click()
    page.wait_for_url(re.compile(r"/estimates/\d+/$"))

    page.get_by_role("link", name="Open in the workbench").click()
    # (a selector, not a script: the click returns once the workbench's page is committed, maybe
    # before #result is parsed, and a script reading it then throws instead of waiting)
    page.wait_for_selector("#result:not([hidden])")
    assert page.locator("#example-note").count() == 0
    form = page.locator("#size-form")
    shown = {name: form.locator(f'[name="{name}"]').input_value() for name in ESTIMATE}
    assert shown == {**ESTIMATE, "model": "3931-506"}
    assert form.locator('[name="machine"]').input_value() == "z16"
    assert form.locator('[name="capacity_setting"]').input_value() == "500"
    assert form.locator('[name="cps"]').input_value() == "6"  # the model's CPs
    assert form.locator('[name="name"]').input_value() == "Catalog on a 506"
    assert page.locator("#optional-inputs").get_attribute("open") is not None
    # nothing of the example (FiTeq at 7,000 TPS on the newest machine)
    assert form.locator('[name="path"]').input_value() != "fiteq-authenticator"
    assert "fiteq" not in page.locator("#result-title").inner_text().lower()
    _shots(page, "estimate-reopened")
    assert not page.errors, page.errors


def _size(pg: Any, base: str, inputs: dict[str, str]) -> None:
    pg.goto(f"{base}/size/?{urlencode(inputs)}")
    pg.wait_for_function("() => !document.getElementById('result').hidden")


def _finish_job(pg: Any) -> None:
    pg.get_by_role("button", name="Start").click()
    pg.wait_for_selector('#job-state[data-status="succeeded"]', timeout=120_000)
    pg.wait_for_selector("#job-result:not([hidden])")


def _reopen_last_job(pg: Any, base: str) -> None:
    job_url = pg.locator("#job-state").get_attribute("data-job-url")
    job_id = re.search(r"/jobs/(\d+)/", job_url).group(1)
    pg.goto(f"{base}/size/")
    pg.locator("#recent-jobs").get_by_role("link", name=re.compile(rf"^#{job_id} ")).click()
    pg.wait_for_url(re.compile(rf"/size/\?job={job_id}$"))
    pg.wait_for_selector('#job-state[data-status="succeeded"]')
    pg.wait_for_selector("#job-result:not([hidden])")


def test_a_reopened_montecarlo_job_shows_its_own_params(live_server: Any, page: Any) -> None:  # noqa: F811
    question = {"path": "cicstg", "configuration": "ipic-channel-64", "machine": "z15", "tps": "2500", "cps": "3"}
    _size(page, live_server.url, question)
    page.get_by_text("Monte Carlo", exact=True).click()
    page.get_by_label("Samples").fill("700")
    page.get_by_label("Seed").fill("41")
    _finish_job(page)
    summary = page.locator("#job-summary").inner_text()

    _reopen_last_job(page, live_server.url)
    form = page.locator("#size-form")
    for name, value in question.items():
        assert form.locator(f'[name="{name}"]').input_value() == value, name
    assert page.locator('input[name="kind"]:checked').get_attribute("value") == "montecarlo"
    assert page.get_by_label("Samples").input_value() == "700"
    assert page.get_by_label("Seed").input_value() == "41"
    assert page.locator("#job-summary").inner_text() == summary
    assert page.locator("#example-note").count() == 0
    xlsx = page.locator("#job-xlsx").get_attribute("href")
    assert xlsx.endswith("/result.xlsx")
    assert page.request.get(f"{live_server.url}{xlsx}").status == 200
    _shots(page, "job-reopened")
    assert not page.errors, page.errors


def test_the_mix_builder_keeps_what_was_typed_and_reopens_with_it(live_server: Any, page: Any) -> None:  # noqa: F811
    _size(page, live_server.url, {"path": "fiteq-authenticator", "configuration": "multi-region",
                                  "machine": "z16", "tps": "7000"})  # fmt: skip
    page.get_by_text("Workload mix", exact=True).click()
    # Typed, not sized: the answer on screen is still FiTeq multi-region at 7,000 TPS.
    page.get_by_label("Configuration").select_option("single-region")
    page.get_by_label("Target rate").fill("40,000")
    page.get_by_role("button", name="Add the workload above").click()
    items = page.locator("#mix-list li")
    assert items.count() == 1
    # by the product's words (as the selects show them), at the rate typed
    assert items.nth(0).inner_text().startswith("FiTeq Authenticator · Single region, no Validation Log at 40,000 TPS")
    page.get_by_label("Workload path").select_option("cicstg")
    page.get_by_label("Configuration").select_option("ipic-commarea-64")
    page.get_by_label("Target rate").fill("1200")
    page.get_by_role("button", name="Add the workload above").click()
    assert items.count() == 2
    # The job carries those rates, and the page's headroom is the PDF's sentence.
    page.get_by_role("button", name="Size", exact=True).click()
    page.wait_for_function("() => !document.getElementById('result').classList.contains('is-stale')")
    _finish_job(page)
    job_url = page.locator("#job-state").get_attribute("data-job-url")
    job = page.request.get(job_url).json()
    assert [(w["configuration"], w["tps"]) for w in job["params"]["workloads"]] == [
        ("single-region", 40000),
        ("ipic-commarea-64", 1200),
    ]
    headroom = job["display"]["headroom"]
    assert headroom.startswith("Headroom ×") and headroom in page.locator("#job-summary").inner_text()
    # The result table in the PDF's words (display.table): product names, headers with units
    heads = page.locator("#job-table th").all_text_contents()  # (the table may sit folded)
    assert heads == job["display"]["table"]["columns"] and "Busy CPs" in heads and "CPU per transaction, ms" in heads
    assert not [h for h in heads if "_" in h], heads
    assert str(page.locator("#job-table td").first.text_content()).startswith("FiTeq Authenticator")
    # The chart names each workload by its product's words and the z16's specialty engine (zIIP,
    # the result's specialty_engine), never a configuration's slug.
    assert job["result"]["specialty_engine"] == "zIIP"
    chart = page.evaluate("() => document.getElementById('job-chart-a').data.map((t) => ({name: t.name, x: t.x}))")
    assert [t["name"] for t in chart] == ["on CPs", "on zIIPs"]
    assert chart[0]["x"][0] == "FiTeq Authenticator · Single region, no Validation Log · 40,000 TPS"
    assert not any("ipic-commarea-64" in x for x in chart[0]["x"])

    _reopen_last_job(page, live_server.url)
    assert page.locator('input[name="kind"]:checked').get_attribute("value") == "mix"
    texts = [t.split(" TPS")[0] for t in items.all_inner_texts()]
    assert texts[0] == "FiTeq Authenticator · Single region, no Validation Log at 40,000"
    assert texts[1].startswith("CICS Transaction Gateway") and texts[1].endswith(" at 1,200") and len(texts) == 2
    form = page.locator("#size-form")
    assert form.locator('[name="configuration"]').input_value() == "single-region"  # its first workload
    assert form.locator('[name="tps"]').input_value() == "40000"
    assert headroom in page.locator("#job-summary").inner_text()
    assert not page.errors, page.errors


def test_a_reopened_closed_network_job_shows_its_populations_without_a_rate(live_server: Any, page: Any) -> None:  # noqa: F811
    question = {"path": "cicstg", "configuration": "ipic-channel-64", "machine": "z15", "tps": "2500", "cps": "3"}
    _size(page, live_server.url, question)
    page.get_by_text("Closed network", exact=True).click()
    page.locator("#j-clients").fill("50, 500, 5000")
    page.locator("#j-think_time_s").fill("2.5")
    page.locator("#j-cps").fill("3")
    _finish_job(page)
    summary = page.locator("#job-summary").inner_text()

    # A closed network has no target rate: the form shows none, the panel stands on its own.
    _reopen_last_job(page, live_server.url)
    form = page.locator("#size-form")
    for name in ("path", "configuration", "machine", "cps"):
        assert form.locator(f'[name="{name}"]').input_value() == question[name], name
    assert form.locator('[name="tps"]').input_value() == ""
    assert page.locator("#jobs").is_visible()
    assert page.locator('input[name="kind"]:checked').get_attribute("value") == "closed"
    assert page.locator("#j-clients").input_value() == "50, 500, 5000"
    assert page.locator("#j-think_time_s").input_value() == "2.5"
    assert page.locator("#j-cps").input_value() == "3"
    assert page.locator("#job-summary").inner_text() == summary
    _shots(page, "closed-job-reopened")
    assert not page.errors, page.errors
