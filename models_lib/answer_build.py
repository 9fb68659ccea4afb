"""The parts of the answer that only read the steps' results: CPU per transaction, the capacity
block, the final assumptions, published limits and the answer without CPU data."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from models_lib.answer import SizingResult, SizingWarning
from models_lib.answer_parts import (
    AnswerBasis,
    BusyEngines,
    Capacity,
    CapacityBasis,
    CpPool,
    CpuPerTran,
    IcfPool,
    Range,
    Ranges,
    ResponseTime,
    SpecialtyPool,
)
from models_lib.capacity import full_speed_per_engine, rating
from models_lib.checks import InputError
from models_lib.cost_basis import Basis
from models_lib.engine import EnginePolicy
from models_lib.evaluation import CountEvaluation, Target, evaluate_total, given_totals
from models_lib.feasibility import no_cpu_verdict
from models_lib.inputs import CapacityTable, ConfigurationData, Rating
from models_lib.response import ResponseModel
from models_lib.units import figure_text

__all__ = [
    "CapacityRatings",
    "capacity_block",
    "capacity_ratings",
    "end_totals",
    "final_assumptions",
    "limit_warnings",
    "lpar_breakdown",
    "mp_effect_note",
    "no_cpu_result",
    "per_tran_ms",
]


def final_assumptions(
    policy: EnginePolicy, chosen: CountEvaluation, band: float, rmodel: ResponseModel | None, level: float
) -> tuple[str, ...]:
    """The basis sentences about the rules, the projection band, the split and the response model."""
    out = [policy.describe()]
    if band == 0.0 and not chosen.proj.is_identity():
        out.append(
            "the ranges carry no error of the LSPR projection (no projection_band given): LSPR "
            "ratings are for a workload category, and the measured workload's category is not published"
        )
    elif band > 0.0:
        out.append(f"ranges widened by the projection band of ±{band:.0%} (given)")
    out.append(
        f"{policy.name}s run eligible work at full speed (the full-speed rating of the same CP count); "
        f"eligible work uses the {policy.name}s up to their ceiling and the rest runs on CPs (no short-term IIPCP)"
    )
    if rmodel is not None and rmodel.has_response_data:
        software = rmodel.software
        out.append(
            f"response time = {rmodel.fixed_ms:.3g} ms load-independent part + M/M/{chosen.n} CP residence"
            + (
                f" + M/M/{software.servers} software station (s = {software.service_s * 1000:.4g} ms)"
                if software
                else ""
            )
            + (f"; fit to published response times: RMSE {rmodel.fit.rmse_ms:.3g} ms" if rmodel.fit else "")
        )
        if rmodel.fit is not None and rmodel.fit.interval is not None:
            out.append(rmodel.fit.interval.describe(level))
    return tuple(out)


#: The most CPs a capacity table rates per machine type, keyed by the table's id and checked by
#: identity (as ``models_lib.engine.rated_counts``): a scan of every rating, once per table.
_TOPS: dict[int, tuple[CapacityTable, dict[str, int]]] = {}


def _top_count(table: CapacityTable, machine_type: str) -> int:
    hit = _TOPS.get(id(table))
    if hit is None or hit[0] is not table:
        tops: dict[str, int] = {}
        for t, k in table.ratings:
            tops[t] = max(tops.get(t, k), k)
        if len(_TOPS) >= 16:
            _TOPS.clear()
        hit = _TOPS[id(table)] = (table, tops)
    return hit[1][machine_type]


def mp_effect_note(table: CapacityTable, chosen: CountEvaluation, policy: EnginePolicy) -> str | None:
    """The MP effect the answer applies, in a sentence (``None`` without specialty engines).

    CPs and specialty engines are rated at the configuration's total engine count
    (:func:`models_lib.capacity.per_engine_mips_at`; docs/models.md, "The MP effect"): the
    sentence states the total, the per-engine capacity at the CP count and at the total, and
    the factor between them.
    """
    n, z, mt = chosen.n, chosen.ziips, chosen.proj.to_machine_type
    if z <= 0:
        return None
    at_cps, at_total = full_speed_per_engine(table, mt, n), full_speed_per_engine(table, mt, n + z)
    top = _top_count(table, mt)
    beyond = (
        f"; {n + z} engines are beyond the {top} the table rates for {mt}: its {top}-way figure times the MP "
        "ratio of the generation's full-speed type"
        if n + z > top
        else ""
    )
    speed = chosen.proj.to_mips_per_cp / chosen.zproj.to_mips_per_cp
    setting = (
        "" if abs(speed - 1.0) < 1e-9 else f"; the CPs at their setting's speed ({speed:.1%} of full speed at {n} CPs)"
    )
    return (
        f"MP effect: the {n} CPs and {z} {policy.name}s are rated at the configuration's {n + z} engines: "
        f"{at_total:,.1f} MIPS per engine at full speed against {at_cps:,.1f} at {n} CPs alone (factor "
        f"{at_total / at_cps:.3f}){setting}{beyond}"
    )


def per_tran_ms(
    chosen: CountEvaluation, basis: Basis, t: float, ends: Sequence[Target] = (), totals: Sequence[float] | None = None
) -> CpuPerTran:
    """CPU per transaction on the target, CP-ms: total, per pool and the ends of the range.

    The ends are projected as the centre is: the native cost's low and high end (and, with
    ``ends``, the eligible share's: targets with the low and the high share) split between the
    answer's CPs and specialty engines, each pool at its own speed (a sub-capacity or midrange
    CP is slower than the full-speed specialty engine).  Projecting the whole range at the CP
    speed put the centre outside its own range on those targets (issue 32 item 8).  Without
    ``ends`` the range is the cost range at the CP factor (all work on CPs).  ``totals``: the
    four ends' totals already evaluated (:func:`end_totals`, for a group of rates)."""
    per_ms = 1000.0 / t
    if not ends:
        factor = chosen.proj.factor
        low, high = basis.low * factor, basis.high * factor
    else:
        if totals is None:
            fixed = [replace(target, ziips=chosen.ziips) for target in ends]
            totals = [evaluate_total(chosen.n, native, tg).total for native in (basis.low, basis.high) for tg in fixed]
        low, high = min(chosen.total, *totals), max(chosen.total, *totals)
    return CpuPerTran(
        total=chosen.total * per_ms,
        gcp=chosen.gcp * per_ms,
        ziip=chosen.ziip * per_ms,
        low=low * per_ms,
        high=high * per_ms,
    )


def end_totals(chosen: Sequence[CountEvaluation], bases: Sequence[Basis], ends: Sequence[Target]) -> list[list[float]]:
    """:func:`per_tran_ms`'s four totals at the ends of the range for each (chosen evaluation,
    basis) of a group of rates, equal to the scalar ones: evaluated over the array of the rates
    that chose the same CPs and specialty engines, the four ends at once
    (:func:`~models_lib.evaluation.given_totals` with a share per demand)."""
    out: list[list[float]] = [[] for _ in chosen]
    same: dict[tuple[int, int], list[int]] = {}
    for i, ev in enumerate(chosen):
        same.setdefault((ev.n, ev.ziips), []).append(i)
    for (n, z), members in same.items():
        # every (native end, target) pair of the members at once, in per_tran_ms's order
        pairs = [(native, target) for native in ("low", "high") for target in ends]
        values = np.array([getattr(bases[i], native) for native, _ in pairs for i in members], dtype=np.float64)
        fractions = np.array([target.fraction for _, target in pairs for _ in members], dtype=np.float64)
        end = ends[0]  # replace(end, ziips=z), built directly
        totals = given_totals(n, values, Target(end.project, end.policy, end.fraction, z, end.ziip_ceiling), fractions)
        for k in range(len(pairs)):
            for j, i in enumerate(members):
                out[i].append(totals[k * len(members) + j])
    return out


def lpar_breakdown(components: Mapping[str, float], factor: float) -> tuple[dict[str, float], IcfPool | None]:
    """Busy engines per published component on the target, and the coupling facility apart.

    The LPAR's components are projected with the CP factor.  A coupling facility that ran on its
    own ICF engines (FiTeq: "Internal Coupling Facility with two dedicated CPs", REDP-5114 sec.
    5.1) is not the LPAR's: it is served as ``icf``, in busy ICF engines as measured on the
    source machine (no LSPR rating describes a CF's engines), and never counted in the CPs sized.
    """
    out = {k: v * factor for k, v in components.items() if k != "cf"}
    if "cf" not in components:
        return out, None
    busy = float(components["cf"])
    out["icf"] = busy
    note = (
        "coupling-facility busy on its own ICF engines, outside the LPAR, as measured on the source "
        "machine; not in the CPs sized"
    )
    return out, IcfPool(busy=busy, note=note)


#: What :func:`capacity_block` reads of the capacity table for one (CPs, specialty engines):
#: the CPs' rating at the setting, the full-speed rating, the setting's name and the block's
#: basis (which depends on nothing else).
CapacityRatings = tuple[Rating, Rating, str, CapacityBasis]


def capacity_ratings(table: CapacityTable, chosen: CountEvaluation, setting: str | None) -> CapacityRatings:
    """:data:`CapacityRatings` of ``chosen``'s CPs and specialty engines (the same for every
    rate that chose them)."""
    n, mt = chosen.n, chosen.proj.to_machine_type
    full = rating(table, mt, n)
    cp_rating = full if setting is None else table.settings.get((mt, setting, n), full)
    src = rating(table, chosen.proj.from_machine_type, chosen.proj.from_cps)
    full_per_cp = full.mips / n
    at_total = full_speed_per_engine(table, mt, n + chosen.ziips)
    basis = CapacityBasis(
        from_model=src.model,
        from_machine_type=src.machine_type,
        from_cps=src.cps,
        from_mips=src.mips,
        to_model=cp_rating.model,
        to_mips=cp_rating.mips,
        to_full_speed_mips=full.mips,
        cp_factor=chosen.proj.factor,
        specialty_factor=chosen.zproj.factor,
        source=table.source,
        mp_engines=n + chosen.ziips,
        mips_per_engine_at_cps=full_per_cp,
        mips_per_engine_at_total=at_total,
        mp_factor=at_total / full_per_cp,
    )
    return cp_rating, full, setting or table.full_speed_setting.get(mt, ""), basis


def capacity_block(
    table: CapacityTable,
    chosen: CountEvaluation,
    policy: EnginePolicy,
    setting: str | None,
    ratings: CapacityRatings | None = None,
    icf: IcfPool | None = None,
) -> Capacity:
    """MIPS and MSU of the target model, installed and used, per pool, with the basis and the
    coupling facility's ``icf`` (:func:`lpar_breakdown`); ``ratings``: :func:`capacity_ratings`,
    already found."""
    n, mt = chosen.n, chosen.proj.to_machine_type
    cp_rating, full, setting_name, basis = capacity_ratings(table, chosen, setting) if ratings is None else ratings
    full_per_cp = full.mips / n
    return Capacity(
        model=cp_rating.model,
        machine_type=mt,
        capacity_setting=setting_name,
        cps=n,
        specialty_engines=chosen.ziips,
        cp=CpPool(
            mips_installed=cp_rating.mips,
            msu_installed=cp_rating.msu,
            mips_used=chosen.gcp * cp_rating.mips / n,
            msu_used=chosen.gcp * cp_rating.msu / n,
            utilization=chosen.util,
        ),
        specialty=SpecialtyPool(
            engine=policy.name,
            mips_installed=chosen.ziips * full_per_cp,
            mips_used=chosen.ziip * full_per_cp,
            utilization=(chosen.ziip / chosen.ziips) if chosen.ziips else None,
            priced=False,
        ),
        basis=basis,
        icf=icf,
    )


def limit_warnings(config: ConfigurationData, tps: float) -> list[SizingWarning]:
    """``published-limit`` for each stated throughput limit the target rate passes."""
    out = []
    for lim in config.limits:
        if lim.metric != "tps" or tps <= lim.value:
            continue
        if lim.configuration is not None and lim.configuration != config.configuration:
            continue
        per = "" if lim.scope == "lpar" else f"; at least {math.ceil(tps / lim.value)} of them are needed"
        when = f" with {lim.condition}" if lim.condition else ""
        out.append(
            SizingWarning(
                "published-limit",
                f"{figure_text(tps)} TPS passes the published limit of {figure_text(lim.value)} TPS per "
                f"{'LPAR' if lim.scope == 'lpar' else lim.scope}{when}{per} "
                f"({lim.reference})",
            )
        )
    return out


def no_cpu_result(
    cfg: ConfigurationData,
    target_machine: str,
    target_machine_type: str,
    tps: float,
    sla: float | None,
    umax: float,
    engine: str = "zIIP",
) -> SizingResult:
    """Result for a configuration without any CPU data (HostBridge); ``engine``: the target
    generation's specialty engine (zAAP on z10..zEC12/zBC12), named in the sentence."""
    floor = cfg.response_floor
    if floor is None:
        raise InputError(
            "config",
            f"config {cfg.path}/{cfg.configuration} has no CPU data (no points, no bounds) and "
            "no published response floor: CPs cannot be sized",
        )
    warnings = [
        SizingWarning(
            "no-cpu-data",
            f"{cfg.path}/{cfg.configuration} publishes no CPU figures: CPs, {engine}s and MIPS "
            f"cannot be sized. The only published performance figure is a response-time floor "
            f"of {floor.value_ms:.4g} ms for one request on an idle system ({floor.reference})",
        )
    ]
    if sla is not None and floor.value_ms > sla:
        warnings.append(
            SizingWarning(
                "sla-missed",
                f"the published response floor {floor.value_ms:.4g} ms exceeds the {sla:g} ms objective",
            )
        )
    return SizingResult(
        path=cfg.path,
        configuration=cfg.configuration,
        target_machine=target_machine,
        target_machine_type=target_machine_type,
        tps=tps,
        cps=None,
        cps_required=None,
        ziips=None,
        ziips_required=None,
        cpu_per_tran_ms=CpuPerTran(None, None, None, None, None),
        busy_cps=BusyEngines(None, None, None, None),
        breakdown={},
        gcp_utilization=None,
        ziip_utilization=None,
        mips=None,
        msu=None,
        ziip_mips=None,
        response_time_ms=ResponseTime(None, floor.value_ms, None),
        ranges=replace(Ranges.unknown(), response_time_ms=Range(floor.value_ms, None)),
        saturation_tps=None,
        saturation_kind="unknown",  # nothing is sized: no rate saturates anything we know of
        knee_tps=None,
        closed_throughput_tps=None,
        warnings=tuple(warnings),
        basis=AnswerBasis(
            points=(),
            model=None,
            projection=None,
            statements=() if floor.statement_id is None else (floor.statement_id,),
            assumptions=("response floor = elapsed time of a published packet trace of one request",),
        ),
        max_utilization=umax,
        feasibility=no_cpu_verdict(floor.value_ms),
    )
