"""Issue 32 item 7: the CICS region count through the API (400 naming it, echoed, in the basis)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db

CICSTS = {"path": "cicsts-catalog", "configuration": "v5.3", "model": "9176-D05", "tps": 1}


@pytest.mark.parametrize("value", [0, -1, 10_001, 2.5, "four", True])
def test_bad_region_counts_are_a_400_naming_the_field(api: Any, value: Any) -> None:
    response = api.post("/api/v1/estimates/", {**CICSTS, "cics_regions": value}, format="json")
    assert response.status_code == 400 and "cics_regions" in response.json(), response.json()


def test_a_path_without_a_region_count_is_a_400_naming_the_field(api: Any) -> None:
    body = {
        "path": "fiteq-authenticator",
        "configuration": "multi-region",
        "machine": "z16",
        "tps": 100,
        "cics_regions": 3,
    }
    response = api.get("/api/v1/estimate", body)
    assert response.status_code == 400 and "cics_regions" in response.json(), response.json()


def test_the_region_count_is_echoed_stated_and_lowers_the_fixed_base(api: Any) -> None:
    default = api.get("/api/v1/estimate", CICSTS).json()
    mine = api.get("/api/v1/estimate", {**CICSTS, "cics_regions": 2}).json()
    assert mine["inputs"]["cics_regions"] == 2 and "cics_regions" not in default["inputs"]
    assert any(
        a.startswith("CICS fixed base") and "sized for 2 regions (as given)" in a for a in mine["basis"]["assumptions"]
    )
    assert any("the benchmark's, by default" in a for a in default["basis"]["assumptions"])
    ratio = mine["basis"]["native"]["intercept_cps"] / default["basis"]["native"]["intercept_cps"]
    assert ratio == pytest.approx(2 / 17, rel=1e-12)  # 17: "It represents the 17 CICS regions" (REDP-5320 Figure 10)
    assert "fixed-base-dominates" in [w["code"] for w in default["warnings"]]
