"""Read-only reference data API: auth, filters, CSV, query counts."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from rest_framework.test import APIClient

from sizing.models import BenchmarkPoint, CapacityRating

pytestmark = pytest.mark.django_db

LIST_ENDPOINTS = [
    "/api/v1/machines/",
    "/api/v1/paths/",
    "/api/v1/sources/",
    "/api/v1/points/",
    "/api/v1/statements/",
    "/api/v1/capacity-ratings/",
]


@pytest.mark.parametrize("url", LIST_ENDPOINTS)
def test_anonymous_requests_get_401(url: str) -> None:
    response = APIClient().get(url)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Token")


@pytest.mark.parametrize("url", LIST_ENDPOINTS)
def test_list_endpoints_use_a_constant_number_of_queries(
    api: Any, url: str, django_assert_max_num_queries: Any
) -> None:
    # token auth (1) + count (1) + page (1) + prefetches (<= 2)
    with django_assert_max_num_queries(5):
        response = api.get(url, {"page_size": 1000})
    assert response.status_code == 200
    assert response.json()["count"] > 0


def test_session_auth_works(client: Any, user: Any) -> None:
    client.force_login(user)
    assert client.get("/api/v1/machines/").status_code == 200


def test_paths_list_configurations(api: Any) -> None:
    data = api.get("/api/v1/paths/").json()["results"]
    by_slug = {p["slug"]: p for p in data}
    assert [c["slug"] for c in by_slug["cicsts-catalog"]["configurations"]] == ["v5.2", "v5.3"]
    assert by_slug["fiteq-authenticator"]["native_machine"] == "zec12"


def test_path_lookup_is_case_insensitive(api: Any) -> None:
    assert api.get("/api/v1/paths/FiTeq-Authenticator/").json()["slug"] == "fiteq-authenticator"


def test_points_filter_by_path_configuration_and_machine(api: Any) -> None:
    data = api.get("/api/v1/points/", {"path": "FITEQ-authenticator", "configuration": "multi-region-log"}).json()
    assert data["count"] == 5  # REDP-5114 Table 11-2 has five rows
    first = data["results"][0]
    assert first["etr"] == pytest.approx(498.89)  # Table 11-2, first row
    assert {m["name"] for m in first["metrics"]} >= {"cics_cpu", "smsvsam_cpu", "lpar_cpu", "cf_cpu"}
    assert api.get("/api/v1/points/", {"machine": "z13", "path": "fiteq-authenticator"}).json()["count"] == 0


def test_points_csv_returns_all_17_fiteq_points(api: Any) -> None:
    response = api.get("/api/v1/points/", {"path": "fiteq-authenticator", "format": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 17
    stored = {p.key: p for p in BenchmarkPoint.objects.filter(configuration__path__slug="fiteq-authenticator")}
    for row in rows:
        point = stored[row["key"]]
        assert float(row["etr"]) == point.etr
        assert row["reference"] == point.reference_text
        assert row["cics_cpu_unit"] == "pct_one_cp"
        assert row["lpar_cpu_engines"] == "10"


def test_statements_filter_by_kind_and_reject_unknown_kind(api: Any) -> None:
    data = api.get("/api/v1/statements/", {"path": "cicstg", "kind": "ratio"}).json()
    assert data["count"] >= 2
    assert all(s["kind"] == "ratio" for s in data["results"])
    bad = api.get("/api/v1/statements/", {"kind": "rumour"})
    assert bad.status_code == 400
    assert "kind" in bad.json()


def test_capacity_ratings_filter_and_validation(api: Any) -> None:
    data = api.get("/api/v1/capacity-ratings/", {"machine": "z13", "setting": "700", "cps": 18}).json()
    assert data["count"] == 1
    rating = CapacityRating.objects.get(machine__slug="z13", capacity_setting="700", cps=18)
    assert data["results"][0]["mips"] == rating.mips
    assert data["results"][0]["mips_per_cp"] == pytest.approx(rating.mips / 18)
    bad = api.get("/api/v1/capacity-ratings/", {"cps": "many"})
    assert bad.status_code == 400 and "cps" in bad.json()


def test_reference_data_is_read_only(api: Any) -> None:
    assert api.post("/api/v1/machines/", {"slug": "z99"}, format="json").status_code == 405
    assert api.delete("/api/v1/paths/cicstg/").status_code == 405


def test_only_staff_change_reference_data(client: Any, user: Any, django_user_model: Any) -> None:
    """Engineers read reference data through the API; changing it is the admin's job, staff only."""
    point = BenchmarkPoint.objects.first()
    url = f"/admin/sizing/benchmarkpoint/{point.id}/change/"
    client.force_login(user)  # an ordinary engineer
    assert client.get(url).status_code == 302  # sent to the admin login
    staff = django_user_model.objects.create_superuser(username="curator", password="curator-pass-1")
    client.force_login(staff)
    assert client.get(url).status_code == 200
