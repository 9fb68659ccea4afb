"""How sure is a sizing?  The cost model's parameters are sampled and each sample is sized and
evaluated by the workload model itself.

Sampling, per sample:

* Cost model with published CPU points: (intercept, slope) of the primary ``LinearFit`` from
  their estimated covariance ``fit.cov``; multivariate Student t with the fit's ``n - 2``
  residual degrees of freedom (a normal draw scaled by sqrt(dof / chi2(dof))) when the spread
  comes from the residuals, multivariate normal when it is the assumed relative spread [1]_.
  The draws are deviations around the engine's own demand line (payload, LPAR overhead and
  server share applied), scaled by the same factor.  This is the uncertainty of the fitted line
  (what a confidence interval describes), not the interval-to-interval noise of one RMF
  measurement, so the spread is narrower than the estimate's 95 % prediction interval.
* Bounds-only configurations (no CPU points): CPU per transaction centred on the estimate's own
  central cost c (its median): with probability 1/2 uniform on [lower bound (or 0), c], else
  uniform on [c, upper bound].
* The zIIP-eligible share uniform over its published range (low..high).

The CPs each sample requires come from the engine's pool split over every rated CP count at
once (:func:`models_lib.engine.split_pools_array`); utilisation and response time at the
evaluated CP count are :meth:`models_lib.workload.WorkloadModel.evaluate` of the workload with
the sample's cost and share, so with no spread every sample is the estimate.

The generator is ``numpy.random.default_rng(seed)``: a run can be repeated exactly.

Units: rates in transactions/s, busy engines, engine-seconds per transaction, times in ms.

References
----------
.. [1] N. R. Draper and H. Smith, *Applied Regression Analysis*, 3rd ed., Wiley, 1998, ch. 3
   (the joint distribution of the least-squares estimates); the multivariate t construction:
   S. Kotz and S. Nadarajah, *Multivariate t Distributions and Their Applications*, Cambridge
   University Press, 2004, ch. 1.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from models_lib.choice import canonical_objective
from models_lib.engine import mp_engines_array, split_pools_array
from models_lib.workload import WorkloadModel

__all__ = ["QUANTILES", "MonteCarloSample", "sample_costs", "sample_eligible", "simulate"]

FloatArray = npt.NDArray[np.float64]
#: Quantiles every distribution is summarised by.
QUANTILES = {"p5": 0.05, "p50": 0.5, "p95": 0.95}
#: Samples evaluated per vectorised step.
CHUNK = 10_000
_UTIL_EPS = 1e-9
#: Floor of a sample's CP cost relative to the central one.
_MIN_SCALE = 1e-12


def _scale(wm: WorkloadModel) -> float:
    """Factor from the fit's engine-seconds to the engine's demand line (payload, overhead)."""
    fit = wm.fit
    if fit is not None and fit.slope != 0.0:
        return wm.slope / fit.slope
    return wm.response_scale


def sample_costs(wm: WorkloadModel, rng: np.random.Generator, n: int) -> tuple[FloatArray, FloatArray]:
    """``n`` draws of (intercept, busy engines; slope, engine-seconds per transaction) of the
    measured LPAR's demand line, centred on the engine's (see the module docstring).

    Raises
    ------
    ValueError
        Naming ``n`` when it is not positive.
    """
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n!r}")
    fit = wm.fit
    if fit is None:
        low, high = wm.cost_range_s
        if not high > low:
            return np.full(n, wm.intercept), np.full(n, wm.slope)
        centre = min(max(wm.slope, low), high)
        upper = rng.random(n) < 0.5
        draws = np.where(upper, rng.uniform(centre, high, n), rng.uniform(low, centre, n))
        return np.full(n, wm.intercept), draws
    cov = np.asarray(fit.cov, dtype=np.float64)
    w, v = np.linalg.eigh(0.5 * (cov + cov.T))
    root = v * np.sqrt(np.clip(w, 0.0, None))  # cov = root @ root.T, also when cov is singular
    draws = rng.standard_normal((n, 2)) @ root.T
    if fit.interval_basis == "residuals":
        draws *= np.sqrt(fit.dof / rng.chisquare(fit.dof, n))[:, None]
    scale = _scale(wm)
    return wm.intercept + draws[:, 0] * scale, wm.slope + draws[:, 1] * scale


def sample_eligible(wm: WorkloadModel, rng: np.random.Generator, n: int) -> FloatArray:
    """``n`` draws of the zIIP-eligible share, uniform over its published range."""
    if wm.eligible_high > wm.eligible_low:
        return rng.uniform(wm.eligible_low, wm.eligible_high, n)
    return np.full(n, wm.eligible)


@dataclass(frozen=True, eq=False)
class MonteCarloSample:
    """Every sample's answer (arrays of length ``samples``).

    Attributes
    ----------
    tps : float
        Rate, transactions/s.
    cps : int
        CP count the utilisation and response time are evaluated at.
    cps_required : ndarray
        Smallest rated CP count within the ceiling (inf: none carries it).
    ziips_required : ndarray
        Specialty engines sized at that CP count (at the largest where none carries it).
    gcp_busy, cpu_per_tran_ms : ndarray
        GCP busy engines and CPU per transaction (all engines, ms) at ``cps``.
    within_ceiling : ndarray of bool
        GCP utilisation at ``cps`` within the ceiling.
    response_time_ms, lower_bound_ms : ndarray
        Response time at ``cps`` (NaN without published response times; inf when saturated)
        and its lower bound (CP service and queueing, software wait, zIIP residence).
    """

    tps: float
    cps: int
    cps_required: FloatArray
    ziips_required: FloatArray
    gcp_busy: FloatArray
    cpu_per_tran_ms: FloatArray
    within_ceiling: npt.NDArray[np.bool_]
    response_time_ms: FloatArray
    lower_bound_ms: FloatArray

    @property
    def samples(self) -> int:
        return int(self.cps_required.size)

    def quantiles(self, values: FloatArray) -> dict[str, float | None]:
        """:data:`QUANTILES` of ``values`` (inverted CDF; non-finite ones as ``None``)."""
        if values.size == 0:
            return dict.fromkeys(QUANTILES)
        out = np.quantile(values, list(QUANTILES.values()), method="inverted_cdf")
        return {k: (float(v) if math.isfinite(v) else None) for k, v in zip(QUANTILES, out, strict=True)}

    def histogram(self) -> tuple[tuple[int, int], ...]:
        """(CPs, samples) of every CP count some sample requires, ascending."""
        finite = self.cps_required[np.isfinite(self.cps_required)]
        values, freq = np.unique(finite.astype(int), return_counts=True)
        return tuple((int(v), int(n)) for v, n in zip(values, freq, strict=True))

    @property
    def capacity_exceeded(self) -> int:
        """Samples no rated CP count carries within the ceiling."""
        return int(np.count_nonzero(~np.isfinite(self.cps_required)))

    def p_within(self, values: FloatArray, limit: float) -> float:
        """Share of the samples with ``values`` <= ``limit``."""
        return float(np.mean(values <= limit))


def _required(
    wm: WorkloadModel, tps: float, a: FloatArray, b: FloatArray, f: FloatArray, ziips: int | None
) -> tuple[FloatArray, FloatArray]:
    """CPs each sample requires and the specialty engines sized there: the engine's split over
    every rated CP count at once."""
    counts = np.array(wm.counts)
    tables = [wm.factor_tables(c) for c in wm.counts]
    width = max(k for _, _, k in tables) + 1
    cf_table = np.array([np.pad(cf, (0, width - cf.size), mode="edge") for cf, _, _ in tables])
    sf_table = np.array([np.pad(sf, (0, width - sf.size), mode="edge") for _, sf, _ in tables])
    caps = np.array([k for _, _, k in tables], dtype=np.int64)
    native = np.maximum(a + b * tps, 0.0)[:, None]
    umax = wm.ziip_ceiling
    # The MP effect: each sample's specialty engines per count, rated at the total count.
    zs = mp_engines_array(native * f[:, None], sf_table, caps[None, :], umax, ziips)
    idx = np.arange(counts.size)[None, :]
    factors, special = cf_table[idx, zs], sf_table[idx, zs]
    gcp, _, z = split_pools_array(native, f[:, None], factors, special, caps[None, :].astype(np.float64), umax, ziips)
    ok = gcp / counts[None, :] <= umax + _UTIL_EPS
    carried = ok.any(axis=1)
    pick = _pick(wm, ok, native * f[:, None], z, special, counts, ziips)
    required = np.where(carried, counts[pick], np.inf).astype(np.float64)
    needed = z[np.arange(a.size), np.where(carried, pick, counts.size - 1)].astype(np.float64)
    return required, needed


def _pick(
    wm: WorkloadModel,
    ok: npt.NDArray[np.bool_],
    eligible: FloatArray,
    z: FloatArray,
    special: FloatArray,
    counts: npt.NDArray[np.int_],
    ziips: int | None,
) -> npt.NDArray[np.int_]:
    """Index of the CP count each sample's objective picks, as :func:`models_lib.choice.pick`
    over the counts :func:`models_lib.evaluation.evaluations` reads: those within the ceiling up
    to the first whose specialty engines take all the eligible work; ``least-msu`` the least
    eligible work on CPs, then the fewest engines, then the fewest CPs."""
    objective = canonical_objective(str(wm.engine_options.get("objective") or ""))
    first = ok.argmax(axis=1)
    if objective == "fewest-cps":
        return np.asarray(first, dtype=np.int_)
    spill = eligible - np.minimum(eligible, z * wm.ziip_ceiling / special)
    full = (z >= ziips) if ziips is not None else np.zeros_like(ok)
    settled = ok & ((spill <= 0.0) | full)
    index = np.arange(counts.size)[None, :]
    stop = np.where(settled.any(axis=1), settled.argmax(axis=1), counts.size - 1)[:, None]
    candidate = ok & (index <= stop)
    engines = counts[None, :] + z
    if objective == "fewest-engines":
        fewest = np.where(candidate, engines, np.inf).min(axis=1, keepdims=True)
        candidate &= engines <= fewest
    least = np.where(candidate, spill, np.inf).min(axis=1, keepdims=True)
    candidate &= spill <= least + 1e-9
    score = np.where(candidate, engines * (counts.size + 1) + index, np.inf)
    return np.asarray(np.where(candidate.any(axis=1), score.argmin(axis=1), first), dtype=np.int_)


def simulate(
    wm: WorkloadModel,
    *,
    tps: float,
    samples: int,
    seed: int,
    cps: int,
    ziips: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> MonteCarloSample:
    """Sample the cost model and the eligible share ``samples`` times and size every sample.

    Parameters
    ----------
    wm : WorkloadModel
        The configuration on its target (the estimate's workload model).
    tps : float
        Rate, transactions/s (> 0).
    samples : int
        Number of samples (>= 1).
    seed : int
        Seed of ``numpy.random.default_rng``.
    cps : int
        CP count (rated for the target) at which utilisation and response time are evaluated.
    ziips : int, optional
        Specialty engines; default sized to each sample's eligible work (within the rules).
    progress : callable, optional
        Called with (samples done, samples) after every chunk.

    Returns
    -------
    MonteCarloSample

    Raises
    ------
    ValueError
        Naming ``tps``, ``samples`` or ``cps``.
    """
    if not (tps > 0.0 and math.isfinite(tps)):
        raise ValueError(f"tps must be finite and > 0, got {tps!r}")
    if samples < 1:
        raise ValueError(f"samples must be >= 1, got {samples!r}")
    wm.factor(cps)  # ValueError naming cps when it is not rated
    rng = np.random.default_rng(seed)
    required, needed = np.empty(samples), np.empty(samples)
    gcp, per_tran, response, lower = (np.empty(samples) for _ in range(4))
    within = np.empty(samples, dtype=bool)
    central_slope = wm.slope
    for start in range(0, samples, CHUNK):
        stop = min(start + CHUNK, samples)
        a, b = sample_costs(wm, rng, stop - start)
        f = sample_eligible(wm, rng, stop - start)
        required[start:stop], needed[start:stop] = _required(wm, tps, a, b, f, ziips)
        for i, (ai, bi, fi) in enumerate(zip(a.tolist(), b.tolist(), f.tolist(), strict=True)):
            # The workload with this sample's line and share, evaluated by the engine's own steps;
            # the response model's CP cost follows the sampled slope (a draw at or below zero
            # costs next to nothing: the model's cost factor must stay positive).
            scale = max(bi / central_slope, _MIN_SCALE) if central_slope > 0.0 else 1.0
            ev = dataclasses.replace(
                wm, intercept=ai, slope=bi, eligible=fi, response_scale=wm.response_scale * scale
            ).evaluate(tps, cps, ziips)
            j = start + i
            gcp[j] = ev.gcp
            per_tran[j] = ev.total / tps * 1000.0
            within[j] = ev.gcp_utilization <= wm.ziip_ceiling + _UTIL_EPS
            response[j] = math.nan if ev.response_time_ms is None else ev.response_time_ms
            lower[j] = ev.lower_bound_ms
        if progress is not None:
            progress(stop, samples)
    return MonteCarloSample(
        tps=tps,
        cps=cps,
        cps_required=required,
        ziips_required=needed,
        gcp_busy=gcp,
        cpu_per_tran_ms=per_tran,
        within_ceiling=within,
        response_time_ms=response,
        lower_bound_ms=lower,
    )
