"""``montecarlo``: how sure is the sizing?  The cost model's parameters are sampled and each
sample is sized; the answer is the distribution of CPs required and the probability of meeting
the utilisation ceiling and the response-time objective.

Sampling, per sample:

* Cost model with published CPU points: (intercept, slope) of the primary ``LinearFit`` from
  their estimated covariance ``fit.cov``; multivariate Student t with the fit's ``n - 2``
  residual degrees of freedom (a normal draw scaled by sqrt(dof / chi2(dof))) when the spread
  comes from the residuals, multivariate normal when it is the assumed relative spread [1]_.
  This is the uncertainty of the fitted line (what a confidence interval describes), not the
  interval-to-interval noise of one RMF measurement, so the spread is narrower than the
  estimate's 95 % prediction interval.
* Bounds-only configurations (no CPU points): CPU per transaction centred on the estimate's own
  central cost c (its median): with probability 1/2 uniform on [lower bound (or 0), c], else
  uniform on [c, upper bound].  For z/OS Connect the central cost is the one the published
  throughput table gives (4.26 ms), not the middle of the published bounds.
* The zIIP-eligible share uniform over its published range (low..high).

Each sample is then sized exactly as the engine sizes (LSPR projection per CP count, zIIP split,
the smallest CP count within ``max_utilization``), all samples at once with numpy.  The
response time of a sample at the evaluated CP count is the engine's response model with the
sampled CPU cost (fixed part + M/M/c CP residence + software wait + M/M/z zIIP residence).

The generator is ``numpy.random.default_rng(seed)``; the seed is in the result, so a run can be
repeated exactly.

References
----------
.. [1] N. R. Draper and H. Smith, *Applied Regression Analysis*, 3rd ed., Wiley, 1998, ch. 3
   (the joint distribution of the least-squares estimates); the multivariate t construction:
   S. Kotz and S. Nadarajah, *Multivariate t Distributions and Their Applications*, Cambridge
   University Press, 2004, ch. 1.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from django.contrib.auth.models import User

from models_lib.engine import split_pools_array
from models_lib.response import erlang_c_array
from sizing.jobs.base import Progress, json_result, table, warnings_of
from sizing.jobs.workload import WorkloadModel, load_workload_for

DEFAULT_SAMPLES = 10_000
CHUNK = 10_000
QUANTILES = {"p5": 0.05, "p50": 0.5, "p95": 0.95}
_UTIL_EPS = 1e-9


def sample_costs(wm: WorkloadModel, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(intercept busy engines, engine-seconds per transaction) on the measured LPAR, payload scaled."""
    fit = wm.fit
    if fit is None:
        # Centred on the estimate's own cost (its median is ``wm.slope``): half the draws
        # uniform between the low end and the central cost, half between it and the high end.
        low, high = wm.cost_range_s
        centre = min(max(wm.slope, low), high)
        upper = rng.random(n) < 0.5
        draws = np.where(upper, rng.uniform(centre, high, n), rng.uniform(low, centre, n))
        return np.zeros(n), draws if high > low else np.full(n, wm.slope)
    cov = np.asarray(fit.cov, dtype=np.float64)
    w, v = np.linalg.eigh(0.5 * (cov + cov.T))
    root = v * np.sqrt(np.clip(w, 0.0, None))  # cov = root @ root.T, also when cov is singular
    draws = rng.standard_normal((n, 2)) @ root.T
    if fit.interval_basis == "residuals":
        draws *= np.sqrt(fit.dof / rng.chisquare(fit.dof, n))[:, None]
    scale = wm.response_scale  # the payload factor of a fitted model
    return (fit.intercept + draws[:, 0]) * scale, (fit.slope + draws[:, 1]) * scale


def _quantiles(values: np.ndarray) -> dict[str, float | None]:
    if values.size == 0:
        return dict.fromkeys(QUANTILES)
    out = np.quantile(values, list(QUANTILES.values()), method="inverted_cdf")
    return {k: (float(v) if math.isfinite(v) else None) for k, v in zip(QUANTILES, out, strict=True)}


def _residence(servers: np.ndarray | int, load: np.ndarray, service_s: np.ndarray) -> np.ndarray:
    """M/M/c residence, s (inf where the load reaches the servers)."""
    c = np.broadcast_to(np.asarray(servers, dtype=np.float64), load.shape)
    ok = load < c
    out = np.full(load.shape, np.inf)
    out[ok] = service_s[ok] + erlang_c_array(c[ok], load[ok]) * service_s[ok] / (c[ok] - load[ok])
    return out


def run_montecarlo(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    tps = float(params["tps"])
    samples = params.get("samples") or DEFAULT_SAMPLES
    seed = params.get("seed")
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    ziips = params.get("ziips")
    wm = load_workload_for(owner=owner, params=params, tps=tps)
    umax = wm.ziip_ceiling
    counts = np.array(wm.counts)
    factors = np.array([wm.factors[c] for c in wm.counts])
    special = np.array([wm.special_factor(c) for c in wm.counts])
    caps = np.array([math.inf if wm.max_engines(c) is None else float(wm.max_engines(c) or 0) for c in wm.counts])
    central_cps = params.get("cps") or wm.reference["cps_required"] or int(counts[-1])
    col = int(np.searchsorted(counts, central_cps))
    rng = np.random.default_rng(seed)
    sla = params.get("response_time_sla_ms")
    model = wm.response

    required = np.empty(samples)
    ziips_needed = np.empty(samples)
    gcp_busy = np.empty(samples)
    per_tran_ms = np.empty(samples)
    within = np.empty(samples, dtype=bool)
    response = np.full(samples, np.nan)
    lower = np.full(samples, np.nan)
    for start in range(0, samples, CHUNK):
        stop = min(start + CHUNK, samples)
        m = stop - start
        a, b = sample_costs(wm, rng, m)
        f = (
            rng.uniform(wm.eligible_low, wm.eligible_high, m)
            if wm.eligible_high > wm.eligible_low
            else np.full(m, wm.eligible)
        )
        native = np.maximum(a + b * tps, 0.0)[:, None]
        # The engine's split (rules' ratio, full-speed specialty engines), per sample and CP count.
        gcp, on_ziip, z = split_pools_array(
            native, f[:, None], factors[None, :], special[None, :], caps[None, :], umax, ziips
        )
        total = gcp + on_ziip
        ok = gcp / counts[None, :] <= umax + _UTIL_EPS
        required[start:stop] = np.where(ok.any(axis=1), counts[ok.argmax(axis=1)], np.inf)
        ziips_needed[start:stop] = z[np.arange(m), np.where(ok.any(axis=1), ok.argmax(axis=1), counts.size - 1)]
        g, t_all, zi, zc = gcp[:, col], total[:, col], on_ziip[:, col], z[:, col]
        gcp_busy[start:stop] = g
        per_tran_ms[start:stop] = t_all / tps * 1000.0
        within[start:stop] = ok[:, col]
        if model is not None:
            on_cps = native[:, 0] * factors[col]  # all work at the CPs' speed
            share = np.where(on_cps > 0.0, g / np.where(on_cps > 0.0, on_cps, 1.0), 1.0)
            cp_service = np.maximum(b * factors[col] * np.maximum(share, 1e-12), 1e-300)
            cp = _residence(central_cps, g, cp_service) * 1000.0
            software = 0.0 if model.software is None else float(model.software.wait_ms(np.array([tps]))[0])
            has_zi = (zc > 0.0) & (zi > 0.0)
            zr = np.zeros(m)
            if has_zi.any():
                zr[has_zi] = _residence(zc[has_zi], zi[has_zi], zi[has_zi] / tps) * 1000.0
            lower[start:stop] = cp + software + zr
            if model.fixed_ms is not None:
                response[start:stop] = model.fixed_ms + lower[start:stop]
        progress(stop, samples)

    finite = required[np.isfinite(required)]
    values, freq = np.unique(finite.astype(int), return_counts=True)
    exceeded = int(samples - finite.size)
    histogram = [{"cps": int(v), "samples": int(n), "share": n / samples} for v, n in zip(values, freq, strict=True)]
    cumulative = np.cumsum(freq) / samples
    has_rt = model is not None and model.fixed_ms is not None
    judged = response if has_rt else lower
    result: dict[str, Any] = {
        "kind": "montecarlo",
        "path": wm.path,
        "configuration": wm.configuration,
        "machine": wm.machine,
        "tps": tps,
        "samples": samples,
        "seed": seed,
        "max_utilization": umax,
        "sampling": {
            "cost": "bounds-centred" if wm.fit is None else ("t" if wm.fit.interval_basis == "residuals" else "normal"),
            "dof": None if wm.fit is None else wm.fit.dof,
            "cost_range_ms": [v * 1000.0 for v in wm.cost_range_s] if wm.fit is None else None,
            "eligible_range": [wm.eligible_low, wm.eligible_high],
        },
        "cps_required": {
            **_quantiles(required),
            "central": wm.reference["cps_required"],
            "histogram": histogram,
            "capacity_exceeded": exceeded,
        },
        "ziips_required": _quantiles(ziips_needed) if ziips is None else None,
        "evaluated_at_cps": central_cps,
        "gcp_busy": _quantiles(gcp_busy),
        "cpu_per_tran_ms": _quantiles(per_tran_ms),
        "p_within_ceiling": float(within.mean()),
        "response_time_data": has_rt,
        "response_time_ms": _quantiles(response) if has_rt else None,
        "response_time_lower_bound_ms": _quantiles(lower) if model is not None else None,
        "response_time_sla_ms": sla,
        "p_meets_sla": float(np.mean(judged <= sla)) if sla is not None and has_rt else None,
        # Without response data only the lower bound can be judged: P(lower bound <= SLA) is an
        # upper bound on the probability of meeting it.
        "p_meets_sla_upper_bound": float(np.mean(lower <= sla)) if sla is not None and model is not None else None,
        "warnings": warnings_of(wm.reference),
        "basis": wm.reference["basis"],
        "table": table(
            ("cps", "samples", "share", "cumulative_share"),
            [(h["cps"], h["samples"], h["share"], c) for h, c in zip(histogram, cumulative, strict=True)],
        ),
    }
    return json_result(result)
