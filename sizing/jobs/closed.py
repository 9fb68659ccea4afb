"""``closed``: N clients with a think time (a terminal-driven system), solved by exact MVA.

The network, per transaction, on the target LPAR (``cps`` CPs, ``ziips`` zIIPs):

* ``cp``: a ``cps``-server queue whose demand is the GCP CPU per transaction (the slope of the
  cost model, payload scaled, LSPR-projected to ``cps`` CPs).  The cost model's fixed busy CPs
  (its intercept) are background load with no transactions; MVA has no background load, so they
  slow the CPs down instead: demand / (1 - fixed busy / cps), the shadow-server approximation
  [2]_.  Utilisations reported are the real ones, fixed load included.
* ``ziip``: with ``ziips`` > 0, a ``ziips``-server queue with the zIIP-eligible share of the
  demand (eligible work waits for a zIIP; the short-term help of CPs, IIPCP, is not modelled).
  With ``ziips`` = 0 all work is on the CPs.  By default ``ziips`` is what the estimate sizes:
  the engines the eligible work needs at the most the clients can drive (N / Z), within the
  generation's specialty-engine ratio (never above it, given or not).
* ``software``: the response model's software station (m servers of s seconds), if it has one.
* ``fixed``: a delay of the response model's load-independent part D, where the source
  publishes response times.  Without it the response time is unknown and the residence at the
  queues is reported as its lower bound.

One exact solve at the largest population gives throughput and response time for every
n = 1..N (``models_lib.queueing.mva``: normalising-constant convolution, exact also for the
multi-server stations [1]_).  Two more solves at the low and high end of the CPU cost range
(the 95 % prediction interval, or the published bounds) give the throughput range.

References
----------
.. [1] M. Reiser and S. S. Lavenberg, "Mean-value analysis of closed multichain queuing
   networks", J. ACM 27(2), 1980; J. P. Buzen, Comm. ACM 16(9), 1973.
.. [2] K. C. Sevcik, "Priority scheduling disciplines in queueing network models of computer
   systems", Proc. IFIP Congress 77, 1977 (shadow server); E. D. Lazowska et al.,
   *Quantitative System Performance*, Prentice-Hall, 1984, sec. 11.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from django.contrib.auth.models import User

from models_lib.queueing import MVAResult, Station, mva
from sizing.jobs.base import Progress, json_result, table, warnings_of
from sizing.jobs.workload import WorkloadModel, load_workload_for

#: Points of the plotted curve (the requested populations are always included).
CURVE_POINTS = 200
COLUMNS = (
    "clients",
    "throughput_tps",
    "response_time_ms",
    "response_time_lower_bound_ms",
    "gcp_utilization",
    "ziip_utilization",
    "throughput_low_cost_tps",
    "throughput_high_cost_tps",
)


class Network:
    """The stations of one LPAR for one cost scale (1 = the central cost)."""

    def __init__(self, wm: WorkloadModel, *, cps: int, ziips: int, scale: float = 1.0) -> None:
        k, kz = wm.factor(cps), wm.special_factor(cps)  # specialty engines run at full speed
        f = wm.eligible if ziips > 0 else 0.0
        fixed = max(wm.intercept, 0.0) * scale
        per_tran = wm.slope * scale
        self.cps, self.ziips = cps, ziips
        self.cp_fixed, self.cp_per_tran = fixed * (1.0 - f) * k, per_tran * (1.0 - f) * k
        self.ziip_fixed, self.ziip_per_tran = fixed * f * kz, per_tran * f * kz
        if self.cp_fixed >= cps or (ziips and self.ziip_fixed >= ziips):
            raise ValueError(
                f"{wm.path}/{wm.configuration}: the fixed load of the cost model alone ({fixed:.3g} busy engines) "
                f"fills {cps} CPs" + (f" and {ziips} zIIPs" if ziips else "")
            )
        self.stations = [Station("cp", self.cp_per_tran / (1.0 - self.cp_fixed / cps), servers=cps)]
        if ziips and self.ziip_per_tran > 0.0:
            self.stations.append(Station("ziip", self.ziip_per_tran / (1.0 - self.ziip_fixed / ziips), servers=ziips))
        model = wm.response
        if model is not None and model.software is not None:
            self.stations.append(Station("software", model.software.service_s, servers=model.software.servers))
        self.fixed_s = None if model is None or model.fixed_ms is None else model.fixed_ms / 1000.0
        if self.fixed_s is not None:
            self.stations.append(Station("fixed", self.fixed_s, kind="delay"))

    def solve(self, clients: int, think_time_s: float) -> MVAResult:
        return mva(self.stations, clients, think_time=think_time_s)

    def gcp_utilization(self, throughput: np.ndarray) -> np.ndarray:
        return (self.cp_fixed + throughput * self.cp_per_tran) / self.cps

    def ziip_utilization(self, throughput: np.ndarray) -> np.ndarray | None:
        if not self.ziips:
            return None
        return (self.ziip_fixed + throughput * self.ziip_per_tran) / self.ziips


def run_closed(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    clients = sorted(set(params["clients"]))
    think = float(params["think_time_s"])
    cps = params["cps"]
    wm = load_workload_for(owner=owner, params=params)
    ziips = params.get("ziips")
    if ziips is None:
        # As the estimate: the specialty engines the eligible work needs at the most the clients
        # can drive (N / Z), within the generation's ratio.
        top = clients[-1] / think if think > 0 else float(wm.reference["tps"])
        ziips = wm.ziips_for(top, cps)
    allowed = wm.max_engines(cps)
    if allowed is not None:
        ziips = min(ziips, allowed)
    population = clients[-1]
    central = Network(wm, cps=cps, ziips=ziips)
    result = central.solve(population, think)
    progress(1, 3)
    t_ref = float(wm.reference["tps"])
    central_cost = wm.native_busy(t_ref) / t_ref
    low_s, high_s = wm.cost_range_s
    scales = (low_s / central_cost, high_s / central_cost) if central_cost > 0 else (1.0, 1.0)
    bands: list[np.ndarray] = []
    for i, scale in enumerate(scales):
        bands.append(
            np.asarray(Network(wm, cps=cps, ziips=ziips, scale=scale).solve(population, think).throughput_curve)
        )
        progress(2 + i, 3)

    x = np.asarray(result.throughput_curve)
    r_ms = np.asarray(result.response_time_curve) * 1000.0
    has_rt = central.fixed_s is not None
    lower_ms = r_ms - (central.fixed_s or 0.0) * 1000.0
    gcp_u = central.gcp_utilization(x)
    ziip_u = central.ziip_utilization(x)

    def at(n: int) -> dict[str, Any]:
        i = n - 1
        return {
            "clients": n,
            "throughput_tps": x[i],
            "response_time_ms": r_ms[i] if has_rt else None,
            "response_time_lower_bound_ms": lower_ms[i],
            "gcp_utilization": gcp_u[i],
            "ziip_utilization": None if ziip_u is None else ziip_u[i],
            "throughput_low_cost_tps": bands[0][i],
            "throughput_high_cost_tps": bands[1][i],
        }

    rows = [at(n) for n in clients]
    plotted = np.union1d(np.unique(np.linspace(1, population, CURVE_POINTS).round().astype(int)), clients)
    sla = params.get("response_time_sla_ms")
    within_sla = None
    if sla is not None:
        judged = r_ms if has_rt else lower_ms
        within_sla = int(np.cumprod(judged <= sla).sum())  # R(n) only grows with n
    bounds = result.bounds()
    published = []
    if wm.published_think_time_s is not None and abs(wm.published_think_time_s - think) < 1e-9:
        for n, tps in wm.published_throughput:
            if n <= population:
                published.append(
                    {"clients": n, "tps": tps, "model_tps": x[n - 1], "relative_error": x[n - 1] / tps - 1.0}
                )
    return json_result(
        {
            "kind": "closed",
            "path": wm.path,
            "configuration": wm.configuration,
            "machine": wm.machine,
            "cps": cps,
            "ziips": ziips,
            "think_time_s": think,
            "response_time_data": has_rt,
            "stations": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "servers": s.servers if s.kind == "queue" else None,
                    "demand_ms": s.demand * 1000.0,
                }
                for s in central.stations
            ],
            "bottleneck": result.bottleneck,
            "knee_clients": bounds.knee_clients,
            "max_throughput_tps": min((s.capacity for s in central.stations), default=None),
            "max_clients_within_sla": within_sla,
            "points": rows,
            "curve": {
                "clients": plotted,
                "throughput_tps": x[plotted - 1],
                "response_time_ms": r_ms[plotted - 1] if has_rt else None,
                "response_time_lower_bound_ms": lower_ms[plotted - 1],
                "gcp_utilization": gcp_u[plotted - 1],
                "ziip_utilization": None if ziip_u is None else ziip_u[plotted - 1],
            },
            "published": published,
            "warnings": warnings_of(wm.reference),
            "basis": wm.reference["basis"],
            "table": table(COLUMNS, ([row[c] for c in COLUMNS] for row in rows)),
        }
    )
