"""``montecarlo``: how sure is the sizing?  The cost model's parameters and the eligible share
are sampled and each sample is sized (:func:`models_lib.montecarlo.simulate`, which evaluates
every sample with the workload model's own steps); this module reads the params, calls it and
shapes the distribution of CPs required, the probability of meeting the utilisation ceiling and
the response-time objective, and the result table.  See docs/jobs.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from django.contrib.auth.models import User

from models_lib.montecarlo import simulate
from sizing.jobs.base import Progress, json_result, table, warnings_of
from sizing.jobs.workload import load_workload_for

DEFAULT_SAMPLES = 10_000


def run_montecarlo(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    tps = float(params["tps"])
    samples = params.get("samples") or DEFAULT_SAMPLES
    seed = params.get("seed")
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    ziips = params.get("ziips")
    wm = load_workload_for(owner=owner, params=params, tps=tps)
    central_cps = params.get("cps") or wm.reference["cps_required"] or wm.counts[-1]
    sla = params.get("response_time_sla_ms")
    model = wm.response
    mc = simulate(wm, tps=tps, samples=samples, seed=seed, cps=central_cps, ziips=ziips, progress=progress)
    histogram = [{"cps": c, "samples": n, "share": n / samples} for c, n in mc.histogram()]
    cumulative = np.cumsum([h["samples"] for h in histogram]) / samples
    has_rt = model is not None and model.fixed_ms is not None
    judged = mc.response_time_ms if has_rt else mc.lower_bound_ms
    result: dict[str, Any] = {
        "kind": "montecarlo",
        "path": wm.path,
        "configuration": wm.configuration,
        "machine": wm.machine,
        "specialty_engine": wm.policy.name,  # zAAP on z10..zEC12/zBC12, zIIP later
        "tps": tps,
        "samples": samples,
        "seed": seed,
        "max_utilization": wm.ziip_ceiling,
        "sampling": {
            "cost": "bounds-centred" if wm.fit is None else ("t" if wm.fit.interval_basis == "residuals" else "normal"),
            "dof": None if wm.fit is None else wm.fit.dof,
            "cost_range_ms": [v * 1000.0 for v in wm.cost_range_s] if wm.fit is None else None,
            "eligible_range": [wm.eligible_low, wm.eligible_high],
        },
        "cps_required": {
            **mc.quantiles(mc.cps_required[np.isfinite(mc.cps_required)]),
            "central": wm.reference["cps_required"],
            "histogram": histogram,
            "capacity_exceeded": mc.capacity_exceeded,
        },
        "ziips_required": mc.quantiles(mc.ziips_required) if ziips is None else None,
        "evaluated_at_cps": central_cps,
        "gcp_busy": mc.quantiles(mc.gcp_busy),
        "cpu_per_tran_ms": mc.quantiles(mc.cpu_per_tran_ms),
        "p_within_ceiling": float(mc.within_ceiling.mean()),
        "response_time_data": has_rt,
        "response_time_ms": mc.quantiles(mc.response_time_ms) if has_rt else None,
        "response_time_lower_bound_ms": mc.quantiles(mc.lower_bound_ms) if model is not None else None,
        "response_time_sla_ms": sla,
        "p_meets_sla": mc.p_within(judged, sla) if sla is not None and has_rt else None,
        # Without response data only the lower bound can be judged: P(lower bound <= SLA) is an
        # upper bound on the probability of meeting it.
        "p_meets_sla_upper_bound": mc.p_within(mc.lower_bound_ms, sla)
        if sla is not None and model is not None
        else None,
        "warnings": warnings_of(wm.reference),
        "basis": wm.reference["basis"],
        "table": table(
            ("cps", "samples", "share", "cumulative_share"),
            [(h["cps"], h["samples"], h["share"], c) for h, c in zip(histogram, cumulative, strict=True)],
        ),
    }
    return json_result(result)
