"""What the answer draws: its response-time curve, its CPU curve and its capacity line.

Derived from the prepared workload the answer came from, at the answer's CPs and specialty
engines, with the engine's own functions (the split of :meth:`PreparedWorkload.evaluate`, the
response model's cost factor of :func:`models_lib.evaluation.cost_factor`, the specialty
engines' residence): no refit, nothing read back from the serialised answer or a warning code.
At the answer's own rate the curves give the answer's numbers.

Units: transactions/s, busy engines, ms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from models_lib.response_step import low_end_ms

if TYPE_CHECKING:
    from models_lib.answer import SizingResult
    from models_lib.prepared import PreparedWorkload

__all__ = [
    "CapacityLine",
    "CpuCurve",
    "ResponseCurve",
    "capacity_line",
    "cpu_curve",
    "response_curve",
    "response_lower_bound",
]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class ResponseCurve:
    """Response time against the rate on the answer's LPAR, ms.

    ``response_ms``: the modelled response time (``None`` without published response times;
    ``inf`` at or beyond saturation); ``cp_ms``: CP service and queueing and the software
    station's wait; ``ziip_ms``: the specialty engines' residence; ``cost_factor``: the factor
    the response model's CP cost was evaluated with at each rate.
    """

    tps: FloatArray
    response_ms: FloatArray | None
    cp_ms: FloatArray
    ziip_ms: FloatArray
    cost_factor: FloatArray

    @property
    def lower_bound_ms(self) -> FloatArray:
        """The part that queues: CPs, software station and specialty engines, ms."""
        return self.cp_ms + self.ziip_ms


@dataclass(frozen=True)
class CpuCurve:
    """Busy engines against the rate on the answer's LPAR: total (CPs + specialty engines), on the
    CPs, on the specialty engines, and the ends of the cost range (all work at the CPs' speed)."""

    tps: FloatArray
    busy: FloatArray
    gcp: FloatArray
    special: FloatArray
    low: FloatArray
    high: FloatArray


@dataclass(frozen=True)
class CapacityLine:
    """The LPAR's engines as a level of busy engines: ``engines`` = CPs + specialty engines, the
    ceiling level ``ceiling`` (each pool at its utilisation ceiling), and their labels."""

    cps: int
    specialty_engines: int
    engine: str
    engines: int
    ceiling: float
    label: str
    ceiling_label: str


def _prepared(answer: SizingResult) -> tuple[PreparedWorkload, int, int]:
    prepared = answer.prepared
    if prepared is None or prepared.cost is None or answer.evaluated_cps is None:
        raise ValueError("the answer has no CPU figures (no prepared workload or no CPs): nothing to draw")
    return prepared, answer.evaluated_cps, answer.evaluated_ziips or 0


def _grid(tps: FloatArray | list[float]) -> FloatArray:
    grid = np.asarray(tps, dtype=np.float64)
    if grid.ndim != 1 or not np.all(np.isfinite(grid)) or np.any(grid <= 0.0):
        raise ValueError(f"tps must be a 1-D array of finite rates > 0, got {tps!r}")
    return grid


def response_curve(answer: SizingResult, tps: FloatArray | list[float]) -> ResponseCurve:
    """The answer's response time at each rate of ``tps`` (transactions/s), its CPs and engines fixed."""
    prepared, n, z = _prepared(answer)
    grid = _grid(tps)
    rmodel = prepared.response
    size = grid.size
    value = np.full(size, np.nan) if rmodel is not None and rmodel.has_response_data else None
    cp_ms, ziip_ms, factors = np.full(size, math.inf), np.full(size, math.inf), np.full(size, np.nan)
    if rmodel is None:
        return ResponseCurve(grid, None, cp_ms, ziip_ms, factors)
    for i, t in enumerate(grid.tolist()):
        point = prepared.response_at(t, n, z)
        cp_ms[i], ziip_ms[i], factors[i] = point.cp_ms, point.ziip_ms, point.cost_factor
        if value is not None:
            value[i] = math.nan if point.value is None else point.value
    return ResponseCurve(grid, value, cp_ms, ziip_ms, factors)


def response_lower_bound(answer: SizingResult, curve: ResponseCurve) -> FloatArray:
    """The answer's lower bound on the response time at each rate of ``curve`` (its
    :func:`response_curve`, whose cost factors it reuses), the CPs and engines fixed, ms: the
    time at the engines at the low end of the cost range
    (:func:`models_lib.response_step.low_end_ms`), or the response model's floor where that is
    higher; ``nan`` where there is none (at or beyond the saturation, or a cost range with no
    low end).  At the answer's own rate it is the low end of the answer's response time where no
    response times are published, the figure its card shows as "at least"."""
    prepared, n, z = _prepared(answer)
    out = np.full(curve.tps.size, np.nan)
    rmodel, cost = prepared.response, prepared.cost
    if rmodel is None or cost is None:
        return out
    floor = rmodel.floor_ms
    for i, t in enumerate(curve.tps.tolist()):
        basis = cost.at(t)
        ratio = basis.low / basis.total if basis.total > 0 else 1.0
        split = prepared.evaluate(t, n, z)
        low: float | None = None
        if ratio > 0.0 and t < prepared.saturation(n, split.engines).tps:
            factor = float(curve.cost_factor[i])
            low = low_end_ms(rmodel, t, n, factor, ratio, (split.special, split.engines))
        if floor is not None:
            low = max(low or 0.0, floor)
        out[i] = math.nan if low is None or not math.isfinite(low) else low
    return out


def cpu_curve(answer: SizingResult, tps: FloatArray | list[float]) -> CpuCurve:
    """Busy engines of the answer's LPAR at each rate of ``tps`` (transactions/s)."""
    prepared, n, z = _prepared(answer)
    assert prepared.cost is not None
    grid = _grid(tps)
    loads = prepared.evaluate(grid, n, z)
    k = prepared.cp_factor(n, z or 0)
    ends = [prepared.cost.at(t) for t in grid.tolist()]
    low = np.array([b.low * k for b in ends], dtype=np.float64)
    high = np.array([b.high * k for b in ends], dtype=np.float64)
    return CpuCurve(grid, loads.total, loads.gcp, loads.special, low, high)


def _plural(n: int, name: str) -> str:
    return f"{n:,} {name}{'' if n == 1 else 's'}"


def capacity_line(answer: SizingResult) -> CapacityLine:
    """The LPAR the answer evaluated, as a level of busy engines: CPs plus specialty engines."""
    prepared, n, z = _prepared(answer)
    engine = answer.specialty_engine
    label = _plural(n, "CP") + (f" + {_plural(z, engine)}" if z else "")
    umax, zmax = prepared.max_utilization, prepared.ziip_max_utilization
    ceiling = n * umax + z * zmax
    same = z == 0 or umax == zmax
    ceiling_label = f"{umax:.0%} ceiling" if same else f"ceilings {umax:.0%} (CPs), {zmax:.0%} ({engine}s)"
    return CapacityLine(n, z, engine, n + z, ceiling, label, ceiling_label)
