"""``mix``: several workloads (path, configuration, TPS) on one LPAR.

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

References
----------
.. [1] A. O. Allen, *Probability, Statistics, and Queueing Theory with Computer Science
   Applications*, 2nd ed., Academic Press, 1990, sec. 6.4 (the Allen-Cunneen approximation);
   D. A. Menasce, V. A. F. Almeida, L. W. Dowdy, *Performance by Design*, Prentice Hall, 2004,
   ch. 13 (multiclass open models).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.contrib.auth.models import User

from models_lib.capacity import demand_mips, demand_msu
from models_lib.engine import specialty_engines
from models_lib.inputs import CapacityTable
from models_lib.queueing import erlang_c
from sizing.jobs.base import Progress, json_result, table, warnings_of
from sizing.jobs.workload import WorkloadModel, load_workload
from sizing.selectors.fitted import current_reference

COLUMNS = (
    "path",
    "configuration",
    "tps",
    "gcp_busy",
    "ziip_busy",
    "cpu_per_tran_ms",
    "response_time_ms",
    "response_time_lower_bound_ms",
    "response_time_sla_ms",
    "meets_sla",
)


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
    eligible = [n * wm.eligible * wm.special_factor(cps) for wm, n in zip(models, native, strict=True)]
    all_eligible = sum(eligible)
    z, _ = specialty_engines(models[0].policy, cps, all_eligible, ceiling, ziips)
    keep = 1.0 if all_eligible <= z * ceiling else z * ceiling / all_eligible
    on_ziip = [e * keep for e in eligible]
    gcp = [
        (n * (1.0 - wm.eligible) + n * wm.eligible * (1.0 - keep)) * wm.factor(cps)
        for wm, n in zip(models, native, strict=True)
    ]
    total = [g + zi for g, zi in zip(gcp, on_ziip, strict=True)]
    spilled = sum(n * wm.eligible * (1.0 - keep) for wm, n in zip(models, native, strict=True))
    return Shared(cps=cps, ziips=z, total=tuple(total), on_ziip=tuple(on_ziip), gcp=tuple(gcp), spilled=spilled)


def _pick(candidates: Sequence[Shared], objective: str) -> Shared:
    """The LPAR ``objective`` picks among ``candidates`` within the ceiling, in CP-count order:
    the rule of :func:`models_lib.choice.pick` (least eligible work on CPs, then the fewest
    engines, then the fewest CPs; or the fewest CPs; or the fewest engines first)."""
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
    on_cps = [wm.native_busy(t) * wm.factor(lpar.cps) for wm, t in zip(models, rates, strict=True)]
    cp_service = [
        wm.slope * wm.factor(lpar.cps) * max(g / tot if tot > 0.0 else 1.0, 1e-12)
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


def _scale_limit(
    models: Sequence[WorkloadModel], rates: Sequence[float], cps: int, ziips: int | None, ok: Any
) -> float:
    """Largest common multiplier of all rates for which ``ok(lpar)`` still holds (bisection)."""
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
    """Why the LPAR does not hold as asked: ``capacity-exceeded`` or ``utilization-above-ceiling``."""

    code: str
    message: str


@dataclass(frozen=True)
class MixAnswer:
    """The mix job's LPAR for workloads at ``rates`` on one target: its CPs (given, or the
    smallest rated count within the ceiling), zIIPs and each workload's share, with derived
    quantities as methods."""

    models: tuple[WorkloadModel, ...]
    rates: tuple[float, ...]
    lpar: Shared
    cps_sized: bool
    ziips: int | None  # as given (None: sized)
    ceiling: float
    capacity: CapacityTable
    warnings: tuple[MixWarning, ...]

    @property
    def machine_type(self) -> str:
        return self.models[0].machine_type

    @property
    def within_ceiling(self) -> bool:
        """The CPs carry the combined GCP demand within the ceiling."""
        return self.lpar.gcp_utilization <= self.ceiling + 1e-9

    def mips(self) -> float:
        """GCP demand, MIPS (LSPR per-CP capacity at the LPAR's CP count)."""
        return demand_mips(self.lpar.gcp_busy, self.capacity, self.machine_type, self.lpar.cps)

    def msu(self) -> float:
        """MSU consumed: GCP demand in MSU (zIIP work carries no software charge)."""
        return demand_msu(self.lpar.gcp_busy, self.capacity, self.machine_type, self.lpar.cps)

    def saturation_scale(self) -> float:
        """Largest common multiplier of the rates the engines still carry (stable pools)."""
        z = self.ziips if self.ziips is not None else self.lpar.ziips
        return _scale_limit(self.models, self.rates, self.lpar.cps, z, lambda s: s.stable)

    def headroom(self) -> float:
        """Largest common multiplier of the rates the CPs carry within the ceiling."""
        return _scale_limit(
            self.models, self.rates, self.lpar.cps, self.ziips, lambda s: s.gcp_utilization <= self.ceiling + 1e-9
        )


def mix_lpar(
    models: Sequence[WorkloadModel],
    rates: Sequence[float],
    *,
    cps: int | None,
    ziips: int | None,
    capacity: CapacityTable,
) -> MixAnswer:
    """The LPAR of the mix job for loaded workload models at ``rates`` (transactions/s):
    ``cps`` given, or the smallest rated CP count whose combined GCP utilisation is within the
    ceiling (``max_utilization``); ``ziips`` given, or sized to the pooled eligible work."""
    ceiling = models[0].ziip_ceiling
    counts = models[0].counts
    warnings: list[MixWarning] = []
    if cps is not None:
        lpar = share_lpar(models, rates, cps=cps, ziips=ziips, ceiling=ceiling)
        if lpar.gcp_utilization > ceiling + 1e-9:
            warnings.append(
                MixWarning(
                    "utilization-above-ceiling",
                    f"{cps} CPs run {lpar.gcp_utilization:.1%} busy, above the {ceiling:.0%} ceiling",
                )
            )
    else:
        # Within the ceiling, up to the first count whose specialty engines take all the eligible
        # work: no later count spills less or has fewer engines (as models_lib.evaluation.evaluations).
        within: list[Shared] = []
        for c in counts:
            s = share_lpar(models, rates, cps=c, ziips=ziips, ceiling=ceiling)
            if s.gcp_utilization <= ceiling + 1e-9:
                within.append(s)
                if s.spilled <= 0.0 or (ziips is not None and s.ziips >= ziips):
                    break
        if within:
            lpar = _pick(within, str(models[0].engine_options.get("objective") or "least-msu"))
        else:
            lpar = share_lpar(models, rates, cps=counts[-1], ziips=ziips, ceiling=ceiling)
            warnings.append(
                MixWarning(
                    "capacity-exceeded",
                    f"no CP count up to {counts[-1]} carries the combined GCP demand within {ceiling:.0%}: "
                    f"{lpar.gcp_busy:.3g} busy CPs",
                )
            )
    return MixAnswer(
        models=tuple(models),
        rates=tuple(float(r) for r in rates),
        lpar=lpar,
        cps_sized=cps is None,
        ziips=ziips,
        ceiling=ceiling,
        capacity=capacity,
        warnings=tuple(warnings),
    )


def mix_workload(
    *,
    owner: User,
    params: Mapping[str, Any],
    entry: Mapping[str, Any],
    capacity: CapacityTable | None = None,
    **engine: Any,
) -> WorkloadModel:
    """The model of one of the mix's ``workloads`` on its machine (``ValueError`` if it cannot be
    sized); the submission check calls this too, so an accepted mix can be computed."""
    return load_workload(
        owner=owner,
        path=entry["path"],
        configuration=entry["configuration"],
        machine=params["machine"],
        payload_bytes=entry.get("payload_bytes"),
        max_utilization=params.get("max_utilization"),
        tps=entry["tps"],
        capacity=capacity,
        capacity_setting=params.get("capacity_setting"),
        **engine,
    )


def mix_evaluate(
    *,
    owner: User,
    workloads: Sequence[Mapping[str, Any]],
    machine: str,
    cps: int | None = None,
    ziips: int | None = None,
    max_utilization: float | None = None,
    capacity_setting: str | None = None,
    capacity: CapacityTable | None = None,
    progress: Progress | None = None,
    **engine: Any,
) -> MixAnswer:
    """Several workloads (``path``, ``configuration``, ``tps``, optional ``payload_bytes``) on
    one LPAR of ``machine`` (and ``capacity_setting``): each loaded as the engine does, then
    :func:`mix_lpar`.  ``engine``: the estimate's engine options (``projection_band``, ...)."""
    capacity = capacity if capacity is not None else current_reference().lspr_table()
    models: list[WorkloadModel] = []
    for i, entry in enumerate(workloads):
        models.append(
            mix_workload(
                owner=owner,
                params={"machine": machine, "max_utilization": max_utilization, "capacity_setting": capacity_setting},
                entry=entry,
                capacity=capacity,
                **engine,
            )
        )
        if progress is not None:
            progress(i + 1, len(workloads) + 1)
    rates = [float(e["tps"]) for e in workloads]
    return mix_lpar(models, rates, cps=cps, ziips=ziips, capacity=capacity)


def run_mix(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    entries = params["workloads"]
    answer = mix_evaluate(
        owner=owner,
        workloads=entries,
        machine=params["machine"],
        cps=params.get("cps"),
        ziips=params.get("ziips"),
        max_utilization=params.get("max_utilization"),
        progress=progress,
    )
    models, rates, lpar, ceiling = answer.models, answer.rates, answer.lpar, answer.ceiling
    ziips = params.get("ziips")
    given = params.get("cps")
    warnings = [{"code": w.code, "message": w.message} for w in answer.warnings]
    rts, cp_wait_ms = responses(models, rates, lpar)
    cps, z = lpar.cps, lpar.ziips
    rows = []
    for wm, entry, t, g, zi, tot, (rt, lower) in zip(
        models, entries, rates, lpar.gcp, lpar.on_ziip, lpar.total, rts, strict=True
    ):
        sla = entry.get("response_time_sla_ms")
        judged = rt if rt is not None else lower
        rows.append(
            {
                "path": wm.path,
                "configuration": wm.configuration,
                "tps": t,
                "gcp_busy": g,
                "ziip_busy": zi,
                "cpu_per_tran_ms": tot / t * 1000.0,
                "response_time_ms": rt,
                "response_time_lower_bound_ms": lower,
                "response_time_sla_ms": sla,
                "meets_sla": None if sla is None else bool(judged <= sla),
                "response_time_data": wm.has_response_data,
                "warnings": warnings_of(wm.reference),
            }
        )
    saturation = answer.saturation_scale()
    headroom = answer.headroom()
    progress(1, 1)
    return json_result(
        {
            "kind": "mix",
            "machine": models[0].machine,
            "cps": cps,
            "cps_sized": given is None,
            "ziips": z,
            "ziips_sized": ziips is None,
            "max_utilization": ceiling,
            "combined": {
                "tps": sum(rates),
                "gcp_busy": lpar.gcp_busy,
                "gcp_utilization": lpar.gcp_utilization,
                "ziip_busy": lpar.ziip_busy,
                "ziip_utilization": lpar.ziip_busy / z if z else None,
                "mips": answer.mips(),
                "msu": answer.msu(),
                "cp_wait_ms": cp_wait_ms,
                "headroom": headroom,
                "saturation_scale": saturation,
            },
            "approximation": "shared FCFS CP (and zIIP) pool: Allen-Cunneen M/G/c wait with the mixture of the "
            "workloads' exponential service times; per-workload fixed part and software station",
            "workloads": rows,
            "warnings": warnings,
            "table": table(COLUMNS, ([row[c] for c in COLUMNS] for row in rows)),
        }
    )
