"""The sizing decision at one rate: basis at the rate -> CP counts -> choice -> saturation ->
response time -> ranges -> the answer (:class:`~models_lib.answer.SizingResult`).

Called by :meth:`models_lib.prepared.PreparedWorkload.answer`; every step is a function of its
own module and returns its result with its own warnings and assumptions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from models_lib.answer import SizingResult, SizingWarning, finite_or_none
from models_lib.answer_basis import basis_dict
from models_lib.answer_build import (
    capacity_block,
    limit_warnings,
    lpar_breakdown,
    per_tran_ms,
)
from models_lib.answer_parts import Alternative, BusyEngines, Feasibility, Ranges, ResponseTime
from models_lib.choice import Choice, RateRequest, choose, chosen_warnings
from models_lib.cost_basis import Basis
from models_lib.engine import EnginePolicy, Saturation
from models_lib.evaluation import CountEvaluation, Target, evaluations
from models_lib.fastinit import fast_init
from models_lib.feasibility import feasibility_step
from models_lib.group_memo import Memo, basis_parts_at, count_parts, decision_parts, knee_at, memoised
from models_lib.levels import as_measured
from models_lib.native_cost import NativeCost
from models_lib.pricing import rated_msu
from models_lib.regions import fixed_base_warnings
from models_lib.response_step import ResponseTimes, response_step
from models_lib.saturation_ranges import (
    Ends,
    binding_at_target,
    binding_label,
    range_ends,
    range_scales,
    ranges_of,
    saturation_warnings,
    saturations,
    software_warnings,
)
from models_lib.scope import Eligibility

if TYPE_CHECKING:
    from models_lib.prepared import PreparedWorkload

__all__ = ["answer_at"]


@fast_init
@dataclass(frozen=True)
class _Decision:
    """The chosen configuration at one rate and what follows from it (internal to :func:`answer_at`)."""

    basis: Basis
    choice: Choice
    sat: Saturation
    cp_factor: float
    rt: ResponseTimes
    ranges: Ranges
    feasibility: Feasibility
    warnings: tuple[SizingWarning, ...]
    assumptions: tuple[str, ...]
    band: float
    ends: tuple[Target, Target]
    end_totals: Sequence[float] | None = None


def _every(req: RateRequest) -> bool:
    # least-cost reads every count: a later one may be cheaper (consumed MSU drifts with the count)
    return req.sla is not None or req.objective == "least-cost"


def _decide(pw: PreparedWorkload, cost: NativeCost, req: RateRequest, memo: Memo) -> tuple[_Decision, Eligibility]:
    """Basis at the rate -> CP counts -> choice -> saturation -> response time -> ranges."""
    basis = cost.at(req.t)
    elig = pw.eligibility
    assert elig is not None
    target = pw.target(elig.value, req.ziips)
    evals = evaluations(pw.counts, basis, target, umax=req.umax, cps=req.cps, goal=_every(req))
    choice = choose(evals, req, pw.response, basis, pw.target_machine_type)
    return _decided(pw, cost, req, basis, choice, memo), elig


#: The feasibility of a rate that fits (one record: it says nothing of the rate).
_FITS = Feasibility.fits()


def _decided(
    pw: PreparedWorkload,
    cost: NativeCost,
    req: RateRequest,
    basis: Basis,
    choice: Choice,
    memo: Memo,
    group: tuple[Ends, bool, Sequence[float], tuple[Target, Target], tuple[float, float]] | None = None,
) -> _Decision:
    """Chosen configuration -> saturation -> response time -> ranges -> feasibility, warnings
    and assumptions; ``group``: the ends of the ranges, whether the rate fits, the totals at
    the ends of the CPU per transaction, the targets at the ends of the eligible share and the
    scales of the ends of the cost range (:func:`~models_lib.saturation_ranges.range_scales`),
    already found for a group of rates.  What does not depend on the rate, or only on the
    chosen CPs and specialty engines, is found once per ``memo`` (:mod:`models_lib.group_memo`)."""
    elig = pw.eligibility
    assert elig is not None
    rmodel = pw.response
    chosen = choice.chosen
    band, projection, tail, fitted, cap = decision_parts(pw, cost.level, req.policy, chosen, memo)
    if group is None:
        fits, totals = None, None
        ends = (pw.target(elig.low, req.ziips), pw.target(elig.high, req.ziips))
        scales = range_scales(basis, band)
        found = range_ends(basis, ends, pw.counts, scales, req.cps, req.umax, req.objective, req.pricer)
    else:
        found, fits, totals, ends, scales = group
    sat, s_lo, s_hi = saturations(basis, chosen, elig.value, rmodel, scales)
    # cp_cost_factor(basis, chosen.proj, chosen.gcp), its operations
    factor = chosen.proj.factor
    native_on_target = basis.total * factor
    gcp_share = chosen.gcp / native_on_target if native_on_target > 0 else 1.0
    cp_factor = factor * basis.payload_factor * max(gcp_share, 1e-12)
    rt = response_step(rmodel, chosen, basis, req, cp_factor, sat.tps, cost.level, fitted)
    # the low end: high cost and the software limit's low end; the high end: low cost and its high end
    rng = ranges_of(
        found, chosen, req.cps, choice.required is not None, (s_lo, s_hi), (rt.low, rt.high),
        memoised(memo, ("ranges", 0, 0.0), dict),
    )  # fmt: skip
    lower_bound = basis.cost_is_upper_bound and band == 0.0
    fit = (
        _FITS
        if fits
        else feasibility_step(
            pw, req.t, choice.required, chosen, sat, (req.cps, req.ziips), req.sla, rt.value, fits, lower_bound
        )
    )
    warnings = (
        *(() if fit.message is None else (SizingWarning("does-not-fit", fit.message),)),
        *basis.warnings,
        *(() if elig.warning is None else (elig.warning,)),
        *choice.warnings,
        *chosen_warnings(chosen, req, projection, cap),
        *saturation_warnings(req.t, chosen, sat.tps, req.policy, lower_bound),
        *software_warnings(sat, rmodel, pw.config),
        *rt.warnings,
        *limit_warnings(pw.config, req.t),
        *fixed_base_warnings(pw.config, basis, req.t),
    )
    if req.cps is not None:  # as_measured changes nothing without CPs given
        setting = pw.capacity_setting
        warnings = as_measured(
            warnings,
            pw.config,
            target_machine_type=pw.target_machine_type,
            full_speed=setting is None or setting == pw.capacity.full_speed_setting.get(pw.target_machine_type),
            payload_factor=cost.payload.factor,
            cps=req.cps,
            specialty=chosen.ziips,
            tps=req.t,
        )
    assumptions = (*choice.assumptions, *tail)
    return _Decision(basis, choice, sat, cp_factor, rt, rng, fit, warnings, assumptions, band, ends, totals)


def _other_rule(pw: PreparedWorkload, policy: EnginePolicy) -> tuple[PreparedWorkload, str] | str | None:
    """Where the ratio in force is unconfirmed: the workload under the other recorded rule and
    that rule in words, or the sentence itself where no eligible work makes them differ
    (``None``: the ratio is confirmed)."""
    found, alt = policy.unconfirmed_ratio()
    if not found:
        return None
    other = policy.with_ratio(alt)
    name = other.name
    rule = "no ratio" if alt is None else f"at most {alt:g} {name}{'' if alt == 1 else 's'} per CP"
    elig = pw.eligibility
    if elig is None or max(elig.value, elig.high) <= 0.0:  # nothing runs on specialty engines: no ratio binds
        return (
            f"the {name}:CP ratio in force is unconfirmed; the other rule a planner may expect ({rule}) "
            f"gives the same answer: no eligible work is published for this configuration"
        )
    alt_pw = replace(pw, policy=other)
    object.__setattr__(alt_pw, "_projections", pw._projections)  # projections do not depend on the rule
    return alt_pw, rule


def _other_sentence(name: str, rule: str, other: tuple[int | None, int | None, float | None, float | None]) -> str:
    """The sentence of the other rule's answer: its (CPs, specialty engines, CP busy, MSU)."""
    cps, ziips, busy, used = other
    util = "" if busy is None else f" at {busy:.1%} CP busy"
    msu = "" if used is None else f", {used:,.1f} MSU"
    return (
        f"the {name}:CP ratio in force is unconfirmed; under the other rule a planner may expect ({rule}) "
        f"this rate takes {cps} CP{'s' if cps != 1 else ''} + {ziips} {name}s{util}{msu}"
    )


def alternative_rule(pw: PreparedWorkload, cost: NativeCost, req: RateRequest) -> str | None:
    """Where the ratio in force is unconfirmed: the basis sentence with what the other recorded
    rule gives at the same rate and inputs (CPs, specialty engines, CP utilisation, MSU)."""
    setup = _other_rule(pw, req.policy)
    if not isinstance(setup, tuple):
        return setup
    alt_pw, rule = setup
    other = answer_at(alt_pw, cost, replace(req, policy=alt_pw.policy))
    return _other_sentence(alt_pw.policy.name, rule, (other.cps, other.ziips, other.gcp_utilization, other.msu))


def _alternative(pw: PreparedWorkload, choice: Choice) -> Alternative | None:
    alt, objective = choice.alternative, choice.alternative_objective
    if alt is None or objective is None:
        return None
    return Alternative(objective, alt.n, alt.ziips, msu_used(pw, alt), msu_installed(pw, alt.n))


def _carries(required: CountEvaluation | None, fit: Feasibility) -> CountEvaluation | None:
    """The count that carries the rate where the answer does not fit: only where the given CPs
    saturate or run above the ceiling and a sized count would carry it (``saturation``,
    ``ceiling``); none for ``engines``, ``software-limit`` and ``response-goal``, where no
    configuration does."""
    return required if fit.reason in ("saturation", "ceiling") else None


def _required_cps(required: CountEvaluation | None, fit: Feasibility) -> int | None:
    """CPs required: the objective's count; where the given CPs do not carry the rate, the count
    that would (``None`` where no count does)."""
    ev = required if fit.feasible else _carries(required, fit)
    return None if ev is None else ev.n


def _required_ziips(
    req: RateRequest,
    chosen: CountEvaluation,
    required: CountEvaluation | None,
    fit: Feasibility,
    chosen_cap: int | None,
) -> int | None:
    """Specialty engines required beside the CPs evaluated (within the rules); where the given
    CPs do not carry the rate, those of the count that would (``None`` where no count does).
    ``chosen_cap``: the most the rules allow beside ``chosen``'s CPs, already found."""
    ev = chosen if fit.feasible else _carries(required, fit)
    if ev is None:
        return None
    cap = chosen_cap if ev is chosen else req.policy.max_engines(ev.n)
    return ev.needed if cap is None else min(ev.needed, cap)


def msu_installed(pw: PreparedWorkload, n: int) -> float:
    """MSU of ``n`` installed CPs: the rating of the count at the target's setting."""
    return rated_msu(pw.capacity, pw.target_machine_type, pw.capacity_setting, n)


def msu_used(pw: PreparedWorkload, ev: CountEvaluation) -> float:
    """MSU consumed by the CP work of ``ev`` (the rating of its count at the target's setting)."""
    return ev.gcp * msu_installed(pw, ev.n) / ev.n


def answer_at(pw: PreparedWorkload, cost: NativeCost, req: RateRequest) -> SizingResult:
    """The answer at ``req.t`` from the prepared workload."""
    return _answer(pw, cost, req, alternative_rule(pw, cost, req), _decide(pw, cost, req, {}), {})


def _answer(
    pw: PreparedWorkload,
    cost: NativeCost,
    req: RateRequest,
    other_rule: str | None,
    decided: tuple[_Decision, Eligibility],
    memo: Memo,
) -> SizingResult:
    d, elig = decided
    assumptions = d.assumptions if other_rule is None else (*d.assumptions, other_rule)
    basis = d.basis
    chosen, required, rt = d.choice.chosen, d.choice.required, d.rt
    ratings, projection, cap = count_parts(pw, chosen, req.policy, memo)
    breakdown, icf = lpar_breakdown(basis.components, chosen.proj.factor)
    cap_block = capacity_block(pw.capacity, chosen, req.policy, pw.capacity_setting, ratings, icf)
    fit = d.feasibility
    fits = fit.feasible
    lpar = cost.lpar
    return SizingResult(
        path=pw.config.path,
        configuration=pw.config.configuration,
        target_machine=pw.target_machine,
        target_machine_type=pw.target_machine_type,
        tps=req.t,
        cps=chosen.n if fits else None,
        cps_required=_required_cps(required, fit),
        ziips=chosen.ziips if fits else None,
        ziips_required=_required_ziips(req, chosen, required, fit, cap),
        cpu_per_tran_ms=per_tran_ms(chosen, basis, req.t, d.ends, d.end_totals),
        busy_cps=BusyEngines(chosen.total, chosen.gcp, chosen.ziip, chosen.on_gcp),
        breakdown=breakdown,
        gcp_utilization=chosen.util,
        ziip_utilization=(chosen.ziip / chosen.ziips) if chosen.ziips else None,
        mips=cap_block.cp.mips_used,
        msu=cap_block.cp.msu_used,
        ziip_mips=cap_block.specialty.mips_used,
        response_time_ms=ResponseTime(finite_or_none(rt.value), finite_or_none(rt.low), finite_or_none(rt.high)),
        saturation_tps=finite_or_none(d.sat.tps),
        knee_tps=finite_or_none(knee_at(pw, chosen.n, d.cp_factor, memo)),
        closed_throughput_tps=finite_or_none(rt.closed_throughput),
        specialty_engine=req.policy.name,
        specialty_engine_max=cap,
        binding_resource=binding_at_target(chosen, req.policy, pw.response, req.t, rt.closed_throughput),
        saturation_binding=memoised(
            memo, (f"binding {d.sat.binding}", 0, 0.0), lambda: binding_label(d.sat, req.policy, pw.response)
        ),
        saturation_kind=saturation_kind(finite_or_none(d.sat.tps), basis.cost_is_upper_bound, d.band),
        ranges=d.ranges,
        capacity_detail=cap_block,
        warnings=d.warnings,
        basis=basis_dict(
            basis,
            chosen,
            pw.capacity,
            pw.capacity_setting,
            elig,
            assumptions,
            (lpar.factor, lpar.low, lpar.high) if lpar.factor is not None else (None, None, None),
            projection,
            basis_parts_at(basis, elig, memo),
        ),
        max_utilization=req.umax,
        feasibility=fit,
        objective=req.objective,
        alternative=_alternative(pw, d.choice) if fits else None,
        evaluated_cps=chosen.n,
        evaluated_ziips=chosen.ziips,
        cost=req.pricer.cost(chosen) if req.pricer is not None and fits else None,
        prepared=pw,
    )


def saturation_kind(saturation_tps: float | None, cost_is_upper_bound: bool, band: float) -> str:
    """What ``saturation_tps`` is: ``unknown`` where there is none (no CPU figures are published,
    so no rate can be said to saturate anything), ``lower-bound`` where the central cost is the
    upper end of its range and no band widens it (the saturation is then the low end of its
    range), else ``value``."""
    if saturation_tps is None:
        return "unknown"
    return "lower-bound" if cost_is_upper_bound and band == 0.0 else "value"
