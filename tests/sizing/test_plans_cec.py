"""One of your machines as a plan's candidate (issue 29 item 4): the workloads go into one of its
LPARs (or a new one), each LPAR's load today grows at its own rate, and the plan says per period
each LPAR's and the CEC's state and when each runs out.

The expected values come from other answers of the tool, never typed in: each period is the
placement (``POST /api/v1/cecs/{id}/place/``) at that period's peaks with the LPARs' busy grown
(a CEC stored with those busy percentages), the old ``/cecs/{id}/plan/`` answers the same years
(one code path), the run-outs follow from the rows, the installed MSU is the LSPR row's.
"""

from __future__ import annotations

import copy
import csv
import io
import math
import subprocess
from pathlib import Path
from typing import Any

import pytest
from numpy.testing import assert_allclose

from sizing.models import CapacityRating, CecConfiguration, Job, Plan
from tests.sizing.test_cecs import CICSTS, EXAMPLE, ZOSCONNECT
from tests.sizing.test_cecs import _create as _create_cec

pytestmark = pytest.mark.django_db
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

YEARS = 5
GROWTH = {"PROD": 10, "TEST": 30}
WORKLOAD = {**CICSTS, "tps": 2000, "peak_ratio": 1.0, "growth_pct": 25}


def _plan(api: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = api.post("/api/v1/plans/", body, format="json")
    assert response.status_code == 201, response.content
    out: dict[str, Any] = response.json()
    return out


def _body(cec_id: int, **candidate: Any) -> dict[str, Any]:
    machine = {"cec": cec_id, "lpar": "PROD", "lpar_growth": GROWTH, **candidate}
    return {"name": "CICS into PROD", "horizon_years": YEARS, "workloads": [WORKLOAD],
            "candidates": ["8561-710", machine]}  # fmt: skip


@pytest.fixture(name="planned")
def fixture_planned(api: Any, settings: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    settings.ZSIZER_PLAN_INLINE_EVALUATIONS = 2 * YEARS
    cec = _create_cec(api, EXAMPLE)
    return cec, _plan(api, _body(cec["id"]))


def _grown_example(year: int) -> dict[str, Any]:
    """The example machine with each LPAR's busy percent grown to ``year`` (held at 100)."""
    body = copy.deepcopy(EXAMPLE)
    body["name"] = f"grown {year}"
    for lp in body["lpars"]:
        k = (1 + GROWTH.get(lp["name"], 0) / 100) ** (year - 1)
        for pool in ("cp", "ziip"):
            lp[pool]["busy_pct"] = min(100.0, lp[pool]["busy_pct"] * k)
    return body


def test_each_period_is_the_placement_at_its_peaks_with_the_lpars_grown(
    api: Any, planned: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    cec, plan = planned
    result = plan["result"]
    model, mine = result["candidates"]
    assert (mine["kind"], mine["label"], mine["specialty"]) == ("cec", "Production z15 (8561-710), LPAR PROD", "zIIP")
    for q in mine["periods"]:
        y = q["period"]
        tps = 2000 * 1.25 ** (y - 1)
        assert_allclose(result["periods"][y - 1]["workloads"][0]["tps_peak"], tps, rtol=1e-12)
        grown = _create_cec(api, _grown_example(y))
        placed = api.post(f"{grown['url']}place/", {"lpar": "PROD", "workloads": [{**CICSTS, "tps": tps}]},
                          format="json").json()  # fmt: skip
        rows = {(r["name"], r["pool"]): r for r in q["lpars"]}
        for p in placed["pools"]:
            prod = rows[("PROD", p["pool"])]
            if 100.0 * (1.1 ** (y - 1)) * 0.6125 < 100:  # PROD's percent not held at 100: the same busy
                assert_allclose(prod["busy"], p["total"], rtol=1e-9)
            assert_allclose(prod["busy_low"] - prod["busy"], p["added_low"] - p["added"], rtol=1e-9, atol=1e-12)
            assert_allclose(prod["busy_high"] - prod["busy"], p["added_high"] - p["added"], rtol=1e-9, atol=1e-12)
            assert_allclose(prod["share"], p["share"], rtol=1e-12)
            assert prod["takes_work"] and prod["holds"] == (prod["busy"] <= p["ceiling"] * p["share"] + 1e-9)
        # The other LPARs: today's busy grown at their own rates (TEST 1.2 CPs at 30 %, DEV 0.5 flat).
        assert_allclose(rows[("TEST", "cp")]["busy"], 1.2 * 1.3 ** (y - 1), rtol=1e-9)
        assert_allclose(rows[("DEV", "cp")]["busy"], 0.5, rtol=1e-9)
        assert not rows[("TEST", "cp")]["takes_work"]
        for pool in q["pools"]:
            assert_allclose(pool["busy"], sum(r["busy"] for r in q["lpars"] if r["pool"] == pool["pool"]), rtol=1e-12)
            assert pool["holds"] == (pool["busy"] <= pool["capacity"] + 1e-9)
        # The period holds when the LPAR fits (the placement's predicate) and the CEC holds.
        assert q["holds"] == (placed["fits"] and all(p["holds"] for p in q["pools"]))
        assert q["range"]["high"]["holds"] == (
            placed["fits_range"]["high"] and all(p["holds_high"] for p in q["pools"])
        )
        assert (q["cps"], q["ziips"]) == (placed["mix"]["cps"], placed["mix"]["ziips"])
        assert_allclose(q["gcp_busy"], placed["mix"]["gcp_busy"], rtol=1e-9)
        assert q["holds"] or q["reasons"]
    # The model candidate is evaluated as before, beside it.
    assert model["kind"] == "model" and len(model["periods"]) == YEARS


def test_the_run_outs_follow_from_the_rows_and_match_the_machines_own_plan(
    api: Any, planned: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    cec, plan = planned
    mine = plan["result"]["candidates"][1]
    outs = {o["name"]: o for o in mine["lpar_runs_out"]}
    assert list(outs) == ["PROD", "TEST", "DEV", None]
    for name in ("PROD", "TEST", "DEV"):
        rows = [[r for r in q["lpars"] if r["name"] == name] for q in mine["periods"]]
        failing = [i + 1 for i, rs in enumerate(rows) if not all(r["holds"] for r in rs)]
        assert outs[name]["period"] == (failing[0] if failing else None), name
        if failing:
            first = next(r for r in rows[failing[0] - 1] if not r["holds"])
            assert (outs[name]["pool"], outs[name]["engine"]) == (
                first["pool"],
                "CP" if first["pool"] == "cp" else "zIIP",
            )
        high = [i + 1 for i, rs in enumerate(rows) if not all(r["holds_high"] for r in rs)]
        assert outs[name]["earliest"] == (high[0] if high else None)
    failing = [q["period"] for q in mine["periods"] if not all(p["holds"] for p in q["pools"])]
    assert outs[None]["period"] == (failing[0] if failing else None)
    assert outs["TEST"]["period"] is not None  # 1.2 CPs x 1.3^4 = 3.43, beyond 85 % of its 2-CP share
    assert mine["runs_out"] == next((q["period"] for q in mine["periods"] if not q["holds"]), None)
    # The machine's own over-time endpoint answers the same years through the same code.
    body = {"lpar": "PROD", "horizon_years": YEARS, "lpar_growth_pct": GROWTH,
            "workloads": [{**CICSTS, "tps": 2000, "growth_pct": 25}]}  # fmt: skip
    old = api.post(f"{cec['url']}plan/", body, format="json").json()
    for year, q in zip(old["years"], mine["periods"], strict=True):
        assert [(r["name"], r["pool"], r["holds"]) for r in year["lpars"]] == [
            (r["name"], r["pool"], r["holds"]) for r in q["lpars"]
        ]
        assert_allclose([r["busy"] for r in year["lpars"]], [r["busy"] for r in q["lpars"]], rtol=1e-12)
    assert old["runs_out"]["lpars"] == {k: v["period"] for k, v in outs.items() if k is not None}
    assert old["runs_out"]["cec"] == outs[None]["period"]


def test_the_recommendation_weighs_the_machine_beside_the_models(
    planned: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    _, plan = planned
    model, mine = plan["result"]["candidates"]
    (option,) = mine["models"]
    assert_allclose(option["msu_installed"], CapacityRating.objects.get(model="8561-710").msu, rtol=1e-12)
    assert option["holds"] == [q["holds"] for q in mine["periods"]]
    assert (option["cec"], option["lpar"]) == ("Production z15", "PROD")
    rec = plan["result"]["recommendation"]
    lasting = [(o["msu_installed"], o) for c in (model, mine) for o in c["models"] if all(o["holds"])]
    if rec["kind"] == "single" and "cec" in rec:
        assert rec["sentence"].startswith("Keep your Production z15, 8561-710")
    if not lasting and rec["kind"] == "none":
        assert "changes each period lists" in rec["sentence"] or "cec" not in rec["binding"]


def test_quarters_grow_each_lpar_a_quarter_at_a_time(api: Any) -> None:
    cec = _create_cec(api, EXAMPLE)
    body = {"name": "q", "horizon_quarters": 5, "workloads": [{**CICSTS, "tps": 500}],
            "candidates": [{"cec": cec["id"], "lpar": "DEV", "lpar_growth": {"TEST": 30}}]}  # fmt: skip
    (mine,) = _plan(api, body)["result"]["candidates"]
    for q in mine["periods"]:
        rows = {(r["name"], r["pool"]): r for r in q["lpars"]}
        assert_allclose(rows[("TEST", "cp")]["busy"], 1.2 * 1.3 ** ((q["period"] - 1) / 4), rtol=1e-9)
        assert rows[("DEV", "cp")]["takes_work"] and not rows[("PROD", "cp")]["takes_work"]


def test_a_new_lpar_takes_the_work(api: Any) -> None:
    cec = _create_cec(api, EXAMPLE)
    new = {"name": "zcee", "cp": {"logical": 2, "weight": 100}, "ziip": {"logical": 2, "weight": 100}}
    body = {"name": "new", "horizon_years": 2, "workloads": [{**ZOSCONNECT, "tps": 200, "growth_pct": 50}],
            "candidates": [{"cec": cec["id"], "lpar": new, "lpar_growth": {"ZCEE": 5}}]}  # fmt: skip
    (mine,) = _plan(api, body)["result"]["candidates"]
    assert mine["label"] == "Production z15 (8561-710), new LPAR ZCEE" and mine["new_lpar"]["name"] == "ZCEE"
    placed = api.post(f"{cec['url']}place/", {"new_lpar": new, "workloads": [{**ZOSCONNECT, "tps": 200}]},
                      format="json").json()  # fmt: skip
    first = {(r["name"], r["pool"]): r for r in mine["periods"][0]["lpars"]}
    for p in placed["pools"]:
        assert_allclose(first[("ZCEE", p["pool"])]["busy"], p["total"], rtol=1e-9)
        assert_allclose(first[("ZCEE", p["pool"])]["share"], p["share"], rtol=1e-12)
    assert [o["name"] for o in mine["lpar_runs_out"]] == ["PROD", "TEST", "DEV", "ZCEE", None]


@pytest.mark.parametrize(
    ("candidate", "field"),
    [
        ({"cec": 999999, "lpar": "PROD"}, ("cec",)),
        ({"cec": "OTHER", "lpar": "PROD"}, ("cec",)),
        ({"cec": "MINE", "lpar": "NOPE"}, ("lpar",)),
        ({"cec": "MINE", "lpar": "PROD", "lpar_growth": {"PROD": -5}}, ("lpar_growth", "PROD")),
        ({"cec": "MINE", "lpar": "PROD", "lpar_growth": {"NOPE": 5}}, ("lpar_growth", "NOPE")),
        ({"cec": "MINE", "lpar": {"name": "PROD", "cp": {"logical": 1, "weight": 10}}}, ("lpar", "name")),
        ({"cec": "MINE", "lpar": {"name": "BIG", "cp": {"logical": 99, "weight": 10}}}, ("lpar",)),
        ({"cec": "MINE", "lpar": "PROD", "growth": 5}, ("growth",)),
    ],
)
def test_bad_machine_candidates_answer_400_naming_the_field_and_store_nothing(
    api: Any, other_user: Any, candidate: dict[str, Any], field: tuple[str, ...]
) -> None:
    mine = _create_cec(api, EXAMPLE)
    theirs = CecConfiguration.objects.create(owner=other_user, **{
        k: getattr(CecConfiguration.objects.get(pk=mine["id"]), k)
        for k in ("name", "model", "machine", "machine_type", "capacity_setting", "cps", "ziips", "icfs", "ifls",
                  "as_of", "lpars")})  # fmt: skip
    ids = {"MINE": mine["id"], "OTHER": theirs.pk}
    candidate = {**candidate, "cec": ids.get(candidate["cec"], candidate["cec"])}
    body = {"name": "bad", "horizon_years": 2, "workloads": [WORKLOAD], "candidates": ["8561-710", candidate]}
    response = api.post("/api/v1/plans/", body, format="json")
    assert response.status_code == 400, response.content
    errors: Any = response.json()["candidates"]["1"]
    for key in field:
        errors = errors[key]
    assert errors and all(isinstance(m, str) and m for m in errors)
    assert not Plan.objects.exists() and not Job.objects.exists()


def test_the_lpar_table_as_csv_and_xlsx(api: Any, planned: tuple[dict[str, Any], dict[str, Any]]) -> None:
    import openpyxl

    _, plan = planned
    mine = plan["result"]["candidates"][1]
    response = api.get(f"/api/v1/plans/{plan['id']}/result.csv?table=lpars")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    per_period = len(mine["periods"][0]["lpars"]) + len(mine["periods"][0]["pools"])
    assert len(rows) == YEARS * per_period
    assert {r["engine"] for r in rows} == {"CP", "zIIP"}
    assert {r["lpar"] for r in rows} == {"PROD", "TEST", "DEV", "All LPARs (the CEC)"}
    assert all(r["candidate"] == "Production z15 (8561-710), LPAR PROD" for r in rows)
    test_runs_out = next(o["period"] for o in mine["lpar_runs_out"] if o["name"] == "TEST")
    assert {r["runs_out"] for r in rows if r["lpar"] == "TEST"} == {str(test_runs_out)}
    book = api.get(f"/api/v1/plans/{plan['id']}/result.xlsx?table=lpars")
    assert book.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(book.content)).active
    assert sheet.max_row == 1 + YEARS * per_period
    assert api.get(f"/api/v1/plans/{plan['id']}/result.csv?table=nope").status_code == 400
    # The periods table keeps one row per candidate and period.
    lines = api.get(f"/api/v1/plans/{plan['id']}/result.csv").content.decode().strip().splitlines()
    assert len(lines) == 1 + 2 * YEARS


def test_the_pdf_shows_the_machine_its_lpars_and_run_outs(
    api: Any, planned: tuple[dict[str, Any], dict[str, Any]], tmp_path: Any
) -> None:
    _, plan = planned
    response = api.get(f"/api/v1/plans/{plan['id']}/report.pdf")
    assert response.status_code == 200
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "plan-cec.pdf").write_bytes(response.content)  # to look at (pdftoppm), git-ignored
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=response.content, capture_output=True,
                          check=True).stdout.decode()  # fmt: skip
    flat = " ".join(text.split())
    mine = plan["result"]["candidates"][1]
    assert "Production z15 (8561-710), LPAR PROD" in flat
    assert "CICS TS V5.3" in flat or "CICS Transaction Server" in flat  # product names, not slugs
    assert plan["result"]["recommendation"]["sentence"] in flat
    for o in mine["lpar_runs_out"]:
        who = o["name"] or "The CEC"
        when = "lasts the horizon" if o["period"] is None else f"year {o['period']} ({o['engine']}s)"
        assert f"{who}: {when}" in flat, (who, when)
    assert "busy zIIPs per period, stacked by LPAR" in flat and "busy CPs per period, stacked by LPAR" in flat


def test_a_zec12_machine_names_its_specialty_engines_zaaps(api: Any, tmp_path: Any) -> None:
    # z10..zEC12 run eligible Java work on zAAPs: the machine's pool is named so in the answer,
    # the LPAR table and the PDF (the engine rules of benchmarks/engine_rules.yaml).
    zec12 = {
        "name": "Old zEC12", "model": "2827-706", "ziips": 2, "as_of": "2026-11-20",
        "lpars": [
            {"name": "PROD", "cp": {"logical": 4, "weight": 600, "busy_pct": 50.0},
             "ziip": {"logical": 2, "weight": 600, "busy_pct": 20.0}},
            {"name": "TEST", "cp": {"logical": 2, "weight": 400, "busy_pct": 30.0},
             "ziip": {"logical": 1, "weight": 400, "busy_pct": 10.0}},
        ],
    }  # fmt: skip
    cec = _create_cec(api, zec12)
    body = {"name": "zEC12", "horizon_years": 2, "workloads": [{**CICSTS, "tps": 500}],
            "candidates": [{"cec": cec["id"], "lpar": "PROD", "lpar_growth": {"TEST": 10}}]}  # fmt: skip
    plan = _plan(api, body)
    (mine,) = plan["result"]["candidates"]
    assert mine["specialty"] == "zAAP"
    assert {r["engine"] for q in mine["periods"] for r in q["lpars"]} == {"CP", "zAAP"}
    rows = list(
        csv.DictReader(io.StringIO(api.get(f"/api/v1/plans/{plan['id']}/result.csv?table=lpars").content.decode()))
    )
    assert {r["engine"] for r in rows} == {"CP", "zAAP"}
    response = api.get(f"/api/v1/plans/{plan['id']}/report.pdf")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "plan-cec-zec12.pdf").write_bytes(response.content)  # to look at, git-ignored
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=response.content, capture_output=True,
                          check=True).stdout.decode()  # fmt: skip
    flat = " ".join(text.split())
    assert "2827-706 (IBM zEnterprise EC12), 6 CPs, 2 zAAPs" in flat and "Busy zAAPs" in flat
    assert (
        "busy zAAPs per period" in flat and "zAAPs CP busy zAAP" in flat and "CP and zAAP utilisation" in flat
    )  # the per-period table's header


DOC = Path(__file__).resolve().parents[2] / "docs" / "plans.md"


def _doc_lines(plan: dict[str, Any]) -> list[str]:
    """docs/plans.md's worked example of a machine candidate, rebuilt from the plan's answer."""
    from sizing.jobs.plan_cec import MachineCandidate
    from sizing.reports.plan_cec import run_out_lines

    result = plan["result"]
    model, mine = result["candidates"]
    m = MachineCandidate.from_dict(mine)
    labels = [p["label"] for p in result["periods"]]
    lines = [f"- {line}" for line in run_out_lines(m, labels)]
    for label, q in zip(labels, m.periods, strict=True):
        at = {(x.name, x.pool): x for x in q.lpars}
        prod, test, cp = at[("PROD", "cp")], at[("TEST", "cp")], q.pools[0]
        lines.append(
            f"| {label} | {prod.busy:.2f} ({prod.busy_low:.2f} to {prod.busy_high:.2f}) | {prod.ceiling_of_share:.2f} | "
            f"{test.busy:.2f} | {test.ceiling_of_share:.2f} | {cp.busy:.2f} | {cp.capacity:.2f} | "
            f"{'yes' if q.holds else 'no'} |"
        )
    first = next(q for q in m.periods if not q.holds)
    lines += [*first.reasons, *(f"- {c}" for c in first.changes)]
    for c in (model, mine):
        runs = "lasts the horizon" if c["runs_out"] is None else labels[c["runs_out"] - 1].lower()
        lines.append(f"| {c['label']} | {c['models'][0]['msu_installed']:,.0f} | {runs} |")
    lines.append(f"*{result['recommendation']['sentence']}*")
    return lines


def test_the_worked_example_in_docs_plans_md(api: Any, planned: tuple[dict[str, Any], dict[str, Any]]) -> None:
    _, plan = planned
    doc = DOC.read_text(encoding="utf-8")
    missing = [line for line in _doc_lines(plan) if line not in doc]
    assert not missing, "docs/plans.md does not print:\n" + "\n".join(missing)


@pytest.mark.django_db(transaction=True)
def test_on_workers_the_machine_is_a_chunk_assembled_as_an_unsplit_run(
    user: Any, settings: Any, reload_benchmarks: None
) -> None:
    from sizing.jobs.plan import run_plan
    from sizing.services.cecs import cec_create
    from sizing.services.jobs import job_run
    from sizing.services.plans import plan_create
    from tests.celery_worker import purge_queue, unique_queue

    settings.ZSIZER_PLAN_INLINE_EVALUATIONS = 0
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.ZSIZER_TASK_QUEUE = unique_queue()
    try:
        row = cec_create(user=user, data=EXAMPLE)
        body = {**_body(row.pk), "horizon_years": 2}
        plan = plan_create(user=user, data=body)
        job_run(job_id=plan.job_id, hostname="w1")
        chunks = list(Job.objects.filter(parent_id=plan.job_id).order_by("pk"))
        assert [c.params["candidate"] for c in chunks] == [0, 1]
        for chunk in reversed(chunks):
            job_run(job_id=chunk.pk, hostname="w2")
        plan.job.refresh_from_db()
        assert plan.job.result == run_plan(params=plan.job.params, owner=user, progress=lambda *_: None)
        assert plan.job.result["candidates"][1]["kind"] == "cec" and "lpar_table" in plan.job.result
    finally:
        purge_queue(settings.ZSIZER_TASK_QUEUE)


def test_a_candidate_neither_text_nor_a_machine_is_a_400(api: Any) -> None:
    body = {"name": "bad", "horizon_years": 2, "workloads": [WORKLOAD], "candidates": ["8561-710", 7]}
    response = api.post("/api/v1/plans/", body, format="json")
    assert response.status_code == 400
    assert response.json()["candidates"]["1"] == [
        "Give a model (3931-708), a machine (z17), or one of your machines {cec, lpar, lpar_growth}."
    ]


def test_a_period_past_a_workloads_software_limit_does_not_hold_on_the_machine(api: Any, user: Any) -> None:
    # The placement's rule (a workload at or beyond its own software limit does not fit, whatever
    # the share) carried into the plan: the year past FiTeq multi-region's software station does
    # not hold, its reason is the software limit, its one change says more instances or regions.
    from sizing.services.estimates import estimate_compute

    fiteq = {"path": "fiteq-authenticator", "configuration": "multi-region"}
    cec = _create_cec(
        api, {"name": "big", "model": "8561-720", "lpars": [{"name": "ALL", "cp": {"logical": 20, "weight": 10}}]}
    )
    _, _, est = estimate_compute(user=user, inputs={**fiteq, "model": "8561-720", "tps": 10_000, "cps": 20, "ziips": 0})
    assert est["saturation_binding"]["resource"] == "software"
    limit = est["max_utilization"] * est["saturation_tps"]  # the station held to the ceiling
    body = {"name": "HSM", "horizon_years": 2,
            "workloads": [{**fiteq, "tps": limit * 0.95, "peak_ratio": 1.0, "growth_pct": 10}],
            "candidates": [{"cec": cec["id"], "lpar": "ALL"}]}  # fmt: skip
    plan = _plan(api, body)["result"]
    (mine,) = plan["candidates"]
    first, second = mine["periods"]
    assert first["holds"] and first["reasons"] == [] and first["changes"] == []
    assert not second["holds"] and [r["code"] for r in second["reasons"]] == ["software-limit"]
    assert f"{math.floor(limit):,} TPS" in second["reasons"][0]["message"]  # rounded down: it fits
    (change,) = second["changes"]
    assert "instances or regions" in change
    assert plan["recommendation"]["binding"] == ["software-limit"]


def test_a_listed_model_older_than_your_machine_is_recommended_saying_so(api: Any, settings: Any) -> None:
    # Your machine is a z15 (8561-710); you list two z14 models (3906), each lasting the horizon
    # with fewer installed MSU (the LSPR rows): the cheapest is recommended, because you listed it,
    # and the answer says it is of an older generation than your machine (docs/plans.md).
    settings.ZSIZER_PLAN_INLINE_EVALUATIONS = 3 * YEARS
    cec = _create_cec(api, EXAMPLE)
    body = {**_body(cec["id"]), "candidates": ["3906-706", "3906-710", {"cec": cec["id"], "lpar": "PROD"}]}
    result = _plan(api, body)["result"]
    lasting = sorted(
        (CapacityRating.objects.get(model=m["model"]).msu, m["model"])
        for c in result["candidates"] for m in c["models"] if all(m["holds"])
    )  # fmt: skip
    rec = result["recommendation"]
    assert (rec["kind"], rec["model"]) == ("single", lasting[0][1]) and lasting[0][1].startswith("3906-")
    rating = CapacityRating.objects.get(model=rec["model"])
    assert rating.machine.slug == "z14" and CapacityRating.objects.get(model="8561-710").machine.slug == "z15"
    assert rec["sentence"].endswith(
        f" {rec['model']} is a z14, an older generation than your {EXAMPLE['name']} (8561-710, z15): "
        "it is recommended because you listed it as a candidate."
    )
    # With the machine's own generation only, there is nothing older to say.
    same = _plan(api, _body(cec["id"]))["result"]["recommendation"]
    assert "older generation" not in same["sentence"]
