"""One question, one answer (issue 10 item 1): the estimate (``size()``), a curve point
(``WorkloadModel.evaluate``), the optimiser and the closed-network job give the same CPs,
specialty engines and saturation for the same inputs, over paths, machines and a grid of rates.

Pure: the configurations come from benchmarks/ (tests/models_lib/published.py) and the ratings
and specialty-engine rules from tests/models_lib/engine_data.py (with their sources); no
database is needed.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models_lib.closed import closed_network_at
from models_lib.optimize import feasible_mixes
from models_lib.sizing import size
from models_lib.workload import WorkloadModel, workload_model
from tests.models_lib import published as P
from tests.models_lib.engine_data import Z10, Z13, Z17, table

CONFIGS = [
    ("fiteq-authenticator", "multi-region"),
    ("fiteq-authenticator", "single-region-log"),
    ("cicsts-catalog", "v5.3"),
    ("zosconnect-cics", "channel"),
    ("cicstg", "ipic-commarea-64"),
    ("cicstg", "exci-commarea-31"),
]
MACHINES = [Z10, "2827", Z13, Z17]


@cache
def _wm(path: str, configuration: str, machine: str) -> WorkloadModel:
    return workload_model(P.configuration(path, configuration), machine=machine, machine_type=machine, capacity=table())


def _estimate(path: str, configuration: str, machine: str, **kw: object):  # type: ignore[no-untyped-def]
    cfg = P.configuration(path, configuration)
    return size(cfg, target_machine=machine, target_machine_type=machine, capacity=table(), **kw)  # type: ignore[arg-type]


@settings(max_examples=30, deadline=None)
@given(
    cfg=st.sampled_from(CONFIGS),
    machine=st.sampled_from(MACHINES),
    tps=st.floats(min_value=50.0, max_value=6000.0),
    cps=st.integers(min_value=1, max_value=30),
)
def test_curve_point_is_the_estimate(cfg: tuple[str, str], machine: str, tps: float, cps: int) -> None:
    est = _estimate(*cfg, machine, tps=tps, cps=cps)
    ev = _wm(*cfg, machine).evaluate(tps, cps)
    # Where the given CPs saturate the answer quotes no engines; its figures are still those of cps.
    assert est.cps in (cps, None) and est.evaluated_cps == cps
    assert ev.ziips == est.evaluated_ziips
    assert ev.gcp == pytest.approx(est.busy_cps["gcp"], rel=1e-9, abs=1e-12)
    assert ev.ziip == pytest.approx(est.busy_cps["ziip"], rel=1e-9, abs=1e-12)
    sat = _wm(*cfg, machine).saturation_tps(cps, est.evaluated_ziips)
    if est.saturation_tps is None:
        assert sat == float("inf")
    else:
        assert sat == pytest.approx(est.saturation_tps, rel=1e-9)


@pytest.mark.parametrize("machine", MACHINES)
@pytest.mark.parametrize("cfg", CONFIGS)
def test_optimiser_with_free_specialty_engines_picks_the_estimates_cps(cfg: tuple[str, str], machine: str) -> None:
    # With specialty engines free, the cheapest mix has the fewest CPs that carry the load: the
    # estimate's cps_required with objective fewest-cps (it offloads as much as the rules allow).
    tps = 1500.0
    est = _estimate(*cfg, machine, tps=tps, objective="fewest-cps")
    wm = _wm(*cfg, machine)
    found, _ = feasible_mixes(
        wm,
        tps=tps,
        costs={"gcp": 1.0, "ziip": 0.0},
        # With specialty engines free a mix costs its CPs: none above cps_required + 1 can win.
        max_cps=wm.counts[-1] if est.cps_required is None else est.cps_required + 1,
        max_ziips=None,
        response_time_sla_ms=None,
        progress=lambda done, total: None,
    )
    if est.cps_required is None:
        assert not found
        return
    best = min(found, key=lambda f: f[0])[1]
    assert best["cps"] == est.cps_required
    allowed = wm.max_engines(best["cps"])
    assert allowed is None or best["ziips"] <= allowed


@pytest.mark.parametrize("machine", MACHINES)
@pytest.mark.parametrize("cfg", CONFIGS)
def test_optimisers_mixes_ranked_by_least_msu_give_the_estimates_mix(cfg: tuple[str, str], machine: str) -> None:
    # Issue 22 item 4: among the optimiser's feasible mixes (every CP count, 0..the allowed
    # specialty engines), the least eligible work on CPs (in measured-LPAR busy engines, so the
    # least MSU consumed), then the fewest engines, then the fewest CPs, is the estimate's
    # least-msu-consumed answer (no longer the default since issue 32 item 1).
    tps = 1500.0
    est = _estimate(*cfg, machine, tps=tps, objective="least-msu-consumed")
    wm = _wm(*cfg, machine)
    found, _ = feasible_mixes(
        wm,
        tps=tps,
        costs={"gcp": 1.0, "ziip": 1.0},
        max_cps=wm.counts[-1],
        max_ziips=None,
        response_time_sla_ms=None,
        progress=lambda done, total: None,
    )
    if not est.feasibility.feasible:
        assert not found and est.cps is None
        return
    rows = [row for _, row in found]
    least = min(row["ziip_on_gcp"] / wm.factor(row["cps"]) for row in rows)
    kept = [row for row in rows if row["ziip_on_gcp"] / wm.factor(row["cps"]) <= least + 1e-9]
    best = min(kept, key=lambda row: (row["cps"] + row["ziips"], row["cps"]))
    assert (best["cps"], best["ziips"]) == (est.cps_required, est.ziips_required)


@pytest.mark.parametrize("machine", [Z13, Z17])
@pytest.mark.parametrize("clients", [100, 300, 500])
def test_closed_network_job_is_the_estimates_closed_network(machine: str, clients: int) -> None:
    # z/OS Connect (bounds-only: no fixed load, no response model) on 6 CPs with the specialty
    # engines the estimate configures: the job's network and the engine's give one throughput.
    est = _estimate("zosconnect-cics", "channel", machine, tps=800.0, cps=6, clients=clients, think_time_s=0.5)
    assert est.ziips is not None and est.ziips > 0 and est.busy_cps["ziip_on_gcp"] == 0.0
    net = closed_network_at(_wm("zosconnect-cics", "channel", machine), cps=6, ziips=est.ziips, tps=800.0)
    x = float(net.solve(clients, 0.5).throughput)
    assert x == pytest.approx(est.closed_throughput_tps, rel=1e-9)
