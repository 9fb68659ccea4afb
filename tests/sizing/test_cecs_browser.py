"""Your machines (/cecs/) in headless Chromium (issue 29): a machine entered by hand and one read
from a pasted RMF Partition Data Report (checked and fixed before saving), saved, a workload
placed into an LPAR, the machine drawn as pools and LPARs, the verdict and the changes, the PDF,
CSV and XLSX downloads, the page at a phone's 390 px, and axe-core's accessibility rules."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest

from tests.sizing.test_ui_browser import at_width, page  # noqa: F401 (the logged-in page fixture)

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

RMF = Path(__file__).resolve().parents[1] / "data" / "rmf" / "partition_data_z15_three_lpars.txt"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _lpar_cell(pg: Any, row: int, name: str) -> Any:
    return pg.locator("#lpar-table tbody tr").nth(row).locator(f'[name="{name}"]')


def _save(pg: Any) -> None:
    pg.get_by_role("button", name="Save the machine").click()
    pg.wait_for_url(re.compile(r"\?cec=\d+$"))
    pg.wait_for_selector("#cec-chart .main-svg")


def test_a_machine_by_hand_placed_drawn_and_downloaded(page: Any, live_server: Any) -> None:  # noqa: F811
    pg = page
    pg.goto(f"{live_server.url}/cecs/")
    # By hand: the form starts with the three LPARs of docs/cec.md; a bad weight answers in place.
    pg.fill("#c-name", "Production z15")
    pg.fill("#c-model", "8561-710")
    _lpar_cell(pg, 0, "cp_weight").fill("0")
    pg.get_by_role("button", name="Save the machine").click()
    error = pg.locator("#cec-errors")
    error.wait_for(state="visible")
    assert "weight" in error.inner_text() and "lpars 1" in error.inner_text()
    assert "?cec=" not in pg.url
    _lpar_cell(pg, 0, "cp_weight").fill("700")
    _save(pg)
    # The machine by its product name (benchmarks/machines.yaml), never its slug.
    assert pg.locator("#cec-view .lead").inner_text().startswith("8561-710 (IBM z15 T01): 10 CPs, 4 zIIPs; as of ")
    shares = pg.locator("#share-table tbody").inner_text()
    assert "PROD" in shares and "7.00" in shares and "7 / 0 / 1" in shares

    # Place z/OS Connect at 2,000 TPS into PROD (the form's first workload).
    pg.select_option("#p-lpar", "PROD")
    pg.get_by_role("button", name="Place").click()
    pg.wait_for_selector("#place-answer:not([hidden])")
    sentence = pg.locator("#place-sentence").inner_text()
    assert "does not fit in PROD" in sentence and "2,000 TPS" in sentence and "85%" in sentence
    rows = pg.locator("#place-table tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).locator("th").inner_text() == "CPs" and rows.nth(1).locator("th").inner_text() == "zIIPs"
    assert "the CEC's engines" in rows.nth(0).inner_text()
    changes = pg.locator("#place-changes li").all_inner_texts()
    # docs/cec.md's worked example (computed from the API by tests/sizing/test_cec_doc.py)
    assert changes[0].startswith("Add 11 zIIPs: 15 zIIPs") and changes[1].startswith("Add 8 CPs: 8561-718")
    after = pg.locator("#place-after").inner_text()
    assert after == "With the first change (Add 11 zIIPs: 15 zIIPs, with 12 logical zIIPs for PROD) the work fits."
    # The chart: each LPAR of each pool with busy today, added demand, headroom and its share.
    legend = pg.locator("#cec-chart .legendtext").all_text_contents()
    assert sorted(legend) == sorted(["Busy today", "Added demand", "Headroom to 85% of the share", "Guaranteed share"])
    labels = pg.locator("#cec-chart .ytick text").all_text_contents()
    assert "PROD · CPs" in labels and "DEV · zIIPs" in labels

    # The downloads answer 200 with their file.
    for button, kind in (("place-pdf", "application/pdf"), ("place-csv", "text/csv"),
                         ("place-xlsx", "spreadsheetml")):  # fmt: skip
        with pg.expect_response(lambda r: "/place/?format=" in r.url) as info:
            with pg.expect_download():
                pg.click(f"#{button}")
        assert info.value.status == 200 and kind in info.value.headers["content-type"]
        if button == "place-pdf":
            (ARTIFACTS / "cecs-placement.pdf").parent.mkdir(exist_ok=True)
            (ARTIFACTS / "cecs-placement.pdf").write_bytes(info.value.body())
    assert pg.locator("#place-errors").is_hidden()

    ARTIFACTS.mkdir(exist_ok=True)
    at_width(pg, 1440, 900)
    pg.screenshot(path=str(ARTIFACTS / "cecs-1440.png"), full_page=True)
    at_width(pg, 390, 844)
    pg.screenshot(path=str(ARTIFACTS / "cecs-390.png"), full_page=True)
    width = pg.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"/cecs/ is {width} px wide at 390 px"
    # The one console error is the 400 of the weight of 0 above, answered in the form.
    assert pg.errors == ["Failed to load resource: the server responded with a status of 400 (Bad Request)"]


def test_a_machine_read_from_rmf_checked_fixed_and_saved(page: Any, live_server: Any) -> None:  # noqa: F811
    pg = page
    pg.goto(f"{live_server.url}/cecs/")
    pg.fill("#c-rmf", "NOT A REPORT")
    pg.get_by_role("button", name="Read the report").click()
    pg.locator("#cec-errors").wait_for(state="visible")
    assert "text" in pg.locator("#cec-errors").inner_text()
    pg.fill("#c-rmf", RMF.read_text(encoding="utf-8"))
    pg.get_by_role("button", name="Read the report").click()
    pg.wait_for_function("() => document.getElementById('cec-status').textContent.startsWith('Read 3 LPARs')")
    assert pg.locator("#cec-errors").is_hidden()
    assert "10 CPs installed" in pg.locator("#cec-status").inner_text()
    assert [_lpar_cell(pg, i, "name").input_value() for i in range(3)] == ["PROD", "TEST", "DEV"]
    assert _lpar_cell(pg, 0, "cp_logical").input_value() == "8"
    assert _lpar_cell(pg, 0, "cp_weight").input_value() == "700"
    assert float(_lpar_cell(pg, 0, "cp_busy").input_value()) == 61.25
    assert pg.locator("#c-ziips").input_value() == "4"
    # Fix what was read: DEV's CP weight, then save with the model.
    _lpar_cell(pg, 2, "cp_weight").fill("150")
    pg.fill("#c-name", "From RMF")
    pg.fill("#c-model", "8561-710")
    _save(pg)
    shares = pg.locator("#share-table tbody tr").all_inner_texts()
    dev_cp = next(r for r in shares if r.startswith("DEV") and "CPs" in r)
    assert "150" in dev_cp
    # 150 of 1,050 of the 10 shared CPs: 1.43 engines, within DEV's 2 logical CPs.
    assert f"{150 / 1050 * 10:.2f}" in dev_cp


def test_the_cecs_page_has_no_accessibility_violations(page: Any, live_server: Any) -> None:  # noqa: F811
    from axe_playwright_python.sync_playwright import Axe

    pg = page
    pg.goto(f"{live_server.url}/cecs/")
    _save(pg)
    pg.get_by_role("button", name="Place").click()
    pg.wait_for_selector("#place-answer:not([hidden])")
    violations = Axe().run(pg).response["violations"]
    assert [(v["id"], v["impact"], len(v["nodes"]), v["nodes"][0]["target"]) for v in violations] == []


def test_a_workload_past_its_software_limit_is_the_reason_not_a_change(page: Any, live_server: Any) -> None:  # noqa: F811
    # FiTeq multi-region at 9,000 TPS: past the rate its own software station carries within the
    # ceiling (the API's software_limits, from the engine), whatever the LPAR's share; the page gives
    # that as the reason, and every pool's row says what binds.
    pg = page
    pg.goto(f"{live_server.url}/cecs/")
    pg.fill("#c-name", "Big z15")
    pg.fill("#c-model", "8561-720")
    _save(pg)
    pg.select_option("#p-lpar", "PROD")
    row = pg.locator("#place-workloads tbody tr").nth(0)
    row.locator('[name="path"]').select_option("fiteq-authenticator")
    row.locator('[name="configuration"]').select_option("multi-region")
    row.locator('[name="tps"]').fill("9000")
    with pg.expect_response(lambda r: "/place/" in r.url) as info:
        pg.get_by_role("button", name="Place").click()
    answer = info.value.json()
    pg.wait_for_selector("#place-answer:not([hidden])")
    (limit,) = answer["software_limits"]
    sentence = pg.locator("#place-sentence").inner_text()
    assert "does not fit in PROD" in sentence and "9,000 TPS" in sentence
    assert f"carries at most {math.floor(limit['limit']):,} TPS" in sentence  # the ceiling x its saturation
    assert f"saturates at {limit['saturation']:,.0f} TPS" in sentence
    assert "more instances or regions do." in sentence and "fiteq-authenticator" not in sentence
    rows = pg.locator("#place-table tbody tr")
    assert all("the workload's software limit" in rows.nth(i).inner_text() for i in range(rows.count()))
    changes = pg.locator("#place-changes li").all_inner_texts()
    assert changes == [c["sentence"] for c in answer["changes"] if c["kind"] != "software-limit"]
    heading = pg.locator("#place-changes-heading")
    assert heading.is_visible() == bool(changes)
    assert heading.inner_text() == "Changes the pools need besides, cheapest first"  # not "that make it fit"
    ARTIFACTS.mkdir(exist_ok=True)
    at_width(pg, 1440, 900)
    pg.screenshot(path=str(ARTIFACTS / "cecs-software-limit-1440.png"), full_page=True)
    at_width(pg, 390, 844)
    pg.screenshot(path=str(ARTIFACTS / "cecs-software-limit-390.png"), full_page=True)
    assert pg.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert pg.errors == []
