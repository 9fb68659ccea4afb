"""The cheapest mix of CPs and specialty engines that carries a rate.

Every (CPs, zIIPs) pair of the small integer space is evaluated as the engine evaluates it
(:meth:`models_lib.workload.WorkloadModel.evaluate`): CPs from 1 to the largest LSPR-rated count (or
``max_cps``), zIIPs from 0 to the machine's zIIP-to-CP limit (or ``max_ziips``).  A mix is
feasible when it is below saturation, the GCPs run within ``max_utilization`` (eligible work the
zIIPs cannot take within the same ceiling runs on the GCPs), and, with ``response_time_sla_ms``,
the response time meets it (without published response times the lower bound must meet it, so
feasibility is then not proven; ``sla_verified`` says which).  Cost = ``costs.gcp`` x CPs +
``costs.ziip`` x zIIPs, or with ``costs=None`` (the ``least-cost`` objective) the mix's total
over the term from the workload's price book (:func:`models_lib.pricing.configuration_cost`:
hardware plus MSU installed or consumed); ties go to fewer engines, then to the faster response.

The frontier is the set of feasible mixes that no other feasible mix beats on both CPs and
zIIPs (for each CP count, the fewest zIIPs that work), cheapest first.

Specialty-engine limit: the target generation's stored rules (``WorkloadModel.max_engines``, the
same rule the estimate obeys); where a machine type has no rules stored, the search goes up to the
engines the eligible work needs at that CP count.

Units: rates in transactions/s, times in ms; costs in the caller's unit per engine.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from models_lib.checks import InputError
from models_lib.workload import Evaluation, WorkloadModel

__all__ = ["feasible_mixes", "frontier"]


def _row(ev: Evaluation, cost: float) -> dict[str, Any]:
    """One mix as the optimiser reports it (ms, utilisation as a fraction)."""
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


def _cost(wm: WorkloadModel, costs: dict[str, float] | None, cps: int, ziips: int, gcp: float) -> float:
    """The weights' cost of a mix, or (``costs=None``) its total from the price book."""
    if costs is not None:
        return costs["gcp"] * cps + costs["ziip"] * ziips
    priced = wm.mix_cost(cps, ziips, gcp)
    if priced is None:
        raise InputError("objective", "the least-cost objective needs your price book: none is given")
    return priced.total


def feasible_mixes(
    wm: WorkloadModel,
    *,
    tps: float,
    costs: dict[str, float] | None,
    max_cps: int,
    max_ziips: int | None,
    response_time_sla_ms: float | None,
    progress: Callable[[int, int], None] | None = None,
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
            cost = _cost(wm, costs, c, z, ev.gcp)
            speed = judged if math.isfinite(judged) else math.inf
            found.append(((cost, c + z, speed), _row(ev, cost)))
        if progress is not None:
            progress(i + 1, len(counts))
    return found, tried


def frontier(found: list[tuple[tuple[float, int, float], dict[str, Any]]]) -> list[dict[str, Any]]:
    """The feasible mixes no other beats on both CPs and specialty engines, cheapest first."""
    fewest: dict[int, dict[str, Any]] = {}
    for _, row in found:
        if row["cps"] not in fewest or row["ziips"] < fewest[row["cps"]]["ziips"]:
            fewest[row["cps"]] = row
    kept: list[dict[str, Any]] = []
    for row in sorted(fewest.values(), key=lambda r: r["cps"]):
        if all(row["ziips"] < other["ziips"] for other in kept):  # fewer CPs already came first
            kept.append(row)
    return sorted(kept, key=lambda r: (r["cost"], r["cps"] + r["ziips"]))
