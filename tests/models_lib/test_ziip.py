"""zIIP/GCP split: identities, the IIPCP overflow, and the RMF example of the z/OS Connect paper."""

from __future__ import annotations

import pytest
from numpy.testing import assert_allclose

from models_lib.ziip import split_demand, ziips_required
from tests.models_lib import published as P


def test_split_identities_when_ziips_suffice() -> None:
    s = split_demand(4.0, 0.7272, ziips=4, ziip_ceiling=0.85)
    assert_allclose(s.gcp + s.ziip, s.total, rtol=1e-15)
    assert_allclose(s.ziip, 4.0 * 0.7272, rtol=1e-15)
    assert s.ziip_on_gcp == 0.0 and not s.ziips_short()
    assert_allclose(s.ziip_utilization(), 4.0 * 0.7272 / 4, rtol=1e-15)  # type: ignore[arg-type]


def test_eligible_work_overflows_to_gcps_only_when_ziips_are_short() -> None:
    # 2 busy engines, 75 % eligible = 1.5; one zIIP at a 100 % ceiling carries 1.0, so
    # 0.5 busy engines of eligible work run on CPs (IIPCP): gcp = 0.5 + 0.5 = 1.0.
    s = split_demand(2.0, 0.75, ziips=1, ziip_ceiling=1.0)
    assert (s.gcp, s.ziip, s.ziip_on_gcp) == (1.0, 1.0, 0.5)
    assert s.ziips_short()
    assert_allclose(s.gcp + s.ziip, s.total, rtol=1e-15)
    assert_allclose(s.ziip + s.ziip_on_gcp, s.eligible, rtol=1e-15)


def test_no_ziips_reproduces_the_rmf_iipcp_of_the_zosconnect_example() -> None:
    # z/OS Connect EE V3.0 summary, Figure 3 (RMF Workload Activity, no zIIPs online):
    # APPL% CP 104.86, IIPCP 104.82 -> eligible fraction 104.82/104.86; with 0 zIIPs all
    # eligible work runs on CPs and is reported as IIPCP = 1.0482 busy CPs.
    st = P.statement("zosconnect_ee_v3_cics.yaml", "s11-ziip-eligibility")
    ev = st["data"]["evidence"]
    total = ev["appl_pct_cp"] / 100.0
    fraction = ev["appl_pct_iipcp"] / ev["appl_pct_cp"]
    s = split_demand(total, fraction, ziips=0, ziip_ceiling=0.85)
    assert_allclose(s.ziip_on_gcp, 104.82 / 100.0, rtol=1e-12)
    assert s.gcp == s.total and s.ziip == 0.0
    assert s.ziip_utilization() is None


def test_ziips_required() -> None:
    # ceil(eligible / ceiling), with float noise not rounded up: 1.7 / 0.85 = 2.0000000000000004
    assert ziips_required(1.7, 0.85) == 2
    assert ziips_required(1.71, 0.85) == 3
    assert ziips_required(0.0, 0.85) == 0
    assert ziips_required(1e-9, 1.0) == 1


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"total_busy": -1.0, "eligible_fraction": 0.5, "ziips": 1, "ziip_ceiling": 0.8}, "total_busy"),
        ({"total_busy": 1.0, "eligible_fraction": 1.5, "ziips": 1, "ziip_ceiling": 0.8}, "eligible_fraction"),
        ({"total_busy": 1.0, "eligible_fraction": 0.5, "ziips": -1, "ziip_ceiling": 0.8}, "ziips"),
        ({"total_busy": 1.0, "eligible_fraction": 0.5, "ziips": 1, "ziip_ceiling": 0.0}, "ziip_ceiling"),
        ({"total_busy": float("nan"), "eligible_fraction": 0.5, "ziips": 1, "ziip_ceiling": 0.8}, "total_busy"),
    ],
)
def test_split_demand_rejects_bad_input(kwargs: dict[str, float], needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        split_demand(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="ceiling"):
        ziips_required(1.0, 1.2)
