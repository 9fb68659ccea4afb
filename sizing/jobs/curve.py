"""``curve``: GCP utilisation and response time against TPS, from zero to saturation, per CP count.

The numerics are :func:`models_lib.curve.curve_series` (every point the workload model's own
evaluation, the knee, the ceiling, saturation; with ``tps`` and no ``ziips`` the LPAR has the
zIIPs the estimate sizes at ``tps``, so the saturation is the estimate's); this module reads the
params, calls it per CP count and shapes the series and the result table.  See docs/jobs.md.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from models_lib.curve import CurveSeries, curve_series
from models_lib.workload import Evaluation, WorkloadModel
from sizing.jobs.base import Progress, json_result, table, warnings_of
from sizing.jobs.workload import load_workload_for

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


def _at(e: Evaluation) -> dict[str, Any]:
    return {
        "tps": e.tps,
        "gcp_utilization": e.gcp_utilization,
        "ziips": e.ziips,
        "ziip_utilization": e.ziip_utilization,
        "response_time_ms": e.response_time_ms,
        "response_time_lower_bound_ms": e.lower_bound_ms,
        "stable": e.stable,
    }


def _fit_at(wm: WorkloadModel, s: CurveSeries, ziips: int | None) -> dict[str, Any]:
    """Whether the series' CPs carry its marked rate, as the estimate with those CPs says it
    (``feasible``, and the estimate's "does not fit" sentence where they do not)."""
    assert s.at_tps is not None
    answer = wm.estimate(tps=s.at_tps.tps, cps=s.cps, ziips=ziips)
    return {"feasible": answer["feasible"], "does_not_fit": (answer.get("feasibility") or {}).get("message")}


def series_dict(s: CurveSeries, fit: dict[str, Any] | None = None) -> dict[str, Any]:
    """One series as the job's result gives it (``fit``: :func:`_fit_at` at its marked rate)."""
    evals = s.points
    return {
        "cps": s.cps,
        "ziips": s.ziips,
        "tps": [e.tps for e in evals],
        "gcp_utilization": [e.gcp_utilization for e in evals],
        "ziips_sized": [e.ziips for e in evals] if s.ziips is None else None,
        "ziip_utilization": [e.ziip_utilization for e in evals],
        "response_time_ms": [e.response_time_ms for e in evals],
        "response_time_lower_bound_ms": [e.lower_bound_ms for e in evals],
        "knee_tps": s.knee_tps,
        "knee_basis": s.knee_basis,
        "saturation_tps": s.saturation_tps,
        "ceiling_tps": s.ceiling_tps,
        "sla_tps": s.sla_tps,
        "at_tps": None if s.at_tps is None else {**_at(s.at_tps), **(fit or {})},
    }


def run_curve(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    cps_list: list[int] = params.get("cps_list") or [params["cps"]]
    wm = load_workload_for(owner=owner, params=params, tps=params.get("tps"))
    umax = wm.ziip_ceiling
    series: list[CurveSeries] = []
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
        (s.cps, e.tps, e.gcp_utilization, e.ziips, e.ziip_utilization, e.response_time_ms, e.lower_bound_ms)
        for s in series
        for e in s.points
    ]
    return json_result(
        {
            "kind": "curve",
            "path": wm.path,
            "configuration": wm.configuration,
            "machine": wm.machine,
            "max_utilization": umax,
            "response_time_data": wm.has_response_data,
            "series": [
                series_dict(s, None if s.at_tps is None else _fit_at(wm, s, params.get("ziips"))) for s in series
            ],
            "specialty_engine": wm.policy.name,  # zAAP on z10..zEC12/zBC12, else zIIP
            # "lower-bound" where the cost per transaction is a published upper bound (bounds
            # only): every series' knee and saturation are then lower bounds, as the estimate's
            "saturation_kind": wm.reference.get("saturation_kind"),
            "warnings": warnings_of(wm.reference),
            "basis": wm.reference["basis"],
            "table": table(COLUMNS, rows),
        }
    )
