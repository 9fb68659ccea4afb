"""Property tests (hypothesis): monotonicity of the sizing and the response model, identities of
the zIIP split, and the least-squares closed forms on random data."""

from __future__ import annotations

import json
import math
from functools import cache

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from models_lib.capacity import projection_factor
from models_lib.costmodel import ConfigurationModel, fit_configuration, fit_linear
from models_lib.inputs import CapacityTable, ConfigurationData
from models_lib.response import ResponseModel, fit_response
from models_lib.sizing import size
from models_lib.ziip import split_demand, ziips_required
from tests.models_lib import published as P

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TYPES = ["2097", "2827", "2964"]
SIZABLE = [
    ("fiteq-authenticator", "single-region"),
    ("fiteq-authenticator", "single-region-log"),
    ("fiteq-authenticator", "multi-region"),
    ("fiteq-authenticator", "multi-region-log"),
    ("cicsts-catalog", "v5.3"),
    ("cicsts-catalog", "v5.2"),
    ("zosconnect-cics", "channel"),
    ("cicstg", "ipic-channel-31"),
    ("cicstg", "exci-commarea-64"),
]


@cache
def _table() -> CapacityTable:
    return P.capacity_table()


@cache
def _prefit(path: str, configuration: str) -> tuple[ConfigurationData, ConfigurationModel, ResponseModel]:
    cfg = P.configuration(path, configuration)
    model = fit_configuration(cfg)
    if model.has_cpu_model:
        rmodel = fit_response(cfg, model)
    else:
        bound = min(cfg.bounds, key=lambda b: b.engines / b.tps)
        rmodel = fit_response(cfg, cp_seconds=bound.engines / bound.tps)
    return cfg, model, rmodel


def _required(path: str, configuration: str, machine_type: str, tps: float, sla: float | None) -> float:
    cfg, model, rmodel = _prefit(path, configuration)
    r = size(
        cfg,
        target_machine="t",
        target_machine_type=machine_type,
        capacity=_table(),
        tps=tps,
        response_time_sla_ms=sla,
        model=model,
        response_model=rmodel,
    )
    json.dumps(r.to_dict(), allow_nan=False)  # every result is JSON-safe
    return math.inf if r.cps_required is None else float(r.cps_required)


@SETTINGS
@given(
    which=st.sampled_from(SIZABLE),
    machine_type=st.sampled_from(TYPES),
    tps=st.floats(min_value=1.0, max_value=200000.0),
    more=st.floats(min_value=1.0, max_value=3.0),
    sla=st.one_of(st.none(), st.floats(min_value=1.0, max_value=60.0)),
)
def test_more_tps_never_needs_fewer_cps(
    which: tuple[str, str], machine_type: str, tps: float, more: float, sla: float | None
) -> None:
    low = _required(*which, machine_type, tps, sla)
    high = _required(*which, machine_type, tps * more, sla)
    assert high >= low, (which, machine_type, tps, more, sla, low, high)


@SETTINGS
@given(
    which=st.sampled_from(SIZABLE[:6]),
    cps=st.integers(min_value=1, max_value=39),
    load=st.floats(min_value=0.0, max_value=0.999),
    cost_factor=st.floats(min_value=0.5, max_value=2.0),
)
def test_more_cps_never_raise_response_time(which: tuple[str, str], cps: int, load: float, cost_factor: float) -> None:
    # At a fixed CPU cost per transaction (the queueing property; the sizing's LSPR factor also
    # changes the cost with the CP count), R(tps, c + 1) <= R(tps, c) for every stable tps.
    _, _, rmodel = _prefit(*which)
    tps = load * rmodel.saturation_tps(cps=cps, cost_factor=cost_factor)
    fewer = rmodel.breakdown(tps, cps=cps, cost_factor=cost_factor)
    more = rmodel.breakdown(tps, cps=cps + 1, cost_factor=cost_factor)
    assert more.cp_residence_ms <= fewer.cp_residence_ms * (1 + 1e-12)
    if fewer.total_ms is not None and more.total_ms is not None:
        assert more.total_ms <= fewer.total_ms * (1 + 1e-12)


@SETTINGS
@given(
    total=st.floats(min_value=0.0, max_value=100.0),
    fraction=st.floats(min_value=0.0, max_value=1.0),
    ziips=st.integers(min_value=0, max_value=40),
    ceiling=st.floats(min_value=0.05, max_value=1.0),
)
def test_ziip_split_identities(total: float, fraction: float, ziips: int, ceiling: float) -> None:
    s = split_demand(total, fraction, ziips, ceiling)
    assert_allclose(s.gcp + s.ziip, s.total, rtol=1e-12, atol=1e-12)
    assert_allclose(s.ziip + s.ziip_on_gcp, s.eligible, rtol=1e-12, atol=1e-12)
    assert s.ziip <= ziips * ceiling * (1 + 1e-12)
    assert (s.ziip_on_gcp > 0) == (s.eligible > ziips * ceiling)
    # with ziips_required zIIPs nothing overflows
    enough = split_demand(total, fraction, ziips_required(s.eligible, ceiling), ceiling)
    assert enough.ziip_on_gcp <= 1e-9 * max(total, 1.0)


@SETTINGS
@given(
    a=st.floats(min_value=-0.5, max_value=2.0),
    b=st.floats(min_value=1e-5, max_value=1e-2),
    etr=st.lists(st.floats(min_value=10.0, max_value=1e5), min_size=3, max_size=8, unique=True),
    noise=st.lists(st.floats(min_value=-0.05, max_value=0.05), min_size=8, max_size=8),
    relative=st.booleans(),
)
def test_loo_closed_form_equals_refit_on_random_data(
    a: float, b: float, etr: list[float], noise: list[float], relative: bool
) -> None:
    x = np.array(etr)
    # Both sides are exact in real arithmetic; in floating point the leave-one-out prediction
    # at x[i] amplifies rounding by the leverage of x[i] over the remaining points, which grows
    # without bound as they bunch together.  Published ETRs span at least 80 % of their maximum
    # (FiTeq 497..3494, CICS TS 35,207..174,624), so the check is held to data spread over at
    # least 5 % of the maximum, where 1e-7 is comfortably above the rounding.
    assume(np.ptp(x) > 0.05 * x.max())
    y = np.maximum(a + b * x, 0.0) * (1.0 + np.array(noise[: x.size])) + 1e-6
    weighting = "relative" if relative else "none"
    fit = fit_linear(x, y, weighting=weighting)  # type: ignore[arg-type]
    # The closed form divides the residual by 1 - h_ii, so rounding grows as 1 / (1 - h_ii).  With
    # 1/ETR^2 weights a point at a low rate can carry nearly all the weight (h_ii -> 1) however
    # spread the rates are: such points are held to the refit at a tolerance scaled by that
    # amplification, the others at 1e-7.
    w = fit.weights()
    leverage = w * (1.0 / float(w.sum()) + (x - fit.etr_mean) ** 2 / fit.sxx)
    for i, loo in enumerate(fit.leave_one_out()):
        keep = np.arange(x.size) != i
        assume(np.ptp(x[keep]) > 0.05 * x.max())
        ref = fit_linear(x[keep], y[keep], weighting=weighting)  # type: ignore[arg-type]
        if loo.loo_predicted is None:
            # documented: no prediction when removing the point leaves (numerically) no line
            assert 1.0 - leverage[i] < 1e-9
            continue
        amplification = 1.0 / max(1.0 - float(leverage[i]), 1e-12)
        assert_allclose(loo.loo_predicted, ref.predict(float(x[i])), rtol=1e-9 * max(amplification, 100.0), atol=1e-9)


@SETTINGS
@given(
    t1=st.sampled_from(TYPES),
    t2=st.sampled_from(TYPES),
    t3=st.sampled_from(TYPES),
    n1=st.integers(min_value=1, max_value=40),
    n2=st.integers(min_value=1, max_value=40),
    n3=st.integers(min_value=1, max_value=40),
)
def test_projection_factors_compose(t1: str, t2: str, t3: str, n1: int, n2: int, n3: int) -> None:
    # (A -> B) then (B -> C) equals A -> C: the projection preserves MIPS-seconds.
    t = _table()
    ab = projection_factor(t, t1, n1, t2, n2).factor
    bc = projection_factor(t, t2, n2, t3, n3).factor
    ac = projection_factor(t, t1, n1, t3, n3).factor
    assert_allclose(ab * bc, ac, rtol=1e-12)
