"""A capacity planner's reading of the answers, surface by surface (estimate, CSV, plan, PDF).

* The most a target carries, as written, is a rate that fits: the figure is the engine's
  ``max_tps`` rounded *down* (10,779.51 TPS is written 10,779, since 10,780 does not fit), in
  the estimate's sentence, the PDF, the CSV cell (6 significant digits, rounded down) and the
  plan's software-limit sentence.
* Every sentence names the generation's specialty engine: zAAP on a zEC12 (the plan's reasons,
  the no-CPU-data sentence), zIIP on a z17.
* The PDF's specialty-engine row says the rules' cap beside the CPs evaluated, never "at most 0
  on this machine" for a does-not-fit answer evaluated on a model with no engine left.
* A saturation that is a lower bound (a bounds-only cost) is not said to be where the
  configuration saturates.

Every figure compared comes from the app's own answer (the estimate's ``feasibility``, its
``evaluated_cps``, ``specialty_engine``, ``saturation_tps``); none is typed here.
"""

from __future__ import annotations

import csv
import io
import math
import re
from typing import Any

import pytest

from tests.sizing.test_reports import pdf_text

pytestmark = pytest.mark.django_db

ZOSCONNECT = {"path": "zosconnect-cics", "configuration": "channel"}
CICSTG = {"path": "cicstg", "configuration": "ipic-channel-64"}
FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region"}
HOSTBRIDGE = {"path": "hostbridge-http", "configuration": "default-tcpip"}
#: Far beyond what any model carries: the answer does not fit and says the most it carries.
BEYOND = 5_000_000

#: Targets whose most carried (found by the engine, not typed here) is written by rounding:
#: z/OS Connect and CICS TS on a zEC12, CICS TG on a zEC12 6xx, CICS TS on a z17 (seven digits).
MOST_CARRIED = [
    {**ZOSCONNECT, "machine": "zec12"},
    {**CICSTG, "machine": "zec12", "capacity_setting": "600"},
    {"path": "cicstg", "configuration": "exci-commarea-31", "machine": "zec12", "capacity_setting": "600"},
    {"path": "cicsts-catalog", "configuration": "v5.3", "machine": "zec12"},
    {"path": "cicsts-catalog", "configuration": "v5.3", "machine": "z17"},
    {**FITEQ, "machine": "z17"},
]


def _estimate(api: Any, inputs: dict[str, Any]) -> dict[str, Any]:
    response = api.get("/api/v1/estimate", inputs)
    assert response.status_code == 200, response.content[:300]
    return dict(response.json())


def _written(sentence: str, lead: str) -> float:
    found = re.search(lead + r" ([\d,]+(?:\.\d+)?) TPS", sentence)
    assert found, sentence
    return float(found.group(1).replace(",", ""))


def _pdf_words(api: Any, inputs: dict[str, Any]) -> str:
    created = api.post("/api/v1/estimates/", inputs, format="json")
    assert created.status_code == 201, created.json()
    response = api.get(f"/api/v1/estimates/{created.json()['id']}/report.pdf")
    assert response.status_code == 200
    return " ".join(" ".join(pdf_text(bytes(response.content), raw=True)).split())


def test_the_most_carried_as_written_is_a_rate_that_fits(api: Any) -> None:
    rounded_up_before = 0
    for target in MOST_CARRIED:
        body = _estimate(api, {**target, "tps": BEYOND})
        fit = body["feasibility"]
        most = fit["max_tps"]
        assert body["feasible"] is False and most is not None
        written = _written(fit["message"], "the most this model carries is")
        # whole TPS (every most here is above 100 TPS), at or under the engine's most
        assert written == math.floor(written) and most - 1 < written <= most
        rounded_up_before += round(most) > most
        # the figure read is itself a rate that fits; one TPS more does not
        assert _estimate(api, {**target, "tps": written})["feasible"] is True
        if written + 1 > most:
            assert _estimate(api, {**target, "tps": written + 1})["feasible"] is False
        # the CSV's cell: 6 significant digits, rounded down
        (row,) = csv.DictReader(
            io.StringIO(api.get("/api/v1/estimate", {**target, "tps": BEYOND, "format": "csv"}).content.decode())
        )
        cell = float(row["max_tps"])
        assert cell <= most and most - cell < 10 ** (math.floor(math.log10(most)) - 5)
    # the targets include answers whose nearest whole TPS is above the most (written so before)
    assert rounded_up_before >= 2


def test_the_pdf_and_the_plan_write_the_same_most_carried(api: Any) -> None:
    target = {**FITEQ, "machine": "z17"}
    body = _estimate(api, {**target, "tps": BEYOND})
    written = _written(body["feasibility"]["message"], "the most this model carries is")
    words = _pdf_words(api, {**target, "tps": BEYOND})
    assert _written(words, "the most it carries is") == written
    # the plan: one period at the same rate on the model the estimate evaluated; its
    # software-limit sentence says the same most (the station at the ceiling)
    plan = api.post(
        "/api/v1/plans/",
        {
            "name": "most",
            "horizon_years": 1,
            "workloads": [{**FITEQ, "tps": BEYOND}],
            "candidates": [body["capacity"]["model"]],
        },
        format="json",
    )
    assert plan.status_code == 201, plan.json()
    (period,) = plan.json()["result"]["candidates"][0]["periods"]
    (limit,) = [r["message"] for r in period["reasons"] if r["code"] == "software-limit"]
    assert _written(limit, "it carries at most") == written


def test_the_plan_names_the_zaaps_of_a_zec12(api: Any) -> None:
    """CICS TG on a zEC12 6xx beyond what it carries: the zAAPs are at the ratio beside the CPs,
    and the plan says zAAPs (it said "The zIIPs are at the most the rules allow")."""
    target = {**CICSTG, "machine": "zec12", "capacity_setting": "600"}
    beyond = _estimate(api, {**target, "tps": BEYOND})
    assert beyond["specialty_engine"] == "zAAP"
    tps = math.ceil(beyond["feasibility"]["max_tps"] * 1.25)
    model = _estimate(api, {**target, "tps": tps})["capacity"]["model"]
    plan = api.post(
        "/api/v1/plans/",
        {"name": "zAAPs", "horizon_years": 1, "workloads": [{**CICSTG, "tps": tps}], "candidates": [model]},
        format="json",
    )
    assert plan.status_code == 201, plan.json()
    candidate = plan.json()["result"]["candidates"][0]
    assert candidate["specialty"] == "zAAP"
    (period,) = candidate["periods"]
    reasons = [r["message"] for r in period["reasons"]]
    assert any(m.startswith("The zAAPs are at the most the rules allow") for m in reasons), reasons
    assert not any("zIIP" in m for m in reasons), reasons


def test_no_cpu_data_names_the_generations_specialty_engine(api: Any) -> None:
    for machine in ("zec12", "z17"):
        body = _estimate(api, {**HOSTBRIDGE, "machine": machine, "tps": 100})
        eng = body["specialty_engine"]
        (message,) = [w["message"] for w in body["warnings"] if w["code"] == "no-cpu-data"]
        assert f"CPs, {eng}s and MIPS cannot be sized" in message
        other = "zIIP" if eng == "zAAP" else "zAAP"
        assert other not in message
    assert _estimate(api, {**HOSTBRIDGE, "machine": "zec12", "tps": 100})["specialty_engine"] == "zAAP"


def test_the_pdf_gives_the_specialty_cap_beside_the_cps_evaluated(api: Any) -> None:
    """z/OS Connect on a zEC12 beyond its largest model: evaluated on 101 CPs, no zAAP is left
    beside them; the PDF said "at most 0 on this machine", though the machine carries 67 zAAPs
    beside 34 CPs (the most it carries)."""
    inputs = {**ZOSCONNECT, "machine": "zec12", "tps": BEYOND}
    body = _estimate(api, inputs)
    assert body["feasible"] is False and body["specialty_engine_max"] == 0
    words = _pdf_words(api, inputs)
    assert "on this machine" not in words
    assert (
        f"none quoted (page 1); no zAAP can be added: the {body['evaluated_cps']} engines of this model are all CPs"
        in (words)
    )
    # a fitting answer: the cap beside the CPs quoted
    fits = {**ZOSCONNECT, "machine": "zec12", "tps": math.floor(body["feasibility"]["max_tps"] / 2)}
    quoted = _estimate(api, fits)
    assert quoted["feasible"] is True
    words = _pdf_words(api, fits)
    assert f"at most {quoted['specialty_engine_max']} beside these {quoted['cps_required']} CPs" in words


def test_a_lower_bound_saturation_is_not_said_to_be_where_it_saturates(api: Any) -> None:
    """z/OS Connect at 256K responses: the cost is the published upper bound, so the saturation
    is a floor ("≥"); past it the PDF says the figures cannot show it carries the rate, not that
    the configuration saturates there."""
    target = {**ZOSCONNECT, "machine": "zec12", "payload_bytes": 262144}
    tps = math.ceil(_estimate(api, {**target, "tps": BEYOND})["feasibility"]["max_tps"] * 1.25)
    body = _estimate(api, {**target, "tps": tps})
    assert body["saturation_kind"] == "lower-bound" and tps > body["saturation_tps"]
    words = _pdf_words(api, {**target, "tps": tps})
    assert "the least rate at which this configuration may saturate" in words
    assert "is at or past the rate where this configuration saturates" not in words


def test_todays_machine_may_have_as_many_cps_as_the_largest_model_quoted(api: Any) -> None:
    """CICS TS on a z17 beyond its largest model: the most it carries is on the 9175's largest CP
    count (208, above the 200 the estimate's input once allowed); that machine is then today's
    machine of /upgrade and an estimate's given CPs, and its answer is the same."""
    target = {"path": "cicsts-catalog", "configuration": "v5.3", "machine": "z17"}
    fit = _estimate(api, {**target, "tps": BEYOND})["feasibility"]
    cps, most = fit["max_tps_cps"], math.floor(fit["max_tps"])
    assert cps > 200
    given = _estimate(api, {**target, "tps": most, "cps": cps})
    assert given["feasible"] is True and given["cps"] == cps
    upgrade = api.get("/api/v1/upgrade", {**target, "tps": most, "cps": cps, "targets": "z17"})
    assert upgrade.status_code == 200, upgrade.content[:300]
    today = upgrade.json()["columns"][0]
    assert (today["cps"], today["feasible"]) == (cps, True)


def test_engines_that_bind_before_the_software_station_are_named(api: Any, client: Any, user: Any) -> None:
    """FiTeq on a z17 4xx: its largest model's slow CPs reach the ceiling below the software
    station's limit (the most the full-speed z17 carries, software-bound).  Above that limit the
    answer is refused for the station, but the sentence and the advice name the engines too, and
    the rate advised is the most this model carries, not the station's limit (which does not fit)."""
    station = _estimate(api, {**FITEQ, "machine": "z17", "tps": BEYOND})["feasibility"]["max_tps"]
    sub = {**FITEQ, "machine": "z17", "capacity_setting": "400"}
    most = _estimate(api, {**sub, "tps": BEYOND})["feasibility"]["max_tps"]
    assert most < station  # the 4xx engines bind first
    tps = math.ceil(station * 1.05)
    body = _estimate(api, {**sub, "tps": tps})
    fit = body["feasibility"]
    assert fit["reason"] == "software-limit" and fit["max_tps"] == pytest.approx(most, rel=1e-9)
    assert fit["message"].endswith(
        f"is {math.floor(most):,} TPS on {fit['max_tps_cps']} CPs, where the engines reach the "
        f"{body['max_utilization']:.0%} ceiling before the software station does"
    )
    assert body["binding_resource"]["resource"] == "cps"
    client.force_login(user)
    advice = client.get("/ui/chart-data", {**sub, "tps": tps}).json()["advice"]
    assert [a["resource"] for a in advice] == ["software", "model"]
    assert advice[0]["sentence"].endswith(f"or a rate at or under {math.floor(most):,} TPS.")
    assert f"at {math.floor(most):,} TPS: a bigger model or a newer machine" in advice[1]["sentence"]
