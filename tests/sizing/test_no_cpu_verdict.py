"""Issue 32 item 4: no CPU data, no CPU verdict, on every surface that prints feasibility.

HostBridge publishes no CPU figures (only a response-time floor from a packet trace): the
estimate answers ``feasible: null`` with the reason and the floor; the API (validated against its
OpenAPI schema), the pages' words, the CSV, ``/fit`` and ``/upgrade`` say so and never "fits".
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from sizing import presentation

pytestmark = pytest.mark.django_db

HOSTBRIDGE = {"path": "hostbridge-http", "configuration": "default-tcpip"}
VERDICT = "No CPU figures are published for this path, so no CPU verdict"


def test_the_estimate_gives_no_cpu_verdict_with_what_is_known(api: Any) -> None:
    # Issue 32: "HostBridge is feasible with no CPU figure published, up to 500,000 TPS on a z10".
    for tps in (10, 500_000):
        body = api.get("/api/v1/estimate", {**HOSTBRIDGE, "machine": "z10", "tps": tps}).json()
        assert body["feasible"] is None
        fit = body["feasibility"]
        assert fit["reason"] == "no-cpu-data" and fit["message"].startswith(VERDICT)
        floor = body["response_time_ms"]["low"]
        assert floor is not None and f"{floor:,.4g} ms" in fit["message"]  # the response floor
        assert body["cps"] is None and body["cps_required"] is None
        figure = presentation.figures(body)["cps_required"]
        assert figure.value == presentation.DASH and figure.note == "no CPU verdict"


def test_the_csv_leaves_feasible_empty_and_says_why(api: Any) -> None:
    response = api.get("/api/v1/estimate", {**HOSTBRIDGE, "machine": "z16", "tps": 100, "format": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    (row,) = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert row["feasible"] == "" and row["does_not_fit"].startswith(VERDICT)


def test_fit_and_upgrade_never_say_it_fits(api: Any) -> None:
    fit = api.get("/api/v1/fit", {**HOSTBRIDGE, "tps": 100, "generations": "z16"})
    assert fit.status_code == 200, fit.content[:300]
    rows = fit.json()["rows"]
    assert rows and all(row["fits"] is False and row["reason"].startswith(VERDICT) for row in rows)
    upgrade = api.get("/api/v1/upgrade", {**HOSTBRIDGE, "machine": "z13", "cps": 6, "tps": 100, "targets": "z16"})
    assert upgrade.status_code == 200, upgrade.content[:300]
    columns = upgrade.json()["columns"]
    assert columns and all(c["feasible"] is None and c["does_not_fit"].startswith(VERDICT) for c in columns)
