"""Placing sized workloads into an LPAR of a stored CEC (issue 29).

Adding workloads to an LPAR is the ``mix`` job on that LPAR (:func:`sizing.jobs.mix.mix_evaluate`:
each workload loaded as the estimate loads it, on the CEC's model, its busy engines projected
to the LPAR's logical CPs and pooled on its logical zIIPs), at each end of the engine's cost
range as a plan does (:func:`sizing.jobs.plan.scaled`).  Its busy engines times the LSPR
capacity of one of them are the added MIPS per pool, which :func:`models_lib.cec_place.place`
expresses in engines of this CEC at its total engine count and sets against the LPAR's
guaranteed share, its logical engines and the CEC.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User

from models_lib.capacity import per_engine_mips_at
from models_lib.cec import Cec, Lpar
from models_lib.cec_place import (
    Change,
    Placement,
    PoolPlacement,
    cost_rank,
    engines_change,
    grown,
    model_candidates,
    model_change,
    place,
    same_work,
    with_logical,
)
from models_lib.checks import InputError
from models_lib.inputs import CapacityTable
from models_lib.mix import Shared, share_lpar
from models_lib.upgrade import generation_of
from sizing.jobs.mix import MixAnswer, mix_evaluate, mix_lpar
from sizing.jobs.plan import scaled as cost_range_end
from sizing.jobs.plan import software_limits
from sizing.jobs.workload import WorkloadModel
from sizing.selectors.fitted import current_reference

Mips = tuple[float, float, float]


def demand_mips(lpar: Shared, cec: Cec, table: CapacityTable) -> dict[str, float]:
    """The mix's busy engines (its LPAR, ``models_lib.mix.share_lpar``) as MIPS per pool: CPs at
    the model's setting, zIIPs at full speed, each rated as the mix rated them, at the LPAR's
    total engine count (its CPs plus its zIIPs: the MP effect), the rule every estimate rates by."""
    full = table.full_speed_setting.get(cec.machine_type, "")
    setting = None if cec.capacity_setting == full else cec.capacity_setting
    total = lpar.cps + lpar.ziips
    return {
        "cp": lpar.gcp_busy * per_engine_mips_at(table, cec.machine_type, total, setting=setting, cps=lpar.cps),
        "ziip": lpar.ziip_busy * per_engine_mips_at(table, cec.machine_type, total),
    }


def kept_on_specialty(models: Sequence[WorkloadModel], rates: Sequence[float], lpar: Shared) -> float:
    """The share of the mix's eligible work its specialty engines run (1: none spilled onto the
    CPs): ``models_lib.mix.share_lpar`` keeps the same share of every workload's eligible work
    on them, so the spilled native busy over all the eligible native busy is the rest."""
    eligible = sum(wm.native_busy(t) * wm.eligible for wm, t in zip(models, rates, strict=True))
    kept = 1.0 - lpar.spilled / eligible if eligible > 0.0 else 1.0
    return kept if kept > 0.0 else 1.0


#: Workload models loaded for one placement and the placements that check its changes, by
#: (machine, capacity setting): the model of a workload depends on them, not on the CPs or zIIPs.
Loaded = dict[tuple[str, str | None], tuple[WorkloadModel, ...]]


def _pool_json(p: PoolPlacement, engine: str) -> dict[str, Any]:
    return {
        "pool": p.pool, "engine": engine, "today": p.today, "added": p.added, "added_low": p.added_low,
        "added_high": p.added_high, "total": p.total, "total_low": p.total_low, "total_high": p.total_high,
        "share": p.share, "logical": p.logical, "limit": p.limit, "installed": p.installed, "cec_busy": p.cec_busy,
        "ceiling": p.ceiling, "utilization": p.utilization, "headroom": p.headroom, "fits": p.fits,
        "fits_low": p.fits_at(p.total_low), "fits_high": p.fits_at(p.total_high), "binding": p.binding,
        "engine_mips": p.engine_mips, "added_mips": p.added * p.engine_mips, "vh": p.vh, "vm": p.vm, "vl": p.vl,
    }  # fmt: skip


def placement_json(placed: Placement, mixed: MixAnswer) -> dict[str, Any]:
    """The answer as the API serves it."""
    names = {pool: placed.cec.engine_name(pool) for pool in ("cp", "ziip")}
    return {
        "lpar": placed.lpar,
        "new_lpar": placed.new,
        "fits": placed.fits,
        "fits_range": {"low": placed.fits_low, "high": placed.fits_high},
        "binding": placed.binding,
        "pools": [_pool_json(p, names[p.pool]) for p in placed.pools],
        "software_limits": [
            {"workload": s.workload, "tps": s.tps, "limit": s.limit, "saturation": s.saturation, "ceiling": s.ceiling}
            for s in placed.software_limits
        ],
        "changes": [
            {
                "kind": c.kind,
                "pool": c.pool,
                "sentence": c.sentence,
                "weight": c.weight,
                "logical": c.logical,
                "model": c.model,
                "engines": c.engines,
                "others_short": list(c.others_short),
            }
            for c in placed.changes
        ],  # fmt: skip
        "mix": {
            "cps": mixed.lpar.cps,
            "ziips": mixed.lpar.ziips,
            "gcp_busy": mixed.lpar.gcp_busy,
            "ziip_busy": mixed.lpar.ziip_busy,
            "headroom": mixed.headroom(),
            "saturation_scale": mixed.saturation_scale(),
            "warnings": [{"code": w.code, "message": w.message} for w in mixed.warnings],
        },
        "workloads": [
            {"path": wm.path, "configuration": wm.configuration, "tps": t, "gcp_busy": g, "ziip_busy": z}
            for wm, t, g, z in zip(mixed.models, mixed.rates, mixed.lpar.gcp, mixed.lpar.on_ziip, strict=True)
        ],
        "ceiling": mixed.ceiling,
    }


def cec_place(
    *,
    owner: User,
    cec: Cec,
    machine: str,
    workloads: Sequence[Mapping[str, Any]],
    lpar: str | None,
    new_lpar: Lpar | None = None,
    max_utilization: float | None = None,
    verify: bool = True,
    loaded: Loaded | None = None,
    **engine: Any,
) -> tuple[Placement, MixAnswer]:
    """Place ``workloads`` (``path``, ``configuration``, ``tps``, optional ``payload_bytes``) into
    LPAR ``lpar`` of ``cec`` (or into ``new_lpar``); ``engine``: the estimate's engine options.
    With ``verify``, each engines change is checked by placing the work again after it (and
    grown until the pool fits), and another model is sized (:func:`verified_changes`).
    ``loaded``: workload models already loaded for these workloads (filled as they are loaded),
    so the placements that check the changes load each machine's once.

    Raises
    ------
    ValueError
        As :func:`sizing.jobs.mix.mix_evaluate` (a workload that cannot be sized), or
        :class:`models_lib.checks.InputError` naming the field (:func:`models_lib.cec_place.place`).
    """
    table = current_reference().lspr_table()
    target = new_lpar if new_lpar is not None else cec.lpar(str(lpar))
    full = table.full_speed_setting.get(cec.machine_type, "")
    setting = None if cec.capacity_setting == full else cec.capacity_setting
    cps, ziips = target.cp.logical, target.ziip.logical
    loaded = {} if loaded is None else loaded
    models = loaded.get((machine, setting))
    if models is None:
        mixed = mix_evaluate(
            owner=owner, workloads=workloads, machine=machine, cps=cps, ziips=ziips, max_utilization=max_utilization,
            capacity_setting=setting, capacity=table, **engine,
        )  # fmt: skip
        loaded[(machine, setting)] = mixed.models
    else:  # mix_evaluate without loading them again
        mixed = mix_lpar(models, [float(e["tps"]) for e in workloads], cps=cps, ziips=ziips, capacity=table)
    rates, ceiling = mixed.rates, mixed.ceiling

    def lpar_of(ms: Sequence[WorkloadModel], z: int | None) -> Shared:
        # The mix's LPAR at these CPs (evaluate_mix's, without its headroom and response times).
        return share_lpar(ms, rates, cps=cps, ziips=z, ceiling=ceiling)

    ends = [lpar_of(cost_range_end(mixed.models, rates, e), ziips) for e in (0, 1)]
    central, low, high = (demand_mips(x, cec, table) for x in (mixed.lpar, *ends))
    demand = {pool: (central[pool], low[pool], high[pool]) for pool in central}
    # The eligible work with zIIPs enough (sized within the rules): what a zIIP change on this model must carry.
    enough = lpar_of(mixed.models, None)
    sized = demand_mips(enough, cec, table)
    need = {"ziip": (sized["ziip"], low["ziip"], max(high["ziip"], sized["ziip"]))}
    # Another model is sized to all of it: what the ratio beside this LPAR's CPs spills onto them too.
    whole = sized["ziip"] / kept_on_specialty(mixed.models, rates, enough)
    elsewhere = {"ziip": (whole, low["ziip"], max(high["ziip"], whole))}
    names = [w.get("name") for w in workloads]
    placed = place(
        cec, table, lpar=target.name, demand_mips=demand, ceiling=mixed.ceiling, new_lpar=new_lpar, need_mips=need,
        software_limits=software_limits(mixed, names),
    )  # fmt: skip
    if verify and not placed.fits:
        again = {"owner": owner, "machine": machine, "workloads": workloads, "max_utilization": max_utilization,
                 "loaded": loaded}  # fmt: skip
        changes = verified_changes(placed, table, {**demand, **elsewhere}, **again, **engine)
        placed = dataclasses.replace(placed, changes=changes)
    return placed, mixed


#: Most rounds of placing again after an engines change (each adds what the last fell short by).
MAX_ROUNDS = 8


def _after_engines(cec: Cec, table: CapacityTable, name: str, pool: str, k: int, logical: int) -> Cec | None:
    """``cec`` with ``k`` more engines of ``pool`` and ``logical`` of them for ``name``, today's
    busy kept as the same work (``None``: not offered on this machine type)."""
    bigger = grown(cec, table, pool, k)
    if bigger is None or logical > bigger[0].installed(pool):
        return None
    return same_work(cec, with_logical(bigger[0], name, pool, logical=logical), table)


def _verified_engines(placed: Placement, table: CapacityTable, change: Change, **again: Any) -> Change | None:
    """``change`` (engines added on the same model) grown until placing the work again after it
    fits the pool by the same predicate: each engine added lowers every engine's LSPR rating
    (the MP effect at the CEC's total engine count) and, for zIIPs, keeps eligible work off the
    CPs, so a change sized once can fall short; ``None`` when the type rates no such change."""
    cec, name, pool = placed.cec, placed.lpar, change.pool
    k, logical = change.engines or 0, change.logical or cec.lpar(name).pool(pool).logical
    for _ in range(MAX_ROUNDS):
        after = _after_engines(cec, table, name, pool, k, logical)
        if after is None:
            return None
        try:
            answer, _ = cec_place(cec=after, lpar=name, verify=False, **again)
        except InputError:
            return None
        p = answer.pool(pool)
        if p is not None and p.fits:
            return engines_change(cec, table, name, pool, k, logical)
        weight = after.lpar(name).pool(pool).weight
        wider = next(
            (c for c in answer.changes if c.kind == "logical" and c.pool == pool and c.weight in (None, weight)), None
        )
        if wider is not None and wider.logical is not None and wider.logical > logical:
            logical = wider.logical  # more logical engines of those installed, the weight kept: no engine bought
            continue
        more = next((c for c in answer.changes if c.kind == "engines" and c.pool == pool), None)
        if more is None or not more.engines:
            return None
        k, logical = k + more.engines, max(logical, more.logical or logical)
    return None


def _smaller(placed: Placement, other: Cec, table: CapacityTable, pool: str) -> Cec | None:
    """``other`` with one engine of ``pool`` fewer (the next lower capacity identifier of its
    type and setting for CPs), today's busy kept as the same work; ``None`` when that is below
    today's model, fewer zIIPs than today's, or fewer engines than the LPAR's logical ones."""
    cec = placed.cec
    if pool == "cp":
        rated = table.settings.get((other.machine_type, other.capacity_setting, other.cps - 1))
        here = table.settings.get((cec.machine_type, cec.capacity_setting, cec.cps))
        if rated is None or not rated.model or (here is not None and rated.mips < here.mips):
            return None
        fewer = dataclasses.replace(other, cps=other.cps - 1, model=rated.model)
    else:
        if other.ziips - 1 < cec.ziips:
            return None
        fewer = dataclasses.replace(other, ziips=other.ziips - 1)
    if any(lp.pool(pool).logical > fewer.installed(pool) for lp in fewer.lpars):
        return None
    return same_work(cec, fewer, table)


def _sized_model(placed: Placement, table: CapacityTable, pool: str, demand: Mips, **again: Any) -> Change | None:
    """The smallest other model (this generation or a later one, no smaller than today's) whose
    pool carries the work, checked by placing the work again on it (its own LSPR rating): the
    first of the screened candidates that carries it, then the capacity identifiers of its type
    and setting below it (one engine of the pool fewer at a time) while they still do (the
    screen rates the work as this model does, a little off the other model's own rating)."""
    reference = current_reference()
    slugs = {m.machine_type: m.slug for m in reference.catalogue().machines.values()}
    ceiling = next(p.ceiling for p in placed.pools)

    def carried(other: Cec) -> PoolPlacement | None:
        slug = slugs.get(other.machine_type)
        if slug is None:
            return None
        try:
            answer, _ = cec_place(cec=other, lpar=placed.lpar, verify=False, **{**again, "machine": slug})
        except (InputError, ValueError):
            return None
        p = answer.pool(pool)
        return p if p is not None and p.fits else None

    for other in model_candidates(placed.cec, table, placed.lpar, pool, demand, ceiling):
        p = carried(other)
        if p is None:
            continue
        for _ in range(_MAX_STEPS_DOWN):
            fewer = _smaller(placed, other, table, pool)
            q = carried(fewer) if fewer is not None else None
            if fewer is None or q is None:
                break
            other, p = fewer, q
        return model_change(placed.cec, other, placed.lpar, pool, p)
    return None


#: Most capacity identifiers tried below the first candidate that carries the work.
_MAX_STEPS_DOWN = 8


def verified_changes(
    placed: Placement, table: CapacityTable, demand: Mapping[str, Mips], **again: Any
) -> tuple[Change, ...]:
    """``placed``'s changes with each engines change verified (grown until it fits, or dropped)
    and, for a pool no change on this model carries, another model sized (or named, unsized,
    when no rated model carries it)."""
    out: list[Change] = []
    for change in placed.changes:
        if change.kind == "engines":
            checked = _verified_engines(placed, table, change, **again)
            if checked is not None:
                out.append(checked)
        elif change.kind != "model":
            out.append(change)
    for p in placed.pools:
        if p.fits or any(c.pool == p.pool and not c.others_short for c in out):
            continue
        sized = _sized_model(placed, table, p.pool, demand.get(p.pool, (0.0, 0.0, 0.0)), **again)
        if sized is not None:
            out.append(sized)
            continue
        engine, lpar = placed.cec.engine_name(p.pool), placed.lpar
        generation = generation_of(table, placed.cec.machine_type) or placed.cec.machine_type
        out.append(
            Change(
                "model",
                p.pool,
                f"No rated model of {generation} or a later generation carries {lpar}'s {engine}s with this LPAR "
                f"layout: on each, {lpar}'s share cannot hold its work today and the added work within "
                f"{p.ceiling:.0%}, or another LPAR's work today would not fit its logical engines. Spread the work "
                "over more LPARs or machines.",
            )
        )
    return tuple(sorted(out, key=cost_rank))


def specialty_first(
    placed: Placement,
    *,
    owner: User,
    machine: str,
    workloads: Sequence[Mapping[str, Any]],
    max_utilization: float | None = None,
    **engine: Any,
) -> tuple[Change, Placement, MixAnswer] | None:
    """The placement again after the specialty-engine change (more zIIPs, more logical zIIPs):
    eligible work that spilled onto the CPs for want of zIIPs then stays on them, so the CP pool
    is asked again with the mix on the new zIIP count (``None``: no such change)."""
    change = next((c for c in placed.changes if c.kind == "engines" and c.pool == "ziip" and c.logical), None)
    if change is None or change.logical is None:
        return None
    cec = placed.cec
    logical = change.logical
    lpars = tuple(
        dataclasses.replace(lp, ziip=lp.ziip.with_logical(logical)) if lp.name == placed.lpar else lp
        for lp in cec.lpars
    )
    grown = dataclasses.replace(cec, ziips=cec.ziips + (change.engines or 0), lpars=lpars)
    grown = same_work(cec, grown, current_reference().lspr_table())
    again, mixed = cec_place(
        owner=owner, cec=grown, machine=machine, workloads=workloads, lpar=placed.lpar,
        max_utilization=max_utilization, **engine,
    )  # fmt: skip
    return change, again, mixed
