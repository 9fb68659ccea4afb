"""Capacity plans: every period is the ``mix`` job's answer at that period's peaks (and, for one
workload, the estimate's), the run-out periods and the recommendation follow from those answers,
and the API stores, shows, lists, deletes and exports a plan only to its owner.

The test plan is the issue's: z/OS Connect (2,000 TPS average, peak 1.5x, +25 %/year) and
CICS TS V5.3 (60,000 TPS, peak 1.3x, +10 %/year) on z16 and z17 candidates over 5 years.  The
expected values are computed here from the mix job (``run_mix``), the estimate service and the
LSPR rows of the stored reference data, never typed in.
"""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from numpy.testing import assert_allclose

from sizing.jobs.mix import run_mix
from sizing.models import CapacityRating, Configuration, Job, Machine, Plan
from sizing.services.estimates import estimate_compute

pytestmark = pytest.mark.django_db

ZOSCONNECT = {"path": "zosconnect-cics", "configuration": "channel"}
CICSTS = {"path": "cicsts-catalog", "configuration": "v5.3"}
WORKLOADS = [
    {**ZOSCONNECT, "tps": 2000, "peak_ratio": 1.5, "growth_pct": 25},
    {**CICSTS, "tps": 60000, "peak_ratio": 1.3, "growth_pct": 10},
]
YEARS = 5
#: z16 (3931) and z17 (9175) models around what the workloads need over the horizon, and the
#: "which model fits" of each generation.
MODELS = ["3931-706", "3931-708", "3931-710", "9175-706", "9175-708", "9175-710"]
GENERATIONS = ["z16", "z17"]
PLAN = {"name": "API layer and CICS", "horizon_years": YEARS, "workloads": WORKLOADS, "candidates": MODELS,
        "generations": GENERATIONS}  # fmt: skip
MACHINE = {"3931": "z16", "9175": "z17"}


def peaks(year: int, workloads: list[dict[str, Any]] = WORKLOADS) -> list[float]:
    """The issue's definition: today's average, grown by growth_pct a year (year 1 is today's
    volume), times the peak-to-average ratio."""
    return [w["tps"] * (1 + w["growth_pct"] / 100) ** (year - 1) * w["peak_ratio"] for w in workloads]


def mix(user: Any, machine: str, year: int, cps: int | None = None, workloads: Any = WORKLOADS) -> dict[str, Any]:
    params: dict[str, Any] = {
        "machine": machine,
        "workloads": [
            {"path": w["path"], "configuration": w["configuration"], "tps": t}
            for w, t in zip(workloads, peaks(year, workloads), strict=True)
        ],
    }
    if cps is not None:
        params["cps"] = cps
    return run_mix(params=params, owner=user, progress=lambda done, total: None)


def carries(answer: dict[str, Any]) -> bool:
    """The mix job's LPAR carries the peaks: no warning (CPs within the ceiling, a CP count found)
    and every pool below saturation (the rates may still grow: saturation_scale > 1)."""
    return not answer["warnings"] and answer["combined"]["saturation_scale"] > 1.0


def first_false(flags: list[bool]) -> int | None:
    return next((i + 1 for i, ok in enumerate(flags) if not ok), None)


def _create(api: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = api.post("/api/v1/plans/", body, format="json")
    assert response.status_code == 201, response.content
    out: dict[str, Any] = response.json()
    return out


@pytest.fixture(name="answered")
def fixture_answered(api: Any, settings: Any) -> dict[str, Any]:
    settings.ZSIZER_PLAN_INLINE_EVALUATIONS = len(MODELS + GENERATIONS) * YEARS * len(WORKLOADS)
    return _create(api, PLAN)


def test_each_year_of_the_plan_is_the_mix_job_at_that_years_peaks(user: Any, answered: dict[str, Any]) -> None:
    result = answered["result"]
    assert answered["status"] == "succeeded" and len(result["candidates"]) == len(MODELS) + len(GENERATIONS)
    for year, period in enumerate(result["periods"], start=1):
        assert_allclose([w["tps_peak"] for w in period["workloads"]], peaks(year), rtol=1e-12)
    for candidate in result["candidates"]:
        for year, q in enumerate(candidate["periods"], start=1):
            ref = mix(user, candidate["machine"], year, candidate.get("cps"))
            assert (q["cps"], q["ziips"]) == (ref["cps"], ref["ziips"]), (candidate["label"], year)
            combined = ref["combined"]
            assert_allclose(q["gcp_busy"], combined["gcp_busy"], rtol=1e-9)
            assert_allclose(q["ziip_busy"], combined["ziip_busy"], rtol=1e-9)
            assert_allclose(q["gcp_utilization"], combined["gcp_utilization"], rtol=1e-9)
            assert_allclose(q["msu_consumed"], combined["msu"], rtol=1e-9)
            for mine, theirs in zip(q["workloads"], ref["workloads"], strict=True):
                assert_allclose(
                    [mine["gcp_busy"], mine["ziip_busy"]], [theirs["gcp_busy"], theirs["ziip_busy"]], rtol=1e-9
                )
            assert q["holds"] == carries(ref), (candidate["label"], year)


def test_run_out_year_of_each_candidate_is_the_first_year_the_mix_job_does_not_carry(
    user: Any, answered: dict[str, Any]
) -> None:
    outs = {}
    for candidate in answered["result"]["candidates"]:
        cps = candidate.get("cps")
        flags = [carries(mix(user, candidate["machine"], y, cps)) for y in range(1, YEARS + 1)]
        assert candidate["runs_out"] == first_false(flags), candidate["label"]
        outs[candidate["label"]] = candidate["runs_out"]
        span = candidate["runs_out_range"]
        # The range brackets the central answer: the high-cost end runs out no later, the low end no earlier.
        never = YEARS + 1
        assert (span["earliest"] or never) <= (candidate["runs_out"] or never) <= (span["latest"] or never)
    # The plan discriminates: some fixed model runs out within the horizon, a fitted generation does not.
    assert any(outs[m] is not None for m in MODELS)
    # a generation's candidate is named by its machine's product name ("IBM z16 A01"), never its slug
    assert all(outs[f"{Machine.objects.get(slug=g).name} (model that fits)"] is None for g in GENERATIONS)


def test_recommendation_is_the_least_msu_years_from_the_mix_answers(user: Any, answered: dict[str, Any]) -> None:
    """Options: every model candidate, and every CP count a generation sizes in some year, each
    with its installed MSU (the LSPR row) and the years the mix job says it carries."""
    options: dict[str, tuple[float, list[bool]]] = {}
    for model in MODELS:
        machine_type, cps = model.split("-")[0], int(model.split("-")[1][1:])
        flags = [carries(mix(user, MACHINE[machine_type], y, cps)) for y in range(1, YEARS + 1)]
        options[model] = (CapacityRating.objects.get(model=model).msu, flags)
    for machine in GENERATIONS:
        counts = {mix(user, machine, y)["cps"] for y in range(1, YEARS + 1)}
        for c in counts:
            rating = CapacityRating.objects.get(machine__slug=machine, capacity_setting="700", cps=c)
            flags = [carries(mix(user, machine, y, c)) for y in range(1, YEARS + 1)]
            options.setdefault(rating.model, (rating.msu, flags))
    # One model for the whole horizon: MSU x years.
    single = min((msu * YEARS, name) for name, (msu, flags) in options.items() if all(flags))
    # Model A for years 1..N-1, model B (more MSU, not of an older generation) for years N..5.
    upgrades = [
        (ma * (n - 1) + mb * (YEARS - n + 1), a, b, n)
        for a, (ma, fa) in options.items()
        for b, (mb, fb) in options.items()
        if ma < mb and not _backwards(a, b)
        for n in range(2, YEARS + 1)
        if all(fa[: n - 1]) and all(fb[n - 1 :])
    ]
    best_upgrade = min(upgrades)
    rec = answered["result"]["recommendation"]
    if best_upgrade[0] < single[0]:
        assert (rec["kind"], rec["model"], rec["upgrade_to"], rec["upgrade_period"]) == ("upgrade", *best_upgrade[1:])
        assert_allclose(rec["msu_years"], best_upgrade[0], rtol=1e-12)
    else:
        assert (rec["kind"], rec["model"]) == ("single", single[1])
        assert_allclose(rec["msu_years"], single[0], rtol=1e-12)
    assert_allclose(rec["single"]["msu_years"], single[0], rtol=1e-12)


def _backwards(a: str, b: str) -> bool:
    """Model ``b`` is of an older generation than model ``a`` (the seed's machine types: z16 3931, z17 9175)."""
    generation = {name: CapacityRating.objects.get(model=name).machine.slug for name in (a, b)}
    return int(generation[b][1:]) < int(generation[a][1:])


def test_an_upgrade_never_goes_back_a_generation(api: Any, settings: Any) -> None:
    # 9175-708 (z17) carries years 1-2 and 3931-720 (z16) every year: 9175-708 then 3931-720 from
    # year 3 costs the least MSU-years of all pairs, but moving from a z17 to a z16 is no upgrade
    # a capacity planner signs (docs/plans.md); the plan picks the cheapest pair that does not go back.
    models = ["9175-708", "3931-716", "3931-720"]
    settings.ZSIZER_PLAN_INLINE_EVALUATIONS = len(models) * YEARS * len(WORKLOADS)
    result = _create(api, {**PLAN, "candidates": models, "generations": []})["result"]
    options = {m["model"]: (CapacityRating.objects.get(model=m["model"]).msu, m["holds"])
               for c in result["candidates"] for m in c["models"]}  # fmt: skip
    pairs = sorted(
        (ma * (n - 1) + mb * (YEARS - n + 1), a, b, n)
        for a, (ma, fa) in options.items()
        for b, (mb, fb) in options.items()
        if ma < mb
        for n in range(2, YEARS + 1)
        if all(fa[: n - 1]) and all(fb[n - 1 :])
    )
    assert _backwards(*pairs[0][1:3]), pairs[0]  # the cheapest pair goes from a z17 back to a z16
    forward = next(p for p in pairs if not _backwards(p[1], p[2]))
    single = min(msu * YEARS for msu, flags in options.values() if all(flags))
    assert forward[0] < single
    rec = result["recommendation"]
    assert (rec["kind"], rec["model"], rec["upgrade_to"], rec["upgrade_period"]) == ("upgrade", *forward[1:])
    assert_allclose(rec["msu_years"], forward[0], rtol=1e-12)


@pytest.mark.parametrize("objective", [None, "fewest-cps"])
def test_a_plan_of_one_workload_is_its_estimate_every_year(user: Any, api: Any, objective: str | None) -> None:
    # The mix of each period's LPAR is the estimate's, with the same objective (issue 22 item 4).
    workloads = [WORKLOADS[0]]
    body = {"name": "API layer", "horizon_years": YEARS, "workloads": workloads, "generations": ["z16"]}
    plan = _create(api, body if objective is None else {**body, "objective": objective})
    (candidate,) = plan["result"]["candidates"]
    chosen = {} if objective is None else {"objective": objective}
    for year, q in enumerate(candidate["periods"], start=1):
        (tps,) = peaks(year, workloads)
        _, _, est = estimate_compute(user=user, inputs={**ZOSCONNECT, "machine": "z16", "tps": tps, **chosen})
        assert (q["cps"], q["ziips"]) == (est["cps_required"], est["ziips"])
        assert_allclose(q["gcp_utilization"], est["gcp_utilization"], rtol=1e-9)
        assert_allclose(q["gcp_busy"], est["busy_cps"]["gcp"], rtol=1e-9)
        assert_allclose(q["ziip_busy"], est["busy_cps"]["ziip"], rtol=1e-9)
        assert_allclose(q["msu_consumed"], est["msu"], rtol=1e-9)


def test_quarters_and_growth_in_tps_per_period(api: Any) -> None:
    workload = {**CICSTS, "tps": 10000, "peak_ratio": 1.2, "growth_tps": 500}
    plan = _create(api, {"name": "q", "horizon_quarters": 6, "workloads": [workload], "candidates": ["3931-702"]})
    got = [p["workloads"][0]["tps_peak"] for p in plan["result"]["periods"]]
    # (average + 500 TPS a quarter after the first) x 1.2
    assert_allclose(got, [(10000 + 500 * (q - 1)) * 1.2 for q in range(1, 7)], rtol=1e-12)
    assert plan["period"] == "quarter" and plan["result"]["periods"][0]["label"] == "Quarter 1"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**PLAN, "workloads": [WORKLOADS[0], {**CICSTS, "tps": -1}]}, ("workloads", "1", "tps")),
        ({**PLAN, "workloads": [{**WORKLOADS[0], "path": "no-such-path"}]}, ("workloads", "0", "path")),
        ({**PLAN, "workloads": [{**WORKLOADS[0], "peak_ratio": 0.5}]}, ("workloads", "0", "peak_ratio")),
        ({**PLAN, "workloads": [{**WORKLOADS[0], "growth_tps": 5}]}, ("workloads", "0", "growth_tps")),
        ({**PLAN, "candidates": ["3931-708", "9999-701"], "generations": []}, ("candidates", "1")),
        ({**PLAN, "candidates": [], "generations": []}, ("candidates",)),
        ({k: v for k, v in PLAN.items() if k != "horizon_years"}, ("horizon_years",)),
        ({**PLAN, "horizon_quarters": 4}, ("horizon_years",)),
        ({**PLAN, "max_utilization": 1.5}, ("max_utilization",)),
        ({**PLAN, "cps": 4}, ("cps",)),
    ],
)
def test_bad_plans_answer_400_naming_the_field_and_store_nothing(
    api: Any, body: dict[str, Any], field: tuple[Any, ...]
) -> None:
    response = api.post("/api/v1/plans/", body, format="json")
    assert response.status_code == 400, response.content
    errors: Any = response.json()
    for key in field:
        errors = errors[key]
    assert errors and all(isinstance(m, str) and m for m in errors)
    assert not Plan.objects.exists() and not Job.objects.exists()


def test_only_the_owner_sees_lists_exports_or_deletes_a_plan(
    api: Any, other_user: Any, answered: dict[str, Any]
) -> None:
    from rest_framework.test import APIClient

    other = APIClient()
    other.force_authenticate(other_user)
    pk = answered["id"]
    for url in (f"/api/v1/plans/{pk}/", f"/api/v1/plans/{pk}/report.pdf", f"/api/v1/plans/{pk}/result.csv"):
        assert other.get(url).status_code == 404
    assert other.delete(f"/api/v1/plans/{pk}/").status_code == 404
    assert other.get("/api/v1/plans/").json()["count"] == 0
    _create(api, {**PLAN, "name": "second", "candidates": ["3931-708"], "generations": []})
    with CaptureQueriesContext(connection) as queries:
        listed = api.get("/api/v1/plans/").json()
    assert listed["count"] == 2 and "result" not in listed["results"][0]
    assert len(queries) <= 4  # session/token, count, page (plans with their jobs): not one per plan
    assert api.delete(f"/api/v1/plans/{pk}/").status_code == 204
    assert api.get(f"/api/v1/plans/{pk}/").status_code == 404
    assert not Job.objects.filter(pk__in=Plan.objects.values("job")).exclude(plan__name="second").exists()
    # A plan's job is seen through its plan, not among the owner's jobs.
    assert api.get("/api/v1/jobs/").json()["count"] == 0


def test_the_csv_has_a_row_per_candidate_and_year(api: Any, answered: dict[str, Any]) -> None:
    response = api.get(f"/api/v1/plans/{answered['id']}/result.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().strip().splitlines()
    assert lines[0].startswith("candidate,period,label,model,cps,ziips")
    assert len(lines) == 1 + (len(MODELS) + len(GENERATIONS)) * YEARS


def test_the_pdf_states_the_recommendation(api: Any, answered: dict[str, Any], tmp_path: Any) -> None:
    response = api.get(f"/api/v1/plans/{answered['id']}/report.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = tmp_path / "plan.pdf"
    pdf.write_bytes(response.content)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, check=True, text=True).stdout
    flat = " ".join(text.split())
    rec = answered["result"]["recommendation"]
    assert rec["sentence"] in flat
    for model in MODELS:
        assert model in flat
    # Each workload's basis: the engine's notes (z/OS Connect's bounds; CICS TS is the LPAR from
    # the overhead REDP-5320 states, so no cics-only note) as the answer carries them.
    notes = {n["code"] for basis in answered["result"]["candidates"][0]["basis"] for n in basis}
    assert "bounds-only" in notes and "cics-only" not in notes
    assert all(code in flat for code in notes)
    # each candidate's run-out over the engine's cost range in words (it printed "year 1 .. beyond"
    # and "beyond .. beyond"): the periods' labels, "beyond the horizon" past the last
    labels = [str(p["label"]).lower() for p in answered["result"]["periods"]]
    assert " .. " not in flat
    for c in answered["result"]["candidates"]:
        low, high = (c["runs_out_range"].get(k) for k in ("earliest", "latest"))
        if low is None:
            words = "lasts the horizon"
        else:
            words = (
                labels[low - 1]
                if low == high
                else f"{labels[low - 1]} to {labels[high - 1] if high else 'beyond the horizon'}"
            )
        assert words in flat, (c["label"], words)


def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0 -> JSON Schema: ``nullable: true`` becomes a null alternative."""
    if isinstance(node, list):
        return [_json_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _json_schema(v) for k, v in node.items() if k != "nullable"}
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def test_the_answer_matches_its_openapi_schema_field_by_field(api: Any, answered: dict[str, Any]) -> None:
    """The generated schema closes every object (additionalProperties: false), so a field of the
    answer it does not describe, or a type it gets wrong, fails here."""
    import jsonschema

    schema = api.get("/api/schema/?format=json").json()
    components = _json_schema(schema["components"])
    body = api.get(f"/api/v1/plans/{answered['id']}/").json()
    jsonschema.validate(body, {"$ref": "#/components/schemas/PlanDetail", "components": components})
    assert components["schemas"]["PlanResult"]["additionalProperties"] is False


def test_a_software_limit_is_advised_more_instances_not_a_larger_machine(user: Any, api: Any) -> None:
    # Issue 32 items 8 and 10: FiTeq multi-region saturates its software station (the wait for a
    # free HSM channel, REDP-5114 sec. 11.3) whatever the CPs. A peak past that limit on every
    # candidate is raised by more instances or regions, never by "larger candidates".
    fiteq = {"path": "fiteq-authenticator", "configuration": "multi-region"}
    _, _, est = estimate_compute(user=user, inputs={**fiteq, "machine": "z17", "tps": 10000})
    assert est["feasibility"]["reason"] == "software-limit"  # the estimate names the same resource
    body = {"name": "HSM", "horizon_years": 2, "workloads": [{**fiteq, "tps": 10000, "peak_ratio": 1.0}],
            "candidates": ["9175-710"], "generations": ["z17"]}  # fmt: skip
    plan = _create(api, body)
    rec = plan["result"]["recommendation"]
    assert rec["kind"] == "none" and rec["binding"] == ["software-limit"]
    assert "instances or regions" in rec["sentence"] and "larger candidates" not in rec["sentence"]
    # Each candidate's reason names the workload by its product's names (the reference data's), not its slugs.
    config = Configuration.objects.get(path__slug=fiteq["path"], slug=fiteq["configuration"])
    for c in plan["result"]["candidates"]:
        messages = [r["message"] for q in c["periods"] for r in q["reasons"] if r["code"] == "software-limit"]
        assert messages and all(
            m.startswith(f"{config.path.name}, {config.name} runs its own software station") for m in messages
        )
        assert not any("fiteq-authenticator" in m for m in messages)
    # A peak the CPs cannot carry (CICS TS at 2,000,000 TPS) still asks for larger machines.
    body = {"name": "big", "horizon_years": 2, "workloads": [{**CICSTS, "tps": 2_000_000, "peak_ratio": 1.0}],
            "candidates": ["9175-702"]}  # fmt: skip
    rec = _create(api, body)["result"]["recommendation"]
    assert rec["kind"] == "none" and "software-limit" not in rec["binding"]
    assert "larger candidates" in rec["sentence"] and "instances" not in rec["sentence"]


def test_each_candidate_names_its_generations_specialty_engine(api: Any, tmp_path: Any) -> None:
    # z10..zEC12 run eligible Java work on zAAPs, later machines on zIIPs (the engine rules of
    # benchmarks/engine_rules.yaml, as every estimate names them): each candidate says which, and
    # the PDF's chart of a zEC12 model says zAAPs; a table of both says neither.
    from sizing.services.cecs import specialty_name

    body = {
        "name": "zEC12 or z16",
        "horizon_years": 2,
        "workloads": WORKLOADS[:1],
        "candidates": ["2827-708", "3931-708"],
    }
    plan = _create(api, body)
    got = {c["label"]: c["specialty"] for c in plan["result"]["candidates"]}
    assert got == {"2827-708": specialty_name("2827"), "3931-708": specialty_name("3931")}
    assert got == {"2827-708": "zAAP", "3931-708": "zIIP"}
    pdf = tmp_path / "plan.pdf"
    pdf.write_bytes(api.get(f"/api/v1/plans/{plan['id']}/report.pdf").content)
    flat = " ".join(
        subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, check=True, text=True).stdout.split()
    )
    assert "2827-708: busy CPs and zAAPs per period" in flat and "3931-708: busy CPs and zIIPs per period" in flat
    assert "CP and specialty engine utilisation ceiling" in flat and "Model CPs zAAPs or zIIPs CP busy" in flat
