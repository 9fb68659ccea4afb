"""``closed``: N clients with a think time (a terminal-driven system), solved by exact MVA.

The network is the estimate's own, taken at a rate ``tps`` (given, as the estimate's; or the
rate the largest population drives, :func:`network_rate`):
:meth:`models_lib.workload.WorkloadModel.closed_network`, which calls
:func:`models_lib.sizing.closed_network` with the engine's split of the demand at ``tps``.  Per
transaction on the target LPAR (``cps`` CPs, ``ziips`` zIIPs):

* ``cp``: ``cps`` servers with the GCP CPU per transaction, eligible work that overflows the
  zIIPs' ceiling included; the cost model's fixed busy CPs are spread over the transactions at
  ``tps`` (demand ``b + a / tps``), as in the estimate.
* ``ziip``: with ``ziips`` > 0, ``ziips`` servers with the eligible work the zIIPs carry at
  ``tps``.  By default ``ziips`` is what the estimate sizes for the most the clients can drive
  (N / Z), within the generation's specialty-engine ratio (never above it, given or not).
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
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from django.contrib.auth.models import User

from models_lib.queueing import MVAResult, mva
from sizing.jobs.base import Progress, json_result, table, warnings_of
from sizing.jobs.workload import WorkloadModel, load_workload_for

#: Fixed-point steps and tolerance of the rate the network is taken at (:func:`network_rate`).
_RATE_STEPS = 60
_RATE_RTOL = 1e-10
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
    """The engine's closed network of one LPAR at the rate ``tps`` for one cost scale (1 = the
    central cost): :meth:`models_lib.workload.WorkloadModel.closed_network`, the stations the
    estimate solves (:func:`models_lib.sizing.closed_network`).  Nothing is built here."""

    def __init__(self, wm: WorkloadModel, *, cps: int, ziips: int, tps: float, scale: float = 1.0) -> None:
        if not (tps > 0.0 and math.isfinite(tps)):
            raise ValueError(f"the rate the network is taken at must be finite and > 0, got {tps!r}")
        self.cps, self.tps = cps, tps
        self.stations, split = wm.closed_network(tps, cps, ziips, scale=scale)
        self.ziips = split.engines
        self.fixed_s = next((s.demand for s in self.stations if s.kind == "delay"), None)

    def solve(self, clients: int, think_time_s: float) -> MVAResult:
        return mva(self.stations, clients, think_time=think_time_s)

    def _demand(self, name: str) -> float:
        return next((s.demand for s in self.stations if s.name == name), 0.0)

    def gcp_utilization(self, throughput: np.ndarray) -> np.ndarray:
        """Utilisation law, U = X D / c (the fixed load is spread over the transactions at ``tps``,
        so this is the LPAR's real GCP busy where X = ``tps``)."""
        return throughput * self._demand("cp") / self.cps

    def ziip_utilization(self, throughput: np.ndarray) -> np.ndarray | None:
        if not self.ziips:
            return None
        return throughput * self._demand("ziip") / self.ziips


def network_rate(wm: WorkloadModel, *, cps: int, ziips: int, clients: int, think_time_s: float) -> float:
    """The rate the clients drive when the network is taken at that same rate: the largest
    fixed point of T = X_N(T), from T = N / Z down (X_N rises with T, so the iteration falls
    monotonically onto it).  Without fixed load the network does not depend on T beyond the
    specialty-engine split, and one or two steps suffice."""
    t = clients / think_time_s if think_time_s > 0 else float(wm.reference["tps"])
    for _ in range(_RATE_STEPS):
        x = float(Network(wm, cps=cps, ziips=ziips, tps=t).solve(clients, think_time_s).throughput)
        if abs(x - t) <= _RATE_RTOL * t:
            return x
        t = x
    return t


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
    rate = params.get("tps")
    if rate is None:
        rate = network_rate(wm, cps=cps, ziips=ziips, clients=population, think_time_s=think)
    rate = float(rate)
    central = Network(wm, cps=cps, ziips=ziips, tps=rate)
    result = central.solve(population, think)
    progress(1, 3)
    t_ref = float(wm.reference["tps"])
    central_cost = wm.native_busy(t_ref) / t_ref
    low_s, high_s = wm.cost_range_s
    scales = (low_s / central_cost, high_s / central_cost) if central_cost > 0 else (1.0, 1.0)
    bands: list[np.ndarray] = []
    for i, scale in enumerate(scales):
        bands.append(
            np.asarray(
                Network(wm, cps=cps, ziips=ziips, tps=rate, scale=scale).solve(population, think).throughput_curve
            )
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
            "tps": rate,
            "tps_given": params.get("tps") is not None,
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
