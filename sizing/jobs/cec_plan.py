"""A configured CEC over time (issue 29 item 4): the workloads placed into one LPAR growing at
their own rates, every LPAR's load today growing at its own rate, and the year each LPAR and the
CEC run out.

Each year is the placement of :mod:`sizing.jobs.cec` at that year's rates (the mix job on the
LPAR, carried into engines of this CEC); an LPAR **holds** a year while its busy (plus the added
work, for the LPAR that takes it) is within the ceiling of its guaranteed share, and the CEC
while all LPARs together are within the ceiling of each pool's engines.  Growth compounds
yearly: year 1 is today, year y is ``x (1 + g/100)^(y-1)``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User

from models_lib.cec import POOLS, Cec, LparPool, pool_shares
from sizing.jobs.cec import cec_place


def _grown(cec: Cec, growth: Mapping[str, float], year: int) -> tuple[Cec, dict[tuple[str, str], float]]:
    """The CEC with each LPAR's busy grown to ``year`` (its percent held at 100 for the
    placement), and the busy engines unclipped per (LPAR, pool)."""
    busy: dict[tuple[str, str], float] = {}
    lpars = []
    for lp in cec.lpars:
        k = (1.0 + growth.get(lp.name, 0.0) / 100.0) ** (year - 1)
        pools = {}
        for pool in POOLS:
            p = lp.pool(pool)
            busy[(lp.name, pool)] = p.busy * k
            pools[pool] = LparPool(p.logical, p.weight, p.capped, min(100.0, p.busy_pct * k))
        lpars.append(dataclasses.replace(lp, cp=pools["cp"], ziip=pools["ziip"]))
    return dataclasses.replace(cec, lpars=tuple(lpars)), busy


def _year(cec: Cec, placed_pools: Mapping[str, Any], busy: Mapping[tuple[str, str], float], lpar: str,
          ceiling: float) -> dict[str, Any]:  # fmt: skip
    rows, pools = [], []
    for pool in POOLS:
        if cec.installed(pool) == 0:
            continue
        added = placed_pools[pool].added if pool in placed_pools else 0.0
        total_all = 0.0
        for s in pool_shares(cec, pool):
            load = busy[(s.name, pool)] + (added if s.name == lpar else 0.0)
            total_all += load
            rows.append({"name": s.name, "pool": pool, "busy": load, "share": s.share,
                         "ceiling_of_share": ceiling * s.share, "holds": load <= ceiling * s.share + 1e-9})  # fmt: skip
        pools.append({"pool": pool, "busy": total_all, "capacity": ceiling * cec.installed(pool),
                      "holds": total_all <= ceiling * cec.installed(pool) + 1e-9})  # fmt: skip
    return {"lpars": rows, "cec": pools}


def cec_plan(
    *,
    owner: User,
    cec: Cec,
    machine: str,
    workloads: Sequence[Mapping[str, Any]],
    lpar: str,
    lpar_growth_pct: Mapping[str, float],
    years: int,
    max_utilization: float | None = None,
    **engine: Any,
) -> dict[str, Any]:
    """Each year's LPARs and pools, and when each LPAR and the CEC run out (``None``: they last)."""
    out: list[dict[str, Any]] = []
    for year in range(1, years + 1):
        rates = [
            {**{k: w[k] for k in ("path", "configuration", "payload_bytes") if k in w},
             "tps": float(w["tps"]) * (1.0 + float(w.get("growth_pct") or 0.0) / 100.0) ** (year - 1)}
            for w in workloads
        ]  # fmt: skip
        grown, busy = _grown(cec, lpar_growth_pct, year)
        placed, mixed = cec_place(
            owner=owner, cec=grown, machine=machine, workloads=rates, lpar=lpar, max_utilization=max_utilization,
            **engine,
        )  # fmt: skip
        by_pool = {p.pool: p for p in placed.pools}
        out.append({"year": year, "workloads": [{"tps": r["tps"]} for r in rates],
                    **_year(cec, by_pool, busy, lpar, mixed.ceiling)})  # fmt: skip
    names = [lp.name for lp in cec.lpars]
    lpars_out = {
        n: next((y["year"] for y in out if not all(r["holds"] for r in y["lpars"] if r["name"] == n)), None)
        for n in names
    }
    cec_out = next((y["year"] for y in out if not all(p["holds"] for p in y["cec"])), None)
    return {"lpar": lpar, "years": out, "runs_out": {"lpars": lpars_out, "cec": cec_out}}
