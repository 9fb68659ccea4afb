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

from models_lib.cec import Cec, Lpar
from models_lib.cec_place import Change, Placement, PoolPlacement, place, same_work
from models_lib.inputs import CapacityTable
from sizing.jobs.mix import MixAnswer, mix_evaluate, mix_lpar
from sizing.jobs.plan import scaled as cost_range_end
from sizing.selectors.fitted import current_reference


def _per_cp_mips(table: CapacityTable, machine_type: str, setting: str | None, cps: int) -> float:
    """LSPR MIPS of one CP of a ``cps``-way at ``setting`` (full speed where None)."""
    rated = table.settings.get((machine_type, setting, cps)) if setting else None
    rated = rated or table.ratings[(machine_type, cps)]
    return rated.mips / cps


def demand_mips(mixed: MixAnswer, cec: Cec, table: CapacityTable) -> dict[str, float]:
    """The mix's busy engines as MIPS per pool: CPs at the model's setting, zIIPs at full speed,
    each at the LPAR's CP count (the rating the mix projected them with)."""
    full = table.full_speed_setting.get(cec.machine_type, "")
    setting = None if cec.capacity_setting == full else cec.capacity_setting
    lpar = mixed.lpar
    return {
        "cp": lpar.gcp_busy * _per_cp_mips(table, cec.machine_type, setting, lpar.cps),
        "ziip": lpar.ziip_busy * _per_cp_mips(table, cec.machine_type, None, lpar.cps),
    }


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
    **engine: Any,
) -> tuple[Placement, MixAnswer]:
    """Place ``workloads`` (``path``, ``configuration``, ``tps``, optional ``payload_bytes``) into
    LPAR ``lpar`` of ``cec`` (or into ``new_lpar``); ``engine``: the estimate's engine options.

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
    mixed = mix_evaluate(
        owner=owner, workloads=workloads, machine=machine, cps=cps, ziips=ziips, max_utilization=max_utilization,
        capacity_setting=setting, capacity=table, **engine,
    )  # fmt: skip
    ends = [
        mix_lpar(cost_range_end(mixed.models, mixed.rates, e), mixed.rates, cps=cps, ziips=ziips, capacity=table)
        for e in (0, 1)
    ]
    central, low, high = (demand_mips(m, cec, table) for m in (mixed, *ends))
    demand = {pool: (central[pool], low[pool], high[pool]) for pool in central}
    # The eligible work with zIIPs enough (sized within the rules, none spilled): what a zIIP change must carry.
    sized = demand_mips(mix_lpar(mixed.models, mixed.rates, cps=cps, ziips=None, capacity=table), cec, table)
    need = {"ziip": (sized["ziip"], low["ziip"], max(high["ziip"], sized["ziip"]))}
    placed = place(
        cec, table, lpar=target.name, demand_mips=demand, ceiling=mixed.ceiling, new_lpar=new_lpar, need_mips=need
    )
    return placed, mixed


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
    change = next((c for c in placed.changes if c.pool == "ziip" and c.logical is not None), None)
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
