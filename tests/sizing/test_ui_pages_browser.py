"""In headless Chromium: what the customer reads on every page agrees with the API answer.

Three answers, read on the workbench, the saved-estimate page, the comparison and the upgrade
table: z/OS Connect on a z16 (a cost from published bounds: bounds and ranges, a decision
warning), FiTeq on a z17 (a fitted cost model: 95% prediction intervals) and CICS TS on a
sub-capacity z16 (setting 500: a lower-bound response time).  Every expected string is built here
from the API's own numbers (``GET /api/v1/estimate``), with the formatting rule it checks next to
it; then the workbench's manners, one per bullet of the issue.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from frontend.page_corpus import SETTLED
from tests.sizing.test_ui_browser import ARTIFACTS, page  # noqa: F401 (the logged-in page fixture)

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SCENARIOS = {
    "zCEE on z16": {"path": "zosconnect-cics", "configuration": "channel", "machine": "z16", "tps": "3000"},
    "FiTeq on z17": {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z17", "tps": "7000"},
    "CICS TS on z16 5xx": {
        "path": "cicsts-catalog",
        "configuration": "v5.3",
        "machine": "z16",
        "capacity_setting": "500",
        "tps": "3000",
    },
}
#: Engine codes that would betray an internal on a page (hyphenated, so never a plain word).
CODE = re.compile(r"\b[a-z]+(?:-[a-z]+)+\b")


def _api(pg: Any, url: str, params: dict[str, str]) -> dict[str, Any]:
    response = pg.request.get(f"{url}/api/v1/estimate", params=params)
    assert response.ok, response.text()
    return dict(response.json())


def _prediction_interval(api: dict[str, Any]) -> bool:
    # A fitted cost model (basis.model with residuals) carries a 95% prediction interval; bounds do
    # not, nor a range widened by a stated LPAR overhead's range (CICS TS: REDP-5320, 1.114-1.17).
    native = api["basis"].get("native") or {}
    widened = native.get("lpar_factor_low") != native.get("lpar_factor_high")
    return bool((api["basis"].get("model") or {}).get("interval_basis") == "residuals") and not widened


def _expected_cards(api: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """(card value, a part of its sub-line) for each card, from the API answer."""
    out: dict[str, tuple[str, str]] = {}
    low, high = api["ranges"]["cps"]
    words = "95%:" if _prediction_interval(api) else "range"
    # a count, with its interval only when low and high differ
    spread = f"{words} {low:,.0f}\u2013{high:,.0f}" if low is not None and round(low) != round(high) else ""
    out["cps_required"] = (f"{api['cps_required']:,}", spread)
    out["mips"] = (f"{api['mips']:,.0f}", f"{api['msu']:,.0f} MSU on CPs")
    sat = api["saturation_tps"]
    if api["saturation_kind"] == "lower-bound":  # a bound reads as a bound
        out["saturation_tps"] = (f"\u2265 {sat:,.0f} TPS", "lower bound")
    else:
        s_low, s_high = api["ranges"]["saturation_tps"]
        if s_high is None:  # a central value whose range is open above: its low end is a bound
            s_spread = f"range from {s_low:,.0f} (lower bound)"
        else:
            # bound by the software station: a range (its high end may be where the CPs saturate),
            # never the cost model's 95% interval
            s_words = "range" if (api["saturation_binding"] or {}).get("resource") == "software" else words
            s_spread = f"{s_words} {s_low:,.0f}\u2013{s_high:,.0f}" if round(s_low) != round(s_high) else ""
        out["saturation_tps"] = (f"{sat:,.0f} TPS", s_spread)
    rt = api["response_time_ms"]
    if rt["value"] is not None:
        out["response_time_ms"] = (f"{rt['value']:.1f} ms", f"95%: {rt['low']:.1f}\u2013{rt['high']:.1f} ms")
    elif rt["low"] is not None:  # only the time on the CPs is known: a floor, 3 decimals under 1 ms
        out["response_time_ms"] = (f"\u2265 {rt['low']:.3f} ms", "lower bound")
    else:
        out["response_time_ms"] = ("\u2014", "not published")
    return out


def _cards(pg: Any) -> dict[str, tuple[str, str]]:
    return {
        name: (
            " ".join(pg.locator(f'[data-kpi="{name}"]').inner_text().split()),
            " ".join(pg.locator(f'[data-kpi-sub="{name}"]').inner_text().split()),
        )
        for name in ("cps_required", "mips", "saturation_tps", "response_time_ms")
    }


def _assert_cards(pg: Any, api: dict[str, Any], where: str) -> None:
    shown = _cards(pg)
    for name, (value, part) in _expected_cards(api).items():
        assert shown[name][0] == value, (where, name, shown[name])
        assert part in shown[name][1], (where, name, shown[name])
        assert "95%" not in shown[name][1] or _prediction_interval(api), (where, name, shown[name])


def _levels(pg: Any, scope: str) -> list[tuple[str, str]]:
    return [
        tuple(x)
        for x in pg.locator(f"{scope} li[data-level]").evaluate_all(
            "els => els.map(e => [e.dataset.level, e.dataset.code])"
        )
    ]


def _api_levels(api: dict[str, Any]) -> list[tuple[str, str]]:
    order = {"decision": 0, "caveat": 1, "note": 2}
    return sorted(((w["level"], w["code"]) for w in api["warnings"]), key=lambda lc: order[lc[0]])


def _visible_text_has_no_code(pg: Any, selector: str, api: dict[str, Any]) -> None:
    text = pg.locator(selector).evaluate("el => el.innerText")
    codes = {w["code"] for w in api["warnings"] if "-" in w["code"]}
    assert not codes & set(CODE.findall(text)), codes & set(CODE.findall(text))


def test_three_answers_read_the_same_on_every_page(live_server: Any, page: Any) -> None:  # noqa: F811
    saved: dict[str, int] = {}
    apis: dict[str, dict[str, Any]] = {}
    for name, params in SCENARIOS.items():
        api = apis[name] = _api(page, live_server.url, params)
        page.goto(f"{live_server.url}/size/?" + "&".join(f"{k}={v}" for k, v in params.items()))
        page.wait_for_selector("#chart-cpu .main-svg")
        page.wait_for_function("() => document.getElementById('size-status').textContent.startsWith('Updated')")
        _assert_cards(page, api, f"workbench {name}")
        # the same warnings at the same levels; decisions alone under "Before you sign this"
        assert _levels(page, "#decisions") + _levels(page, "#warnings") == _api_levels(api)
        assert {lvl for lvl, _ in _levels(page, "#decisions")} <= {"decision"}
        _visible_text_has_no_code(page, "#result", api)
        # one CPU per transaction figure, the target's; the measured machine's slope labelled as such
        basis = page.locator("#basis").inner_text()
        cpu = api["cpu_per_tran_ms"]["total"]
        digits = 3 if cpu < 1 else 2
        assert f"{cpu:.{digits}f} ms" in basis and "CPU per transaction (target)" in basis
        if api["basis"]["model"]:
            assert "Fit (measured machine)" in basis
        ARTIFACTS.mkdir(exist_ok=True)
        page.wait_for_function(SETTLED)  # no transition under way
        page.screenshot(path=str(ARTIFACTS / f"workbench-{params['path']}.png"), full_page=True)
        page.get_by_label("Estimate name").fill(name)
        page.get_by_role("button", name="Save estimate").click()
        link = page.get_by_role("link", name="Saved as estimate")
        link.wait_for()
        saved[name] = int(link.get_attribute("href").strip("/").split("/")[-1])
        # the name is not carried to the next save
        assert page.get_by_label("Estimate name").input_value() == ""

        # The saved estimate's page: the same cards and warning levels, no engine code.
        page.goto(f"{live_server.url}/estimates/{saved[name]}/")
        page.wait_for_selector("#chart-cpu .main-svg")
        _assert_cards(page, api, f"saved {name}")
        assert _levels(page, "body") == _api_levels(api)
        _visible_text_has_no_code(page, "main", api)
        page.screenshot(path=str(ARTIFACTS / f"estimate-{params['path']}.png"), full_page=True)

    # The comparison: the same values, bounds and ranges in the same words.
    page.goto(f"{live_server.url}/estimates/compare/?" + "&".join(f"id={i}" for i in saved.values()))
    rows = {
        r[0]: r[1:]
        for r in page.locator("table.compare-grid tbody tr").evaluate_all(
            "trs => trs.map(tr => [tr.querySelector('th').innerText.replace(/\\s*differs$/i, '').trim(),"
            " ...[...tr.querySelectorAll('td')].map(td => td.innerText.trim())])"
        )
    }
    for i, name in enumerate(SCENARIOS):
        expected = _expected_cards(apis[name])
        for label, key in (("CPs required", "cps_required"), ("Saturation", "saturation_tps")):
            value, spread = expected[key]
            assert rows[label][i] == (f"{value} ({spread})" if spread else value), (name, label, rows[label][i])
        decisions = sum(w["level"] == "decision" for w in apis[name]["warnings"])
        assert (
            rows["Warnings"][i].startswith(f"{decisions} decision")
            if decisions
            else "decision" not in rows["Warnings"][i]
        )
    assert "warning(s)" not in page.locator("main").inner_text()
    page.screenshot(path=str(ARTIFACTS / "compare-three.png"), full_page=True)

    # The upgrade table: today's model once, names in their own case.
    params = SCENARIOS["FiTeq on z17"]
    page.goto(f"{live_server.url}/size/?" + "&".join(f"{k}={v}" for k, v in params.items()))
    page.wait_for_selector("#chart-cpu .main-svg")
    page.get_by_role("button", name="Compare with the newest machines").click()
    page.wait_for_selector("#upgrade-result table")
    upgrade = page.request.get(f"{live_server.url}/api/v1/upgrade", params=params).json()
    today = next(c for c in upgrade["columns"] if c["label"] == "today")
    models = page.locator("#upgrade-result tbody tr").first.locator("td").all_inner_texts()
    assert models.count(today["model"]) == 1  # z17 is today's machine: not a second column
    heads = page.locator("#upgrade-result thead th").all_inner_texts()
    assert "IBM Z17 ME1" not in heads and all(h == h.strip() for h in heads)
    assert page.locator("#upgrade-result").evaluate("el => el.innerText").count("ZIIPS") == 0
    page.locator("#targets-panel").screenshot(path=str(ARTIFACTS / "upgrade-fiteq-z17.png"))
    unexpected = [e for e in page.errors if "status of 400" not in e]
    assert unexpected == [], unexpected


def test_the_workbench_minds_its_manners(live_server: Any, page: Any) -> None:  # noqa: F811
    # After sign-in the app lands on the sizing page (the fixture waited for /size/).
    assert re.search(r"/size/(\?.*)?$", page.url), page.url

    # The example banner: dismissable, and gone once the engineer sizes their own question.
    page.wait_for_selector("#example-note")
    page.get_by_role("button", name="Dismiss the example note").click()
    assert page.locator("#example-note").count() == 0
    page.goto(f"{live_server.url}/size/")
    page.wait_for_selector("#chart-cpu .main-svg")
    page.get_by_label("Target rate").fill("7000")
    page.get_by_role("button", name="Size", exact=True).click()
    page.wait_for_function("() => document.getElementById('size-status').textContent.startsWith('Updated')")
    assert page.locator("#example-note").count() == 0

    # Machines: never "(9176) (9176)"; newest generation first, the large machine before the small.
    labels = page.locator("#f-machine option").all_inner_texts()
    assert not [label for label in labels if re.search(r"\((\w+)\).*\(\1\)", label)], labels
    generations = [
        int(re.search(r"z(?:EC)?(\d+)", label.replace("zEnterprise EC", "zEC")).group(1)) for label in labels
    ]
    assert generations == sorted(generations, reverse=True), labels
    assert labels.index("IBM z16 A01 (3931)") < labels.index("IBM z16 A02 (3932)")

    # Selects are wide enough for every option (the text measured in the select's own font).
    too_wide = page.evaluate(
        """() => { const c = document.createElement("canvas").getContext("2d"); const out = [];
          for (const sel of document.querySelectorAll(".form-panel select")) {
            const st = getComputedStyle(sel); c.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
            const room = sel.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
            for (const o of sel.options) if (c.measureText(o.textContent).width > room) out.push([sel.id, o.textContent]); }
          return out; }"""
    )
    assert too_wide == []

    # No button in a monospace font.
    fonts = page.locator("button").evaluate_all("bs => bs.map(b => getComputedStyle(b).fontFamily)")
    assert not [f for f in fonts if "mono" in f.lower()], fonts

    # The chart toolbar stands clear of the legend.
    page.hover("#chart-cpu .main-svg")
    legend = page.locator("#chart-cpu .legend").bounding_box()
    toolbar = page.locator("#chart-cpu .modebar").bounding_box()
    assert legend and toolbar
    overlap_x = min(legend["x"] + legend["width"], toolbar["x"] + toolbar["width"]) - max(legend["x"], toolbar["x"])
    overlap_y = min(legend["y"] + legend["height"], toolbar["y"] + toolbar["height"]) - max(legend["y"], toolbar["y"])
    assert overlap_x <= 0 or overlap_y <= 0, (legend, toolbar)

    # The model picker's list stays over the form, not over the chart.
    page.get_by_label("Target model").fill("z16")
    page.wait_for_selector("#model-list:not([hidden]) li")
    listbox = page.locator("#model-list").bounding_box()
    panel = page.locator(".form-panel").bounding_box()
    assert listbox and panel and listbox["x"] + listbox["width"] <= panel["x"] + panel["width"] + 1
    page.keyboard.press("Escape")

    # "z16 510" typed then Size: the model 3931-510 (no error quoting 'z16510').
    page.get_by_label("Target model").fill("z16 510")
    page.get_by_role("button", name="Size", exact=True).click()
    page.wait_for_function("() => document.getElementById('capacity-gauge').innerText.includes('3931-510')")
    assert page.get_by_label("Target model").input_value() == "3931-510"
    assert page.locator("#err-model").is_hidden()

    # TPS: 0 and a negative say the same sentence; 1e9 a plain maximum with separators.
    page.get_by_label("Target model").fill("")
    # (expect retries until the error shown is this input's, not the one before it)
    for bad, sentence in (
        ("0", "Must be greater than zero."),
        ("-500", "Must be greater than zero."),
        ("1e9", "Must be at most 10,000,000 transactions per second."),  # MAX_TPS, estimate_inputs.py
    ):
        page.get_by_label("Target rate").fill(bad)
        page.get_by_role("button", name="Size", exact=True).click()
        expect(page.locator("#err-tps")).to_have_text(sentence)

    # An empty TPS leaves no "Updated: 5 CPs" beside its error.
    page.get_by_label("Target rate").fill("7000")
    page.get_by_role("button", name="Size", exact=True).click()
    page.wait_for_function("() => document.getElementById('size-status').textContent.startsWith('Updated')")
    page.get_by_label("Target rate").fill("")
    page.get_by_role("button", name="Size", exact=True).click()
    page.wait_for_selector("#err-tps:not([hidden])")
    assert page.locator("#size-status").inner_text() == ""

    # HostBridge publishes no CPU data: nothing to save.
    page.get_by_label("Workload path").select_option("hostbridge-http")
    page.get_by_label("Target rate").fill("100")
    page.get_by_role("button", name="Size", exact=True).click()
    page.wait_for_selector("#result:not([hidden])")
    assert page.get_by_role("button", name="Save estimate").is_disabled()

    # A source document's page: its title, not its file name; units in the CPU headers.
    page.goto(f"{live_server.url}/reference/fiteq-redp5114/")
    title = page.locator("h1").inner_text()
    assert "FiTeq" in title and not title.endswith(".txt")
    heads = " ".join(page.locator("table thead th").all_inner_texts())
    # REDP-5114 Tables 11-1/11-2 (benchmarks/fiteq_redp5114.yaml): LPAR busy is % of the LPAR's
    # 10 engines, CICS CPU % of one CP (APPL%)
    assert "LPAR busy, % of 10 engines" in " ".join(heads.split())
    assert "CICS address spaces CPU, % of one CP" in " ".join(heads.split())
    unexpected = [e for e in page.errors if "status of 400" not in e]
    assert unexpected == [], unexpected
