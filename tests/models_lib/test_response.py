"""Response-time model: M/M/c closed forms (checked against models_lib.queueing), limit cases,
and the software-station fit to the published FiTeq response times (REDP-5114)."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from numpy.testing import assert_allclose

from models_lib.costmodel import fit_configuration
from models_lib.queueing import erlang_c, mmc, mmc_response_times
from models_lib.response import ResponseModel, erlang_c_array, fit_response
from tests.models_lib import published as P

FITEQ = ["single-region", "single-region-log", "multi-region", "multi-region-log"]


def _fitted(path: str, configuration: str) -> ResponseModel:
    cfg = P.configuration(path, configuration)
    return fit_response(cfg, fit_configuration(cfg))


# ---------------------------------------------------------------------------------------
# Closed forms
# ---------------------------------------------------------------------------------------


def test_vectorised_erlang_c_matches_queueing_erlang_c() -> None:
    # Peer: models_lib.queueing.erlang_c (Erlang B recursion) against the Poisson-ratio form.
    servers = np.arange(1, 65)
    for frac in (1e-6, 0.1, 0.5, 0.85, 0.99, 0.9999):
        loads = servers * frac
        ours = erlang_c_array(servers, loads)
        ref = np.array([erlang_c(int(c), float(a)) for c, a in zip(servers, loads, strict=True)])
        assert_allclose(ours, ref, rtol=1e-9, atol=1e-300)
    assert erlang_c_array(4, 0.0) == 0.0
    # M/M/2 at a = 1: C = 1/3 (Kleinrock 1975, sec. 3.5; erlang_c docstring example)
    assert_allclose(erlang_c_array(2, 1.0), 1.0 / 3.0, rtol=1e-14)


def test_cp_residence_is_mmc_response_time_without_fixed_load() -> None:
    # intercept 0: R_cp = mmc(tps, b, c).response_time (peer: models_lib.queueing.mmc)
    m = ResponseModel("p", "c", cps=10, cp_seconds=0.000875, intercept_cps=0.0, fixed_ms=5.0)
    for tps in (100.0, 5000.0, 10000.0, 11000.0):
        ref = mmc(tps, 0.000875, 10).response_time * 1000.0
        assert_allclose(m.cp_residence_ms(tps), ref, rtol=1e-10)
        assert_allclose(m.response_time_ms(tps), 5.0 + ref, rtol=1e-10)  # type: ignore[arg-type]
    tps = np.linspace(0.0, 11000.0, 200)
    assert_allclose(m.curve(tps).cp_residence_ms, mmc_response_times(tps, 0.000875, 10) * 1000.0, rtol=1e-10)


def test_fixed_busy_cps_load_the_same_servers() -> None:
    # Offered load A = a + b tps (busy CPs); R_cp = b + C(c, A) b / (c - A)
    # = mmc(A / b, b, c).response_time, i.e. the fixed load is served like the transactions.
    a, b, c = 0.5, 0.001, 4
    m = ResponseModel("p", "c", cps=c, cp_seconds=b, intercept_cps=a)
    for tps in (10.0, 1500.0, 3000.0, 3400.0):
        load = a + b * tps
        ref = mmc(load / b, b, c).response_time * 1000.0
        assert_allclose(m.cp_residence_ms(tps), ref, rtol=1e-10)
        assert_allclose(m.breakdown(tps).cp_utilization, load / c, rtol=1e-15)
    # saturation: (c - a) / b = 3500 TPS
    assert_allclose(m.saturation_tps(), 3500.0, rtol=1e-15)
    assert m.cp_residence_ms(3500.0) == math.inf


def test_low_load_limit_and_saturation_limit() -> None:
    m = _fitted("fiteq-authenticator", "multi-region-log")
    # tps -> 0: R -> R0 = D + b (no queueing anywhere)
    assert_allclose(m.response_time_ms(1e-9), m.r0_ms, rtol=1e-9)  # type: ignore[arg-type]
    # tps -> saturation: unbounded
    sat = m.saturation_tps()
    assert m.response_time_ms(sat * (1 - 1e-9)) > 1e3  # type: ignore[operator]
    assert m.response_time_ms(sat) == math.inf


def test_knee_doubles_the_low_load_response_time() -> None:
    m = _fitted("fiteq-authenticator", "single-region-log")
    knee = m.knee_tps()
    assert knee is not None and 0 < knee < m.saturation_tps()
    assert_allclose(m.response_time_ms(knee), 2 * m.r0_ms, rtol=1e-9)  # type: ignore[operator]


# ---------------------------------------------------------------------------------------
# Fit to the published response times
# ---------------------------------------------------------------------------------------


def test_single_region_has_flat_response_and_r0_is_the_mean_of_table_9_1() -> None:
    # Table 9-1 response times 3, 5, 4, 4 ms at 497.60..3494.82 TPS: no rise beyond rounding,
    # so no software station; with the CP queueing negligible (LPAR <= 23 % busy of 10 CPs)
    # R0 is the mean, (3 + 5 + 4 + 4) / 4 = 4 ms; RMSE sqrt((1 + 1 + 0 + 0) / 4) = 0.707 ms.
    m = _fitted("fiteq-authenticator", "single-region")
    assert m.software is None and m.fit is not None
    assert_allclose(m.r0_ms, 4.0, atol=1e-4)  # type: ignore[arg-type]
    assert_allclose(m.fit.rmse_ms, math.sqrt(0.5), rtol=1e-4)


@pytest.mark.parametrize("configuration", ["single-region-log", "multi-region", "multi-region-log"])
def test_software_station_fitted_where_response_rises_before_cps_are_busy(configuration: str) -> None:
    # REDP-5114: Validation Log file I/O (secs. 9.5, 11.4) and HSM Channel enqueue waits
    # (sec. 11.3) make response times rise while the LPAR is at most 76 % busy.  The fit error
    # is reported, and checked loosely: the published values are integer ms and the M/M/m
    # family cannot follow the early steps (e.g. 4 -> 9 ms between 499 and 984 TPS in Table
    # 11-1), so RMSE <= 4 ms; the highest published point (where the station matters) is
    # matched within 1 %, and every published rate is below the fitted saturation m / s.
    m = _fitted("fiteq-authenticator", configuration)
    assert m.software is not None and m.fit is not None
    fit = m.fit
    print(
        f"\n{configuration}: m = {m.software.servers}, s = {m.software.service_s * 1000:.4f} ms, "
        f"D = {m.fixed_ms:.2f} ms, R0 = {m.r0_ms:.2f} ms, RMSE = {fit.rmse_ms:.2f} ms, "
        f"max rel. error = {fit.max_rel_error:.1%}, saturation = {m.saturation_tps():.0f} TPS"
    )
    for e, pub, fitted in zip(fit.etr, fit.published_ms, fit.fitted_ms, strict=True):
        print(f"   ETR {e:8.2f}: published {pub:4.0f} ms, model {fitted:6.2f} ms")
    assert fit.rmse_ms <= 4.0
    assert_allclose(fit.fitted_ms[-1], fit.published_ms[-1], rtol=0.01)
    assert m.software.saturation_tps() > max(fit.etr)
    assert fit.servers_tried == tuple(range(1, 65))


def test_multi_region_model_near_the_cics_pa_measurement() -> None:
    # REDP-5114 sec. 11.3: CICS PA over 3 minutes, 1561135/180 = 8672 TPS, average response
    # 14.6 ms (RMF, Table 11-1 row 4: 14 ms at 8680.75).  Within the fit RMSE.
    m = _fitted("fiteq-authenticator", "multi-region")
    assert m.fit is not None
    assert abs(m.response_time_ms(8672.0) - 14.6) <= m.fit.rmse_ms  # type: ignore[operator]


def test_config_without_response_times_gives_lower_bound_and_saturation_only() -> None:
    # REDP-5320 publishes no response times: the model says so (None) but still gives the CP
    # residence and the saturation rate (18 CPs, CICS cost line).
    cfg = P.configuration("cicsts-catalog", "v5.3")
    model = fit_configuration(cfg)
    m = fit_response(cfg, model)
    fit = model.primary_fit()
    assert not m.has_response_data and m.r0_ms is None
    assert m.response_time_ms(100000.0) is None
    bd = m.breakdown(100000.0)
    assert bd.total_ms is None and bd.cp_residence_ms >= fit.slope * 1000.0
    assert_allclose(m.saturation_tps(), (18 - fit.intercept) / fit.slope, rtol=1e-12)
    assert m.knee_tps() is None
    assert m.curve([1000.0, 2000.0]).response_ms is None


def test_bounds_only_model_needs_a_cost() -> None:
    cfg = P.configuration("zosconnect-cics", "channel")
    with pytest.raises(ValueError, match="cp_seconds is required"):
        fit_response(cfg)
    m = fit_response(cfg, cp_seconds=0.006)
    assert_allclose(m.saturation_tps(), 1000.0, rtol=1e-12)  # 6 CPs / 6 ms


# ---------------------------------------------------------------------------------------
# Curves and projection
# ---------------------------------------------------------------------------------------


def test_curve_is_vectorised_and_matches_scalar_evaluation() -> None:
    m = _fitted("fiteq-authenticator", "multi-region-log")
    tps = np.linspace(0.0, 1.1 * m.saturation_tps(), 1000)
    start = time.perf_counter()
    curve = m.curve(tps)
    elapsed = time.perf_counter() - start
    scalar = np.array([m.response_time_ms(float(t)) for t in tps[curve.stable]])
    assert curve.response_ms is not None
    assert_allclose(curve.response_ms[curve.stable], scalar, rtol=1e-12)
    assert np.all(np.isnan(curve.response_ms[~curve.stable]))
    assert not curve.stable[-1] and curve.stable[0]
    assert elapsed < 0.25, elapsed  # measured ~1 ms; generous for a loaded CI machine


@pytest.mark.parametrize("configuration", ["multi-region", "multi-region-log", "single-region-log"])
def test_scalar_breakdown_equals_the_vectorised_curve_on_every_projection(configuration: str) -> None:
    # breakdown() is scalar arithmetic with models_lib.queueing.erlang_c (Erlang B recursion);
    # curve() is numpy with the Poisson-ratio Erlang C: the same M/M/c formulas, so they agree
    # to rounding at every CP count and cost factor the engine asks for, stable or not.
    m = _fitted("fiteq-authenticator", configuration)
    for cps in (1, 2, 5, 10, 17, 40):
        for factor in (0.37, 1.0, 2.5):
            sat = m.saturation_tps(cps=cps, cost_factor=factor)
            rates = np.concatenate([np.linspace(0.0, 0.999 * sat, 25), [sat, 1.5 * sat]])
            curve = m.curve(rates, cps=cps, cost_factor=factor)
            for i, t in enumerate(rates):
                bd = m.breakdown(float(t), cps=cps, cost_factor=factor)
                if curve.stable[i]:
                    assert_allclose(bd.cp_residence_ms, curve.cp_residence_ms[i], rtol=1e-12)
                    assert_allclose(bd.software_wait_ms, curve.software_wait_ms[i], rtol=1e-12, atol=1e-300)
                    if curve.response_ms is not None:
                        assert_allclose(bd.total_ms, curve.response_ms[i], rtol=1e-12)  # type: ignore[arg-type]
                else:
                    assert bd.lower_bound_ms == math.inf
                    assert bd.total_ms is None or bd.total_ms == math.inf
                p = m.projected(cps=cps, cost_factor=factor)
                load = max(p.intercept_cps + p.cp_seconds * float(t), 0.0)
                assert_allclose(bd.cp_utilization, load / cps, rtol=1e-15)


def test_projection_scales_cost_and_cps() -> None:
    m = _fitted("fiteq-authenticator", "multi-region")
    p = m.projected(cps=12, cost_factor=0.9)
    assert p.cps == 12 and p.fixed_ms == m.fixed_ms and p.software == m.software
    assert_allclose([p.cp_seconds, p.intercept_cps], [m.cp_seconds * 0.9, m.intercept_cps * 0.9], rtol=1e-15)
    assert_allclose(m.response_time_ms(3000.0, cps=12, cost_factor=0.9), p.response_time_ms(3000.0), rtol=1e-15)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "needle"),
    [
        (lambda m: m.response_time_ms(-1.0), "tps must be finite"),
        (lambda m: m.response_time_ms(10.0, cps=0), "cps must be an int"),
        (lambda m: m.response_time_ms(10.0, cost_factor=0.0), "cost_factor"),
        (lambda m: m.curve([[1.0]]), "1-D"),
    ],
)
def test_response_model_rejects_bad_input(call: object, needle: str) -> None:
    m = _fitted("fiteq-authenticator", "single-region")
    with pytest.raises(ValueError, match=needle):
        call(m)  # type: ignore[operator]
