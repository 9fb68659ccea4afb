"""A configured CEC over time (issue 29 item 4): the workloads placed into one LPAR (an existing
one or a new one) growing at their own rates, every LPAR's load today growing at its own rate,
and the period each LPAR and the CEC run out.

One code path for both callers: a plan's CEC candidate (:mod:`sizing.jobs.plan`, each period at
the plan's peaks) and ``POST /api/v1/cecs/{id}/plan/`` (:func:`cec_plan`, years at the
workloads' averages) call :func:`cec_periods`.

Each period is the placement of :mod:`sizing.jobs.cec` at that period's rates (the mix job on
the LPAR, carried into engines of this CEC); an LPAR **holds** a period while its busy (plus
the added work, for the LPAR that takes it) is within the ceiling of its guaranteed share, and
the CEC while all LPARs together are within the ceiling of each pool's engines.  The range
comes from the placement's low and high ends (the engine's per-transaction cost range).  An
LPAR's load compounds yearly: period p is ``x (1 + g/100)^((p-1) y)``, ``y`` = 1 for years and
1/4 for quarters (as a plan's workloads grow).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from models_lib.cec import POOLS, Cec, Lpar, LparPool, pool_shares
from models_lib.cec_place import Placement
from sizing.jobs.cec import cec_place
from sizing.jobs.mix import MixAnswer

_EPS = 1e-9


@dataclass(frozen=True)
class LparLoad:
    """One LPAR's pool in a period: its load (engines of this CEC) against the ceiling of its
    guaranteed share, at the central cost and the range's ends."""

    name: str
    pool: str
    engine: str
    busy: float
    busy_low: float
    busy_high: float
    share: float
    ceiling_of_share: float
    takes_work: bool

    @property
    def holds(self) -> bool:
        return self.busy <= self.ceiling_of_share + _EPS

    @property
    def holds_low(self) -> bool:
        return self.busy_low <= self.ceiling_of_share + _EPS

    @property
    def holds_high(self) -> bool:
        return self.busy_high <= self.ceiling_of_share + _EPS

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "holds": self.holds, "holds_low": self.holds_low,
                "holds_high": self.holds_high}  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LparLoad:
        return cls(**{f.name: data[f.name] for f in dataclasses.fields(cls)})


@dataclass(frozen=True)
class PoolLoad:
    """One pool of the CEC in a period: every LPAR's load together against the ceiling of the
    pool's installed engines."""

    pool: str
    engine: str
    busy: float
    busy_low: float
    busy_high: float
    installed: int
    capacity: float

    @property
    def holds(self) -> bool:
        return self.busy <= self.capacity + _EPS

    @property
    def holds_low(self) -> bool:
        return self.busy_low <= self.capacity + _EPS

    @property
    def holds_high(self) -> bool:
        return self.busy_high <= self.capacity + _EPS

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "holds": self.holds, "holds_low": self.holds_low,
                "holds_high": self.holds_high}  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PoolLoad:
        return cls(**{f.name: data[f.name] for f in dataclasses.fields(cls)})


@dataclass(frozen=True)
class CecPeriod:
    """One period of the CEC: the placement, the mix on the LPAR, every LPAR's and pool's load."""

    period: int
    placed: Placement
    mixed: MixAnswer
    lpars: tuple[LparLoad, ...]
    pools: tuple[PoolLoad, ...]

    @property
    def holds(self) -> bool:
        """The LPAR taking the work fits (the placement's predicate) and the CEC holds."""
        return self.placed.fits and all(p.holds for p in self.pools)

    @property
    def holds_low(self) -> bool:
        return self.placed.fits_low and all(p.holds_low for p in self.pools)

    @property
    def holds_high(self) -> bool:
        return self.placed.fits_high and all(p.holds_high for p in self.pools)


@dataclass(frozen=True)
class RunOut:
    """When an LPAR (or the CEC: ``name`` None) first does not hold, in which pool, and the
    range: at the high end of the cost range it runs out earliest, at the low end latest."""

    name: str | None
    period: int | None
    pool: str | None
    engine: str | None
    earliest: int | None
    latest: int | None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunOut:
        return cls(**{f.name: data[f.name] for f in dataclasses.fields(cls)})


def growth_factor(pct: float, period: int, years_per_period: float) -> float:
    """``(1 + pct/100)^((period-1) years_per_period)``: period 1 is today."""
    return float((1.0 + pct / 100.0) ** ((period - 1) * years_per_period))


def _grown(cec: Cec, factors: Mapping[str, float]) -> tuple[Cec, dict[tuple[str, str], float]]:
    """The CEC with each LPAR's busy grown by its factor (its percent held at 100 for the
    placement), and the busy engines unclipped per (LPAR, pool)."""
    busy: dict[tuple[str, str], float] = {}
    lpars = []
    for lp in cec.lpars:
        k = factors.get(lp.name, 1.0)
        pools = {}
        for pool in POOLS:
            p = lp.pool(pool)
            busy[(lp.name, pool)] = p.busy * k
            pools[pool] = LparPool(p.logical, p.weight, p.capped, min(100.0, p.busy_pct * k))
        lpars.append(dataclasses.replace(lp, cp=pools["cp"], ziip=pools["ziip"]))
    return dataclasses.replace(cec, lpars=tuple(lpars)), busy


def _loads(placed: Placement, busy: Mapping[tuple[str, str], float], ceiling: float) -> tuple[tuple[LparLoad, ...], tuple[PoolLoad, ...]]:  # fmt: skip
    cec = placed.cec  # with the new LPAR, where the work goes into one
    rows: list[LparLoad] = []
    pools: list[PoolLoad] = []
    for pool in POOLS:
        if cec.installed(pool) == 0:
            continue
        at = placed.pool(pool)
        added = (at.added, at.added_low, at.added_high) if at is not None else (0.0, 0.0, 0.0)
        total = [0.0, 0.0, 0.0]
        for s in pool_shares(cec, pool):
            takes = s.name == placed.lpar
            own = busy.get((s.name, pool), s.busy)
            load = [own + (a if takes else 0.0) for a in added]
            total = [t + x for t, x in zip(total, load, strict=True)]
            rows.append(LparLoad(s.name, pool, cec.engine_name(pool), load[0], load[1], load[2], s.share,
                                 ceiling * s.share, takes))  # fmt: skip
        pools.append(PoolLoad(pool, cec.engine_name(pool), total[0], total[1], total[2], cec.installed(pool),
                              ceiling * cec.installed(pool)))  # fmt: skip
    return tuple(rows), tuple(pools)


def cec_periods(
    *,
    owner: User,
    cec: Cec,
    machine: str,
    period_workloads: Sequence[Sequence[Mapping[str, Any]]],
    lpar: str | None,
    new_lpar: Lpar | None = None,
    lpar_growth_pct: Mapping[str, float],
    years_per_period: float = 1.0,
    max_utilization: float | None = None,
    **engine: Any,
) -> list[CecPeriod]:
    """Each period's placement of ``period_workloads[p-1]`` (``path``, ``configuration``,
    ``tps``, optional ``payload_bytes``) into ``lpar`` (or ``new_lpar``) of ``cec``, each LPAR's
    load today grown by its rate (``lpar_growth_pct``: name -> % a year; default 0).

    Raises as :func:`sizing.jobs.cec.cec_place` (``ValueError``, or ``InputError`` naming the field).
    """
    out: list[CecPeriod] = []
    for p, workloads in enumerate(period_workloads, start=1):
        factors = {name: growth_factor(g, p, years_per_period) for name, g in lpar_growth_pct.items()}
        grown, busy = _grown(cec, factors)
        new = None
        if new_lpar is not None:
            new = _grown(dataclasses.replace(cec, lpars=(new_lpar,)), factors)[0].lpars[0]
            busy.update({(new.name, pool): new_lpar.pool(pool).busy * factors.get(new.name, 1.0) for pool in POOLS})
        placed, mixed = cec_place(owner=owner, cec=grown, machine=machine, workloads=workloads, lpar=lpar,
                                  new_lpar=new, max_utilization=max_utilization, **engine)  # fmt: skip
        rows, pools = _loads(placed, busy, mixed.ceiling)
        out.append(CecPeriod(p, placed, mixed, rows, pools))
    return out


def _first(flags: Sequence[bool]) -> int | None:
    return next((i + 1 for i, ok in enumerate(flags) if not ok), None)


def run_outs(periods: Sequence[CecPeriod]) -> tuple[RunOut, ...]:
    """Each LPAR's run-out (in the CEC's order, the new LPAR last), then the CEC's (``name`` None)."""
    names = [lp.name for lp in periods[0].placed.cec.lpars]
    out = []
    for name in names:
        mine = [[r for r in q.lpars if r.name == name] for q in periods]
        period = _first([all(r.holds for r in rows) for rows in mine])
        binding = None if period is None else next(r for r in mine[period - 1] if not r.holds)
        out.append(RunOut(name, period, binding.pool if binding else None, binding.engine if binding else None,
                          _first([all(r.holds_high for r in rows) for rows in mine]),
                          _first([all(r.holds_low for r in rows) for rows in mine])))  # fmt: skip
    period = _first([all(x.holds for x in q.pools) for q in periods])
    pool = None if period is None else next(x for x in periods[period - 1].pools if not x.holds)
    out.append(RunOut(None, period, pool.pool if pool else None, pool.engine if pool else None,
                      _first([all(x.holds_high for x in q.pools) for q in periods]),
                      _first([all(x.holds_low for x in q.pools) for q in periods])))  # fmt: skip
    return tuple(out)


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
    """``POST /api/v1/cecs/{id}/plan/``: each year's LPARs and pools (the workloads' averages
    grown by their ``growth_pct``), and when each LPAR and the CEC run out (``None``: they last)."""
    rates = [
        [{**{k: w[k] for k in ("path", "configuration", "payload_bytes") if k in w},
          "tps": float(w["tps"]) * growth_factor(float(w.get("growth_pct") or 0.0), y, 1.0)} for w in workloads]
        for y in range(1, years + 1)
    ]  # fmt: skip
    periods = cec_periods(owner=owner, cec=cec, machine=machine, period_workloads=rates, lpar=lpar,
                          lpar_growth_pct=lpar_growth_pct, max_utilization=max_utilization, **engine)  # fmt: skip
    years_out = [
        {"year": q.period, "workloads": [{"tps": w["tps"]} for w in r],
         "lpars": [{"name": x.name, "pool": x.pool, "busy": x.busy, "share": x.share,
                    "ceiling_of_share": x.ceiling_of_share, "holds": x.holds} for x in q.lpars],
         "cec": [{"pool": x.pool, "busy": x.busy, "capacity": x.capacity, "holds": x.holds} for x in q.pools]}
        for q, r in zip(periods, rates, strict=True)
    ]  # fmt: skip
    outs = run_outs(periods)
    return {
        "lpar": lpar,
        "years": years_out,
        "runs_out": {"lpars": {str(o.name): o.period for o in outs if o.name is not None}, "cec": outs[-1].period},
        "run_outs": [o.to_dict() for o in outs],
    }
