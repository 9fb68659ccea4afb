"""The LSPR reference pages: every machine and model of benchmarks/lspr_zpcr_configuration_summary.csv
in a table and a chart, filtered by setting, with the source; and the workbench's model list."""

from __future__ import annotations

import csv
import json
import re
from collections import defaultdict
from typing import Any

import pytest

from tests.models_lib import published as P

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(client: Any, user: Any) -> Any:
    client.force_login(user)
    return client


def _csv_rows() -> list[dict[str, str]]:
    with (P.BENCHMARKS / "lspr_zpcr_configuration_summary.csv").open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _chart(html: str) -> Any:
    found = re.search(r'<script id="lspr-chart" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page carries its chart data"
    return json.loads(found.group(1))


def test_lspr_page_charts_every_model_of_every_machine_with_the_source(browser: Any) -> None:
    response = browser.get("/reference/lspr/")
    assert response.status_code == 200
    html = response.content.decode()
    chart = _chart(html)
    # One series per (machine type, setting) of the CSV, with its rows in CP order.
    expected: dict[tuple[str, str], list[tuple[str, int, float, float]]] = defaultdict(list)
    for r in _csv_rows():
        expected[(r["machine_type"], r["capacity_setting"])].append(
            (r["model"], int(r["cps"]), float(r["mips"]), float(r["msu"]))
        )
    served = {
        (s["machine_type"], s["setting"]): list(zip(s["models"], s["cps"], s["mips"], s["msu"], strict=True))
        for s in chart["series"]
    }
    assert served == {k: sorted(v, key=lambda t: t[1]) for k, v in expected.items()}
    assert sum(len(v) for v in served.values()) == 2487
    # Full speed is 700, or the fastest midrange setting (Z00 on 3932 and 9176).
    kinds = {(s["machine_type"], s["setting"]): s["kind"] for s in chart["series"]}
    assert kinds[("3931", "700")] == "full speed" and kinds[("3931", "500")] == "sub-capacity"
    assert kinds[("9176", "Z00")] == "full speed" and kinds[("9176", "D00")] == "midrange"
    assert "IBM LSPR multi-image ratings" in html and "lspr_zpcr_configuration_summary.csv" in html
    for name in ("IBM z17 ME1", "IBM z16 A01", "IBM z13", "IBM System z10 EC"):
        assert name in html


def test_machine_page_lists_its_models_filtered_by_setting(browser: Any) -> None:
    html = browser.get("/reference/lspr/z16/", {"setting": "500"}).content.decode()
    table = html.split('id="lspr-models"')[1]
    models = re.findall(r'<td class="mono">(3931-\w+)</td>', table)
    # CSV: 3931-501 .. 3931-539, the 5xx setting of the z16 A01.
    assert models == [f"3931-5{n:02d}" for n in range(1, 40)]
    assert "Models (39)" in html
    # 3931-509,3931,z16,IBM Z z16/500,500,9,7208,883: MIPS per CP 7208 / 9 = 800.9
    assert "7,208" in table and "800.9" in table
    assert "zIIP" in html  # the generation's specialty-engine rules
    everything = browser.get("/reference/lspr/z16/").content.decode()
    assert "Models (200)" not in everything and "Models (317)" in everything  # 39 x 3 + 200
    assert len(_chart(everything)["series"]) == 4


def test_lspr_source_page_leads_to_the_machines_and_unknown_machine_is_404(browser: Any) -> None:
    response = browser.get("/reference/lspr-zpcr-configuration-summary/")
    assert response.status_code == 302 and response["Location"] == "/reference/lspr/"
    assert browser.get("/reference/lspr/z99/").status_code == 404


def test_lspr_pages_need_a_login(client: Any) -> None:
    for url in ("/reference/lspr/", "/reference/lspr/z16/", "/ui/models"):
        assert client.get(url).status_code == 302


def test_model_list_of_the_workbench_is_the_capacity_table(browser: Any) -> None:
    body = browser.get("/ui/models").json()
    rows = {r[0]: r for r in body["models"]}
    assert len(rows) == 2487
    for r in _csv_rows():
        model, machine, setting, cps, mips, msu = rows[r["model"]]
        assert (setting, cps, mips, msu) == (r["capacity_setting"], int(r["cps"]), float(r["mips"]), float(r["msu"]))
        assert body["machines"][machine]["machine_type"] == r["machine_type"]
    # Newest generation first, its flagship type and full-speed models first.
    assert body["models"][0][0] == "9175-701" and body["machines"]["z17-9176"]["full_speed"] == "Z00"
    assert list(body["machines"])[:3] == ["z17", "z17-9176", "z16"]
