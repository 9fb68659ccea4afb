"""RMF parsing and private calibrations through the API: real PostgreSQL, real engine.

The four intervals of the calibration tests are REDP-5114 Table 11-1 (FiTeq, multiple regions,
no Validation Log) as the product loads them, posted as if they were a customer's own RMF
intervals on a 2827-710 (the zEC12 with 10 CPs they were measured on). Fitted by the same
engine steps, the calibration must then size exactly as the published configuration does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from numpy.testing import assert_allclose
from rest_framework.test import APIClient

from sizing.models import BenchmarkPoint, Calibration, Configuration, Visibility

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "data" / "rmf"


def _rmf(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def _table_11_1_intervals() -> list[dict[str, Any]]:
    """Table 11-1's rows: LPAR busy % of 10 CPs -> % of one CP; CICS and SMSVSAM APPL% as printed."""
    rows = BenchmarkPoint.objects.filter(configuration__slug="multi-region", reference__table="Table 11-1")
    out = []
    for row in rows.prefetch_related("metrics").order_by("etr"):
        metrics = {m.name: m for m in row.metrics.all()}
        lpar = metrics["lpar_cpu"]
        out.append(
            {
                "etr": row.etr,
                "cpu_pct": {
                    "lpar": lpar.value * lpar.engines,
                    "cics": metrics["cics_cpu"].value,
                    "smsvsam": metrics["smsvsam_cpu"].value,
                },
                "response_time_ms": row.response_time_ms,
                "cps": 10,
            }
        )
    assert len(out) == 4
    return out


def _create(api: Any, **body: Any) -> Any:
    payload = {"name": "Bank A, March peak", "path": "fiteq-authenticator", "model": "2827-710", **body}
    return api.post("/api/v1/calibrations/", payload, format="json")


# ---- parse -------------------------------------------------------------------------------------


def test_parse_figure_10_returns_the_published_values_and_its_interval(api: Any) -> None:
    response = api.post("/api/v1/rmf/parse", {"text": _rmf("cicsts53_figure10.txt")}, format="json")
    assert response.status_code == 200, response.json()
    section = response.json()["sections"][0]
    # REDP-5320 Figure 10: END/S 174624.3, APPL% CP 1499.4, TRANSACTIONS APPL% MOBILE CP 648.53.
    assert section["name"] == "CICSCPU" and section["kind"] == "workload"
    assert section["transactions"]["end_per_s"] == 174624.3
    assert section["appl"]["cp"] == 1499.4
    assert section["transactions_mobile"]["cp"] == 648.53
    # CPU per transaction = 1499.4 / 100 / 174624.3 CP-seconds.
    assert_allclose(section["cp_seconds_per_transaction"], 1499.4 / 100 / 174624.3, rtol=1e-12)
    [interval] = response.json()["intervals"]
    assert interval["etr"] == 174624.3 and interval["cpu_pct"] == {"lpar": 1499.4}


def test_parse_accepts_the_report_as_plain_text(api: Any) -> None:
    text = _rmf("zosconnect_figure3.txt")
    response = api.post("/api/v1/rmf/parse", text.encode(), content_type="text/plain")
    assert response.status_code == 200, response.json()
    appl = response.json()["sections"][0]["appl"]
    # z/OS Connect EE V3.0 Performance Summary, Figure 3: CP 104.86 with IIPCP 104.82.
    assert (appl["cp"], appl["iipcp"]) == (104.86, 104.82)


@pytest.mark.parametrize(
    ("body", "content_type", "reason"),
    [
        ({"text": "\n".join(_rmf("cicsts53_figure6.txt").splitlines()[:6])}, None, "looks truncated"),
        ({"text": _rmf("cicsts53_figure6.txt")[:400]}, None, "line 7: cannot read the END/S row"),
        (
            {"text": _rmf("cicsts53_figure6.txt").replace("CPU\t5.755\tCP\t10.16", "CP\t10.16\tCPU\t5.755")},
            None,
            "line 4: cannot read the AVG row",
        ),
        ({"text": "REPORT BY: POLICY=P\n\x01\x02\x1bjunk"}, None, "line 2: binary data"),
        # Refused by the JSON parser for every endpoint (sizing.api.parsers), naming where.
        ({"text": "REPORT BY: POLICY=P\n\x00junk"}, None, "$.text contains a NUL character"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "text/plain", "not UTF-8 text"),
        # Over ZSIZER_MAX_BODY_BYTES: a 413 before the body is read (sizing.request_guard).
        ({"text": "W" * 10_000_000}, None, "bytes; the limit is 4,194,304 bytes"),
        ({"text": ""}, None, "may not be blank"),
    ],
    ids=[
        "truncated",
        "cut-mid-line",
        "shuffled-columns",
        "binary-in-json",
        "nul-in-json",
        "binary-body",
        "10-MB",
        "empty",
    ],
)
def test_parse_refuses_malformed_reports_with_a_reason(
    api: Any, body: Any, content_type: str | None, reason: str
) -> None:
    if content_type is None:
        response = api.post("/api/v1/rmf/parse", body, format="json")
    else:
        response = api.post("/api/v1/rmf/parse", body, content_type=content_type)
    assert response.status_code == (413 if "the limit is" in reason else 400)
    assert reason in str(response.json()), response.json()


def test_parse_needs_a_login() -> None:
    assert APIClient().post("/api/v1/rmf/parse", {"text": "x"}, format="json").status_code == 401


# ---- calibrations ------------------------------------------------------------------------------


def test_calibration_from_four_intervals_sizes_as_the_published_configuration(api: Any) -> None:
    published_points = BenchmarkPoint.objects.count()
    response = _create(api, intervals=_table_11_1_intervals())
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["data_origin"] == "customer" and body["model"] == "2827-710" and body["cps"] == 10
    assert body["fit"]["primary"] == "lpar" and body["fit"]["components"]["lpar"]["n"] == 4
    # Reference data untouched: no point written; the configuration is private to its owner.
    assert BenchmarkPoint.objects.count() == published_points
    config = Configuration.objects.get(calibration__id=body["id"])
    assert config.visibility == Visibility.PRIVATE and config.path.slug == "fiteq-authenticator"

    target = {"machine": "zec12", "tps": 8000}
    mine = api.get("/api/v1/estimate", {"calibration": body["id"], **target}).json()
    published = api.get(
        "/api/v1/estimate", {"path": "fiteq-authenticator", "configuration": "multi-region", **target}
    ).json()
    assert mine["basis"]["data_origin"] == "customer"
    assert mine["basis"]["calibration"]["current_model"] == "2827-710"
    assert published["basis"]["data_origin"] == "published"
    # Same points, same engine: the same LPAR cost model and the same answer.
    assert_allclose(mine["basis"]["model"]["slope_ms"], published["basis"]["model"]["slope_ms"], rtol=1e-12)
    for key in ("total", "low", "high"):
        assert_allclose(mine["cpu_per_tran_ms"][key], published["cpu_per_tran_ms"][key], rtol=1e-9)
    assert mine["cps_required"] == published["cps_required"]
    assert_allclose(mine["busy_cps"]["total"], published["busy_cps"]["total"], rtol=1e-9)
    assert_allclose(mine["mips"], published["mips"], rtol=1e-9)
    assert_allclose(mine["msu"], published["msu"], rtol=1e-9)


def test_calibration_sizes_an_upgrade_to_another_generation_with_the_projection_range(api: Any) -> None:
    calibration = _create(api, intervals=_table_11_1_intervals()).json()
    answer = api.post(
        "/api/v1/estimates/",
        {"calibration": calibration["id"], "machine": "z13", "tps": 8000, "projection_band": 0.1},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    projection = body["basis"]["projection"]
    # "We run this today" on a 2827-710: the work is projected from machine type 2827 with 10 CPs.
    assert (projection["from_machine_type"], projection["from_cps"]) == ("2827", 10)
    assert projection["to_machine_type"] == "2964"
    assert body["configuration"] == calibration["configuration"]
    assert body["cpu_per_tran_ms"]["low"] < body["cpu_per_tran_ms"]["total"] < body["cpu_per_tran_ms"]["high"]
    assert "projection band of ±10%" in " ".join(body["basis"]["assumptions"])


def test_another_user_gets_404_and_cannot_size_with_it(api: Any, other_user: Any) -> None:
    from rest_framework.authtoken.models import Token

    calibration = _create(api, intervals=_table_11_1_intervals()).json()
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=other_user).key}")
    assert other.get(f"/api/v1/calibrations/{calibration['id']}/").status_code == 404
    assert other.delete(f"/api/v1/calibrations/{calibration['id']}/").status_code == 404
    assert other.get("/api/v1/calibrations/").json()["results"] == []
    refused = other.get("/api/v1/estimate", {"calibration": calibration["id"], "machine": "z13", "tps": 100})
    assert refused.status_code == 400 and "calibration" in refused.json()
    by_slug = other.get(
        "/api/v1/estimate",
        {"path": "fiteq-authenticator", "configuration": calibration["configuration"], "machine": "z13", "tps": 100},
    )
    assert by_slug.status_code == 400 and "configuration" in by_slug.json()
    assert Calibration.objects.filter(id=calibration["id"]).exists()


def test_calibration_from_csv_and_delete(api: Any) -> None:
    rows = _table_11_1_intervals()
    csv_text = "etr,cpu_pct,response_time_ms\n" + "\n".join(
        f"{r['etr']},{r['cpu_pct']['lpar']},{r['response_time_ms']}" for r in rows
    )
    created = _create(api, csv_text=csv_text)
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["source_kind"] == "csv" and len(body["intervals"]) == 4
    assert api.get("/api/v1/calibrations/").json()["results"][0]["id"] == body["id"]
    assert api.delete(f"/api/v1/calibrations/{body['id']}/").status_code == 204
    assert not Configuration.objects.filter(slug=body["configuration"]).exists()


def test_calibration_used_by_an_estimate_cannot_be_deleted(api: Any) -> None:
    calibration = _create(api, intervals=_table_11_1_intervals()).json()
    estimate = api.post(
        "/api/v1/estimates/", {"calibration": calibration["id"], "machine": "zec12", "tps": 500}, format="json"
    )
    assert estimate.status_code == 201
    refused = api.delete(f"/api/v1/calibrations/{calibration['id']}/")
    assert refused.status_code == 400 and str(estimate.json()["id"]) in str(refused.json())
    assert Calibration.objects.filter(id=calibration["id"]).exists()


@pytest.mark.parametrize(
    ("body", "field", "reason"),
    [
        ({"model": "9999-999"}, "model", "not a model of the capacity table"),
        ({"path": "nope"}, "path", "unknown path"),
        ({"cps": 12}, "cps", "within 1..10"),
        ({"intervals": [{"etr": 100, "cpu_pct": 10}]}, "intervals", "at least two intervals"),
        ({"intervals": [{"etr": -1, "cpu_pct": 10}, {"etr": 5, "cpu_pct": 1}]}, "intervals", "interval 1: etr"),
        ({"intervals": [{"etr": 1, "cpu_pct": {"tcpip": 3}}, {"etr": 2, "cpu_pct": 1}]}, "intervals", "tcpip"),
        ({"csv_text": "etr,cpu\n1,2\n"}, "csv_text", "the header needs etr and cpu_pct"),
        ({"csv_text": "etr,cpu_pct\n1,2\n2,x\n"}, "csv_text", "CSV line 3, column cpu_pct"),
        ({"rmf_text": _rmf("cicsts53_figure10.txt")}, "intervals", "at least two intervals"),
        ({"rmf_text": "\x01\x02 binary"}, "rmf_text", "binary data"),
        ({"rmf_text": _rmf("cicsts53_figure6.txt"), "csv_text": "etr,cpu_pct\n"}, "intervals", "exactly one"),
    ],
    ids=[
        "model",
        "path",
        "cps",
        "one-interval",
        "negative-etr",
        "unknown-component",
        "csv-header",
        "csv-value",
        "rmf-one-section",
        "rmf-binary",
        "two-sources",
    ],  # fmt: skip
)
def test_bad_calibrations_are_refused_and_nothing_is_stored(
    api: Any, body: dict[str, Any], field: str, reason: str
) -> None:
    payload = {"intervals": _table_11_1_intervals(), **body}
    if "csv_text" in body or "rmf_text" in body:
        payload.pop("intervals") if "intervals" not in body else None
    configurations = Configuration.objects.count()
    response = _create(api, **payload)
    assert response.status_code == 400, response.json()
    assert field in response.json() and reason in str(response.json()[field]), response.json()
    assert Calibration.objects.count() == 0 and Configuration.objects.count() == configurations
