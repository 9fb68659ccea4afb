"""``curve``: GCP utilisation and response time against TPS, from zero to saturation, per CP count.

Every point is the engine's answer at that rate (``models_lib.sizing.size`` with the same inputs,
evaluated through :class:`sizing.jobs.workload.WorkloadModel`): busy CPs from the linear cost
model (or the published bounds) projected with LSPR to the CP count, the zIIP split, and the
response model (fixed part + M/M/c CP residence + software station + zIIP residence).  Where the
source publishes no response times the response time is ``null`` and the lower bound (CP service
and queueing, software wait, zIIP residence; no fixed part) is given instead.

The knee is the rate at which the response time (or, without response data, its lower bound)
doubles its low-load value; saturation is where the CPs (with the zIIPs' help) or the software
station reach 100 %.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from django.contrib.auth.models import User

from sizing.jobs.base import Progress, json_result, table, warnings_of
from sizing.jobs.workload import WorkloadModel, load_workload_for

DEFAULT_POINTS = 50
COLUMNS = (
    "cps",
    "tps",
    "gcp_utilization",
    "ziips",
    "ziip_utilization",
    "response_time_ms",
    "response_time_lower_bound_ms",
)


def _largest_rate(wm: WorkloadModel, cps: int, ziips: int | None, sat: float, ok: Any) -> float | None:
    """Largest rate below saturation at which ``ok(evaluation)`` holds (``ok`` fails as the rate
    grows), by bisection; ``None`` if it fails already at (almost) no load."""
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
        if hi - lo <= 1e-9 * sat:
            break
    return lo


def curve_series(
    wm: WorkloadModel,
    *,
    cps: int,
    ziips: int | None,
    points: int,
    max_utilization: float,
    tps: float | None = None,
    response_time_sla_ms: float | None = None,
) -> dict[str, Any]:
    """One CP count's curve (see the module docstring)."""
    sat = wm.saturation_tps(cps, ziips)
    if not math.isfinite(sat):
        raise ValueError(
            f"{wm.path}/{wm.configuration}: all its work is zIIP-eligible, so with zIIPs sized to the load "
            "the CPs never saturate; give ziips to draw a curve"
        )
    grid = np.linspace(0.0, sat, points + 1, endpoint=False)[1:]  # (0, saturation), both excluded
    evals = [wm.evaluate(float(t), cps, ziips) for t in grid]
    knee, knee_basis = wm.knee_tps(cps, ziips)
    ceiling = _largest_rate(wm, cps, ziips, sat, lambda e: e.gcp_utilization <= max_utilization + 1e-12)
    sla_tps = None
    if response_time_sla_ms is not None:

        def meets(e: Any) -> bool:
            r = e.response_time_ms if e.response_time_ms is not None else e.lower_bound_ms
            return bool(r <= response_time_sla_ms)

        sla_tps = _largest_rate(wm, cps, ziips, sat, meets)
    at = None
    if tps is not None:
        e = wm.evaluate(tps, cps, ziips)
        at = {
            "tps": tps,
            "gcp_utilization": e.gcp_utilization,
            "ziips": e.ziips,
            "ziip_utilization": e.ziip_utilization,
            "response_time_ms": e.response_time_ms,
            "response_time_lower_bound_ms": e.lower_bound_ms,
            "stable": e.stable,
        }
    return {
        "cps": cps,
        "ziips": ziips,
        "tps": grid.tolist(),
        "gcp_utilization": [e.gcp_utilization for e in evals],
        "ziips_sized": [e.ziips for e in evals] if ziips is None else None,
        "ziip_utilization": [e.ziip_utilization for e in evals],
        "response_time_ms": [e.response_time_ms for e in evals],
        "response_time_lower_bound_ms": [e.lower_bound_ms for e in evals],
        "knee_tps": knee,
        "knee_basis": knee_basis,
        "saturation_tps": sat,
        "ceiling_tps": ceiling,
        "sla_tps": sla_tps,
        "at_tps": at,
    }


def run_curve(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    cps_list: list[int] = params.get("cps_list") or [params["cps"]]
    wm = load_workload_for(owner=owner, params=params, tps=params.get("tps"))
    umax = wm.ziip_ceiling
    series = []
    for i, cps in enumerate(cps_list):
        series.append(
            curve_series(
                wm,
                cps=cps,
                ziips=params.get("ziips"),
                points=params.get("points") or DEFAULT_POINTS,
                max_utilization=umax,
                tps=params.get("tps"),
                response_time_sla_ms=params.get("response_time_sla_ms"),
            )
        )
        progress(i + 1, len(cps_list))
    rows = [
        (s["cps"], t, u, (s["ziips"] if s["ziips"] is not None else s["ziips_sized"][j]), zu, r, lb)
        for s in series
        for j, (t, u, zu, r, lb) in enumerate(
            zip(
                s["tps"],
                s["gcp_utilization"],
                s["ziip_utilization"],
                s["response_time_ms"],
                s["response_time_lower_bound_ms"],
                strict=True,
            )
        )
    ]
    return json_result(
        {
            "kind": "curve",
            "path": wm.path,
            "configuration": wm.configuration,
            "machine": wm.machine,
            "max_utilization": umax,
            "response_time_data": wm.has_response_data,
            "series": series,
            "warnings": warnings_of(wm.reference),
            "basis": wm.reference["basis"],
            "table": table(COLUMNS, rows),
        }
    )
