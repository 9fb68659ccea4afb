"""Every number a customer types is bounded where it is read (issue 24, item 2).

A refused write answers 400 naming the field and the row (CSV line, interval, RMF section),
stores nothing, and leaves every list endpoint answering 200: a value that cannot be rendered
as JSON (or fitted) never reaches the database.
"""

from __future__ import annotations

import importlib
import math
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps as django_apps

from sizing.api.urls import router
from sizing.jobs.batch import run_batch
from sizing.models import BenchmarkPoint, Calibration, Configuration, Estimate, Job, PointMetric, ReferenceVersion

pytestmark = pytest.mark.django_db

RMF = Path(__file__).resolve().parents[1] / "data" / "rmf"
FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "tps": 5000}
# Two plain intervals that fit (the CSV of the second row, with a second valid row).
GOOD_CSV = "etr,cpu_pct,response_time_ms\n500,42.8,4\n1000,85.6,9\n"


def _calibrate(api: Any, **body: Any) -> Any:
    payload = {"name": "Bank A", "path": "fiteq-authenticator", "model": "2827-710", **body}
    return api.post("/api/v1/calibrations/", payload, format="json")


def _figure10(end_per_s: str = "174624.3", appl_cp: str = "1499.4") -> str:
    """REDP-5320 Figure 10 (CICSCPU) with its END/S and APPL% CP replaced."""
    text = (RMF / "cicsts53_figure10.txt").read_text(encoding="utf-8")
    assert "174624.3" in text and "CP\t\t1499.4" in text
    return text.replace("174624.3", end_per_s).replace("CP\t\t1499.4", f"CP\t\t{appl_cp}")


def _list_urls() -> list[str]:
    """Every list endpoint of the API: the router's viewsets and the plain list views."""
    urls = [f"/api/v1/{prefix}/" for prefix, _, _ in router.registry]
    return [*urls, "/api/v1/models/"]


def test_the_list_endpoints_found_are_the_apis_lists() -> None:
    # The registry is what the API serves (sizing/api/urls.py); a new viewset is read by the next test too.
    assert {
        "/api/v1/calibrations/",
        "/api/v1/estimates/",
        "/api/v1/jobs/",
        "/api/v1/points/",
        "/api/v1/machines/",
        "/api/v1/models/",
    } <= set(_list_urls())


REFUSED_CALIBRATIONS = [
    # The CSV: a CPU of 1e300 % of one CP (finite, but no LPAR has 1e298 engines).
    ({"csv_text": "etr,cpu_pct,response_time_ms\n500,1e300,4\n1000,85.6,9\n"}, "csv_text", "CSV line 2: cpu_pct"),
    # The ETR of 1e155..1e200 (1/etr**2 underflows to 0 in the relative weights).
    ({"intervals": [{"etr": 1e155, "cpu_pct": 10}, {"etr": 1e156, "cpu_pct": 20}]}, "intervals", "interval 1: etr"),
    ({"intervals": [{"etr": 100, "cpu_pct": 10}, {"etr": 1e200, "cpu_pct": 20}]}, "intervals", "interval 2: etr"),
    ({"csv_text": "etr,cpu_pct\n1e-300,1\n2,2\n"}, "csv_text", "CSV line 2: etr must be within"),
    ({"csv_text": "etr,cpu_pct,response_time_ms\n1,1,1e300\n2,2,2\n"}, "csv_text", "CSV line 2: response_time_ms"),
    ({"csv_text": "etr,cpu_pct\n1,1\n2,2\n3,inf\n"}, "csv_text", "CSV line 4, column cpu_pct"),
    ({"csv_text": "etr,cpu_pct,cps\n1,1,1e9\n2,2,\n"}, "csv_text", "CSV line 2: cps must be within 1..256"),
    ({"intervals": [{"etr": 1, "cpu_pct": 1, "ziips": 10**6}, {"etr": 2, "cpu_pct": 2}]}, "intervals", "ziips"),
    ({"intervals": [{"etr": 1, "cpu_pct": {"cics": 1e308}}, {"etr": 2, "cpu_pct": 2}]}, "intervals", "cics"),
    ({"rmf_text": _figure10(end_per_s="99999999999999999999")}, "rmf_text", "section CICSCPU (line 1): END_PER_S"),
    ({"rmf_text": _figure10(appl_cp="9999999999")}, "rmf_text", "section CICSCPU (line 1): cpu_pct"),
]
REFUSED_IDS = [
    "csv-cpu-1e300",
    "etr-1e155",
    "etr-1e200",
    "csv-etr-1e-300",
    "csv-rt-1e300",
    "csv-inf",
    "csv-cps",
    "ziips",
    "cics-1e308",
    "rmf-end-s",
    "rmf-appl",
]


@pytest.mark.parametrize(("body", "field", "reason"), REFUSED_CALIBRATIONS, ids=REFUSED_IDS)
def test_a_refused_calibration_names_field_and_row_stores_nothing_and_every_list_still_answers(
    api: Any, body: dict[str, Any], field: str, reason: str
) -> None:
    # Something in every list the customer has, so the lists render rows, not just empty pages.
    assert _calibrate(api, csv_text=GOOD_CSV).status_code == 201
    assert api.post("/api/v1/estimates/", FITEQ, format="json").status_code == 201
    job = api.post("/api/v1/jobs/", {"kind": "curve", "params": {**FITEQ, "cps_list": [2, 4]}}, format="json")
    assert job.status_code == 202, job.json()
    counts = (Calibration.objects.count(), Configuration.objects.count(), Estimate.objects.count(), Job.objects.count())
    version = ReferenceVersion.objects.get().token

    response = _calibrate(api, **body)

    assert response.status_code == 400, response.content
    assert list(response.json()) == [field] and reason in response.json()[field][0], response.json()
    assert counts == (
        Calibration.objects.count(),
        Configuration.objects.count(),
        Estimate.objects.count(),
        Job.objects.count(),
    )
    assert ReferenceVersion.objects.get().token == version  # no reference write began either
    for url in _list_urls():
        listed = api.get(url)
        assert listed.status_code == 200, (url, listed.content[:300])


def test_rmf_parse_refuses_a_value_longer_than_rmf_prints_with_its_section(api: Any) -> None:
    response = api.post("/api/v1/rmf/parse", {"text": _figure10(appl_cp="9999999999")}, format="json")
    assert response.status_code == 400
    # 9,999,999,999 % of one CP is beyond MAX_CPU_PCT (100 % x 256 engines) of models_lib.calibration.
    assert "section CICSCPU (line 1): cpu_pct: lpar must be a percentage of one CP within 0..25,600" in str(
        response.json()["text"]
    )
    huge = api.post("/api/v1/rmf/parse", {"text": _figure10(end_per_s="1" * 400)}, format="json")
    assert huge.status_code == 400 and "END_PER_S" in str(huge.json()["text"]), huge.json()


def test_a_batch_row_with_an_unbounded_number_carries_its_error_and_the_others_are_answered(user: Any) -> None:
    text = (
        "path,configuration,machine,tps,think_time_s,clients\n"
        "fiteq-authenticator,multi-region,z13,5000,,\n"
        "fiteq-authenticator,multi-region,z13,1e300,,\n"
        "fiteq-authenticator,multi-region,z13,5000,1e300,10\n"
        "fiteq-authenticator,multi-region,z13,nan,,\n"
    )
    result = run_batch(params={"csv": text}, owner=user, progress=lambda done, total: None)
    columns = result["table"]["columns"]
    rows = [dict(zip(columns, r, strict=True)) for r in result["table"]["rows"]]
    assert (result["succeeded"], result["failed"]) == (1, 3)
    # The estimate's own limits (sizing/services/estimate_inputs.py: MAX_TPS, MAX_THINK_TIME_S).
    assert rows[1]["error"] == "tps: Must be at most 10,000,000 transactions per second."
    assert rows[2]["error"] == "think_time_s: Ensure this value is less than or equal to 3600.0."
    assert rows[3]["error"] == "tps: Must be a finite number (NaN and infinity are not allowed)."


@pytest.mark.parametrize("costs", [{"gcp": 1e308, "ziip": 1}, {"gcp": 1, "ziip": 1e300}])
def test_an_optimize_job_with_an_unbounded_cost_is_a_400_naming_it(api: Any, costs: dict[str, float]) -> None:
    params = {**FITEQ, "costs": costs}
    response = api.post("/api/v1/jobs/", {"kind": "optimize", "params": params}, format="json")
    assert response.status_code == 400, response.json()
    name = "gcp" if costs["gcp"] > 1 else "ziip"
    assert "less than or equal to" in str(response.json()["params"]["costs"][name])
    assert Job.objects.count() == 0


# -- the data migration --------------------------------------------------------------------------

clean_non_finite_values = importlib.import_module("sizing.migrations.0011_clean_non_finite_values").clean


def test_the_migration_cleans_poison_rows_so_every_list_answers_again(api: Any, user: Any) -> None:
    keep = _calibrate(api, csv_text="etr,cpu_pct\n500,42.8\n1000,85.6\n2000,171.2\n").json()
    drop = _calibrate(api, csv_text=GOOD_CSV).json()
    estimate = api.post(
        "/api/v1/estimates/", {"calibration": drop["id"], "machine": "zec12", "tps": 500}, format="json"
    )
    poison = {"etr": 1500, "cpu_pct": {"lpar": 1e300}, "response_time_ms": None}
    # What the old code stored: an interval beyond the bounds (the 1e300 %), and a rate of 1e155.
    Calibration.objects.filter(id=keep["id"]).update(intervals=[*keep["intervals"], poison])
    Calibration.objects.filter(id=drop["id"]).update(
        intervals=[drop["intervals"][0], {**drop["intervals"][1], "etr": 1e155}]
    )
    point = BenchmarkPoint.objects.filter(response_time_ms__isnull=False).first()
    metric = PointMetric.objects.exclude(point=point).first()
    BenchmarkPoint.objects.filter(id=point.id).update(response_time_ms=math.nan)
    PointMetric.objects.filter(id=metric.id).update(value=math.inf)
    bad_estimate = api.post("/api/v1/estimates/", FITEQ, format="json").json()
    Estimate.objects.filter(id=bad_estimate["id"]).update(tps=math.inf)
    version = ReferenceVersion.objects.get().number
    assert estimate.status_code == 201, estimate.json()
    api.raise_request_exception = False
    assert api.get("/api/v1/calibrations/").status_code == 500  # the symptom, before the migration

    clean_non_finite_values(django_apps, None)

    kept = Calibration.objects.get(id=keep["id"])
    assert kept.intervals == keep["intervals"]  # the three measured intervals, the poison one dropped
    # One rate left cannot be fitted: the calibration goes, with its configuration and its estimate.
    assert not Calibration.objects.filter(id=drop["id"]).exists()
    assert not Configuration.objects.filter(slug=drop["configuration"]).exists()
    assert not Estimate.objects.filter(id__in=[estimate.json()["id"], bad_estimate["id"]]).exists()
    assert BenchmarkPoint.objects.get(id=point.id).response_time_ms is None
    assert not PointMetric.objects.filter(id=metric.id).exists()
    assert ReferenceVersion.objects.get().number == version + 1
    for url in _list_urls():
        assert api.get(url).status_code == 200, url
    # Run again: nothing left to clean, the version stays.
    clean_non_finite_values(django_apps, None)
    assert ReferenceVersion.objects.get().number == version + 1


@pytest.mark.parametrize(
    "rows",
    [
        [(0.001, 25_600.0), (10_000_000.0, 0.0)],  # every bound at once, a falling line
        [(0.001, 0.0), (0.002, 25_600.0)],  # 2,560 CP-seconds per transaction
    ],
    ids=["falling", "steepest"],
)
def test_a_calibration_at_the_bounds_sizes_stores_and_lists_without_a_500(api: Any, rows: list[Any]) -> None:
    # The bounds of models_lib.calibration (MIN_ETR, MAX_ETR, MAX_CPU_PCT, MAX_RESPONSE_TIME_MS):
    # whatever is accepted must be computable and storable as JSON everywhere it is shown.
    intervals = [{"etr": etr, "cpu_pct": cpu, "response_time_ms": 3_600_000} for etr, cpu in rows]
    created = _calibrate(api, intervals=intervals)
    assert created.status_code == 201, created.json()
    for tps in (0.001, 10_000_000):
        query = {"calibration": created.json()["id"], "machine": "z17", "tps": tps}
        asked = api.get("/api/v1/estimate", {**query, "clients": 1_000_000, "think_time_s": 0})
        assert asked.status_code in (200, 400), asked.content[:300]
        stored = api.post("/api/v1/estimates/", query, format="json")
        assert stored.status_code in (201, 400), stored.content[:300]
    for url in _list_urls():
        assert api.get(url).status_code == 200, url
