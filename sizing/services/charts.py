"""Numbers behind the workbench charts, computed with models_lib from the stored reference data.

``chart_data`` answers one sizing question (the same validated inputs as the estimate API) with
the estimate itself and three charts:

* ``cpu``: busy engines against ETR on the *target* LPAR: the answer's CPU curve with its 95 %
  band (``SizingResult.cpu_curve``), the published points times the factor from the measured
  LPAR to the target (``PreparedWorkload.measured_scale``: LSPR, payload and LPAR steps), the
  target and the LPAR's capacity line of CPs plus specialty engines (``SizingResult.capacity_line``);
* ``response``: the answer's response-time curve on the target LPAR (``SizingResult.response_curve``:
  the same CPs, specialty engines and cost factor as the estimate), with the knee, saturation,
  the target and the goal;
* ``demand``: the estimate's split of busy engines between general-purpose CPs and zIIPs, with
  zIIP-eligible work that runs on CPs (IIPCP) apart.

Every series keeps the ids of the published rows it came from, so the page can say where each
number comes from.  No chart styling here: the page decides how to draw.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from django.contrib.auth.models import User

from models_lib import units
from models_lib.answer import SizingResult
from models_lib.answer_curves import response_lower_bound
from models_lib.costmodel import DEFAULT_LEVEL, ConfigurationModel
from models_lib.inputs import ConfigurationData, Point
from sizing import presentation
from sizing.models import BenchmarkPoint, MetricName, MetricUnit
from sizing.records import EstimateInputs
from sizing.services.estimates import Inputs, estimate_record, estimate_scenario
from sizing.services.scenario import estimate_answer, estimate_result

#: Points on the ETR grid of the CPU and response-time charts.
GRID_POINTS = 121

_METRIC_LABELS = dict(MetricName.choices)
_UNIT_LABELS = dict(MetricUnit.choices)
_COMPONENT_LABELS = {
    "lpar": "LPAR busy",
    "cics": "CICS address spaces",
    "tor": "TOR",
    "aor": "AOR",
    "for": "FOR",
    "smsvsam": "SMSVSAM",
    "cf": "Coupling facility",
    "icf": "Coupling facility (own ICF engines, outside the LPAR)",
}


def _finite(value: Any) -> float | None:
    if value is None:
        return None
    v = float(value)
    return v if math.isfinite(v) else None


def _series(values: Any) -> list[float | None]:
    """A JSON-safe list: NaN and infinities become null (a gap in the drawn line)."""
    return [_finite(v) for v in np.asarray(values, dtype=np.float64).tolist()]


def _etr_grid(*, tps: float, etr_max: float, saturation: float | None) -> np.ndarray:
    """(0, top]: a little beyond the target, the published range and (when near) saturation.

    It starts one step above zero: a fit weighted by 1/ETR^2 has no interval at ETR = 0.
    """
    top = max(tps * 1.25, etr_max * 1.1)
    if saturation is not None and saturation < top * 2.0:
        top = max(top, saturation * 1.05)
    grid = np.linspace(top / GRID_POINTS, top, GRID_POINTS)
    return np.unique(np.append(grid, tps))


def _customer_hover(point: Point) -> dict[str, Any]:
    """A calibration's interval (no stored row): the owner's own measurement, named as such."""
    return {
        "id": point.id,
        "key": "",
        "source": "your data",
        "source_slug": None,
        "reference": point.reference,
        "table": point.reference.rsplit(": ", 1)[-1] or None,
        "page": None,
        "etr": point.etr,
        "lpar_cps": point.lpar_cps,
        "response_time_ms": point.response_time_ms,
        "published": [],
    }


def _point_hover(rows: dict[int, BenchmarkPoint], point: Point) -> dict[str, Any]:
    row = rows.get(point.id)
    if row is None:
        return _customer_hover(point)
    ref = row.reference or {}
    return {
        "id": row.id,
        "key": row.key,
        "source": row.source.identifier or row.source.title,
        "source_slug": row.source.slug,
        "reference": row.reference_text,
        "table": ref.get("table") or ref.get("figure") or ref.get("section"),
        "page": ref.get("page"),
        "etr": row.etr,
        "lpar_cps": row.lpar_cps,
        "response_time_ms": row.response_time_ms,
        "published": [
            {
                "name": m.name,
                "label": _METRIC_LABELS.get(m.name, m.name),
                "value": m.value,
                "unit": _UNIT_LABELS.get(m.unit, m.unit),
                "text": presentation.measure_text(_METRIC_LABELS.get(m.name, m.name), m.value, m.unit, m.engines),
            }
            for m in row.metrics.all()
        ],
    }


def _point_rows(cfg: ConfigurationData) -> dict[int, BenchmarkPoint]:
    ids = [p.id for p in cfg.points]
    return {
        row.id: row
        for row in BenchmarkPoint.objects.filter(id__in=ids).select_related("source").prefetch_related("metrics")
    }


def _evaluated(answer: SizingResult) -> tuple[int | None, int | None]:
    """The CPs and zIIPs the figures are evaluated at: the answer's, or where it does not fit the
    largest count (or the given one), as its figures are (``SizingResult.evaluated_cps``)."""
    if answer.cps is not None:
        return answer.cps, answer.ziips
    return answer.evaluated_cps, answer.evaluated_ziips


def _capacity(answer: SizingResult) -> dict[str, Any]:
    """The target LPAR the estimate evaluated: CPs and zIIPs (given or sized), utilisation ceiling,
    and its capacity line (CPs plus specialty engines, as a level of busy engines)."""
    cps, ziips = _evaluated(answer)
    out: dict[str, Any] = {
        "cps": cps,
        "ziips": ziips or 0,
        "max_utilization": _finite(answer.max_utilization),
    }
    if cps is not None and answer.prepared is not None and answer.prepared.has_cpu_data:
        line = answer.capacity_line()
        out.update(engines=line.engines, label=line.label, ceiling=line.ceiling, ceiling_label=line.ceiling_label)
    return out


def cpu_chart(
    *,
    cfg: ConfigurationData,
    model: ConfigurationModel,
    answer: SizingResult,
    tps: float,
    capacity: dict[str, Any],
    factor: float,
    grid: np.ndarray,
    rows: dict[int, BenchmarkPoint],
) -> dict[str, Any]:
    """Busy engines against ETR on the target LPAR (see the module docstring).

    ``scale`` multiplies every measured busy-CP value (points, bounds): the factor from the
    measured LPAR to the answer's CPs on the target (LSPR, and the payload and LPAR steps the
    engine applied).  The line and its band are the answer's CPU curve.
    """
    prepared = answer.prepared
    target = {"tps": tps, "busy_cps": _finite(answer.busy_cps.total)}
    points: list[dict[str, Any]] = []
    chart: dict[str, Any] = {
        "component": model.primary,
        "component_label": _COMPONENT_LABELS.get(model.primary or "", model.primary),
        "factor": factor,
        "scale": factor,
        "level": DEFAULT_LEVEL,
        "target": target,
        "capacity": capacity,
        "points": points,
        "line": None,
        "bounds": [],
    }
    cps, ziips = _evaluated(answer)
    if prepared is None or cps is None or not prepared.has_cpu_data:
        return chart
    scale = prepared.measured_scale(cps, ziips or 0)
    chart["scale"] = scale
    curve = answer.cpu_curve(grid)
    line = {
        "etr": _series(grid),
        "busy_cps": _series(curve.busy),
        "low": _series(curve.low),
        "high": _series(curve.high),
    }
    if model.has_cpu_model:
        fit = model.primary_fit()
        chart["line"] = {
            **line,
            "interval_basis": fit.interval_basis,
            "slope_ms": fit.slope_ms * scale,
            "intercept_cps": fit.intercept * scale,
            "r2": fit.r2,
            "n": fit.n,
            "etr_min": fit.etr_min,
            "etr_max": fit.etr_max,
        }
        primary = model.primary
        for point in cfg.points:
            if primary is None or primary not in point.busy_cps:
                continue
            busy = point.busy_cps[primary]
            points.append(
                {
                    **_point_hover(rows, point),
                    "busy_cps_published": busy,
                    "busy_cps": busy * scale,
                    "fitted_busy_cps": fit.predict(point.etr) * scale,
                }
            )
        return chart
    # Bounds-only paths: the estimate's cost per transaction through the origin, and the
    # published throughput observations (sustained: an upper limit on the cost; exhausted: a
    # lower one) projected like the cost.
    chart["line"] = {**line, "interval_basis": "published bounds"}
    chart["bounds"] = [
        {
            "statement": b.statement_id,
            "reference": b.reference,
            "outcome": b.outcome,
            "tps": b.tps,
            "engines": b.engines,
            "busy_cps": b.engines * scale,
        }
        for b in cfg.bounds
    ]
    return chart


def response_chart(
    *,
    cfg: ConfigurationData,
    answer: SizingResult,
    inputs: EstimateInputs,
    tps: float,
    grid: np.ndarray,
    rows: dict[int, BenchmarkPoint],
) -> dict[str, Any]:
    """Response time against TPS on the target LPAR, with knee, saturation, target and goal: the
    answer's own response-time curve (no refit, the estimate's cost factor at every rate)."""
    rt = answer.response_time_ms
    knee = _finite(answer.knee_tps)
    chart: dict[str, Any] = {
        "has_response_data": False,
        "curve": None,
        "lower_bound": None,
        "knee_tps": knee,
        "knee_response_ms": None,
        "saturation_tps": _finite(answer.saturation_tps),
        "target": {"tps": tps, "response_time_ms": _finite(rt.value), "low": _finite(rt.low), "high": _finite(rt.high)},
        "goal_ms": _finite(inputs.response_time_sla_ms),
        "published": [
            {**_point_hover(rows, p), "tps": p.etr}
            for p in cfg.points
            if p.response_time_ms is not None and (p.id in rows or p.id < 0)
        ],
        "native": {"machine": cfg.machine, "cps": cfg.lpar_cps},
        "fixed_ms": None,
        "software": None,
        "cost_factor": None,
    }
    prepared = answer.prepared
    rm = None if prepared is None else prepared.response
    if rm is None or prepared is None or not prepared.has_cpu_data or not answer.evaluated_cps:
        return chart
    curve = answer.response_curve(grid)
    chart["has_response_data"] = rm.has_response_data
    chart["cost_factor"] = _finite(answer.response_curve([tps]).cost_factor[0])
    if curve.response_ms is not None:
        chart["curve"] = {"tps": _series(curve.tps), "response_ms": _series(curve.response_ms)}
    # The time at the queues (CP service and queueing, the software station's wait, the specialty
    # engines' residence), at the central cost: beside a response-time curve, the part of the
    # model that queues. Where the answer has only a lower bound on the response time (its card's
    # "≥": the time at the engines at the low end of the cost range, or the model's floor), the
    # line is that bound at every rate, so the target's marker lies on it.
    low = _finite(rt.low) if rt.value is None else None
    bound = curve.lower_bound_ms if low is None else response_lower_bound(answer, curve)
    chart["lower_bound"] = {
        "tps": _series(curve.tps),
        "response_ms": _series(bound),
        "target_bound": None if low is None else {"x": tps, "y": low},
    }
    if knee is not None and rm.has_response_data:
        at_knee = answer.response_curve([knee]).response_ms
        chart["knee_response_ms"] = None if at_knee is None else _finite(at_knee[0])
    chart["fixed_ms"] = rm.fixed_ms
    if rm.software is not None:
        chart["software"] = {"servers": rm.software.servers, "service_ms": rm.software.service_s * 1000.0}
    return chart


def demand_chart(*, answer: SizingResult) -> dict[str, Any]:
    """Busy engines on GCPs and zIIPs from the estimate; zIIP-eligible work on GCPs kept apart;
    the LPAR's CPs, specialty engines and ceiling as the CPU chart's capacity has them (the
    evaluated ones where the answer does not fit: :func:`_evaluated`)."""
    cps, ziips = _evaluated(answer)
    busy = answer.busy_cps
    gcp = _finite(busy.gcp) or 0.0
    spill = _finite(busy.ziip_on_gcp) or 0.0
    return {
        "gcp_work": max(gcp - spill, 0.0),
        "ziip_on_gcp": spill,
        "ziip": _finite(busy.ziip) or 0.0,
        "total": _finite(busy.total),
        "cps": cps,
        "ziips": ziips or 0,
        "max_utilization": _finite(answer.max_utilization),
        "breakdown": {k: _finite(v) for k, v in answer.breakdown.items()},
        "engine": answer.specialty_engine,  # zAAP on z10..zEC12, zIIP from z13
    }


def chart_data(*, user: User, inputs: Inputs) -> dict[str, Any]:
    """The estimate (as GET /api/v1/estimate answers it) and the data of its three charts, drawn
    from the typed answer (computed once: the served estimate is its ``to_dict()``)."""
    inputs = EstimateInputs.of(inputs)
    scenario, target = estimate_scenario(user=user, inputs=inputs)
    outputs = estimate_answer(scenario=scenario, target=target, inputs=scenario.inputs)
    answer = estimate_result(scenario=scenario, target=target, inputs=scenario.inputs)
    config_row, machine_row = scenario.configuration, target.machine
    fitted = scenario.fitted
    cfg, model = fitted.data, fitted.model
    projection = answer.basis.projection
    factor = 1.0 if projection is None else projection.factor
    tps = inputs.tps
    capacity = _capacity(answer)
    etr_max = model.primary_fit().etr_max if model.has_cpu_model else max((b.tps for b in cfg.bounds), default=tps)
    grid = _etr_grid(tps=tps, etr_max=etr_max, saturation=_finite(answer.saturation_tps))
    native = config_row.path.native_machine
    rows = _point_rows(cfg)  # provenance of the points, for the hover texts
    software = software_limit(answer)
    record = estimate_record(inputs=inputs, config_row=config_row, machine_row=machine_row, outputs=outputs)
    return {
        "estimate": record.to_dict(),
        "target": {
            "machine": machine_row.slug,
            "machine_name": machine_row.name,
            "machine_type": machine_row.machine_type,
            "generation": machine_row.generation or machine_row.name,
        },
        # the question by name, as a person reads it (never slugs)
        "names": {"path": config_row.path.name, "configuration": config_row.name},
        "native": {
            "machine": cfg.machine,
            "machine_type": cfg.machine_type,
            "generation": native.generation or native.name,
            "lpar_cps": cfg.lpar_cps,
        },
        "cpu": cpu_chart(
            cfg=cfg, model=model, answer=answer, tps=tps, capacity=capacity, factor=factor, grid=grid, rows=rows
        ),
        "response": response_chart(cfg=cfg, answer=answer, inputs=inputs, tps=tps, grid=grid, rows=rows),
        "demand": demand_chart(answer=answer),
        # What would help an answer that does not carry its target, following the binding
        # resource (the software station's limit from the typed answer's response model).
        "advice": [a.as_dict() for a in presentation.advice(record, software_tps=software)],
        "software_limit_tps": software,
    }


def software_limit(answer: SizingResult) -> float | None:
    """The rate at which the fitted software station saturates (no number of CPs raises it), or None."""
    prepared = answer.prepared
    rm = None if prepared is None else prepared.response
    if rm is None or rm.software is None:
        return None
    return _finite(rm.software.saturation_tps())


# -- reference data browser --------------------------------------------------------------------


def source_points_chart(*, points: list[BenchmarkPoint]) -> dict[str, Any]:
    """Busy engines (converted with models_lib.units) and response times against ETR, one series
    per configuration and CPU component, for a source document's points."""
    cpu: dict[tuple[str, str], dict[str, Any]] = {}
    response: dict[str, dict[str, Any]] = {}
    for p in points:
        label = p.configuration.slug
        for m in p.metrics.all():
            if m.unit not in units.BUSY_UNITS or not m.name.endswith("_cpu"):
                continue
            component = m.name.removesuffix("_cpu")
            series = cpu.setdefault(
                (label, component),
                {
                    "configuration": label,
                    "component": _COMPONENT_LABELS.get(component, component),
                    "etr": [],
                    "busy": [],
                    "text": [],
                },
            )
            series["etr"].append(p.etr)
            series["busy"].append(units.busy_cps(m.value, m.unit, m.engines))
            series["text"].append(
                f"{p.reference_text}<br>"
                + presentation.measure_text(_METRIC_LABELS.get(m.name, m.name), m.value, m.unit, m.engines)
            )
        if p.response_time_ms is not None:
            series = response.setdefault(label, {"configuration": label, "etr": [], "response_ms": [], "text": []})
            series["etr"].append(p.etr)
            series["response_ms"].append(p.response_time_ms)
            series["text"].append(p.reference_text)
    return {"cpu": list(cpu.values()), "response": list(response.values())}
