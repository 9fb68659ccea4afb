"""Several workloads (a configuration each, at its own rate) on one LPAR.

Demand: each workload's busy engines are the engine's (its cost model or bounds, payload
scaled, LSPR-projected to the LPAR's CP count); the zIIP-eligible work of all workloads shares
the zIIPs (``ziips`` given: up to the zIIP ceiling, the overflow runs on the CPs pro rata;
not given: enough zIIPs for all of it), and the rest shares the CPs.  Without ``cps`` the LPAR
gets the smallest rated CP count that keeps the combined GCP utilisation within
``max_utilization``.

Response time of workload i: its load-independent part and software wait (its own fitted
station) from its response model, plus its residence at the shared CP pool (and zIIP pool),
which serves every workload's transactions first come, first served.  A FCFS multi-server queue
with different mean service times per class is not product-form; its mean wait is approximated
by the Allen-Cunneen formula for an M/G/c queue [1]_,

    W = C(c, A) * s / (c - A) * (1 + cs^2) / 2,

where A is the offered load of all workloads (busy engines, fixed load included, as in the
engine), s = sum(l_i s_i) / sum(l_i) the mean service time of a transaction, and cs^2 the squared
coefficient of variation of the service time, whose distribution is the mixture of the classes'
exponential service times (cs^2 = 2 sum(l_i s_i^2) / (sum(l_i) s^2) - 1).  Every class waits the
same W (FCFS) and then its own service s_i.  The formula is exact for one server (Pollaczek-
Khinchine) and, for a single workload (cs^2 = 1), is the engine's M/M/c residence, so a mix of
one workload answers exactly what its estimate does.

Units: rates in transactions/s, busy engines, times in ms unless the name says s.

References
----------
.. [1] A. O. Allen, *Probability, Statistics, and Queueing Theory with Computer Science
   Applications*, 2nd ed., Academic Press, 1990, sec. 6.4 (the Allen-Cunneen approximation);
   D. A. Menasce, V. A. F. Almeida, L. W. Dowdy, *Performance by Design*, Prentice Hall, 2004,
   ch. 13 (multiclass open models).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from models_lib.checks import InputError
from models_lib.choice import canonical_objective
from models_lib.engine import specialty_engines
from models_lib.pricing import ConfigurationCost
from models_lib.queueing import erlang_c
from models_lib.workload import WorkloadModel

__all__ = [
    "MixAnswer",
    "MixWarning",
    "Shared",
    "WorkloadInMix",
    "evaluate_mix",
    "fcfs_wait_s",
    "lpar_cost",
    "responses",
    "scale_limit",
    "share_lpar",
]

#: Utilisation tolerance of the ceiling test (as the engine's).
_UTIL_EPS = 1e-9


@dataclass(frozen=True)
class Shared:
    """The LPAR at one CP count: per-workload busy engines and the pools' loads."""

    cps: int
    ziips: int
    total: tuple[float, ...]
    on_ziip: tuple[float, ...]
    gcp: tuple[float, ...]
    #: eligible work that runs on CPs, in measured-LPAR busy engines (what least-msu minimises)
    spilled: float = 0.0

    @property
    def gcp_busy(self) -> float:
        return sum(self.gcp)

    @property
    def ziip_busy(self) -> float:
        return sum(self.on_ziip)

    @property
    def gcp_utilization(self) -> float:
        return self.gcp_busy / self.cps

    @property
    def stable(self) -> bool:
        return self.gcp_busy < self.cps and (self.ziips == 0 or self.ziip_busy < self.ziips)


def share_lpar(
    models: Sequence[WorkloadModel], rates: Sequence[float], *, cps: int, ziips: int | None, ceiling: float
) -> Shared:
    """The workloads on one LPAR: the engine's split with the eligible work of all of them
    pooled on the specialty engines (the generation's ratio and full-speed engines, as
    :func:`models_lib.engine.specialty_engines`); a shortfall spills to CPs in proportion."""
    native = [wm.native_busy(t) for wm, t in zip(models, rates, strict=True)]

    def eligible_at(k: int) -> list[float]:
        return [n * wm.eligible * wm.special_factor(cps, k) for wm, n in zip(models, native, strict=True)]

    # The MP effect: the pooled engines rated at the LPAR's total count (fixed point from 0 up).
    z, _ = specialty_engines(models[0].policy, cps, sum(eligible_at(0)), ceiling, ziips)
    for _ in range(cps * 4 + 8):
        nz, _ = specialty_engines(models[0].policy, cps, sum(eligible_at(z)), ceiling, ziips)
        if nz <= z:
            break
        z = nz
    eligible = eligible_at(z)
    all_eligible = sum(eligible)
    keep = 1.0 if all_eligible <= z * ceiling else z * ceiling / all_eligible
    on_ziip = [e * keep for e in eligible]
    gcp = [
        (n * (1.0 - wm.eligible) + n * wm.eligible * (1.0 - keep)) * wm.factor(cps, z)
        for wm, n in zip(models, native, strict=True)
    ]
    total = [g + zi for g, zi in zip(gcp, on_ziip, strict=True)]
    spilled = sum(n * wm.eligible * (1.0 - keep) for wm, n in zip(models, native, strict=True))
    return Shared(cps=cps, ziips=z, total=tuple(total), on_ziip=tuple(on_ziip), gcp=tuple(gcp), spilled=spilled)


def lpar_cost(models: Sequence[WorkloadModel], lpar: Shared) -> ConfigurationCost | None:
    """The LPAR's cost from the workloads' price book (``None`` without one)."""
    return models[0].mix_cost(lpar.cps, lpar.ziips, lpar.gcp_busy)


def _pick(candidates: Sequence[Shared], objective: str, models: Sequence[WorkloadModel]) -> Shared:
    """The LPAR ``objective`` picks among ``candidates`` within the ceiling, in CP-count order:
    the rule of :func:`models_lib.choice.pick` (least eligible work on CPs, then the fewest
    engines, then the fewest CPs; or the fewest CPs; or the fewest engines first; or the least
    cost from the price book, then the fewest engines)."""
    if objective == "least-cost":
        priced = [(lpar_cost(models, s), s) for s in candidates]
        if any(c is None for c, _ in priced):
            raise InputError("objective", "the least-cost objective needs your price book: none is given")
        return min(priced, key=lambda cs: (cs[0].total if cs[0] else 0.0, cs[1].cps + cs[1].ziips, cs[1].cps))[1]
    if objective == "fewest-cps":
        return candidates[0]
    if objective == "fewest-engines":
        fewest = min(s.cps + s.ziips for s in candidates)
        candidates = [s for s in candidates if s.cps + s.ziips == fewest]
    least = min(s.spilled for s in candidates)
    return min((s for s in candidates if s.spilled <= least + 1e-9), key=lambda s: (s.cps + s.ziips, s.cps))


def fcfs_wait_s(servers: int, load: float, rates: Sequence[float], services: Sequence[float]) -> float:
    """Allen-Cunneen mean wait (s) of a FCFS c-server pool shared by Poisson classes with
    exponential service times ``services`` (s) at ``rates`` (1/s); ``load`` includes fixed load."""
    lam = sum(rates)
    if lam <= 0.0 or load <= 0.0:
        return 0.0
    if load >= servers:
        return math.inf
    mean = sum(r * s for r, s in zip(rates, services, strict=True)) / lam
    if mean <= 0.0:
        return 0.0
    second = 2.0 * sum(r * s * s for r, s in zip(rates, services, strict=True)) / lam
    cs2 = second / (mean * mean) - 1.0
    return erlang_c(servers, load) * mean / (servers - load) * (1.0 + cs2) / 2.0


def responses(
    models: Sequence[WorkloadModel], rates: Sequence[float], lpar: Shared
) -> tuple[list[tuple[float | None, float]], float]:
    """(response time ms or None without data, lower bound ms) of each workload, and the wait
    at the shared CP pool, ms."""
    if not lpar.stable:
        return [(math.inf if wm.has_response_data else None, math.inf) for wm in models], math.inf
    # The share of each workload's work on CPs, of all its work at the CPs' speed (as the engine).
    on_cps = [wm.native_busy(t) * wm.factor(lpar.cps, lpar.ziips) for wm, t in zip(models, rates, strict=True)]
    cp_service = [
        wm.slope * wm.factor(lpar.cps, lpar.ziips) * max(g / tot if tot > 0.0 else 1.0, 1e-12)
        for wm, g, tot in zip(models, lpar.gcp, on_cps, strict=True)
    ]
    cp_wait = fcfs_wait_s(lpar.cps, lpar.gcp_busy, rates, cp_service)
    ziip_service = [zi / t for zi, t in zip(lpar.on_ziip, rates, strict=True)]
    ziip_wait = fcfs_wait_s(lpar.ziips, lpar.ziip_busy, rates, ziip_service) if lpar.ziips else 0.0
    out = []
    for wm, t, s_cp, s_z in zip(models, rates, cp_service, ziip_service, strict=True):
        model = wm.response
        software = 0.0 if model is None or model.software is None else float(model.software.wait_ms(np.array([t]))[0])
        lower = (s_cp + cp_wait + (s_z + ziip_wait if s_z > 0.0 else 0.0)) * 1000.0 + software
        value = None if model is None or model.fixed_ms is None else model.fixed_ms + lower
        out.append((value, lower))
    return out, cp_wait * 1000.0


def scale_limit(
    models: Sequence[WorkloadModel], rates: Sequence[float], cps: int, ziips: int | None, ok: Callable[[Shared], bool]
) -> float:
    """Largest common multiplier of all rates for which ``ok(lpar)`` still holds (bisection to
    2**-60 relative; inf when it holds beyond 1e9)."""
    lo, hi = 0.0, 1.0
    while ok(share_lpar(models, [r * hi for r in rates], cps=cps, ziips=ziips, ceiling=models[0].ziip_ceiling)):
        lo, hi = hi, hi * 2.0
        if hi > 1e9:
            return math.inf
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if ok(share_lpar(models, [r * mid for r in rates], cps=cps, ziips=ziips, ceiling=models[0].ziip_ceiling)):
            lo = mid
        else:
            hi = mid
    return lo


@dataclass(frozen=True)
class MixWarning:
    """Something the user should know about the mix: a stable ``code`` and a sentence."""

    code: str
    message: str


@dataclass(frozen=True)
class WorkloadInMix:
    """One workload's share of the LPAR.

    Attributes
    ----------
    tps : float
        Its rate, transactions/s.
    gcp_busy, ziip_busy : float
        Its busy GCPs (eligible overflow included) and busy specialty engines.
    cpu_per_tran_ms : float
        All its CPU per transaction at the LPAR's speed, ms.
    response_time_ms : float or None
        Its response time (``None`` without published response times; inf when saturated).
    lower_bound_ms : float
        CP (and zIIP) service and shared wait plus its software wait, ms.
    """

    tps: float
    gcp_busy: float
    ziip_busy: float
    cpu_per_tran_ms: float
    response_time_ms: float | None
    lower_bound_ms: float


@dataclass(frozen=True)
class MixAnswer:
    """The mix on one LPAR: the pools, each workload, how far the rates may grow.

    Attributes
    ----------
    lpar : Shared
        Busy engines per workload and pool at the chosen (or given) CP count.
    cps_sized : bool
        Whether the CP count was sized (not given).
    workloads : tuple of WorkloadInMix
        In the order given.
    cp_wait_ms : float
        Wait at the shared CP pool, ms.
    headroom : float
        Largest common multiplier of the rates within the ceiling (inf: unbounded).
    saturation_scale : float
        Largest common multiplier of the rates before a pool saturates.
    warnings : tuple of MixWarning
    """

    lpar: Shared
    cps_sized: bool
    workloads: tuple[WorkloadInMix, ...]
    cp_wait_ms: float
    headroom: float
    saturation_scale: float
    warnings: tuple[MixWarning, ...]


def _lpar(
    models: Sequence[WorkloadModel], rates: Sequence[float], cps: int | None, ziips: int | None, ceiling: float
) -> tuple[Shared, list[MixWarning]]:
    """The LPAR at ``cps`` CPs, or at the smallest rated count within ``ceiling``."""
    if cps is not None:
        lpar = share_lpar(models, rates, cps=cps, ziips=ziips, ceiling=ceiling)
        if lpar.gcp_utilization > ceiling + _UTIL_EPS:
            message = f"{cps} CPs run {lpar.gcp_utilization:.1%} busy, above the {ceiling:.0%} ceiling"
            return lpar, [MixWarning("utilization-above-ceiling", message)]
        return lpar, []
    counts = models[0].counts
    # Within the ceiling, up to the first count whose specialty engines take all the eligible
    # work: no later count spills less or has fewer engines (as models_lib.evaluation.evaluations).
    within: list[Shared] = []
    objective = canonical_objective(str(models[0].engine_options.get("objective") or ""))
    for c in counts:
        s = share_lpar(models, rates, cps=c, ziips=ziips, ceiling=ceiling)
        if s.gcp_utilization <= ceiling + _UTIL_EPS:
            within.append(s)
            settled = s.spilled <= 0.0 or (ziips is not None and s.ziips >= ziips)
            if settled and objective != "least-cost":  # a later count may cost less
                break
    if within:
        return _pick(within, objective, models), []
    lpar = share_lpar(models, rates, cps=counts[-1], ziips=ziips, ceiling=ceiling)
    message = (
        f"no CP count up to {counts[-1]} carries the combined GCP demand within {ceiling:.0%}: "
        f"{lpar.gcp_busy:.3g} busy CPs"
    )
    return lpar, [MixWarning("capacity-exceeded", message)]


def evaluate_mix(
    models: Sequence[WorkloadModel], rates: Sequence[float], *, cps: int | None = None, ziips: int | None = None
) -> MixAnswer:
    """Evaluate workloads sharing one LPAR (see the module docstring).

    Parameters
    ----------
    models : sequence of WorkloadModel
        One per workload, all on the same target machine and with the same utilisation ceiling.
    rates : sequence of float
        Each workload's rate, transactions/s (> 0).
    cps : int, optional
        CPs of the LPAR; default the smallest rated count within the ceiling.
    ziips : int, optional
        Specialty engines; default enough for all eligible work (within the rules' ratio).

    Returns
    -------
    MixAnswer

    Raises
    ------
    ValueError
        Naming ``models`` (empty, or on different machines) or ``rates``.
    """
    if not models:
        raise ValueError("models: give at least one workload")
    if len(rates) != len(models):
        raise ValueError(f"rates: one rate per workload ({len(models)}), got {len(rates)}")
    if any(not (r > 0.0 and math.isfinite(r)) for r in rates):
        raise ValueError(f"rates must be finite and > 0, got {list(rates)!r}")
    if len({wm.machine_type for wm in models}) > 1:
        raise ValueError("models: every workload of a mix must be on the same machine type")
    ceiling = models[0].ziip_ceiling
    lpar, warnings = _lpar(models, rates, cps, ziips, ceiling)
    rts, cp_wait_ms = responses(models, rates, lpar)
    rows = tuple(
        WorkloadInMix(
            tps=t, gcp_busy=g, ziip_busy=zi, cpu_per_tran_ms=tot / t * 1000.0, response_time_ms=rt, lower_bound_ms=lower
        )
        for t, g, zi, tot, (rt, lower) in zip(rates, lpar.gcp, lpar.on_ziip, lpar.total, rts, strict=True)
    )
    saturation = scale_limit(models, rates, lpar.cps, ziips if ziips is not None else lpar.ziips, lambda s: s.stable)
    headroom = scale_limit(models, rates, lpar.cps, ziips, lambda s: s.gcp_utilization <= ceiling + _UTIL_EPS)
    return MixAnswer(
        lpar=lpar,
        cps_sized=cps is None,
        workloads=rows,
        cp_wait_ms=cp_wait_ms,
        headroom=headroom,
        saturation_scale=saturation,
        warnings=tuple(warnings),
    )
