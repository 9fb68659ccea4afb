"""Estimates API: numbers that trace to the published points, clear 400s, ownership, CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from models_lib.capacity import MAX_CPS
from sizing.models import BenchmarkPoint, CapacityRating, Estimate

pytestmark = pytest.mark.django_db

#: 7,000 TPS: within the 85 % ceiling of the fitted software station (8,830 TPS), so it fits.
FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "zec12", "tps": 7000}


def _published_busy(point: BenchmarkPoint) -> dict[str, float]:
    """Busy CPs per component exactly as the source prints them (CPU% / 100, LPAR% of its pool)."""
    busy = {}
    for m in point.metrics.all():
        if m.name.endswith("_cpu"):
            engines = m.engines if m.unit == "pct_of_pool" else 1
            busy[m.name.removesuffix("_cpu")] = m.value / 100 * engines
    return busy


def _post(api: Any, **body: Any) -> Any:
    return api.post("/api/v1/estimates/", body, format="json")


def test_create_stores_an_owned_estimate_with_its_basis(api: Any, user: Any) -> None:
    response = _post(api, **FITEQ, name="Bank A peak")
    assert response.status_code == 201, response.json()
    body = response.json()
    estimate = Estimate.objects.get(id=body["id"])
    assert estimate.owner == user and estimate.name == "Bank A peak"
    assert estimate.inputs["tps"] == 7000 and estimate.model_version
    assert response["Location"].endswith(f"/api/v1/estimates/{estimate.id}/")
    for key in (
        "cpu_per_tran_ms", "busy_cps", "breakdown", "cps_required", "ziips_required", "gcp_utilization",
        "ziip_utilization", "mips", "msu", "response_time_ms", "saturation_tps", "warnings", "basis",
    ):  # fmt: skip
        assert key in body, key
    assert set(body["cpu_per_tran_ms"]) >= {"total", "gcp", "ziip", "low", "high"}
    assert set(body["busy_cps"]) >= {"total", "gcp", "ziip", "ziip_on_gcp"}
    assert set(body["response_time_ms"]) >= {"value", "low", "high"}
    # The basis names the published points it was fitted on: Table 11-1's four rows.
    table_ids = set(
        BenchmarkPoint.objects.filter(configuration__slug="multi-region", reference__table="Table 11-1").values_list(
            "id", flat=True
        )
    )
    assert set(body["basis"]["points"]) == table_ids
    model = body["basis"]["model"]
    assert model["n"] == 4 and model["component"] == "lpar"
    low, total, high = (body["cpu_per_tran_ms"][k] for k in ("low", "total", "high"))
    assert low <= total <= high


def _point_cases() -> list[tuple[str, str]]:
    # Keys of every FiTeq and CICS TS point (collected lazily in the test from the DB).
    return [
        ("fiteq-authenticator", "Table 9-1"),
        ("fiteq-authenticator", "Table 9-2"),
        ("fiteq-authenticator", "Table 11-1"),
        ("fiteq-authenticator", "Table 11-2"),
        ("cicsts-catalog", "Table 1"),
        ("cicsts-catalog", "Table 3"),
    ]


@pytest.mark.parametrize(("path", "table"), _point_cases())
def test_estimate_at_each_published_point_returns_its_busy_cps_within_5_percent(
    api: Any, path: str, table: str
) -> None:
    """Issue 4: an estimate at the point's configuration, machine, CPs and ETR matches its CPU within 5%.

    Published busy CPs: REDP-5114 Tables 9-1..11-2 (LPAR CPU% is of 10 CPs, CICS CPU% of one CP)
    and REDP-5320 Tables 1 and 3 (Total CICS CPU%, TOR, AOR, FOR, % of one CP).
    """
    points = BenchmarkPoint.objects.filter(configuration__path__slug=path, reference__table=table).select_related(
        "configuration", "machine"
    )
    assert points.exists()
    for point in points.prefetch_related("metrics"):
        body = _post(
            api,
            path=path,
            configuration=point.configuration.slug,
            machine=point.machine.slug,
            tps=point.etr,
            cps=point.lpar_cps,
        ).json()
        published = _published_busy(point)
        primary = "lpar" if "lpar" in published else "cics"
        assert body["breakdown"][primary] == pytest.approx(published[primary], rel=0.05), point.key
        if primary == "cics":
            # The answer is the LPAR: CICS x (1 + REDP-5320's stated overhead, 97 % x 18 / 1499.4 - 1).
            lpar = body["breakdown"]["cics"] * 0.97 * 1800 / 1499.4
            assert body["busy_cps"]["total"] == pytest.approx(lpar, rel=1e-9), point.key
        else:
            assert body["busy_cps"]["total"] == pytest.approx(published["lpar"], rel=0.05), point.key
        # Per address space the published percentages scatter more around their lines (the
        # worst: REDP-5320 Table 1 row 3, TOR 63.80% at 67,206.91 TPS, 7.9% under its fit), so
        # the breakdown is held to 10%; the total, which sizes the LPAR, to 5%.
        for component, busy in published.items():
            if component in body["breakdown"] and busy > 0.05:
                assert body["breakdown"][component] == pytest.approx(busy, rel=0.10), (point.key, component)


def test_projection_to_z13_lowers_cpu_per_transaction_and_names_lspr(api: Any) -> None:
    on_zec12 = _post(api, **{**FITEQ, "cps": 10}).json()
    on_z13 = _post(api, **{**FITEQ, "machine": "z13", "cps": 10}).json()
    assert on_z13["cpu_per_tran_ms"]["total"] < on_zec12["cpu_per_tran_ms"]["total"]
    projection = on_z13["basis"]["projection"]
    assert (projection["from_machine_type"], projection["to_machine_type"]) == ("2827", "2964")
    # Factor = (MIPS_zEC12(10)/10) / (MIPS_z13(10)/10), both from the LSPR table.
    src = CapacityRating.objects.get(machine__slug="zec12", capacity_setting="700", cps=10)
    dst = CapacityRating.objects.get(machine__slug="z13", capacity_setting="700", cps=10)
    assert projection["factor"] == pytest.approx((src.mips / 10) / (dst.mips / 10), rel=1e-9)
    assert "LSPR" in projection["source"] or "lspr" in projection["source"].lower()
    assert on_z13["cpu_per_tran_ms"]["total"] == pytest.approx(
        on_zec12["cpu_per_tran_ms"]["total"] * projection["factor"], rel=1e-6
    )
    assert "projection" in {w["code"] for w in on_z13["warnings"]}


def test_query_endpoint_answers_without_storing(api: Any) -> None:
    before = Estimate.objects.count()
    response = api.get("/api/v1/estimate", {**FITEQ, "cps": 10})
    assert response.status_code == 200
    stored = _post(api, **{**FITEQ, "cps": 10}).json()
    assert Estimate.objects.count() == before + 1  # only the POST stored
    body = response.json()
    assert body["cps_required"] == stored["cps_required"]
    assert body["cpu_per_tran_ms"] == stored["cpu_per_tran_ms"]


def test_answer_names_engine_binding_ranges_and_capacity(api: Any) -> None:
    # Issue 10 items 2, 5, 8 and issue 11 item 3 as served: every new field is there and typed.
    body = _post(api, **{**FITEQ, "machine": "z13"}).json()
    assert body["specialty_engine"] in ("zIIP", "zAAP")
    assert body["saturation_kind"] == "value"  # fitted on published points
    assert body["saturation_binding"]["resource"] in ("cps", "specialty", "software")
    assert body["binding_resource"]["resource"] in ("cps", "specialty", "software", "clients")
    assert set(body["ranges"]) == {"cps", "ziips", "saturation_tps", "response_time_ms"}
    low, high = body["ranges"]["saturation_tps"]
    assert low <= body["saturation_tps"] <= high
    cap = body["capacity"]
    assert cap["machine_type"] == "2964" and cap["cps"] == body["cps"]
    assert cap["cp"]["msu_used"] == pytest.approx(body["msu"])
    assert cap["specialty"]["priced"] is False
    # A projection band widens the ranges of a projected answer (zEC12 -> z13).
    wide = _post(api, **{**FITEQ, "machine": "z13", "projection_band": 0.2}).json()
    assert wide["ranges"]["saturation_tps"][0] < low
    assert wide["saturation_tps"] == body["saturation_tps"]


def test_an_answer_that_does_not_fit_says_so_and_quotes_no_engines(api: Any) -> None:
    # Issue 22 item 3: CICS TG EXCI at 20,000 TPS on z10 answered 41 CPs + 39 zAAPs, 80 engines on
    # a machine type with 64 (2097-764, benchmarks/engine_rules.yaml max_engines).  At the bounded
    # central cost (1.4535 ms against the 2.2472 ms upper bound) that demand is 30,921 TPS.
    body = _post(api, path="cicstg", configuration="exci-commarea-31", machine="z10", tps=31000).json()
    assert body["feasible"] is False and body["feasibility"]["reason"] == "engines"
    assert (body["cps"], body["ziips"], body["cps_required"], body["ziips_required"]) == (None, None, None, None)
    fit = body["feasibility"]
    assert fit["max_tps"] < 31000 and fit["max_tps_cps"] + fit["max_tps_ziips"] <= 64
    assert body["warnings"][0]["code"] == "does-not-fit" and body["warnings"][0]["level"] == "decision"


def test_objective_chooses_the_mix_and_the_answer_names_the_other(api: Any) -> None:
    # Issue 22 item 4: z/OS Connect at 1,000 TPS on z17 answered 1 CP + 2 zIIPs, most of the CP
    # busy spilled eligible work.  Since the MP effect (issue 32 item 6) 1 CP + 2 zIIPs no longer
    # fits at 1,000 TPS; at 2,000 TPS fewest CPs (the default, issue 32 item 1) still spills.
    # least-msu, the issue-22 name, is accepted for least-msu-consumed.  Each names the other.
    query = {"path": "zosconnect-cics", "configuration": "channel", "machine": "z17", "tps": 2000}
    fewest = api.get("/api/v1/estimate", query).json()
    least = api.get("/api/v1/estimate", {**query, "objective": "least-msu"}).json()
    named = api.get("/api/v1/estimate", {**query, "objective": "least-msu-consumed"}).json()
    assert least["objective"] == named["objective"] == "least-msu-consumed" and fewest["objective"] == "fewest-cps"
    assert (least["cps"], least["ziips"]) == (named["cps"], named["ziips"])
    assert least["busy_cps"]["ziip_on_gcp"] == 0.0 and least["msu"] < fewest["msu"]
    assert fewest["cps"] < least["cps"]
    assert least["alternative"] == {
        "objective": "fewest-cps",
        "cps": fewest["cps"],
        "ziips": fewest["ziips"],
        "msu": pytest.approx(fewest["msu"], rel=1e-12),
        "msu_installed": fewest["capacity"]["cp"]["msu_installed"],
    }
    assert fewest["alternative"] == {
        "objective": "least-msu-consumed",
        "cps": least["cps"],
        "ziips": least["ziips"],
        "msu": pytest.approx(least["msu"], rel=1e-12),
        "msu_installed": least["capacity"]["cp"]["msu_installed"],
    }


def test_zosconnect_answer_scopes_the_offload_to_the_server(api: Any) -> None:
    body = {"path": "zosconnect-cics", "configuration": "channel", "machine": "z13", "tps": 800}
    answer = _post(api, **body).json()
    share = answer["basis"]["server_share"]
    assert 0.9 < share["value"] < 1.0 and "cicsts-catalog" in share["source"]
    given = _post(api, **body, server_share=0.6).json()
    assert given["basis"]["eligible_share"]["value"] == pytest.approx(0.99 * 0.6)
    assert given["busy_cps"]["gcp"] > answer["busy_cps"]["gcp"]


def test_query_endpoint_csv_is_one_row_with_a_header(api: Any) -> None:
    response = api.get("/api/v1/estimate", {**FITEQ, "format": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 1
    json_body = api.get("/api/v1/estimate", FITEQ).json()
    row = rows[0]
    assert int(row["cps_required"]) == json_body["cps_required"]
    # 6 significant digits (docs/csv.md): a relative difference under 5e-6.
    assert float(row["cpu_per_tran_ms"]) == pytest.approx(json_body["cpu_per_tran_ms"]["total"], rel=5e-6)
    assert row["path"] == "fiteq-authenticator"


def test_lookups_are_case_insensitive(api: Any) -> None:
    response = _post(api, path="FiTeq-Authenticator", configuration="Multi-Region", machine="zEC12", tps=1000)
    assert response.status_code == 201
    assert response.json()["path"] == "fiteq-authenticator"


BAD_INPUTS = [
    ({"path": "cics-magic"}, "path", "Unknown path"),
    ({"configuration": "v5.3"}, "configuration", "does not belong to path"),
    ({"machine": "z99"}, "machine", "Unknown machine"),
    ({"tps": "lots"}, "tps", "number"),
    ({"tps": "NaN"}, "tps", "finite"),
    ({"tps": "Infinity"}, "tps", "finite"),
    ({"tps": 0}, "tps", "greater than zero"),
    ({"tps": -10}, "tps", ""),
    ({"tps": 20_000_000}, "tps", "at most 10,000,000"),  # MAX_TPS with separators
    ({"tps": True}, "tps", "number"),
    ({"cps": 0}, "cps", ""),
    ({"cps": MAX_CPS + 1}, "cps", f"{MAX_CPS}"),  # z/OS's most CPs in an LPAR (models_lib.capacity)
    ({"machine": "z16", "cps": 201}, "cps", ""),  # above the z16's largest rated model (3931-7K0, 200 CPs)
    ({"cps": 2.5}, "cps", "whole number"),
    ({"ziips": -1}, "ziips", ""),
    ({"payload_bytes": 64 * 1024 * 1024 + 1}, "payload_bytes", ""),
    ({"max_utilization": 0}, "max_utilization", "(0, 1]"),
    ({"max_utilization": 1.5}, "max_utilization", "(0, 1]"),
    ({"clients": 100}, "think_time_s", "think time"),
    ({"think_time_s": -1, "clients": 10}, "think_time_s", ""),
    ({"response_time_sla_ms": 0}, "response_time_sla_ms", "greater than zero"),
    ({"projection_band": 1.0}, "projection_band", "[0, 1)"),
    ({"projection_band": -0.1}, "projection_band", ""),
    ({"server_share": 1.5}, "server_share", ""),
    ({"lpar_overhead": -1}, "lpar_overhead", ""),
    ({"smt2_factor": 0.9}, "smt2_factor", ""),
    ({"smt2_factor": 2.5}, "smt2_factor", ""),
    ({"objective": "cheapest"}, "objective", "not a valid choice"),
]


@pytest.mark.parametrize(("change", "field", "reason"), BAD_INPUTS, ids=[f"{c}" for c, _, _ in BAD_INPUTS])
def test_bad_input_is_a_400_naming_the_field_and_stores_nothing(
    api: Any, change: dict[str, Any], field: str, reason: str
) -> None:
    before = Estimate.objects.count()
    response = _post(api, **{**FITEQ, **change})
    assert response.status_code == 400, response.content
    body = response.json()
    assert field in body, body
    assert reason in " ".join(body[field])
    assert Estimate.objects.count() == before
    # The query endpoint validates the same way.
    query = api.get("/api/v1/estimate", {k: v for k, v in {**FITEQ, **change}.items()})
    assert query.status_code == 400 and field in query.json()


def test_engine_error_is_put_on_the_field_its_argument_names_not_on_a_word_of_its_message() -> None:
    from models_lib.checks import InputError
    from sizing.services.scenario import engine_error

    named = engine_error(InputError("server_share", "the share of the part must be in [0, 1], got 2"))
    assert named.message_dict == {"server_share": ["the share of the part must be in [0, 1], got 2"]}
    # A message that mentions a field without being about it stays on the request as a whole.
    loose = engine_error(ValueError("no tps can be sized: the configuration has no CPU data"))
    assert loose.message_dict == {"non_field_errors": ["no tps can be sized: the configuration has no CPU data"]}
    # An argument that is no field of the request (the configuration itself) too.
    whole = engine_error(InputError("config", "config x/y has no CPU data"))
    assert list(whole.message_dict) == ["non_field_errors"]


def test_json_nan_literal_is_rejected(api: Any) -> None:
    response = api.post(
        "/api/v1/estimates/",
        data='{"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "zec12", "tps": NaN}',
        content_type="application/json",
    )
    assert response.status_code == 400


def test_missing_required_fields_are_named(api: Any) -> None:
    body = _post(api).json()
    assert {"path", "configuration", "machine", "tps"} <= set(body)


def test_engineers_see_only_their_own_estimates(api: Any, other_user: Any) -> None:
    mine = _post(api, **FITEQ).json()
    other = APIClient()
    other.force_authenticate(other_user)
    assert other.get(f"/api/v1/estimates/{mine['id']}/").status_code == 404
    assert other.delete(f"/api/v1/estimates/{mine['id']}/").status_code == 404
    assert other.get("/api/v1/estimates/").json()["count"] == 0
    assert api.get(f"/api/v1/estimates/{mine['id']}/").json()["cps_required"] == mine["cps_required"]
    assert api.delete(f"/api/v1/estimates/{mine['id']}/").status_code == 204
    assert not Estimate.objects.filter(id=mine["id"]).exists()


def test_list_is_paginated_filterable_and_uses_constant_queries(api: Any, django_assert_max_num_queries: Any) -> None:
    for tps in (1000, 2000, 3000):
        _post(api, **{**FITEQ, "tps": tps})
    _post(api, path="cicsts-catalog", configuration="v5.3", machine="z13", tps=50000)
    with django_assert_max_num_queries(4):  # token, count, page (owner, configuration, path, machine joined), quota
        response = api.get("/api/v1/estimates/")
    assert response.json()["count"] == 4
    assert api.get("/api/v1/estimates/", {"path": "cicsts-catalog"}).json()["count"] == 1


def test_anonymous_cannot_estimate() -> None:
    assert APIClient().post("/api/v1/estimates/", FITEQ, format="json").status_code == 401
    assert APIClient().get("/api/v1/estimate", FITEQ).status_code == 401


def test_estimate_endpoints_are_throttled(api: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"estimates": "3/min", "jobs": "3/min"})
    cache.clear()
    codes = [api.get("/api/v1/estimate", FITEQ).status_code for _ in range(4)]
    cache.clear()
    assert codes == [200, 200, 200, 429]


def test_models_endpoint_reports_fits_and_leave_one_out(api: Any) -> None:
    models = api.get("/api/v1/models/").json()
    by_key = {(m["path"], m["configuration"]): m for m in models}
    fiteq = by_key[("fiteq-authenticator", "single-region")]
    assert fiteq["primary"] == "lpar" and fiteq["fits"]["lpar"]["n"] == 4
    assert len([r for r in fiteq["leave_one_out"] if r["component"] == "lpar"]) == 4
    # Table 9-1: LPAR busy 0.344 CP at 497.60 TPS ... 2.330 CP at 3494.82 TPS; the slope is the
    # marginal LPAR CPU per transaction, between the published 629 and 691 microseconds.
    assert 0.60 < fiteq["fits"]["lpar"]["slope_ms"] < 0.70
    assert fiteq["fits"]["lpar"]["etr_min"] == pytest.approx(497.60)
    cicstg = by_key[("cicstg", "ipic-channel-31")]
    assert cicstg["has_cpu_model"] is False and cicstg["bounds"]  # bounds only, no CPU points


def test_bounds_only_estimate_names_its_statements_and_range(api: Any) -> None:
    """z/OS Connect publishes no CPU per transaction: the answer is the bound (<= 6 CP-ms for
    1000 TPS on 6 GCPs, section 7.1) tightened by the throughput table, and says so."""
    from sizing.models import Statement

    body = api.get(
        "/api/v1/estimate",
        {"path": "zosconnect-cics", "configuration": "channel", "machine": "z13", "tps": 1000, "cps": 6, "ziips": 0},
    ).json()
    table = Statement.objects.get(path__slug="zosconnect-cics", kind="throughput")
    bound = Statement.objects.get(path__slug="zosconnect-cics", kind="bound", data__tps=1000)
    assert {table.id, bound.id} <= set(body["basis"]["statements"])
    # No point of its own; the points cited are those of the CICS cost it borrows for the CICS
    # part of each request (REDP-5320 Table 1, cicsts-catalog v5.3), cited as points.
    borrowed = BenchmarkPoint.objects.filter(configuration__path__slug="cicsts-catalog", configuration__slug="v5.3")
    assert set(body["basis"]["points"]) == set(borrowed.filter(reference__table="Table 1").values_list("id", flat=True))
    assert body["basis"]["model"] is None
    assert "bounds-only" in {w["code"] for w in body["warnings"]}
    cost = body["cpu_per_tran_ms"]
    assert cost["low"] == 0.0 and cost["high"] == pytest.approx(6.0)  # 6 CPs / 1000 TPS
    assert 0 < cost["total"] < cost["high"]


def test_stored_estimate_body_equals_the_declared_fields_plus_the_answer(api: Any) -> None:
    """The output serializer builds its body directly (perf); it must say what its declared
    fields say, key for key and value for value, with the stored answer at top level."""
    from rest_framework import serializers
    from rest_framework.test import APIRequestFactory

    from sizing.api.estimate_serializers import EstimateOutputSerializer

    created = _post(api, **FITEQ, name="same body").json()
    listed = api.get("/api/v1/estimates/").json()["results"][0]
    read = api.get(f"/api/v1/estimates/{created['id']}/").json()
    estimate = Estimate.objects.get(id=created["id"])
    request = APIRequestFactory().get("/api/v1/estimates/")
    ser = EstimateOutputSerializer(estimate, context={"request": request})
    declared = serializers.ModelSerializer.to_representation(ser, estimate)
    assert list(declared) == ["id", "url", "name", "owner", "path", "configuration", "machine", "tps", "inputs",
                              "model_version", "created_at"]  # fmt: skip
    assert ser.data == {**declared, **estimate.outputs}
    for body in (created, listed, read):
        assert {k: body[k] for k in declared} == {**declared, "url": body["url"]}
        assert body["url"].endswith(f"/api/v1/estimates/{estimate.id}/")
        assert {k: body[k] for k in estimate.outputs} == estimate.outputs


def test_smt2_factor_is_applied_on_z16_and_stated_in_every_answer(api: Any) -> None:
    # z/OS Connect on a z16 (SMT-2 on zIIPs, engine_rules.yaml) at the same 3 CPs + 6 zIIPs:
    # busy zIIP cores with a factor of 1.25 = busy zIIPs without it / 1.25 (smt2_ziip_capacity).
    base = {"path": "zosconnect-cics", "configuration": "channel", "machine": "z16", "tps": 1000, "cps": 3, "ziips": 6}
    plain = api.get("/api/v1/estimate", base).json()
    smt = api.get("/api/v1/estimate", {**base, "smt2_factor": 1.25}).json()
    assert smt["inputs"]["smt2_factor"] == 1.25
    assert smt["busy_cps"]["ziip"] == pytest.approx(plain["busy_cps"]["ziip"] / 1.25, rel=1e-9)
    assert (
        "SMT-2 on zIIPs: applied with the user-given factor 1.25 (each zIIP core = 1.25 zIIPs)"
        in smt["basis"]["assumptions"]
    )
    assert any(a.startswith("SMT-2 on zIIPs: not applied") for a in plain["basis"]["assumptions"])
