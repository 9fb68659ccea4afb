"""Placing added work into one LPAR of a CEC: per pool, today's busy, the added demand, the total
against the LPAR's guaranteed share, its logical engines and the CEC, whether it fits, what
binds, and the changes that make it fit, cheapest first.

The added demand comes in MIPS per pool (the engine's busy engines on the LPAR, times the LSPR
capacity of one of them: the work is preserved, :mod:`models_lib.capacity`), with the low and
high ends of its range; it is expressed in engines of this CEC at its total engine count
(:func:`models_lib.cec.pool_engine_mips`), as today's busy is.  A pool **fits** when the LPAR's
total is within ``ceiling`` (the estimate's ``max_utilization``) of its guaranteed share: the
capacity PR/SM guarantees it whatever the other LPARs do (:mod:`models_lib.cec`).

A workload at or beyond its own software limit (the rate its software station saturates at,
FiTeq's wait for a free HSM channel, whatever the engines: :class:`SoftwareLimit`) makes the
placement not fit whatever the pools' busy, as the estimate's predicate
(:func:`models_lib.feasibility.fits_at`) never fits past it; what binds is then
``software-limit``, and no weight, logical engine, engine or model is proposed against it: more
instances or regions raise it (one plain sentence among the changes).

What binds a pool, in this order: ``cec`` (every LPAR's busy with the added work passes the pool's
engines at the ceiling: no weight or logical engine helps), ``logical`` (the share is held at
the LPAR's logical engines), ``share`` (its weight).

Changes, cheapest first, each checked by placing the work again: the LPAR's **weight** (the
smallest that carries the work, the others' weights kept; the others' new shares are checked
against what they run today), its **logical engines** (with the weight that then suffices),
**engines added on the same model** (the next capacity identifiers for CPs, zIIPs within the
generation's ratio), and otherwise **another model**.

Units: engines (busy or guaranteed), MIPS where the name says so.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from models_lib.cec import MAX_WEIGHT, POOLS, Cec, Lpar, LparPool, check_cec, pool_engine_mips, pool_shares, share_of
from models_lib.checks import InputError
from models_lib.feasibility import carried_text
from models_lib.inputs import CapacityTable, Rating
from models_lib.limits import specialty_name
from models_lib.upgrade import generation_of

__all__ = [
    "Change",
    "Placement",
    "PoolPlacement",
    "SoftwareLimit",
    "cost_rank",
    "engines_change",
    "generation_rank",
    "grown",
    "model_candidates",
    "model_change",
    "place",
    "same_work",
    "software_changes",
    "with_logical",
]

_EPS = 1e-9
#: Most capacity identifiers tried above the installed model.
_MAX_STEPS = 64


@dataclass(frozen=True)
class PoolPlacement:
    """One pool of the LPAR with the added work (engines of this CEC)."""

    pool: str
    today: float
    added: float
    added_low: float
    added_high: float
    share: float
    logical: int
    limit: float
    installed: int
    cec_busy: float
    ceiling: float
    engine_mips: float
    vh: int
    vm: int
    vl: int

    @property
    def total(self) -> float:
        return self.today + self.added

    @property
    def total_low(self) -> float:
        return self.today + self.added_low

    @property
    def total_high(self) -> float:
        return self.today + self.added_high

    @property
    def utilization(self) -> float:
        """Total over the guaranteed share."""
        return self.total / self.share if self.share > 0.0 else math.inf

    @property
    def headroom(self) -> float:
        """Engines left within the ceiling of the share (negative: short by that much)."""
        return self.ceiling * self.share - self.total

    def fits_at(self, total: float) -> bool:
        return total <= self.ceiling * self.share + _EPS

    @property
    def fits(self) -> bool:
        return self.fits_at(self.total)

    @property
    def binding(self) -> str | None:
        if self.fits:
            return None
        if self.cec_busy > self.ceiling * self.installed + _EPS:
            return "cec"
        if self.share >= self.logical - _EPS:
            return "logical"
        return "share"


@dataclass(frozen=True)
class SoftwareLimit:
    """A workload past its own software limit: ``tps`` placed (or at the peak) runs its software
    station above ``ceiling`` (``max_utilization``, as the estimate's predicate holds it,
    :func:`models_lib.feasibility.fits_at`); ``saturation`` the rate the station saturates at and
    ``limit`` the most it carries within the ceiling, ``ceiling`` x ``saturation``
    (transactions/s), whatever the engines."""

    workload: str
    tps: float
    limit: float
    saturation: float
    ceiling: float

    def sentence(self, *, peak: bool = False, what: str = "no machine") -> str:
        """One plain sentence: the station's utilisation at the rate (``peak``: a plan's peak,
        else the rate placed) against the ceiling, the limit, and that more instances or regions
        raise it (``what``: the changes that do not)."""
        rate = f"its peak of {self.tps:,.0f} TPS" if peak else f"the {self.tps:,.0f} TPS placed"
        return (
            f"{self.workload} runs its own software station at {self.tps / self.saturation:.0%} busy at {rate}, "
            f"above the {self.ceiling:.0%} ceiling: it carries at most {carried_text(self.limit)} TPS within it (the "
            f"station saturates at {self.saturation:,.0f} TPS); {what} raises it; more instances or regions do."
        )


#: What the placement says cannot raise a software limit.
_NOT_RAISED_BY = "no weight, logical engine, added engine or other model"


@dataclass(frozen=True)
class Change:
    """A change that makes the LPAR carry the work, with what it sets."""

    kind: str  # weight, logical, engines, model; software-limit (a sentence, nothing to set)
    pool: str
    sentence: str
    weight: int | None = None
    logical: int | None = None
    model: str | None = None
    engines: int | None = None
    others_short: tuple[str, ...] = ()


@dataclass(frozen=True)
class Placement:
    """The LPAR with the added work: each pool, whether all fit, the changes."""

    cec: Cec
    lpar: str
    new: bool
    pools: tuple[PoolPlacement, ...]
    changes: tuple[Change, ...]
    software_limits: tuple[SoftwareLimit, ...] = ()

    @property
    def fits(self) -> bool:
        return not self.software_limits and all(p.fits for p in self.pools)

    @property
    def fits_low(self) -> bool:
        # past the software limit at the central cost, past it (or the CPs' saturation) at either end
        return not self.software_limits and all(p.fits_at(p.total_low) for p in self.pools)

    @property
    def fits_high(self) -> bool:
        return not self.software_limits and all(p.fits_at(p.total_high) for p in self.pools)

    @property
    def binding(self) -> str | None:
        """``software-limit`` when a workload is at or beyond its own; else the first pool that
        does not fit, as ``pool:binding``."""
        if self.software_limits:
            return "software-limit"
        return next((f"{p.pool}:{p.binding}" for p in self.pools if p.binding), None)

    def pool(self, name: str) -> PoolPlacement | None:
        return next((p for p in self.pools if p.pool == name), None)


Mips = tuple[float, float, float]


def _pool(cec: Cec, table: CapacityTable, name: str, pool: str, added: Mips, ceiling: float,
          today_mips: dict[str, float]) -> PoolPlacement | None:  # fmt: skip
    """The pool of LPAR ``name`` in ``cec`` with ``added`` MIPS (central, low, high)."""
    shares = pool_shares(cec, pool) if cec.installed(pool) > 0 else ()
    mine = share_of(shares, name)
    if mine is None:
        if added[0] > 0.0:
            raise InputError(f"{pool}_logical", f"LPAR {name} has no {pool.upper()}s for the added work")
        return None
    mips = pool_engine_mips(table, cec, pool)
    others = sum(today_mips.get(s.name, s.busy * mips) for s in shares if s.name != name) / mips
    today = today_mips.get(name, mine.busy * mips) / mips
    return PoolPlacement(
        pool=pool, today=today, added=added[0] / mips, added_low=added[1] / mips, added_high=added[2] / mips,
        share=mine.share, logical=mine.logical, limit=mine.limit, installed=cec.installed(pool),
        cec_busy=others + today + added[0] / mips, ceiling=ceiling, engine_mips=mips,
        vh=mine.vh, vm=mine.vm, vl=mine.vl,
    )  # fmt: skip


def _pools(cec: Cec, table: CapacityTable, name: str, demand: dict[str, Mips], ceiling: float,
           today_mips: dict[str, dict[str, float]]) -> tuple[PoolPlacement, ...]:  # fmt: skip
    out = []
    for pool in POOLS:
        placed = _pool(cec, table, name, pool, demand.get(pool, (0.0, 0.0, 0.0)), ceiling, today_mips[pool])
        if placed is not None:
            out.append(placed)
    return tuple(out)


def _today_mips(cec: Cec, table: CapacityTable) -> dict[str, dict[str, float]]:
    """Each LPAR's busy today in MIPS per pool (kept when engines are added: the work is the same)."""
    out: dict[str, dict[str, float]] = {}
    for pool in POOLS:
        mips = pool_engine_mips(table, cec, pool) if cec.installed(pool) > 0 else 0.0
        out[pool] = {lp.name: lp.pool(pool).busy * mips for lp in cec.lpars}
    return out


def with_logical(cec: Cec, name: str, pool: str, *, logical: int) -> Cec:
    """``cec`` with LPAR ``name`` given ``logical`` engines of ``pool``."""
    lpars = []
    for lp in cec.lpars:
        if lp.name == name:
            changed = lp.pool(pool).with_logical(logical)
            lp = dataclasses.replace(lp, cp=changed) if pool == "cp" else dataclasses.replace(lp, ziip=changed)
        lpars.append(lp)
    return dataclasses.replace(cec, lpars=tuple(lpars))


def same_work(cec: Cec, grown: Cec, table: CapacityTable) -> Cec:
    """``grown`` (``cec`` with engines added or logical engines changed) with each LPAR's busy
    today kept as the same work: busy engines x MIPS of one engine of ``cec`` over that of
    ``grown`` (more engines, a little less capacity each)."""
    today = _today_mips(cec, table)
    lpars = []
    for lp in grown.lpars:
        pools = {}
        for pool in POOLS:
            p = lp.pool(pool)
            mips = pool_engine_mips(table, grown, pool) if grown.installed(pool) > 0 else 0.0
            busy = today[pool].get(lp.name, 0.0) / mips if mips > 0.0 else 0.0
            pools[pool] = LparPool(
                p.logical, p.weight, p.capped, min(100.0, busy / p.logical * 100.0) if p.logical else 0.0
            )
        lpars.append(dataclasses.replace(lp, cp=pools["cp"], ziip=pools["ziip"]))
    return dataclasses.replace(grown, lpars=tuple(lpars))


def _weight_needed(cec: Cec, name: str, pool: str, need: float) -> int | None:
    """Smallest weight (others kept) whose share reaches ``need`` engines; None beyond 999."""

    def share(w: int) -> float:
        found = share_of(pool_shares(cec, pool, weights={name: w}), name)
        return found.share if found is not None else 0.0

    current = cec.lpar(name).pool(pool).weight or 1
    if share(MAX_WEIGHT) < need - _EPS:
        return None
    lo, hi = current, MAX_WEIGHT
    while lo < hi:
        mid = (lo + hi) // 2
        if share(mid) >= need - _EPS:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _others_short(cec: Cec, name: str, pool: str, weight: int, ceiling: float) -> tuple[str, ...]:
    """Other LPARs whose share carries today's busy within ``ceiling`` now, and no longer would
    with ``name`` at ``weight``."""
    before = {s.name: s for s in pool_shares(cec, pool)}
    after = pool_shares(cec, pool, weights={name: weight})
    return tuple(
        s.name
        for s in after
        if s.name != name
        and not s.dedicated
        and s.busy > ceiling * s.share + _EPS
        and s.busy <= ceiling * before[s.name].share + _EPS
    )


def _weight_change(cec: Cec, name: str, p: PoolPlacement) -> Change | None:
    lp = cec.lpar(name)
    if lp.dedicated or p.binding != "share":
        return None
    w = _weight_needed(cec, name, p.pool, p.total / p.ceiling)
    if w is None:
        return None
    short = _others_short(cec, name, p.pool, w, p.ceiling)
    label = cec.engine_name(p.pool)
    note = f"; then {', '.join(short)} would run above {p.ceiling:.0%} of their share" if short else ""
    sentence = f"Raise {name}'s {label} weight from {lp.pool(p.pool).weight} to {w}{note}."
    return Change("weight", p.pool, sentence, weight=w, others_short=short)


def _logical_change(cec: Cec, name: str, p: PoolPlacement) -> Change | None:
    lp = cec.lpar(name)
    need = p.total / p.ceiling
    logical = math.ceil(need - _EPS)
    if p.binding != "logical" or logical > cec.installed(p.pool):
        return None
    if lp.dedicated:
        free = cec.installed(p.pool) - sum(x.pool(p.pool).logical for x in cec.lpars if x.dedicated and x.name != name)
        if logical > free:
            return None
        return Change("logical", p.pool, f"Dedicate {logical} {cec.engine_name(p.pool)}s to {name}.", logical=logical)
    wider = with_logical(cec, name, p.pool, logical=logical)
    w = _weight_needed(wider, name, p.pool, need)
    if w is None:
        return None
    weight = lp.pool(p.pool).weight
    extra = "" if w == weight else f" and its weight from {weight} to {w}"
    sentence = f"Give {name} {logical} logical {cec.engine_name(p.pool)}s (from {p.logical}){extra}."
    return Change("logical", p.pool, sentence, logical=logical, weight=w)


def grown(cec: Cec, table: CapacityTable, pool: str, k: int) -> tuple[Cec, str] | None:
    """The CEC with ``k`` more engines of ``pool`` on the same machine type and setting."""
    if pool == "cp":
        rated = table.settings.get((cec.machine_type, cec.capacity_setting, cec.cps + k))
        if rated is None:
            return None
        return dataclasses.replace(cec, cps=cec.cps + k, model=rated.model or cec.model), rated.model
    rules = table.engine_rules.get(cec.machine_type)
    if rules is not None and cec.ziips + k > rules.ziips_per_cp * cec.cps:
        return None
    return dataclasses.replace(cec, ziips=cec.ziips + k), cec.model


def _engines_change(cec: Cec, table: CapacityTable, name: str, p: PoolPlacement, demand: dict[str, Mips],
                    today: dict[str, dict[str, float]]) -> Change | None:  # fmt: skip
    for k in range(1, _MAX_STEPS + 1):
        bigger_model = grown(cec, table, p.pool, k)
        if bigger_model is None:
            return None
        bigger, model = bigger_model
        try:
            placed = _pool(bigger, table, name, p.pool, demand.get(p.pool, (0.0, 0.0, 0.0)), p.ceiling, today[p.pool])
        except InputError:
            return None
        assert placed is not None
        logical = max(p.logical, math.ceil(placed.total / p.ceiling - _EPS))
        if logical != p.logical and logical <= bigger.installed(p.pool):
            bigger = with_logical(bigger, name, p.pool, logical=logical)
            placed = _pool(bigger, table, name, p.pool, demand.get(p.pool, (0.0, 0.0, 0.0)), p.ceiling, today[p.pool])
            assert placed is not None
        if placed.fits:
            return engines_change(cec, table, name, p.pool, k, logical)
    return None


def engines_change(cec: Cec, table: CapacityTable, name: str, pool: str, k: int, logical: int) -> Change | None:
    """The change that adds ``k`` engines of ``pool`` to ``cec`` (the next capacity identifier
    for CPs) and gives LPAR ``name`` ``logical`` of them (``None``: not offered on this type)."""
    bigger_model = grown(cec, table, pool, k)
    if bigger_model is None:
        return None
    bigger, model = bigger_model
    engine = cec.engine_name(pool)
    what = f"{model} ({bigger.cps} CPs)" if pool == "cp" else f"{bigger.ziips} {engine}s"
    also = f", with {logical} logical {engine}s for {name}" if logical != cec.lpar(name).pool(pool).logical else ""
    sentence = f"Add {k} {engine}{'s' if k > 1 else ''}: {what}{also}."
    return Change("engines", pool, sentence, model=model, engines=k, logical=logical)


def generation_rank(generation: str) -> int:
    """A generation's place in time by its number: z10 10, z196/z114 11, zEC12 12, z13 13 .. z17."""
    m = re.search(r"z(?:EC|BC)?(\d+)", generation or "", re.IGNORECASE)
    if m is None:
        return 0
    n = int(m.group(1))
    return 11 if n >= 100 else n


def model_candidates(cec: Cec, table: CapacityTable, name: str, pool: str, demand: Mips, ceiling: float,
                     limit: int = 8) -> list[Cec]:  # fmt: skip
    """Other models that carry LPAR ``name``'s ``pool`` with ``demand`` MIPS added, smallest
    first (by the capacity identifier's LSPR MIPS): a capacity identifier of this generation or
    a later one, no smaller than today's, with this LPAR layout (the other LPARs as they are;
    ``name``'s logical engines raised to what its share must reach), the zIIPs kept (raised
    within the generation's ratio when ``pool`` is the zIIPs), today's busy kept as the same
    work.  A screen with the added work in MIPS as rated here: each candidate is to be checked
    by placing the work again on it (the work on another machine is rated by its LSPR)."""
    here = table.settings.get((cec.machine_type, cec.capacity_setting, cec.cps))
    floor = here.mips if here is not None else 0.0
    rank = generation_rank(generation_of(table, cec.machine_type))
    today = _today_mips(cec, table)
    mips_of: dict[tuple[str, str, str, int, int], float] = {}

    def generation(r: Rating) -> str:
        return r.generation or generation_of(table, r.machine_type)

    rated = sorted(
        (
            r
            for r in table.settings.values()
            if r.model and r.model != cec.model and r.mips >= floor and generation_rank(generation(r)) >= rank
        ),
        key=lambda r: (r.mips, -generation_rank(generation(r)), r.model),
    )
    out: list[Cec] = []
    for r in rated:
        rules = table.engine_rules.get(r.machine_type)
        most = math.floor(rules.ziips_per_cp * r.cps + _EPS) if rules is not None else cec.ziips
        if cec.ziips > most:
            continue
        specialty = specialty_name(table, r.machine_type)
        base = dataclasses.replace(
            cec, model=r.model, machine_type=r.machine_type, capacity_setting=r.capacity_setting, cps=r.cps,
            specialty=specialty,
        )  # fmt: skip
        for ziips in range(cec.ziips, (most if pool == "ziip" else cec.ziips) + 1):
            other = dataclasses.replace(base, ziips=ziips)
            mips = _today_fits(other, table, today, mips_of)
            if mips is None:
                # More zIIPs are more engines, none of them faster (LSPR's MP effect: a type's
                # MIPS(N)/N never rises with N), so today's work has no more room on them either.
                break
            if pool not in mips:
                continue
            added = demand
            if pool == "ziip" and rules is not None:
                # The LPAR's logical CPs admit so many zIIPs (the ratio, as the mix applies it to
                # the LPAR): its eligible work beyond what they carry within the ceiling runs on
                # its CPs, on any model, and is no zIIP demand.
                usable = math.floor(rules.ziips_per_cp * cec.lpar(name).cp.logical + _EPS)
                cap = usable * ceiling * mips[pool]
                added = (min(demand[0], cap), min(demand[1], cap), min(demand[2], cap))
            if not _may_carry(other, name, pool, added, ceiling, today, mips[pool]):
                continue
            found = _carries(cec, other, table, name, pool, added, ceiling, today)
            if found is not None:
                out.append(found)
                break
        if len(out) >= limit:
            break
    return out


def _today_fits(other: Cec, table: CapacityTable, today: dict[str, dict[str, float]],
                mips_of: dict[tuple[str, str, str, int, int], float]) -> dict[str, float] | None:  # fmt: skip
    """One engine's MIPS of each pool of ``other`` when every LPAR's work today fits its logical
    engines there (the first test of :func:`_carries`), else ``None``; ``mips_of``: those MIPS by
    (pool, type, setting, CPs, total engines), filled as computed."""
    out: dict[str, float] = {}
    for pool_name in POOLS:
        if other.installed(pool_name) == 0:
            continue
        key = (pool_name, other.machine_type, other.capacity_setting, other.cps, other.total_engines)
        mips = mips_of.get(key)
        if mips is None:
            try:
                mips = pool_engine_mips(table, other, pool_name)
            except InputError:
                mips = 0.0
            mips_of[key] = mips
        if mips <= 0.0:
            return None
        if any(today[pool_name].get(lp.name, 0.0) / mips > lp.pool(pool_name).logical + _EPS for lp in other.lpars):
            return None
        out[pool_name] = mips
    return out


def _may_carry(other: Cec, name: str, pool: str, demand: Mips, ceiling: float, today: dict[str, dict[str, float]],
               mips: float) -> bool:  # fmt: skip
    """False when ``other`` (one engine of its ``pool``: ``mips``) cannot carry LPAR ``name``'s
    pool whatever its logical engines: its work today and the added work pass the ceiling of the
    most its share can be.  That is the shared engines less what the other LPARs get at least
    (each its weight's part of the shared engines, or its logical engines if fewer: PR/SM only
    refills a share from LPARs capped below theirs [1]_ of models_lib.cec).  A cheap screen
    before :func:`_carries`, which it never contradicts (a bound of the same share)."""
    installed = other.installed(pool)
    shared = installed - sum(lp.pool(pool).logical for lp in other.lpars if lp.dedicated and lp.name != name)
    members = [lp for lp in other.lpars if not lp.dedicated and lp.pool(pool).logical > 0 and lp.name != name]
    weights = sum(lp.pool(pool).weight or 0 for lp in members) + (other.lpar(name).pool(pool).weight or 0)
    others = sum(
        min(float(lp.pool(pool).logical), (lp.pool(pool).weight or 0) / weights * shared) if weights else 0.0
        for lp in members
    )
    most = min(float(installed), shared - others) if not other.lpar(name).dedicated else float(installed)
    return (today[pool].get(name, 0.0) + demand[0]) / mips <= ceiling * most + _EPS


def _carries(cec: Cec, other: Cec, table: CapacityTable, name: str, pool: str, demand: Mips, ceiling: float,
             today: dict[str, dict[str, float]]) -> Cec | None:  # fmt: skip
    """``other`` (with ``name``'s logical engines raised as needed) if it carries the pool and
    every LPAR's work today still fits its logical engines there (else None)."""
    try:
        check_cec(other)
        for pool_name in POOLS:
            if other.installed(pool_name) == 0:
                continue
            mips = pool_engine_mips(table, other, pool_name)
            for lp in other.lpars:
                if today[pool_name].get(lp.name, 0.0) / mips > lp.pool(pool_name).logical + _EPS:
                    return None
        moved = same_work(cec, other, table)
        p = _pool(moved, table, name, pool, demand, ceiling, today[pool])
        if p is None:
            return None
        logical = max(p.logical, math.ceil(p.total / ceiling - _EPS))
        if logical > moved.installed(pool):
            return None
        if logical != p.logical:
            moved = same_work(cec, with_logical(other, name, pool, logical=logical), table)
            p = _pool(moved, table, name, pool, demand, ceiling, today[pool])
    except InputError:
        return None
    return moved if p is not None and p.fits else None


def model_change(cec: Cec, other: Cec, name: str, pool: str, placed: PoolPlacement) -> Change:
    """The change to ``other`` (another model), with ``placed`` its pool carrying the work."""
    engine = cec.engine_name(pool)
    logical = other.lpar(name).pool(pool).logical
    also = f", with {logical} logical {engine}s for {name}" if logical != cec.lpar(name).pool(pool).logical else ""
    ziips = f", {other.ziips} {other.specialty}s" if other.ziips else ""
    sentence = (
        f"Another model: {other.model} ({other.cps} CPs{ziips}){also}; {name}'s {engine}s then run "
        f"{placed.total:.2f} of the {placed.ceiling * placed.share:.2f} within {placed.ceiling:.0%} of its share."
    )
    return Change("model", pool, sentence, model=other.model, engines=other.installed(pool), logical=logical)


def _changes(cec: Cec, table: CapacityTable, name: str, pools: Sequence[PoolPlacement], demand: dict[str, Mips],
             today: dict[str, dict[str, float]]) -> tuple[Change, ...]:  # fmt: skip
    """Changes for each pool that does not fit, sized to ``demand`` (the work each pool would
    carry with engines enough: the specialty engines' eligible work before any spill)."""
    out: list[Change] = []
    for placed in pools:
        if placed.fits:
            continue
        p = _pool(cec, table, name, placed.pool, demand.get(placed.pool, (0.0, 0.0, 0.0)), placed.ceiling,
                  today[placed.pool])  # fmt: skip
        assert p is not None
        if p.fits:
            p = placed
        found = [
            _weight_change(cec, name, p),
            _logical_change(cec, name, p),
            _engines_change(cec, table, name, p, demand, today),
        ]
        kept = [c for c in found if c is not None]
        out.extend(kept)
        if not kept or all(c.others_short for c in kept):
            sentence = (
                f"No weight, logical {cec.engine_name(p.pool)} or added engine on {cec.model}'s machine type carries it: "
                "another model (a later machine, or more engines than this type is rated for)."
            )
            out.append(Change("model", p.pool, sentence))
    return tuple(sorted(out, key=cost_rank))


def cost_rank(change: Change) -> int:
    """Cheapest first: a weight, logical engines (configuration only), specialty engines (no
    software charge), CPs (MSU: software is priced on them), another model; a software limit's
    sentence (what binds, which none of them raises) before them all."""
    if change.kind == "engines":
        return 2 if change.pool != "cp" else 3
    return {"software-limit": -1, "weight": 0, "logical": 1, "model": 4}[change.kind]


def software_changes(limits: Sequence[SoftwareLimit]) -> tuple[Change, ...]:
    """One sentence per workload at or beyond its software limit (pool ``""``: no pool raises it)."""
    return tuple(Change("software-limit", "", s.sentence(what=_NOT_RAISED_BY)) for s in limits)


def place(
    cec: Cec, table: CapacityTable, *, lpar: str, demand_mips: dict[str, Mips], ceiling: float,
    new_lpar: Lpar | None = None, need_mips: dict[str, Mips] | None = None,
    software_limits: Sequence[SoftwareLimit] = (),
) -> Placement:  # fmt: skip
    """Place ``demand_mips`` (per pool: central, low and high MIPS) into LPAR ``lpar`` of
    ``cec`` (or into ``new_lpar``, added to it) within ``ceiling`` of its share; the changes
    are sized to ``need_mips`` where given (the demand with engines enough: the specialty
    engines' eligible work before it spills onto the CPs), else to ``demand_mips``.
    ``software_limits``: the workloads at or beyond their own software limit on the LPAR (the
    placement then does not fit; their sentences join the changes, none sized against them).

    Raises
    ------
    InputError
        Naming the field: an unknown LPAR, a new LPAR whose name is taken, a CEC PR/SM could not
        run, added work in a pool the LPAR has no engines of.
    """
    if not 0.0 < ceiling <= 1.0:
        raise InputError("max_utilization", f"max_utilization must be in (0, 1], got {ceiling!r}")
    new = new_lpar is not None
    if new_lpar is not None:
        if new_lpar.name in cec.names:
            raise InputError("new_lpar.name", f"LPAR {new_lpar.name} exists: place into it, or name the new one")
        cec = dataclasses.replace(cec, lpars=(*cec.lpars, new_lpar))
        lpar = new_lpar.name
    check_cec(cec)
    cec.lpar(lpar)
    today = _today_mips(cec, table)
    pools = _pools(cec, table, lpar, demand_mips, ceiling, today)
    changes = _changes(cec, table, lpar, pools, {**demand_mips, **(need_mips or {})}, today)
    limits = tuple(software_limits)
    changes = tuple(sorted((*changes, *software_changes(limits)), key=cost_rank))
    return Placement(cec, lpar, new, pools, changes, limits)
