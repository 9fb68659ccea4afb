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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.contrib.auth.models import User

from models_lib.capacity import demand_mips, demand_msu
from models_lib.engine import specialty_engines
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
    return Shared(cps=cps, ziips=z, total=tuple(total), on_ziip=tuple(on_ziip), gcp=tuple(gcp))


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


def mix_workload(*, owner: User, params: dict[str, Any], entry: dict[str, Any], capacity: Any = None) -> WorkloadModel:
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
    )


def run_mix(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    entries = params["workloads"]
    capacity = current_reference().lspr_table()
    models: list[WorkloadModel] = []
    for i, entry in enumerate(entries):
        models.append(mix_workload(owner=owner, params=params, entry=entry, capacity=capacity))
        progress(i + 1, len(entries) + 1)
    rates = [float(e["tps"]) for e in entries]
    ceiling = models[0].ziip_ceiling
    ziips = params.get("ziips")
    counts = models[0].counts
    given = params.get("cps")
    warnings: list[dict[str, str]] = []
    if given is not None:
        lpar = share_lpar(models, rates, cps=given, ziips=ziips, ceiling=ceiling)
        if lpar.gcp_utilization > ceiling + 1e-9:
            warnings.append(
                {
                    "code": "utilization-above-ceiling",
                    "message": f"{given} CPs run {lpar.gcp_utilization:.1%} busy, above the {ceiling:.0%} ceiling",
                }
            )
    else:
        fits = (share_lpar(models, rates, cps=c, ziips=ziips, ceiling=ceiling) for c in counts)
        found = next((s for s in fits if s.gcp_utilization <= ceiling + 1e-9), None)
        if found is not None:
            lpar = found
        else:
            lpar = share_lpar(models, rates, cps=counts[-1], ziips=ziips, ceiling=ceiling)
            warnings.append(
                {
                    "code": "capacity-exceeded",
                    "message": f"no CP count up to {counts[-1]} carries the combined GCP demand within {ceiling:.0%}: "
                    f"{lpar.gcp_busy:.3g} busy CPs",
                }
            )
    rts, cp_wait_ms = responses(models, rates, lpar)
    cps, z = lpar.cps, lpar.ziips
    machine_type = models[0].machine_type
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
    saturation = _scale_limit(models, rates, cps, ziips if ziips is not None else z, lambda s: s.stable)
    headroom = _scale_limit(models, rates, cps, ziips, lambda s: s.gcp_utilization <= ceiling + 1e-9)
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
                "mips": demand_mips(lpar.gcp_busy, capacity, machine_type, cps),
                "msu": demand_msu(lpar.gcp_busy, capacity, machine_type, cps),
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
