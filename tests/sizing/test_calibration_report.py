"""A calibrated estimate's PDF report says its data are the customer's (read back with pdftotext)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.sizing.test_calibrations_api import _table_11_1_intervals
from tests.sizing.test_reports import report_words

pytestmark = pytest.mark.django_db


def test_calibrated_estimate_report_marks_the_data_as_the_customers(api: Any) -> None:
    body = {"name": "Bank A March", "path": "fiteq-authenticator", "model": "2827-710"}
    calibration = api.post("/api/v1/calibrations/", {**body, "intervals": _table_11_1_intervals()}, format="json")
    assert calibration.status_code == 201, calibration.json()
    estimate = api.post(
        "/api/v1/estimates/",
        {"calibration": calibration.json()["id"], "machine": "z16", "tps": 8000, "name": "Bank A on z16"},
        format="json",
    )
    assert estimate.status_code == 201, estimate.json()
    words = report_words(api, f"/api/v1/estimates/{estimate.json()['id']}/report.pdf")
    assert "Calibrated with the customer's own measurements (private data), not published benchmarks." in words
    assert "Data origin customer" in words
    assert "Bank A March" in words and "2827-710" in words  # which calibration, measured on which model
    assert "Published points used" not in words  # the customer's intervals are not published points

    published = api.post(
        "/api/v1/estimates/",
        {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z16", "tps": 8000},
        format="json",
    )
    words = report_words(api, f"/api/v1/estimates/{published.json()['id']}/report.pdf")
    assert "customer's own measurements" not in words and "Data origin published" in words
