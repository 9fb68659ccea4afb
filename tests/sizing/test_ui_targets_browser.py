"""In headless Chromium: the workbench opens on a current machine, and its model picker reaches any
rated model in a few keystrokes (by machine type, name, setting or model identifier)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.sizing.test_ui_browser import ARTIFACTS, page  # noqa: F401 (the logged-in page fixture)

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _assert_no_axe_violations(page: Any) -> None:  # noqa: F811
    """axe-core (axe-playwright-python, from PyPI) finds nothing on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    violations = Axe().run(page).response["violations"]
    assert [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in violations] == []


def _api(page: Any, url: str, **params: Any) -> Any:  # noqa: F811
    response = page.request.get(f"{url}/api/v1/estimate", params=params)
    assert response.ok, response.text()
    return response.json()


def test_model_picker_reaches_any_model_in_a_few_keystrokes(live_server: Any, page: Any) -> None:  # noqa: F811
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Size").click()
    page.wait_for_selector("#chart-cpu .main-svg")
    # The default target is the current generation: the machine rated fastest per CP (z17).
    machine = page.get_by_label("Target machine")
    default = machine.input_value()
    assert default == "z17", default
    assert page.get_by_label("Capacity setting").input_value() == ""  # full speed

    # "z16 510", Enter: the z16 A01 sub-capacity model 3931-510 (setting 500, 10 CPs).
    box = page.get_by_role("combobox", name="Target model")
    box.click()
    box.press_sequentially("z16 510")
    options = page.get_by_role("listbox", name="Rated models").get_by_role("option")
    options.first.wait_for()
    assert options.first.get_attribute("data-model") == "3931-510"
    box.press("Enter")
    assert box.input_value() == "3931-510"
    assert (machine.input_value(), page.get_by_label("Capacity setting").input_value()) == ("z16", "500")
    assert page.locator("#f-cps").input_value() == "10"
    page.wait_for_function("() => document.getElementById('size-status').textContent.startsWith('Updated')")
    page.wait_for_selector("#capacity-gauge:not([hidden])")
    assert "3931-510" in page.locator("#capacity-gauge").inner_text()
    assert "model=3931-510" in page.url

    # The answer on screen is the API's for the model.
    example = {"path": "fiteq-authenticator", "configuration": "multi-region", "tps": 7000}
    api = _api(page, live_server.url, **example, model="3931-510")
    assert page.locator('[data-kpi="cps_required"]').inner_text().startswith(("Overloaded", str(api["cps_required"])))

    # Which model fits (the two newest generations): the API's rows, the cheapest marked.
    page.get_by_role("button", name="Which model fits?").click()
    page.wait_for_selector("#fit-result table")
    fit = page.request.get(f"{live_server.url}/api/v1/fit", params=example).json()
    marked = page.locator("#fit-result tr[data-cheapest='true']")
    assert marked.get_attribute("data-model") == fit["cheapest"]
    assert "cheapest in MSU" in marked.inner_text()
    # Each generation's cheapest is marked too (the two newest generations: z17 and z16).
    per_gen = page.locator("#fit-result tr.is-cheapest").evaluate_all("rows => rows.map(r => r.dataset.model)")
    assert per_gen == [r["model"] for r in fit["rows"] if r["cheapest_in_generation"]]
    shown = set(page.locator("#fit-result tbody tr").evaluate_all("rows => rows.map(r => r.dataset.model)"))
    assert shown == {r["model"] for r in fit["rows"] if r["fits"]}
    # Today's model beside the newest machines.
    page.get_by_role("button", name="Compare with the newest machines").click()
    page.wait_for_selector("#upgrade-result table")
    heads = page.locator("#upgrade-result thead th").evaluate_all("ths => ths.map(t => t.textContent)")
    assert heads[1:] == ["Today (3931-510)", "IBM z17 ME1", "IBM z16 A01"]
    assert "not published" in page.locator("#upgrade-result").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#targets-panel").screenshot(path=str(ARTIFACTS / "other-machines.png"))
    # An edit clears them (they belong to the answer's inputs); "use" a fitting model.
    page.get_by_label("Target rate").fill("6000")
    page.wait_for_selector("#fit-result table", state="detached")
    page.get_by_label("Target rate").fill("7000")
    page.get_by_role("button", name="Size", exact=True).click()
    page.wait_for_function("() => document.getElementById('size-status').textContent.startsWith('Updated')")
    page.get_by_role("button", name="Which model fits?").click()
    page.get_by_role("button", name=f"Size on {fit['cheapest']}").click()
    page.wait_for_function(f"() => document.querySelector('#capacity-gauge').innerText.includes('{fit['cheapest']}')")
    assert box.input_value() == fit["cheapest"]

    # A midrange model by type and setting: "9176 d05".
    box.fill("")
    box.press_sequentially("9176 d05")
    page.wait_for_selector("#model-option-0[data-model='9176-D05']")
    box.press("Enter")
    assert (machine.input_value(), page.get_by_label("Capacity setting").input_value()) == ("z17-9176", "D00")
    page.wait_for_function("() => document.querySelector('#capacity-gauge').innerText.includes('9176-D05')")

    # By name, then arrows: "z13 7" lists z13 full-speed models; ArrowDown moves to the second.
    box.fill("")
    box.press_sequentially("z13s a0")
    options.first.wait_for()
    assert options.first.get_attribute("data-model") == "2965-A01"
    box.press("ArrowDown")
    box.press("Enter")
    assert box.input_value() == "2965-A02"

    # Choosing a machine by hand leaves the model: the target is the machine, its CPs sized.
    machine.select_option("z16")
    assert box.input_value() == ""
    # An unknown model typed in full is the API's sentence next to the field.
    box.fill("3931-9Z9")
    page.get_by_role("button", name="Size", exact=True).click()
    page.wait_for_selector("#err-model:not([hidden])")
    assert "3931-701..3931-7K0" in page.locator("#err-model").inner_text()

    ARTIFACTS.mkdir(exist_ok=True)
    box.fill("")
    box.press_sequentially("z16 5")
    options.first.wait_for()
    _assert_no_axe_violations(page)  # with the list open
    shot = ARTIFACTS / "model-picker.png"
    page.screenshot(path=str(shot))
    print(f"\nscreenshot of the model picker: {shot}")
    unexpected = [e for e in page.errors if "status of 400" not in e]
    assert unexpected == [], unexpected


def test_lspr_pages_draw_every_machine_and_filter_by_setting(live_server: Any, page: Any) -> None:  # noqa: F811
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Machines", exact=True).click()
    page.wait_for_selector("#chart-lspr .main-svg")
    # Full speed: one line per machine type (12 in the CSV).
    page.wait_for_function("() => document.getElementById('chart-lspr').dataset.traces === '12'")
    assert page.locator("#chart-lspr .scatterlayer .trace").count() == 12
    page.get_by_label("Capacity setting").select_option("5")
    # 5xx sub-capacity: the 4xx..7xx machines only (2097, 2827, 2964, 3906, 3931, 8561, 9175).
    page.wait_for_function("() => document.getElementById('chart-lspr').dataset.traces === '7'")
    page.get_by_label("Measure").select_option("msu")
    page.wait_for_function("() => document.querySelector('#chart-lspr .ytitle').textContent === 'MSU per CP'")
    assert "lspr_zpcr_configuration_summary.csv" in page.locator("#lspr-source").inner_text()
    _assert_no_axe_violations(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lspr.png"), full_page=True)

    page.get_by_role("link", name="IBM z16 A01").click()
    page.wait_for_selector("#chart-lspr .main-svg")
    assert page.locator("#chart-lspr .scatterlayer .trace").count() == 4  # 400, 500, 600, 700
    page.get_by_label("Capacity setting", exact=True).select_option("600")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url("**/reference/lspr/z16/?setting=600")
    assert page.locator("#lspr-models tbody tr").count() == 39  # 3931-601..639
    _assert_no_axe_violations(page)
    page.screenshot(path=str(ARTIFACTS / "lspr-z16.png"), full_page=True)
    print(f"\nscreenshots of the LSPR pages: {ARTIFACTS / 'lspr.png'}, {ARTIFACTS / 'lspr-z16.png'}")
    # "size" on a model opens the workbench on it.
    page.get_by_role("link", name="Size on 3931-606").click()
    page.wait_for_url("**/size/?model=3931-606")
    assert page.get_by_role("combobox", name="Target model").input_value() == "3931-606"
    assert page.get_by_label("Target machine").input_value() == "z16"
    assert page.get_by_label("Capacity setting").input_value() == "600"
    assert page.errors == [], page.errors
