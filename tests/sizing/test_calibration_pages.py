"""The calibration pages (server-rendered parts): list, detail with its fit, owner only, delete."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from sizing.models import Calibration
from tests.sizing.test_calibrations_api import _table_11_1_intervals

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _calibration(api: Any) -> dict[str, Any]:
    body = {"name": "Bank A", "path": "fiteq-authenticator", "model": "2827-710", "intervals": _table_11_1_intervals()}
    response = api.post("/api/v1/calibrations/", body, format="json")
    assert response.status_code == 201, response.json()
    return dict(response.json())


def test_list_detail_and_the_upgrade_form(api: Any, browser: Client) -> None:
    calibration = _calibration(api)
    listing = browser.get("/calibrations/").content.decode()
    assert "Bank A" in listing and "customer data" in listing and "2827-710" in listing
    page = browser.get(f"/calibrations/{calibration['id']}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "customer data" in text and "We run this today" in text
    # The fitted LPAR cost is the API's, shown to 4 decimals (CP-ms per transaction).
    slope = calibration["fit"]["components"]["lpar"]["slope_ms"]
    assert f"{slope:.4f}" in text
    assert f'name="configuration" value="{calibration["configuration"]}"' in text
    assert browser.get("/calibrations/new/").status_code == 200


def test_another_users_calibration_page_is_404(api: Any, other_user: Any) -> None:
    calibration = _calibration(api)
    other = Client()
    other.force_login(other_user)
    assert other.get(f"/calibrations/{calibration['id']}/").status_code == 404
    assert other.post(f"/calibrations/{calibration['id']}/delete/").status_code == 404
    assert "Bank A" not in other.get("/calibrations/").content.decode()


def test_delete_from_the_page_and_refusal_while_an_estimate_uses_it(api: Any, browser: Client) -> None:
    calibration = _calibration(api)
    estimate = api.post(
        "/api/v1/estimates/", {"calibration": calibration["id"], "machine": "z13", "tps": 1000}, format="json"
    )
    refused = browser.post(f"/calibrations/{calibration['id']}/delete/")
    assert refused.status_code == 400 and f"estimates {estimate.json()['id']} use this" in refused.content.decode()
    api.delete(f"/api/v1/estimates/{estimate.json()['id']}/")
    assert browser.post(f"/calibrations/{calibration['id']}/delete/").status_code == 302
    assert not Calibration.objects.exists()


def test_workbench_chart_data_draws_the_calibration_intervals_as_your_data(api: Any, browser: Client) -> None:
    calibration = _calibration(api)
    params = {
        "path": "fiteq-authenticator",
        "configuration": calibration["configuration"],
        "machine": "z13",
        "tps": 8000,
    }
    response = browser.get("/ui/chart-data", params)
    assert response.status_code == 200, response.content
    points = response.json()["cpu"]["points"]
    # Table 11-1's four rows, posted as the customer's intervals, ordered by ETR.
    assert [p["etr"] for p in points] == [i["etr"] for i in calibration["intervals"]]
    assert {p["source"] for p in points} == {"your data"}


def test_a_calibrated_estimate_page_says_the_data_are_the_customers(api: Any, browser: Client) -> None:
    calibration = _calibration(api)
    estimate = api.post(
        "/api/v1/estimates/", {"calibration": calibration["id"], "machine": "z16", "tps": 8000}, format="json"
    ).json()
    text = browser.get(f"/estimates/{estimate['id']}/").content.decode()
    assert "customer data" in text and "Sized from your own measurements" in text and "2827-710" in text
    published = api.post(
        "/api/v1/estimates/",
        {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z16", "tps": 8000},
        format="json",
    ).json()
    assert "customer data" not in browser.get(f"/estimates/{published['id']}/").content.decode()
