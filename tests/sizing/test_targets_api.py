"""Targets beyond the measured machines (issue 11): every model of the zPCR export, sub-capacity
and midrange settings, MIPS and MSU, through the estimate API, the batch job and the job params."""

from __future__ import annotations

import csv
from typing import Any

import pytest
from numpy.testing import assert_allclose

from sizing.models import CapacityRating, Estimate
from tests.models_lib import published as P

pytestmark = pytest.mark.django_db

# z/OS Connect EE V3.0 (seed 000) was measured on "IBM System z13 2964-NE1 model 7A5" (machine
# type 2964), with an eligible (zIIP) share published for the server.
ZOSCONNECT = {"path": "zosconnect-cics", "configuration": "channel"}


def _get(api: Any, **params: Any) -> Any:
    return api.get("/api/v1/estimate", params)


def test_every_csv_row_is_served_by_the_capacity_api(api: Any) -> None:
    with (P.BENCHMARKS / "lspr_zpcr_configuration_summary.csv").open(encoding="utf-8", newline="") as fh:
        expected = {(r["model"], float(r["mips"]), float(r["msu"])) for r in csv.DictReader(fh)}
    served = set()
    url: str | None = "/api/v1/capacity-ratings/?page_size=1000"
    while url:
        page = api.get(url).json()
        served |= {(r["model"], r["mips"], r["msu"]) for r in page["results"]}
        url = page["next"]
    assert len(expected) == 2487 and served == expected


def test_model_target_fixes_machine_setting_and_cps(api: Any) -> None:
    response = _get(api, **ZOSCONNECT, model="3931-510", tps=800)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["inputs"]["machine"] == "z16" and body["inputs"]["model"] == "3931-510"
    assert body["inputs"]["capacity_setting"] == "500" and body["inputs"]["cps"] == 10
    cap = body["capacity"]
    # CSV: 3931-510,3931,z16,IBM Z z16/500,500,10,... ; the CP pool is the 5xx model's rating.
    rated = CapacityRating.objects.get(model="3931-510")
    assert (cap["model"], cap["capacity_setting"], cap["cps"]) == ("3931-510", "500", 10)
    assert (cap["cp"]["mips_installed"], cap["cp"]["msu_installed"]) == (rated.mips, rated.msu)
    # Specialty engines run at full speed: rated at 3931-710's MIPS per CP.
    full = CapacityRating.objects.get(model="3931-710")
    assert_allclose(cap["basis"]["to_full_speed_mips"], full.mips)
    assert_allclose(body["basis"]["projection"]["specialty_factor"] / body["basis"]["projection"]["factor"],
                    rated.mips / full.mips, rtol=1e-12)  # fmt: skip


def test_sub_capacity_needs_more_cps_than_full_speed_for_the_same_work_and_ziips(api: Any) -> None:
    # FiTeq multi-region (REDP-5114, zEC12) at 7,000 TPS on a z16 A01 (its software station within
    # the 85 % ceiling, 8,000 TPS would not fit on any CPs): the same work and the
    # same (zero) zIIPs; the slower the CP setting, the more CPs, for about the same MSU used.
    fiteq = {"path": "fiteq-authenticator", "configuration": "multi-region", "tps": 7000}
    answers = {s: _get(api, **fiteq, machine="z16", capacity_setting=s).json() for s in ("700", "6xx", "5xx")}
    cps = [answers[s]["cps_required"] for s in ("700", "6xx", "5xx")]
    assert cps[0] < cps[1] < cps[2], cps
    assert {a["ziips_required"] for a in answers.values()} == {0}
    assert [answers[s]["capacity"]["capacity_setting"] for s in ("700", "6xx", "5xx")] == ["700", "600", "500"]
    # MSU measure work, not CP speed: within 1 % of each other (the MP effect of the CP count).
    msu = [a["msu"] for a in answers.values()]
    assert max(msu) / min(msu) < 1.01, msu
    # No 4xx model (at most 39 CPs) carries it: the answer says it does not fit.
    slow = _get(api, **fiteq, machine="z16", capacity_setting="4xx").json()
    assert slow["cps_required"] is None


def test_sub_capacity_changes_cp_work_only(api: Any) -> None:
    # Same CPs, same zIIPs: the zIIP work (full speed) is identical, the CP work is scaled by
    # MIPS(3931-710) / MIPS(3931-510) (LSPR per-CP ratio at 10 CPs), also once both are rated at
    # the configuration's 16 engines (the MP effect: the setting's speed at the CP count).
    full = _get(api, **ZOSCONNECT, model="3931-710", tps=1500, ziips=6).json()
    sub = _get(api, **ZOSCONNECT, model="3931-510", tps=1500, ziips=6).json()
    assert sub["ziips"] == full["ziips"] == 6
    assert full["capacity"]["basis"]["mp_engines"] == sub["capacity"]["basis"]["mp_engines"] == 16
    assert_allclose(sub["busy_cps"]["ziip"], full["busy_cps"]["ziip"], rtol=1e-12)
    ratio = CapacityRating.objects.get(model="3931-710").mips / CapacityRating.objects.get(model="3931-510").mips
    assert_allclose(sub["busy_cps"]["gcp"], full["busy_cps"]["gcp"] * ratio, rtol=1e-12)
    assert_allclose(sub["basis"]["projection"]["factor"], full["basis"]["projection"]["factor"] * ratio, rtol=1e-12)


def test_midrange_model_target(api: Any) -> None:
    body = _get(api, **ZOSCONNECT, model="9176-d05", tps=50).json()
    assert body["capacity"]["model"] == "9176-D05" and body["capacity"]["cps"] == 5
    assert body["inputs"]["machine"] == "z17-9176" and body["inputs"]["capacity_setting"] == "D00"


def test_msu_grows_with_work(api: Any) -> None:
    rates = (200, 400, 800, 1600, 3200)
    # On one model, the MSU used (CP work only) grows with the rate.
    used = [_get(api, **ZOSCONNECT, model="3931-520", tps=t).json()["msu"] for t in rates]
    assert all(a < b for a, b in zip(used, used[1:], strict=False)), used
    # Sized, the model's installed MSU never falls as the rate grows.
    sized = [_get(api, **ZOSCONNECT, machine="z16", tps=t).json()["capacity"]["cp"]["msu_installed"] for t in rates]
    assert all(a <= b for a, b in zip(sized, sized[1:], strict=False)) and sized[0] < sized[-1], sized


def test_projection_to_the_measured_model_is_the_identity(api: Any) -> None:
    # The measured LPAR is 6 GCPs without zIIPs (z/OS Connect section 7.1): that configuration
    # is the identity; zIIPs beside the CPs rate the configuration at its total (the MP effect).
    body = _get(api, **ZOSCONNECT, machine="z13", tps=800).json()
    measured = body["basis"]["projection"]["from_cps"]
    same = _get(api, **ZOSCONNECT, machine="z13", cps=measured, ziips=0, tps=800).json()
    proj = same["basis"]["projection"]
    assert (proj["from_machine_type"], proj["to_machine_type"], proj["to_cps"]) == ("2964", "2964", measured)
    assert proj["factor"] == 1.0 and proj["specialty_factor"] == 1.0
    # Busy CPs on the target = the native demand on the measured LPAR.
    assert_allclose(same["busy_cps"]["total"], same["basis"]["native"]["busy_cps"], rtol=1e-12)
    sized = _get(api, **ZOSCONNECT, machine="z13", cps=measured, tps=800).json()
    total = sized["capacity"]["basis"]["mp_engines"]
    assert total == measured + sized["ziips"] > measured
    assert total < 100  # model capacity identifiers 2964-701..2964-799
    at_measured = CapacityRating.objects.get(model=f"2964-7{measured:02d}").mips / measured
    expected = at_measured / (CapacityRating.objects.get(model=f"2964-7{total:02d}").mips / total)
    assert_allclose(sized["basis"]["projection"]["factor"], expected, rtol=1e-12)


def test_z17_answer_basis_names_9175_and_the_seed_machine(api: Any) -> None:
    body = _get(api, **ZOSCONNECT, model="9175-710", tps=800).json()
    proj, cap = body["basis"]["projection"], body["capacity"]["basis"]
    assert (proj["from_machine_type"], proj["to_machine_type"]) == ("2964", "9175")
    assert cap["to_model"] == "9175-710" and cap["from_model"].startswith("2964-7")
    from_rating = CapacityRating.objects.get(model=cap["from_model"])
    to_rating = CapacityRating.objects.get(model="9175-710")
    assert (cap["from_mips"], cap["to_mips"]) == (from_rating.mips, to_rating.mips)
    # factor = (MIPS_from / N_from) / (MIPS_to(T) / T), LSPR per-engine ratio, the target rated at
    # the configuration's T = 10 CPs + its zIIPs (the MP effect; the seed's LPAR had no zIIPs)
    total = cap["mp_engines"]
    assert total == 10 + body["ziips"] and total < 100
    at_total = CapacityRating.objects.get(model=f"9175-7{total:02d}")
    assert_allclose(proj["factor"], (from_rating.mips / from_rating.cps) / (at_total.mips / total), rtol=1e-12)
    assert_allclose(cap["mp_factor"], (at_total.mips / total) / (to_rating.mips / to_rating.cps), rtol=1e-12)
    assert cap["source"] == proj["source"] and "LSPR" in cap["source"]


@pytest.mark.parametrize(
    ("params", "field", "words"),
    [
        ({"model": "3931-999"}, "model", ["3931-701..3931-7K0"]),
        ({"model": "zz"}, "model", ["3931-710", "9176-D05", "machine types rated"]),
        ({"machine": "z99"}, "machine", ["z16", "model capacity identifier"]),
        ({"machine": "z16", "capacity_setting": "800"}, "capacity_setting", ["400, 500, 600 or 700"]),
        ({"machine": "z16-a02", "capacity_setting": "500"}, "capacity_setting", ["A00..Z00"]),
        ({"machine": "z16", "capacity_setting": "500", "cps": 45}, "cps", ["3931-501..3931-539"]),
        ({"model": "3931-510", "cps": 12}, "cps", ["10 CPs"]),
        ({"model": "3931-510", "machine": "z17"}, "model", ["3931"]),
        ({}, "machine", ["model"]),
    ],
)
def test_bad_target_is_a_400_naming_the_field_and_stores_nothing(
    api: Any, params: dict[str, Any], field: str, words: list[str]
) -> None:
    before = Estimate.objects.count()
    response = api.post("/api/v1/estimates/", {**ZOSCONNECT, "tps": 800, **params}, format="json")
    assert response.status_code == 400, response.json()
    message = " ".join(response.json()[field])
    for word in words:
        assert word in message
    assert Estimate.objects.count() == before


def test_stored_estimate_keeps_the_model_and_matches_the_query(api: Any) -> None:
    created = api.post("/api/v1/estimates/", {**ZOSCONNECT, "model": "3931-610", "tps": 900}, format="json")
    assert created.status_code == 201, created.json()
    stored = created.json()
    queried = _get(api, **ZOSCONNECT, model="3931-610", tps=900).json()
    assert stored["inputs"]["model"] == "3931-610"
    for key in ("cps_required", "ziips_required", "msu", "mips", "saturation_tps", "capacity"):
        assert stored[key] == queried[key], key
    # The stored inputs ask the same question again.
    again = _get(api, **stored["inputs"]).json()
    assert again["msu"] == stored["msu"]


# -- jobs ----------------------------------------------------------------------------------------


def test_a_job_takes_a_model_as_its_machine_setting_and_cps(api: Any) -> None:
    from sizing.models import Job

    response = api.post(
        "/api/v1/jobs/",
        {"kind": "montecarlo", "params": {**ZOSCONNECT, "model": "3931-510", "tps": 900, "samples": 100}},
        format="json",
    )
    assert response.status_code == 202, response.json()
    params = Job.objects.get(pk=response.json()["id"]).params
    assert (params["machine"], params["capacity_setting"], params["cps"]) == ("z16", "500", 10)
    bad = api.post("/api/v1/jobs/", {"kind": "curve", "params": {**ZOSCONNECT, "model": "3931-5X0"}}, format="json")
    assert bad.status_code == 400 and "3931-501..3931-539" in bad.json()["params"]["model"][0]


def test_a_jobs_workload_sizes_at_the_setting_as_the_estimate_does(user: Any) -> None:
    from sizing.jobs.workload import load_workload_for
    from sizing.services.estimates import estimate_compute

    params = {**ZOSCONNECT, "machine": "z16", "capacity_setting": "500"}
    wm = load_workload_for(owner=user, params=params, tps=900)
    _, _, outputs = estimate_compute(user=user, inputs={**params, "tps": 900})
    assert wm.reference["cps_required"] == outputs["cps_required"]
    assert wm.reference["capacity"] == outputs["capacity"]
    assert outputs["capacity"]["capacity_setting"] == "500"


def test_a_batch_row_names_its_target_by_model(user: Any) -> None:
    from sizing.jobs.batch import run_batch
    from sizing.services.estimate_csv import spreadsheet_number
    from sizing.services.estimates import estimate_compute

    text = (
        "path,configuration,model,machine,capacity_setting,tps\n"
        "zosconnect-cics,channel,3931-510,,,900\n"
        "zosconnect-cics,channel,,z16,5xx,900\n"
        "zosconnect-cics,channel,3931-999,,,900\n"
    )

    def progress(done: float, total: float) -> None:
        pass

    result = run_batch(params={"csv": text}, owner=user, progress=progress)
    assert (result["succeeded"], result["failed"]) == (2, 1)
    rows = [dict(zip(result["table"]["columns"], r, strict=True)) for r in result["table"]["rows"]]
    _, _, outputs = estimate_compute(user=user, inputs={**ZOSCONNECT, "model": "3931-510", "tps": 900})
    assert rows[0]["capacity_model"] == "3931-510" and rows[0]["msu"] == spreadsheet_number(outputs["msu"])
    assert rows[1]["capacity_setting"] == "500"
    assert rows[2]["error"].startswith("model:") and "3931-701..3931-7K0" in rows[2]["error"]


# -- which model fits ----------------------------------------------------------------------------

#: 7,000 TPS: within the 85 % ceiling of the fitted software station (8,830 TPS).
FITEQ_7000 = {"path": "fiteq-authenticator", "configuration": "multi-region", "tps": 7000}


def test_fit_lists_the_smallest_model_per_setting_and_marks_the_cheapest_in_msu(api: Any) -> None:
    response = api.get("/api/v1/fit", {**FITEQ_7000, "generations": "z16"})
    assert response.status_code == 200, response.json()
    body = response.json()
    rows = body["rows"]
    assert {r["machine_type"] for r in rows} == {"3931", "3932"}  # z16 A01 and A02
    fitting = [r for r in rows if r["fits"]]
    cheapest = min(fitting, key=lambda r: r["msu"])
    assert body["cheapest"] == cheapest["model"] and cheapest["cheapest"] and cheapest["cheapest_in_generation"]
    by = {r["capacity_setting"]: r for r in rows if r["machine_type"] == "3931"}
    assert by["700"]["cps"] < by["600"]["cps"] < by["500"]["cps"] and not by["400"]["fits"]
    # Each row is the estimate of its model: the same CPs, MSU and saturation.
    for row in (by["700"], by["500"], cheapest):
        est = _get(api, **FITEQ_7000, model=row["model"]).json()
        assert est["cps_required"] == row["cps"]
        assert (est["msu"], est["saturation_tps"]) == (row["msu_used"], row["saturation_tps"])
        assert est["capacity"]["cp"]["msu_installed"] == row["msu"]


def test_a_fit_row_that_does_not_fit_says_why_and_the_most_its_setting_carries(api: Any) -> None:
    # Issue 22 item 3: z/OS Connect at 50,000 TPS answered 141 CPs + 282 zIIPs on z13; no z16
    # setting carries it now (3931-7K0: 200 engines, 2 zIIPs per CP), and each row says so.
    query = {"path": "zosconnect-cics", "configuration": "channel", "tps": 50000, "generations": "z16"}
    rows = api.get("/api/v1/fit", query).json()["rows"]
    full = next(r for r in rows if r["machine_type"] == "3931" and r["capacity_setting"] == "700")
    est = _get(api, path="zosconnect-cics", configuration="channel", machine="z16", tps=50000).json()
    assert not full["fits"] and est["feasible"] is False
    assert full["reason"] == est["feasibility"]["message"] and full["reason"].startswith("does not fit")
    assert (full["max_tps"], full["max_tps_cps"], full["max_tps_ziips"]) == (
        est["feasibility"]["max_tps"],
        est["feasibility"]["max_tps_cps"],
        est["feasibility"]["max_tps_ziips"],
    )
    assert full["max_tps"] < 50000 and full["max_tps_cps"] + full["max_tps_ziips"] <= 200


def test_fit_defaults_to_the_two_newest_generations_and_names_bad_ones(api: Any) -> None:
    body = api.get("/api/v1/fit", {**FITEQ_7000, "tps": 2000}).json()
    assert {r["generation"] for r in body["rows"]} == {"z17", "z16"}
    bad = api.get("/api/v1/fit", {**FITEQ_7000, "generations": "z99"})
    assert bad.status_code == 400 and "z17" in bad.json()["generations"][0]
    missing = api.get("/api/v1/fit", {"path": "fiteq-authenticator"})
    assert missing.status_code == 400 and {"configuration", "tps"} <= set(missing.json())


# -- upgrade comparison ----------------------------------------------------------------------------


def test_upgrade_compares_today_with_the_newest_generations(api: Any) -> None:
    response = api.get("/api/v1/upgrade", {**ZOSCONNECT, "machine": "z13", "cps": 6, "tps": 800})
    assert response.status_code == 200, response.json()
    body = response.json()
    today, *targets = body["columns"]
    assert today["model"] == "2964-706" and today["label"] == "today"
    assert [c["machine_type"] for c in targets] == ["9175", "3931"]  # z17 ME1, z16 A01 (default)
    assert body["measured"] == {"machine_type": "2964", "generation": "z13"}
    # Assumed band, shown and not applied: 5 % per generation step from the measured z13
    # (z16: 3 steps, z17: 4).
    assert [c["assumed_band"] for c in body["columns"]] == [0.0, 0.2, 0.15]
    assert [c["projection_band"] for c in body["columns"]] == [0.0, 0.0, 0.0]
    # Each column is the estimate of its target with the same inputs (issue 21).
    for col, machine in zip(targets, ("z17", "z16"), strict=True):
        est = _get(api, **ZOSCONNECT, machine=machine, tps=800).json()
        assert col["cps"] == est["capacity"]["cps"] and col["ziips"] == est["ziips_required"]
        assert col["msu_used"] == est["capacity"]["cp"]["msu_used"]
        assert col["saturation_range"] == est["ranges"]["saturation_tps"] and col["cps_range"] == est["ranges"]["cps"]
    # Models as targets, a given band, and a bad target.
    given = api.get(
        "/api/v1/upgrade",
        {**ZOSCONNECT, "model": "2964-706", "tps": 800, "targets": "3931-510,z17", "projection_band": 0.1},
    ).json()
    assert [c["model"] for c in given["columns"]][:2] == ["2964-706", "3931-510"]
    assert {c["projection_band"] for c in given["columns"]} == {0.1}
    bad = api.get("/api/v1/upgrade", {**ZOSCONNECT, "machine": "z13", "tps": 800, "targets": "3931-999"})
    assert bad.status_code == 400 and "3931-701..3931-7K0" in bad.json()["targets"][0]


def test_a_batch_row_asks_which_model_fits(api: Any, user: Any) -> None:
    from sizing.jobs.batch import run_batch

    text = (
        "path,configuration,tps,generations,machine\n"
        "fiteq-authenticator,multi-region,7000,z16,\n"
        "fiteq-authenticator,multi-region,7000,zz,\n"
        "fiteq-authenticator,multi-region,7000,z16,z13\n"  # a machine: an estimate, as before
    )

    def progress(done: float, total: float) -> None:
        pass

    result = run_batch(params={"csv": text}, owner=user, progress=progress)
    rows = [dict(zip(result["table"]["columns"], r, strict=True)) for r in result["table"]["rows"]]
    fit = api.get("/api/v1/fit", {**FITEQ_7000, "generations": "z16"}).json()
    best = next(r for r in fit["rows"] if r["cheapest"])
    assert rows[0]["error"] is None and rows[0]["fit_cheapest"] == best["model"] == fit["cheapest"]
    assert (rows[0]["fit_cps"], rows[0]["fit_msu"]) == (best["cps"], best["msu"])
    assert rows[0]["fit_per_generation"].startswith(f"z16: {best['model']}")
    assert rows[1]["error"].startswith("generations:")
    assert rows[2]["error"] is None and rows[2]["cps_required"] is not None
    # The job's params accept the header.
    ok = api.post("/api/v1/jobs/", {"kind": "batch", "params": {"csv": text}}, format="json")
    assert ok.status_code == 202, ok.json()


def test_fit_with_an_smt2_factor_agrees_with_the_estimate_of_each_model(api: Any) -> None:
    # One question, one answer: "which model fits" passes smt2_factor to the engine as the
    # estimate does (z/OS Connect 32K at 2,000 TPS on z16 full speed, factor 1.25).
    q = {"path": "zosconnect-cics", "configuration": "channel", "tps": 2000, "payload_bytes": 32768}
    body = api.get("/api/v1/fit", {**q, "generations": "z16", "smt2_factor": 1.25}).json()
    row = next(r for r in body["rows"] if r["machine_type"] == "3931" and r["capacity_setting"] == "700")
    est = _get(api, **q, model=row["model"], smt2_factor=1.25).json()
    assert est["cps_required"] == row["cps"] and est["msu"] == row["msu_used"]
    plain = api.get("/api/v1/fit", {**q, "generations": "z16"}).json()
    plain_row = next(r for r in plain["rows"] if r["machine_type"] == "3931" and r["capacity_setting"] == "700")
    assert (plain_row["cps"], plain_row["msu_used"]) != (row["cps"], row["msu_used"])
