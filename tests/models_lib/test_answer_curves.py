"""What an answer draws (its response-time curve, CPU curve and capacity line) is the answer.

The reference for each curve is the answer itself: at the answer's own rate a curve must give
the answer's numbers (the same engine functions on the same numbers), and the capacity line
counts the CPs and the specialty engines the answer sized.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from numpy.testing import assert_allclose

from models_lib.answer import SizingResult
from models_lib.answer_curves import response_lower_bound
from models_lib.sizing import size
from tests.models_lib import published as P
from tests.models_lib.engine_data import Z10, Z13, Z17, table

Z16 = "3931"
CASES = [
    ("fiteq-authenticator", "multi-region"),
    ("fiteq-authenticator", "single-region-log"),
    ("cicsts-catalog", "v5.3"),
    ("zosconnect-cics", "channel"),
    ("cicstg", "ipic-commarea-64"),
]


def _answer(path: str, configuration: str, machine: str, **options: Any) -> SizingResult:
    cfg = P.configuration(path, configuration)
    return size(cfg, target_machine=machine, target_machine_type=machine, capacity=table(), **options)


@pytest.mark.parametrize(("path", "configuration"), CASES)
@pytest.mark.parametrize("machine", [Z10, Z13, Z17])
@pytest.mark.parametrize("options", [{"tps": 300.0}, {"tps": 3000.0}, {"tps": 3000.0, "cps": 12, "ziips": 1}])
def test_curves_at_the_answers_rate_give_the_answers_numbers(
    path: str, configuration: str, machine: str, options: dict[str, Any]
) -> None:
    answer = _answer(path, configuration, machine, **options)
    t = answer.tps
    cpu = answer.cpu_curve([t])
    assert_allclose(cpu.busy[0], answer.busy_cps.total, rtol=1e-12)
    assert_allclose(cpu.gcp[0], answer.busy_cps.gcp, rtol=1e-12)
    assert_allclose(cpu.special[0], answer.busy_cps.ziip, rtol=1e-12, atol=1e-15)
    # CPU per transaction's range is the curve's band over the rate (CP-ms per transaction).
    assert_allclose(cpu.low[0] * 1000.0 / t, answer.cpu_per_tran_ms.low, rtol=1e-12)
    assert_allclose(cpu.high[0] * 1000.0 / t, answer.cpu_per_tran_ms.high, rtol=1e-12)
    rt = answer.response_curve([t])
    value = answer.response_time_ms.value
    if value is None:
        assert rt.response_ms is None or not math.isfinite(rt.response_ms[0])
        # without published response times the answer's "at least" is the lower-bound line's
        # value at its rate: the time at the engines at the low end of the cost range
        low, want = response_lower_bound(answer, answer.response_curve([t]))[0], answer.response_time_ms.low
        if want is None:
            assert math.isnan(low)
        else:
            assert_allclose(low, want, rtol=1e-12)
    else:
        assert rt.response_ms is not None
        assert_allclose(rt.response_ms[0], value, rtol=1e-12)
        assert rt.lower_bound_ms[0] <= value


@pytest.mark.parametrize(("path", "configuration"), CASES)
def test_response_curve_rises_with_the_rate_and_is_unbounded_at_saturation(path: str, configuration: str) -> None:
    # No specialty engines: with zIIPs held at their ceiling the engine's per-transaction zIIP
    # service (ceiling load / rate) falls as the rate rises, so only the CP-only curve is monotone.
    answer = _answer(path, configuration, Z13, tps=1000.0, cps=6, ziips=0)
    sat = answer.saturation_tps
    assert sat is not None
    grid = np.linspace(sat / 50.0, sat * 1.2, 60)
    curve = answer.response_curve(grid)
    below = grid < sat
    # M/M/c residence never falls as the load rises (Menasce et al. 2004): the lower bound is
    # monotone, and once a station saturates (the CPs of the response model may before the
    # engine's pools) it stays unbounded.
    finite = np.isfinite(curve.lower_bound_ms)
    first_inf = int(np.argmin(finite)) if not finite.all() else grid.size
    assert finite[:first_inf].all() and not finite[first_inf:].any()
    assert np.all(np.diff(curve.lower_bound_ms[:first_inf]) >= -1e-12)
    assert np.all(np.isinf(curve.lower_bound_ms[~below]))
    if curve.response_ms is not None:
        assert np.all(np.isinf(curve.response_ms[~below]))


def test_zosconnect_capacity_line_counts_the_cps_and_the_ziips() -> None:
    # Issue 21: z/OS Connect at 2,000 TPS on a z16 is sized with CPs and zIIPs; the capacity line
    # must stand at CPs + zIIPs engines, so the target (busy CPs + busy zIIPs) sits under it.
    answer = _answer("zosconnect-cics", "channel", Z16, tps=2000.0)
    assert answer.cps is not None and answer.ziips
    line = answer.capacity_line()
    assert line.engines == answer.cps + answer.ziips
    assert line.label == f"{answer.cps} CP{'s' if answer.cps > 1 else ''} + {answer.ziips} zIIPs"
    assert answer.busy_cps.total is not None and answer.busy_cps.total <= line.ceiling + 1e-9
    # Each pool within its ceiling: the ceiling level is CPs x 0.85 + zIIPs x 0.85 (DEFAULT_MAX_UTILIZATION).
    assert_allclose(line.ceiling, 0.85 * (answer.cps + answer.ziips), rtol=1e-12)


def test_capacity_line_without_specialty_engines_names_the_cps_only() -> None:
    answer = _answer("cicsts-catalog", "v5.3", Z13, tps=500.0)
    line = answer.capacity_line()
    assert answer.ziips == 0 and line.label == f"{answer.cps} CP{'s' if answer.cps != 1 else ''}"


def test_an_answer_without_cpu_data_has_nothing_to_draw() -> None:
    answer = _answer("hostbridge-http", "tuned-tcpip", Z13, tps=50.0)
    with pytest.raises(ValueError, match="nothing to draw"):
        answer.cpu_curve([10.0])
