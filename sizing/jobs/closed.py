"""``closed``: N clients with a think time (a terminal-driven system), solved by exact MVA.

The numerics are :mod:`models_lib.closed` (the estimate's own closed network, taken at a rate
``tps``: given, as the estimate's, or the rate the largest population drives); this module reads
the params, calls it and shapes the result table.  See docs/jobs.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from django.contrib.auth.models import User

from models_lib.closed import clients_ziips, closed_network_at, cost_scales, network_rate
from sizing.jobs.base import Progress, json_result, table, warnings_of
from sizing.jobs.workload import load_workload_for

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


def run_closed(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    clients = sorted(set(params["clients"]))
    think = float(params["think_time_s"])
    cps = params["cps"]
    wm = load_workload_for(owner=owner, params=params)
    ziips = clients_ziips(wm, cps=cps, ziips=params.get("ziips"), clients=clients[-1], think_time_s=think)
    population = clients[-1]
    rate = params.get("tps")
    if rate is None:
        rate = network_rate(wm, cps=cps, ziips=ziips, clients=population, think_time_s=think)
    rate = float(rate)
    central = closed_network_at(wm, cps=cps, ziips=ziips, tps=rate)
    result = central.solve(population, think)
    progress(1, 3)
    scales = cost_scales(wm)
    bands: list[np.ndarray] = []
    for i, scale in enumerate(scales):
        bands.append(
            np.asarray(
                closed_network_at(wm, cps=cps, ziips=ziips, tps=rate, scale=scale)
                .solve(population, think)
                .throughput_curve
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
            "specialty_engine": wm.policy.name,  # zAAP on z10..zEC12/zBC12, zIIP later
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
            "response_time_sla_ms": sla,
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
