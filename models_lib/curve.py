"""GCP utilisation and response time against the rate, from zero to saturation, for one LPAR.

Every point is :meth:`models_lib.workload.WorkloadModel.evaluate` at that rate: busy CPs from the
linear cost model (or the published bounds) projected with LSPR to the CP count, the zIIP split,
and the response model (fixed part + M/M/c CP residence + software station + zIIP residence).
Without published response times the response time is ``None`` and the lower bound (CP service
and queueing, software wait, zIIP residence; no fixed part) is given instead.

The LPAR has the specialty engines given, or, with a marked rate, the ones the estimate sizes at
that rate, so its saturation is the estimate's; with neither, the engines follow the load at
each rate (as many as the eligible work needs, within the generation's ratio), and saturation is
where even the most the rules allow no longer help.

The knee is the rate at which the response time (or its lower bound) doubles its low-load value;
the ceiling is the largest rate within the utilisation ceiling; saturation is where the CPs
(with the specialty engines' help) or the software station reach 100 %.

Units: rates in transactions/s, times in ms.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from models_lib.workload import Evaluation, WorkloadModel

__all__ = ["CurveSeries", "curve_series", "largest_rate", "lpar_ziips"]

#: Relative resolution of the bisections.
_RTOL = 1e-9


def largest_rate(
    wm: WorkloadModel, cps: int, ziips: int | None, sat: float, ok: Callable[[Evaluation], bool]
) -> float | None:
    """Largest rate below ``sat`` (transactions/s) at which ``ok(evaluation)`` holds (``ok`` fails
    as the rate grows), by bisection; ``None`` if it fails already at (almost) no load."""
    lo, hi = sat * 1e-9, sat * (1.0 - 1e-12)
    if not ok(wm.evaluate(lo, cps, ziips)):
        return None
    if ok(wm.evaluate(hi, cps, ziips)):
        return hi
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if ok(wm.evaluate(mid, cps, ziips)):
            lo = mid
        else:
            hi = mid
        if hi - lo <= _RTOL * sat:
            break
    return lo


def lpar_ziips(wm: WorkloadModel, *, cps: int, ziips: int | None, tps: float | None) -> int | None:
    """The LPAR's specialty engines: ``ziips`` as given (never above the rules), else the ones the
    estimate sizes at ``tps``, else ``None`` (they follow the load)."""
    if ziips is not None:
        allowed = wm.max_engines(cps)
        return ziips if allowed is None else min(ziips, allowed)
    return None if tps is None else wm.ziips_for(tps, cps)


@dataclass(frozen=True)
class CurveSeries:
    """One CP count's curve.

    Attributes
    ----------
    cps : int
    ziips : int or None
        Specialty engines of the LPAR (``None``: sized to the load at each rate).
    points : tuple of Evaluation
        The workload at each rate of the grid, (0, saturation) with both ends excluded.
    knee_tps, knee_basis
        Where the response time (``"response_time"``) or its lower bound (``"lower_bound"``)
        doubles its low-load value (``None``: it never does below saturation).
    saturation_tps : float
    ceiling_tps : float or None
        Largest rate within ``max_utilization``: the CPs' and the fitted software station's
        (its saturation times the ceiling), as :func:`models_lib.feasibility.fits_at` holds them.
    sla_tps : float or None
        Largest rate that meets the response-time objective (when one is given).
    at_tps : Evaluation or None
        The workload at the marked rate.
    """

    cps: int
    ziips: int | None
    points: tuple[Evaluation, ...]
    knee_tps: float | None
    knee_basis: str
    saturation_tps: float
    ceiling_tps: float | None
    sla_tps: float | None
    at_tps: Evaluation | None


def curve_series(
    wm: WorkloadModel,
    *,
    cps: int,
    ziips: int | None,
    points: int,
    max_utilization: float,
    tps: float | None = None,
    response_time_sla_ms: float | None = None,
) -> CurveSeries:
    """One CP count's curve (see the module docstring).

    Parameters
    ----------
    wm : WorkloadModel
    cps : int
        CPs of the LPAR (rated for the target).
    ziips : int, optional
        Specialty engines; see :func:`lpar_ziips`.
    points : int
        Rates on the grid (>= 1).
    max_utilization : float
        Utilisation ceiling of the GCPs, (0, 1].
    tps : float, optional
        A rate to mark, transactions/s.
    response_time_sla_ms : float, optional
        Response-time objective, ms.

    Raises
    ------
    ValueError
        Naming ``points``, or ``ziips`` when all the work is eligible and the engines follow the
        load (the CPs then never saturate).
    """
    if points < 1:
        raise ValueError(f"points must be >= 1, got {points!r}")
    z = lpar_ziips(wm, cps=cps, ziips=ziips, tps=tps)
    sat = wm.saturation_tps(cps, z)
    if not math.isfinite(sat):
        raise ValueError(
            f"ziips: all the work of {wm.path}/{wm.configuration} is zIIP-eligible, so with zIIPs sized to the "
            "load the CPs never saturate; give ziips to draw a curve"
        )
    grid = np.linspace(0.0, sat, points + 1, endpoint=False)[1:]  # (0, saturation), both excluded
    evals = tuple(wm.evaluate(float(t), cps, z) for t in grid)
    knee, knee_basis = wm.knee_tps(cps, z)
    ceiling = largest_rate(wm, cps, z, sat, lambda e: e.gcp_utilization <= max_utilization + 1e-12)
    software = wm.response.software if wm.response is not None else None
    if ceiling is not None and software is not None:  # the station held to the ceiling too (models_lib.feasibility)
        ceiling = min(ceiling, software.saturation_tps() * min(max_utilization, 1.0))
    sla_tps = None
    if response_time_sla_ms is not None:
        goal = response_time_sla_ms

        def meets(e: Evaluation) -> bool:
            r = e.response_time_ms if e.response_time_ms is not None else e.lower_bound_ms
            return bool(r <= goal)

        sla_tps = largest_rate(wm, cps, z, sat, meets)
    return CurveSeries(
        cps=cps,
        ziips=z,
        points=evals,
        knee_tps=knee,
        knee_basis=knee_basis,
        saturation_tps=sat,
        ceiling_tps=ceiling,
        sla_tps=sla_tps,
        at_tps=None if tps is None else wm.evaluate(tps, cps, z),
    )
