"""``optimize``: the cheapest mix of CPs and zIIPs that carries the target TPS.

Every (CPs, zIIPs) pair of the small integer space is evaluated as the engine evaluates it
(:class:`sizing.jobs.workload.WorkloadModel`): CPs from 1 to the largest LSPR-rated count (or
``max_cps``), zIIPs from 0 to the machine's zIIP-to-CP limit (or ``max_ziips``).  A mix is
feasible when it is below saturation, the GCPs run within ``max_utilization`` (eligible work the
zIIPs cannot take within the same ceiling runs on the GCPs), and, with ``response_time_sla_ms``,
the response time meets it (without published response times the lower bound must meet it, so
feasibility is then not proven; ``sla_verified`` says which).  Cost = ``costs.gcp`` x CPs +
``costs.ziip`` x zIIPs; ties go to fewer engines, then to the faster response.

The frontier is the set of feasible mixes that no other feasible mix beats on both CPs and
zIIPs (for each CP count, the fewest zIIPs that work), cheapest first.

Specialty-engine limit: the target generation's stored rules (``WorkloadModel.max_engines``, the
same rule the estimate obeys); where a machine type has no rules stored, the search goes up to the
engines the eligible work needs at that CP count.
"""

from __future__ import annotations

import math
from typing import Any

from django.contrib.auth.models import User

from sizing.jobs.base import Progress, json_result, table, warnings_of
from sizing.jobs.workload import Evaluation, WorkloadModel, load_workload_for

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


def _row(ev: Evaluation, cost: float) -> dict[str, Any]:
    return {
        "cps": ev.cps,
        "ziips": ev.ziips,
        "cost": cost,
        "gcp_utilization": ev.gcp_utilization,
        "ziip_utilization": ev.ziip_utilization,
        "ziip_on_gcp": ev.ziip_on_gcp,
        "response_time_ms": ev.response_time_ms,
        "response_time_lower_bound_ms": ev.lower_bound_ms,
    }


def feasible_mixes(
    wm: WorkloadModel,
    *,
    tps: float,
    costs: dict[str, float],
    max_cps: int,
    max_ziips: int | None,
    response_time_sla_ms: float | None,
    progress: Progress,
) -> tuple[list[tuple[tuple[float, int, float], dict[str, Any]]], int]:
    """All feasible mixes with their sort key (cost, engines, response), and how many were tried."""
    umax = wm.ziip_ceiling
    counts = [c for c in wm.counts if c <= max_cps]
    found = []
    tried = 0
    for i, c in enumerate(counts):
        allowed = wm.max_engines(c)
        top = wm.split(tps, c).needed if allowed is None else allowed
        limit = top if max_ziips is None else min(max_ziips, top)
        for z in range(0, limit + 1):
            tried += 1
            ev = wm.evaluate(tps, c, z)
            if not ev.stable or ev.gcp_utilization > umax + 1e-9:
                continue
            judged = ev.response_time_ms if ev.response_time_ms is not None else ev.lower_bound_ms
            if response_time_sla_ms is not None and not judged <= response_time_sla_ms:
                continue
            cost = costs["gcp"] * c + costs["ziip"] * z
            speed = judged if math.isfinite(judged) else math.inf
            found.append(((cost, c + z, speed), _row(ev, cost)))
        progress(i + 1, len(counts))
    return found, tried


def frontier(found: list[tuple[tuple[float, int, float], dict[str, Any]]]) -> list[dict[str, Any]]:
    fewest: dict[int, dict[str, Any]] = {}
    for _, row in found:
        if row["cps"] not in fewest or row["ziips"] < fewest[row["cps"]]["ziips"]:
            fewest[row["cps"]] = row
    kept: list[dict[str, Any]] = []
    for row in sorted(fewest.values(), key=lambda r: r["cps"]):
        if all(row["ziips"] < other["ziips"] for other in kept):  # fewer CPs already came first
            kept.append(row)
    return sorted(kept, key=lambda r: (r["cost"], r["cps"] + r["ziips"]))


def run_optimize(*, params: dict[str, Any], owner: User, progress: Progress) -> dict[str, Any]:
    tps = float(params["tps"])
    costs = {"gcp": float(params["costs"]["gcp"]), "ziip": float(params["costs"]["ziip"])}
    sla = params.get("response_time_sla_ms")
    wm = load_workload_for(owner=owner, params=params, tps=tps)
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
