"""Issue 32 item 7: ranges a planner believes.

* CPU per transaction lies inside its own range for every configuration with CPU data on z10,
  zEC12, z13, z16, z17, a sub-capacity (3931 at setting 500) and a midrange (9176 at D00) target,
  at rates up to past saturation: the ends are projected as the centre is, each pool at its own
  speed (the issue's case: CICS TG ipic-commarea-64 on 9176 D00 at 10 TPS, 2.50 ms against
  5.24..11.63).
* Where a software limit is inferred from points (FiTeq's software station), its saturation has
  a range wider than zero: the 95 % profile-likelihood interval of m / s, reproduced here from the
  published response times (Bates and Watts 1988, sec. 6.1).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

from models_lib.answer import SizingResult
from models_lib.prepared import PreparedWorkload, prepare
from tests.models_lib import published as P
from tests.models_lib.engine_data import table

#: (machine type, capacity setting): z10, zEC12, z13, z16, z17 at full speed, a sub-capacity z16, a midrange z17.
TARGETS = [
    ("2097", None),
    ("2827", None),
    ("2964", None),
    ("3931", None),
    ("9175", None),
    ("3931", "500"),
    ("9176", "D00"),
]
WITH_CPU = [c for c in P.all_configurations() if c.path != "hostbridge-http"]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def _prepared(index: int, target: int) -> PreparedWorkload:
    mt, setting = TARGETS[target]
    return prepare(
        WITH_CPU[index], target_machine=mt, target_machine_type=mt, capacity=table(), capacity_setting=setting
    )


def _inside(r: SizingResult) -> None:
    c = r.cpu_per_tran_ms
    assert c.total is not None and c.low is not None and c.high is not None
    assert c.low <= c.total * (1 + 1e-9) and c.total <= c.high * (1 + 1e-9), (r.path, r.configuration, c)


def test_the_issues_case_is_inside_its_range() -> None:
    cfg = P.configuration("cicstg", "ipic-commarea-64")
    pw = prepare(cfg, target_machine="9176", target_machine_type="9176", capacity=table(), capacity_setting="D00")
    r = pw.answer(10.0)
    _inside(r)
    # The centre is the engine's own split: the CP part at the D00 CPs' speed, the zAAP/zIIP part at full speed.
    assert r.cpu_per_tran_ms.total == pytest.approx(r.cpu_per_tran_ms.gcp + r.cpu_per_tran_ms.ziip)


@SETTINGS
@given(
    index=st.integers(0, len(WITH_CPU) - 1),
    target=st.integers(0, len(TARGETS) - 1),
    log_tps=st.floats(0.0, 6.0),
    cps=st.one_of(st.none(), st.integers(1, 8)),
)
def test_cpu_per_transaction_is_inside_its_range(index: int, target: int, log_tps: float, cps: int | None) -> None:
    pw = _prepared(index, target)
    r = pw.answer(10.0**log_tps, cps=cps if cps is None or cps in pw.counts else None)
    _inside(r)


# -- the software station's saturation range (FiTeq) -------------------------------------------


def _mm1_wait_ms(s: float, tps: np.ndarray) -> np.ndarray:
    """M/M/1 wait in queue, ms: rho s / (1 - rho), rho = tps x s (one server)."""
    rho = tps * s
    return rho * s / (1.0 - rho) * 1000.0


@pytest.mark.parametrize("configuration", ["multi-region", "single-region-log", "multi-region-log"])
def test_software_saturation_interval_reproduced_from_the_points(configuration: str) -> None:
    cfg = P.configuration("fiteq-authenticator", configuration)
    pw = prepare(cfg, target_machine="9175", target_machine_type="9175", capacity=table())
    rm = pw.response
    assert rm is not None and rm.software is not None and rm.fit is not None and rm.software.servers == 1
    sw = rm.software
    tps, published = np.array(rm.fit.etr), np.array(rm.fit.published_ms)
    cp_res = np.array([rm.breakdown(float(t), cps=rm.cps).cp_residence_ms for t in tps])

    def sse(s: float) -> float:
        q = cp_res + _mm1_wait_ms(s, tps)
        d = max(float(np.mean(published - q)), 0.0)  # the fixed time, profiled out (>= 0)
        return float(np.sum((published - d - q) ** 2))

    n = tps.size
    bound = sse(sw.service_s) * (1 + stats.f.ppf(0.95, 1, n - 2) / (n - 2))
    assert sw.saturation_low is not None and sw.saturation_low < sw.saturation_tps()
    assert sse(1.0 / sw.saturation_low) == pytest.approx(bound, rel=1e-6)
    assert sw.saturation_low > tps.max()  # stable at the highest published rate
    if sw.saturation_high is None:  # the points do not exclude "no software limit"
        assert sse(sw.service_s * 1e-9) <= bound
    else:
        assert sse(1.0 / sw.saturation_high) == pytest.approx(bound, rel=1e-6)


@SETTINGS
@given(
    configuration=st.sampled_from(["multi-region", "single-region-log", "multi-region-log"]),
    target=st.integers(0, len(TARGETS) - 1),
    fraction=st.floats(0.3, 1.2),
)
def test_a_software_bound_saturation_has_a_range_wider_than_zero(
    configuration: str, target: int, fraction: float
) -> None:
    cfg = P.configuration("fiteq-authenticator", configuration)
    index = next(i for i, c in enumerate(WITH_CPU) if (c.path, c.configuration) == (cfg.path, cfg.configuration))
    pw = _prepared(index, target)
    assert pw.response is not None and pw.response.software is not None
    r = pw.answer(pw.response.software.saturation_tps() * fraction)
    low, high = r.ranges.saturation_tps.low, r.ranges.saturation_tps.high
    assert r.saturation_tps is not None and low is not None
    assert low <= r.saturation_tps and (high is None or r.saturation_tps <= high)
    if r.saturation_binding is not None and r.saturation_binding.resource == "software":
        assert low < r.saturation_tps < (high if high is not None else float("inf"))
