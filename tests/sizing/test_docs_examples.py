"""Docs that cannot drift (issue 32 items 9 and 11): the worked examples printed in docs/models.md,
docs/jobs.md and docs/plans.md are computed here with the product's own services on the loaded
reference data, and each printed figure must appear in its page as the tool answers it.

A failure prints the sentence the tool gives today: update the page to it (after checking it is
what a planner signs), never the test to the page.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from models_lib.engine import engine_policy
from sizing.jobs.closed import run_closed
from sizing.jobs.curve import run_curve
from sizing.selectors.capacity import capacity_table
from sizing.services.estimates import estimate_compute

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs"
ZOSCONNECT = {"path": "zosconnect-cics", "configuration": "channel"}
FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region"}


@cache
def _page(name: str) -> str:
    """The page with its whitespace collapsed (a sentence may wrap anywhere)."""
    return " ".join((DOCS / name).read_text(encoding="utf-8").split())


def _says(name: str, sentence: str) -> None:
    assert " ".join(sentence.split()) in _page(name), f"docs/{name} should say: {sentence}"


def _estimate(user: Any, **inputs: Any) -> dict[str, Any]:
    _, _, out = estimate_compute(user=user, inputs=inputs)
    return out


def _no_progress(done: float, total: float) -> None:
    return None


def _mix(cps: int, ziips: int, engine: str) -> str:
    return f"{cps} CP{'s' if cps != 1 else ''} + {ziips} {engine}s"


# -- docs/models.md ---------------------------------------------------------------------------


def test_models_engine_ratio_example(user: Any) -> None:
    # "z/OS Connect, 32K, 2,000 TPS, z13, CPs sized" (docs/models.md, Engine ratio and engine name).
    q = {**ZOSCONNECT, "machine": "z13", "tps": 2000, "payload_bytes": 32768}
    a = _estimate(user, **q)
    _says("models.md", f"After: **{_mix(a['cps'], a['ziips'], 'zIIP')}** (at most 2 per CP)")
    _says("models.md", f"so {a['busy_cps']['ziip_on_gcp']:.2f} busy engines of it run on CPs (IIPCP)")
    _says("models.md", f"({a['cps']} CPs at {a['gcp_utilization'] * 100:.0f} % busy)")
    given = _estimate(user, **q, cps=8)
    _says("models.md", f"With 8 CPs given: {given['ziips']} zIIPs (within {given['specialty_engine_max']})")
    tg = _estimate(user, path="cicstg", configuration="ipic-commarea-64", machine="z10", tps=2000)
    _says("models.md", f'after **{_mix(tg["cps"], tg["ziips"], "zAAP")}** (`specialty_engine: "zAAP"`')


def _most(a: dict[str, Any], engine: str) -> str:
    fit = a["feasibility"]
    mix = f"{fit['max_tps_cps']} CPs" + (f" + {fit['max_tps_ziips']} {engine}s" if fit["max_tps_ziips"] else "")
    return f"{math.floor(fit['max_tps']):,} TPS on {mix}"  # the most carried is written rounded down


def test_models_what_fits_examples(user: Any) -> None:
    # The eight examples, item 3 rows: what the tool answers at the default ceiling.
    tg = _estimate(user, path="cicstg", configuration="exci-commarea-31", machine="z10", tps=20000)
    if tg["feasible"]:
        mix = _mix(tg["cps"], tg["ziips"], "zAAP")
        _says(
            "models.md", f"| fits: {mix} at {tg['gcp_utilization'] * 100:.1f} % CP ({tg['cps'] + tg['ziips']} engines;"
        )
    else:
        fit = tg["feasibility"]
        engines = fit["max_tps_cps"] + fit["max_tps_ziips"]
        _says("models.md", f"the most 2097 carries is {_most(tg, 'zAAP')} ({engines} engines)")
    zc = _estimate(user, **ZOSCONNECT, machine="z13", tps=50000)
    fit = zc["feasibility"]
    engines = fit["max_tps_cps"] + fit["max_tps_ziips"]
    _says("models.md", f"the most 2964 carries is {_most(zc, 'zIIP')} ({engines} engines)")
    fq = _estimate(user, **FITEQ, machine="z16", tps=10000)
    assert fq["feasibility"]["reason"] == "software-limit"
    _says("models.md", f"saturates at {fq['saturation_tps']:,.0f} TPS); the most is {_most(fq, 'zIIP')}")
    z10 = _estimate(user, **FITEQ, machine="z10", tps=500000)
    single = _estimate(user, path="fiteq-authenticator", configuration="single-region", machine="z10", tps=500000)
    _says(
        "models.md",
        f"the most is {_most(z10, 'zIIP')} (single-region: `{single['feasibility']['reason']}`, "
        f"{_most(single, 'zIIP')})",
    )


@pytest.mark.parametrize(("machine", "tps"), [("z17", 1000), ("z17", 2000), ("z13", 5000)])
def test_models_mix_examples(user: Any, machine: str, tps: int) -> None:
    # The eight examples, item 4 rows: the default (fewest CPs, issue 32 item 1) and its
    # alternative, each with its installed and consumed MSU.
    # The answer names the other choice only where it differs (docs/models.md, "The mix").
    a = _estimate(user, **ZOSCONNECT, machine=machine, tps=tps)
    alt = a["alternative"]
    other = (
        "`least-msu-consumed` chooses the same mix"
        if alt is None
        else f"alternative `{alt['objective']}`: {_mix(alt['cps'], alt['ziips'], 'zIIP')}, "
        f"{alt['msu_installed']:,.0f} MSU installed, {alt['msu']:,.1f} consumed"
    )
    _says(
        "models.md",
        f"{_mix(a['cps'], a['ziips'], 'zIIP')} at {a['gcp_utilization'] * 100:.1f} % CP, "
        f"{a['capacity']['cp']['msu_installed']:,.0f} MSU installed, {a['msu']:,.1f} consumed; {other}",
    )


# -- docs/jobs.md -----------------------------------------------------------------------------


def test_jobs_curve_saturation_example(user: Any) -> None:
    # "z/OS Connect on a z13 with 16 CPs at 1,000 TPS saturates at the estimate's ... TPS, not at
    # the ... TPS of as many zIIPs as the 2:1 rule allows".
    params = {**ZOSCONNECT, "machine": "z13", "cps_list": [16], "points": 10}
    marked = run_curve(params={**params, "tps": 1000}, owner=user, progress=_no_progress)
    est = _estimate(user, **ZOSCONNECT, machine="z13", tps=1000, cps=16)
    (series,) = marked["series"]
    assert series["saturation_tps"] == pytest.approx(est["saturation_tps"], rel=1e-9)
    allowed = est["specialty_engine_max"]
    full = run_curve(params={**params, "ziips": allowed}, owner=user, progress=_no_progress)
    _says(
        "jobs.md",
        f"with 16 CPs at 1,000 TPS saturates at the estimate's {est['saturation_tps']:,.0f} TPS, not at the "
        f"{full['series'][0]['saturation_tps']:,.0f} TPS of as many zIIPs as the 2:1 rule allows",
    )


def test_jobs_closed_example(user: Any) -> None:
    params = {**ZOSCONNECT, "machine": "z13", "cps": 6, "ziips": 0, "clients": [100, 200, 300, 400, 500]}
    result = run_closed(params={**params, "think_time_s": 0.5}, owner=user, progress=_no_progress)
    got = [f"{p['throughput_tps']:,.1f}" for p in result["points"]]
    _says("jobs.md", f"The closed job then gives {', '.join(got[:-1])} and {got[-1]} TPS")


def test_jobs_optimiser_ratio_statement() -> None:
    # Issue 32 item 11: the optimiser's zIIPs per CP as the engine rules give them.
    table = capacity_table()
    per_cp = {
        name: engine_policy(table, mt).per_cp for name, mt in (("z10", "2097"), ("zEC12", "2827"), ("z13", "2964"))
    }
    assert all(v is not None for v in per_cp.values())
    _says(
        "jobs.md",
        f"{per_cp['z10']:g} per CP on a z10, {per_cp['zEC12']:g} on a zEC12, {per_cp['z13']:g} on a z13 "
        "(benchmarks/engine_rules.yaml",
    )


# -- docs/plans.md ----------------------------------------------------------------------------

#: The example of docs/plans.md ("The example").
PLAN = {
    "name": "API layer and CICS",
    "horizon_years": 5,
    "workloads": [
        {**ZOSCONNECT, "tps": 2000, "peak_ratio": 1.5, "growth_pct": 25},
        {"path": "cicsts-catalog", "configuration": "v5.3", "tps": 60000, "peak_ratio": 1.3, "growth_pct": 10},
    ],
    "candidates": ["3931-708", "3931-710", "9175-708", "9175-710"],
    "generations": ["z16", "z17"],
}


def _year(n: int | None, horizon: int) -> str:
    return "beyond" if n is None else f"year {n}"


def test_plans_example(api: Any, settings: Any) -> None:
    settings.ZSIZER_PLAN_INLINE_EVALUATIONS = 6 * 5 * 2
    response = api.post("/api/v1/plans/", PLAN, format="json")
    assert response.status_code == 201, response.content
    result = response.json()["result"]
    for c in result["candidates"]:
        if c["kind"] == "model":
            (model,) = c["models"]
            runs = "lasts the horizon" if c["runs_out"] is None else _year(c["runs_out"], 5)
            spread = c["runs_out_range"]
            rng = "" if c["runs_out"] is None else f"{_year(spread['earliest'], 5)} .. {_year(spread['latest'], 5)}"
            _says("plans.md", f"| {c['label']} | {model['msu_installed']:,.0f} | {runs} | {rng} |")
        else:
            names = [m["model"] for m in c["models"]]
            runs = "lasts the horizon" if c["runs_out"] is None else _year(c["runs_out"], 5)
            _says("plans.md", f"| {c['label']} | {names[0]} .. {names[-1]} | {runs} |")
    _says("plans.md", f"Recommendation: *{result['recommendation']['sentence']}*")
