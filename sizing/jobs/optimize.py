"""``optimize``: the cheapest mix of CPs and zIIPs that carries the target TPS.

The search is :func:`models_lib.optimize.feasible_mixes` and :func:`models_lib.optimize.frontier`
(every mix evaluated by the workload model); this module reads the params, calls them and shapes
the result (with the chosen mix as the estimate API answers it) and its table.  See docs/jobs.md.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.contrib.auth.models import User

from models_lib.optimize import feasible_mixes, frontier
from sizing.jobs.base import Progress, json_result, table, warnings_of
from sizing.jobs.workload import load_workload_for

COLUMNS = (
    "cps",
    "ziips",
    "cost",
    "gcp_utilization",
    "ziip_utilization",
    "ziip_on_gcp",
    "response_time_ms",
    "response_time_lower_bound_ms",
    "chosen",
)


def run_optimize(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    tps = float(params["tps"])
    # least-cost: every mix priced from the owner's price book (models_lib.pricing); else the weights.
    given = params.get("costs")
    costs = None if given is None else {"gcp": float(given["gcp"]), "ziip": float(given["ziip"])}
    sla = params.get("response_time_sla_ms")
    wm = load_workload_for(owner=owner, params=params, tps=tps)
    book = wm.price_book if costs is None else None
    found, tried = feasible_mixes(
        wm,
        tps=tps,
        costs=costs,
        max_cps=params.get("max_cps") or wm.counts[-1],
        max_ziips=params.get("max_ziips"),
        response_time_sla_ms=sla,
        progress=progress,
    )
    found.sort(key=lambda item: item[0])
    best = found[0][1] if found else None
    runner_up = found[1][1] if len(found) > 1 else None
    front = frontier(found)
    # The chosen mix as the estimate API would answer it, with its warnings and basis.
    estimate = (
        None if best is None else wm.estimate(tps=tps, cps=best["cps"], ziips=best["ziips"], response_time_sla_ms=sla)
    )
    rows = [[row[c] for c in COLUMNS[:-1]] + [row is best] for row in front]
    return json_result(
        {
            "kind": "optimize",
            "path": wm.path,
            "configuration": wm.configuration,
            "machine": wm.machine,
            "tps": tps,
            "costs": costs,
            "price_book": None if book is None else asdict(book),
            "max_utilization": wm.ziip_ceiling,
            "response_time_sla_ms": sla,
            "sla_verified": None if sla is None else wm.has_response_data,
            "ziips_per_cp": wm.policy.per_cp,
            "specialty_engine": wm.policy.name,
            "evaluated": tried,
            "feasible": len(found),
            "best": best,
            "runner_up": runner_up,
            "frontier": front,
            "estimate": estimate,
            "warnings": warnings_of(wm.reference),
            "basis": wm.reference["basis"],
            "table": table(COLUMNS, rows),
        }
    )
