"""The numerics of the job kinds (models_lib.curve, .closed, .montecarlo, .mix, .optimize) against
the estimate (``size()``) and closed forms, without a database.

Configurations come from benchmarks/ (tests/models_lib/published.py), ratings and specialty-engine
rules from tests/models_lib/engine_data.py, each with its source.
"""

from __future__ import annotations

import dataclasses
import math
from functools import cache

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import stats

from models_lib.closed import clients_ziips, closed_network_at, cost_scales, network_rate
from models_lib.curve import curve_series
from models_lib.mix import evaluate_mix, fcfs_wait_s
from models_lib.montecarlo import sample_costs, simulate
from models_lib.optimize import feasible_mixes, frontier
from models_lib.sizing import SizingResult, size
from models_lib.workload import WorkloadModel, workload_model
from tests.models_lib import published as P
from tests.models_lib.engine_data import Z13, Z17, table

FITEQ = ("fiteq-authenticator", "multi-region")
ZOSCONNECT = ("zosconnect-cics", "channel")
CICSTG = ("cicstg", "ipic-commarea-64")


@cache
def _wm(path: str, configuration: str, machine: str, tps: float | None = None) -> WorkloadModel:
    cfg = P.configuration(path, configuration)
    return workload_model(cfg, machine=machine, machine_type=machine, capacity=table(), tps=tps)


def _size(path: str, configuration: str, machine: str, **kw: object) -> SizingResult:
    cfg = P.configuration(path, configuration)
    return size(cfg, target_machine=machine, target_machine_type=machine, capacity=table(), **kw)  # type: ignore[arg-type]


def _still(wm: WorkloadModel) -> WorkloadModel:
    """``wm`` with no spread at all: a fit with zero covariance, one cost, one eligible share."""
    fit = None if wm.fit is None else dataclasses.replace(wm.fit, cov=((0.0, 0.0), (0.0, 0.0)))
    return dataclasses.replace(
        wm, fit=fit, cost_range_s=(wm.slope, wm.slope), eligible_low=wm.eligible, eligible_high=wm.eligible
    )


# -- curve ---------------------------------------------------------------------------------------


def test_curve_with_a_marked_rate_saturates_where_the_estimate_does() -> None:
    # Issue 21: z/OS Connect on z13, 16 CPs, 1,000 TPS drew saturation at 9,540 TPS (as many zIIPs
    # as the 2:1 rule allows) where the estimate of that LPAR says 4,372 (the zIIPs it sizes).
    wm = _wm(*ZOSCONNECT, Z13, 1000.0)
    est = _size(*ZOSCONNECT, Z13, tps=1000.0, cps=16)
    s = curve_series(wm, cps=16, ziips=None, points=20, max_utilization=0.85, tps=1000.0)
    assert s.ziips == est.ziips
    assert est.saturation_tps is not None
    assert_allclose(s.saturation_tps, est.saturation_tps, rtol=1e-12)
    assert s.at_tps is not None
    assert_allclose(s.at_tps.gcp_utilization, est.gcp_utilization, rtol=1e-12)
    # Without a marked rate the engines follow the load: saturation with the most the rules allow.
    free = curve_series(wm, cps=16, ziips=None, points=20, max_utilization=0.85)
    assert free.ziips is None and free.saturation_tps == wm.saturation_tps(16)


def test_curve_ceiling_meets_the_utilisation_ceiling() -> None:
    wm = _wm(*FITEQ, Z13)
    s = curve_series(wm, cps=4, ziips=0, points=10, max_utilization=0.85)
    assert s.ceiling_tps is not None
    # The bisection stops at 1e-9 of saturation: utilisation there is the ceiling to that accuracy.
    assert_allclose(wm.evaluate(s.ceiling_tps, 4, 0).gcp_utilization, 0.85, rtol=1e-8)
    with pytest.raises(ValueError, match="points"):
        curve_series(wm, cps=4, ziips=0, points=0, max_utilization=0.85)


def test_curve_ceiling_holds_the_software_station_to_the_ceiling() -> None:
    # FiTeq multi-region on 8 CPs saturates at its software station (the HSM channel); the
    # column "At the ceiling" is the estimate's most carried there: the ceiling x that saturation.
    wm = _wm(*FITEQ, Z13)
    s = curve_series(wm, cps=8, ziips=0, points=10, max_utilization=0.85)
    assert wm.saturation(8, 0).binding == "software"
    assert wm.response is not None and wm.response.software is not None
    assert s.ceiling_tps is not None and s.saturation_tps == wm.response.software.saturation_tps()
    assert_allclose(s.ceiling_tps, 0.85 * s.saturation_tps, rtol=1e-12)
    assert wm.evaluate(s.ceiling_tps, 8, 0).gcp_utilization < 0.85


# -- closed --------------------------------------------------------------------------------------


def test_closed_network_at_one_client_is_demand_plus_think() -> None:
    # One client alone: X(1) = 1 / (Z + sum of demands) (MVA with n = 1, Reiser and Lavenberg 1980).
    wm = _wm(*FITEQ, Z13)
    net = closed_network_at(wm, cps=4, ziips=0, tps=500.0)
    demands = sum(s.demand for s in net.stations)
    x = float(net.solve(1, 0.5).throughput)
    assert_allclose(x, 1.0 / (0.5 + demands), rtol=1e-12)
    with pytest.raises(ValueError, match="tps"):
        closed_network_at(wm, cps=4, ziips=0, tps=0.0)


def test_network_rate_is_a_fixed_point() -> None:
    wm = _wm(*FITEQ, Z13)
    t = network_rate(wm, cps=4, ziips=0, clients=400, think_time_s=0.2)
    x = float(closed_network_at(wm, cps=4, ziips=0, tps=t).solve(400, 0.2).throughput)
    assert_allclose(x, t, rtol=1e-9)


def test_closed_network_at_the_estimates_rate_is_the_estimates() -> None:
    est = _size(*ZOSCONNECT, Z17, tps=800.0, cps=6, clients=300, think_time_s=0.5)
    wm = _wm(*ZOSCONNECT, Z17)
    z = clients_ziips(wm, cps=6, ziips=est.ziips, clients=300, think_time_s=0.5)
    x = float(closed_network_at(wm, cps=6, ziips=z, tps=800.0).solve(300, 0.5).throughput)
    assert_allclose(x, est.closed_throughput_tps, rtol=1e-9)
    low, high = cost_scales(wm)
    assert low <= 1.0 <= high


# -- montecarlo ----------------------------------------------------------------------------------


@pytest.mark.parametrize("cfg", [FITEQ, ZOSCONNECT, CICSTG])
@pytest.mark.parametrize("machine", [Z13, Z17])
def test_montecarlo_without_spread_is_the_estimate(cfg: tuple[str, str], machine: str) -> None:
    tps = 1200.0
    wm = _still(_wm(*cfg, machine, tps))
    est = _size(*cfg, machine, tps=tps)
    assert est.cps_required is not None
    mc = simulate(wm, tps=tps, samples=20, seed=3, cps=est.cps_required)
    assert np.all(mc.cps_required == est.cps_required) and np.all(mc.ziips_required == est.ziips)
    ev = wm.evaluate(tps, est.cps_required)
    assert_allclose(mc.gcp_busy, est.busy_cps["gcp"], rtol=1e-9)
    assert_allclose(mc.lower_bound_ms, ev.lower_bound_ms, rtol=1e-12)
    if est.response_time_ms.get("value") is not None:
        assert_allclose(mc.response_time_ms, est.response_time_ms["value"], rtol=1e-9)


def test_montecarlo_draws_are_centred_on_the_engines_line() -> None:
    # The median of the draws of a t cost model is the engine's line (the estimate's slope).
    # Standard error of a sample median: 1 / (2 f(0) sqrt(n)) with f the t density at 0
    # (Cramer 1946, sec. 28.5); six of them is ample.
    wm = _wm(*FITEQ, Z13)
    assert wm.fit is not None and wm.fit.interval_basis == "residuals"
    n = 100_000
    _, b = sample_costs(wm, np.random.default_rng(11), n)
    se_median = wm.fit.slope_se / (2 * stats.t.pdf(0.0, wm.fit.dof) * math.sqrt(n))
    assert abs(np.median(b) - wm.slope) < 6 * se_median
    with pytest.raises(ValueError, match="samples"):
        simulate(wm, tps=100.0, samples=0, seed=1, cps=2)


# -- mix -----------------------------------------------------------------------------------------


def test_fcfs_wait_on_one_server_is_pollaczek_khinchine() -> None:
    # M/G/1: W = lambda E[S^2] / (2 (1 - rho)); the service is the mixture of two exponentials,
    # E[S^2] = sum(p_i 2 s_i^2) (Kleinrock, Queueing Systems vol. 1, 1975, eq. 5.65).
    rates, services = [30.0, 10.0], [0.01, 0.05]
    lam = sum(rates)
    rho = sum(r * s for r, s in zip(rates, services, strict=True))
    second = sum(r / lam * 2 * s * s for r, s in zip(rates, services, strict=True))
    assert_allclose(fcfs_wait_s(1, rho, rates, services), lam * second / (2 * (1 - rho)), rtol=1e-12)


@pytest.mark.parametrize("machine", [Z13, Z17])
def test_a_mix_of_one_workload_is_its_estimate(machine: str) -> None:
    wm = _wm(*FITEQ, machine, 3000.0)
    est = _size(*FITEQ, machine, tps=3000.0)
    answer = evaluate_mix([wm], [3000.0])
    assert answer.lpar.cps == est.cps_required and answer.cps_sized
    (w,) = answer.workloads
    assert_allclose(w.gcp_busy, est.busy_cps["gcp"], rtol=1e-12)
    assert_allclose(w.response_time_ms, est.response_time_ms["value"], rtol=1e-9)
    with pytest.raises(ValueError, match="rates"):
        evaluate_mix([wm], [3000.0, 1.0])


def test_two_halves_of_a_workload_share_its_lpar() -> None:
    wm = _wm(*CICSTG, Z13)
    whole = evaluate_mix([wm], [2000.0], cps=4, ziips=0)
    halves = evaluate_mix([wm, wm], [1000.0, 1000.0], cps=4, ziips=0)
    # Busy engines add up (the fixed load is counted once per workload, as two LPAR tenants).
    one = wm.native_busy(1000.0) * wm.factor(4)
    assert_allclose(halves.lpar.gcp_busy, 2 * one, rtol=1e-12)
    assert halves.headroom > 0 and whole.saturation_scale > 0


# -- optimize ------------------------------------------------------------------------------------


def test_optimiser_with_free_zIIPs_picks_the_estimates_cps() -> None:
    wm = _wm(*ZOSCONNECT, Z17)
    # A CP costs 1 and a specialty engine nothing: the fewest CPs, the estimate's fewest-cps mix.
    est = _size(*ZOSCONNECT, Z17, tps=1500.0, objective="fewest-cps")
    found, tried = feasible_mixes(
        wm,
        tps=1500.0,
        costs={"gcp": 1.0, "ziip": 0.0},
        max_cps=wm.counts[-1],
        max_ziips=None,
        response_time_sla_ms=None,
    )
    assert tried >= len(found) > 0
    best = min(found, key=lambda f: f[0])[1]
    assert best["cps"] == est.cps_required
    front = frontier(found)
    assert all(not (a["cps"] <= b["cps"] and a["ziips"] <= b["ziips"]) for a in front for b in front if a is not b)
