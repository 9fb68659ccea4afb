"""Choice of CPs: the smallest count within the utilisation ceiling (and a response-time goal),
and the count the answer's figures are evaluated at, with what the choice has to say."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from models_lib.answer import SizingWarning
from models_lib.capacity import Projection
from models_lib.checks import InputError
from models_lib.cost_basis import Basis
from models_lib.engine import EnginePolicy
from models_lib.evaluation import UTIL_EPS, CountEvaluation, cp_cost_factor, with_response
from models_lib.fastinit import fast_init
from models_lib.response import ResponseModel
from models_lib.units import figure_text

if TYPE_CHECKING:
    from models_lib.pricing import Pricer

__all__ = [
    "DEFAULT_OBJECTIVE",
    "OBJECTIVES",
    "OBJECTIVE_ALIASES",
    "Choice",
    "RateRequest",
    "replaced",
    "canonical_objective",
    "chosen_of",
    "choose",
    "chosen_warnings",
    "projection_warnings",
    "pick",
    "spilled_native",
]

#: What the choice of CPs and specialty engines minimises, first to last key.
#:
#: ``fewest-cps`` (default, the planner's quote): the fewest CPs that carry the CP work within
#: the ceiling -- the ineligible work plus whatever eligible work the specialty engines cannot
#: take within the generation's ratio -- then the fewest specialty engines that carry the
#: eligible work within their ceiling and the ratio.  Installed CPs set the hardware price and,
#: under full-capacity licensing, the software bill, so a CP is never added only to allow
#: another specialty engine.  ``least-msu-consumed``: the MSU consumed, then the fewest engines
#: (CPs + specialty), then the fewest CPs.  A mix's MSU consumed is its CP MIPS used times the
#: model's MSU per MIPS, and its CP MIPS used is the same on every mix that keeps the eligible
#: work on the specialty engines (the LSPR projection preserves MIPS); what differs is the
#: eligible work that finds no specialty engine and runs on CPs (IIPCP), so mixes are compared
#: by that work (the table's own drift of MSU per MIPS with the CP count is no reason to buy
#: CPs); it buys CPs to license specialty engines, for sub-capacity contracts that pay for MSU
#: consumed.  ``fewest-engines``: the fewest CPs + specialty engines, then least MSU consumed.
#: ``least-cost``: the least total cost over the term from the user's price book
#: (:func:`models_lib.pricing.configuration_cost`), then the fewest engines; only with a book.
OBJECTIVES: tuple[str, ...] = ("fewest-cps", "least-msu-consumed", "fewest-engines", "least-cost")

#: The objective every answer takes unless one is asked for.
DEFAULT_OBJECTIVE = "fewest-cps"

#: Former names still accepted (stored inputs keep loading): ``least-msu`` was the default of
#: issue 22, the same rule as ``least-msu-consumed``.
OBJECTIVE_ALIASES: dict[str, str] = {"least-msu": "least-msu-consumed"}


def canonical_objective(objective: str | None) -> str:
    """``objective`` by its current name (``None`` or empty: the default); an unknown name is
    returned as given, for the caller's check to name."""
    if not objective:
        return DEFAULT_OBJECTIVE
    return OBJECTIVE_ALIASES.get(objective, objective)


#: Two spills closer than this (busy engines) are the same.
_SPILL_EPS = 1e-9


@dataclass(frozen=True)
class RateRequest:
    """What is asked at one rate: ``t`` transactions/s, given CPs and specialty engines, the
    closed population, the response-time goal (ms), and the ceilings in force."""

    t: float
    cps: int | None
    ziips: int | None
    clients: int | None
    think: float | None
    sla: float | None
    umax: float
    zmax: float
    policy: EnginePolicy
    objective: str = DEFAULT_OBJECTIVE
    pricer: Pricer | None = None


def replaced(req: RateRequest, **changes: object) -> RateRequest:
    """``dataclasses.replace(req, **changes)`` (a :class:`RateRequest` has no checks of its own)
    as one copy of its fields' dictionary: a group of rates makes one a rate, and
    ``dataclasses.replace`` or ``copy.copy`` take about 20,000 instructions each."""
    out = _new(RateRequest)
    _setattr(out, "__dict__", {**req.__dict__, **changes})
    return out


_new = object.__new__
_setattr = object.__setattr__


@fast_init
@dataclass(frozen=True)
class Choice:
    """``required``: the count the objective picks among those that carry the demand (``None``:
    none does); ``chosen``: the count the figures are evaluated at; ``alternative``: what the
    other objective (``least-msu-consumed`` beside ``fewest-cps``, else ``fewest-cps``) picks,
    where it differs; the choice's warnings and assumptions."""

    required: CountEvaluation | None
    chosen: CountEvaluation
    warnings: tuple[SizingWarning, ...] = ()
    assumptions: tuple[str, ...] = ()
    alternative: CountEvaluation | None = None
    alternative_objective: str | None = None


def spilled_native(ev: CountEvaluation) -> float:
    """Eligible work that runs on CPs at ``ev``, in measured-LPAR busy engines (0: none spills)."""
    return ev.on_gcp / ev.proj.factor if ev.proj.factor > 0 else ev.on_gcp


def pick(candidates: Sequence[CountEvaluation], objective: str, pricer: Pricer | None = None) -> CountEvaluation:
    """The mix ``objective`` picks among ``candidates`` (in CP-count order, not empty); see
    :data:`OBJECTIVES` (or an alias of one; ``least-cost`` prices them with ``pricer``)."""
    objective = canonical_objective(objective)
    if objective == "least-cost":
        if pricer is None:
            raise InputError("objective", "the least-cost objective needs a price book: none was given")
        return min(candidates, key=lambda e: (pricer.total(e), e.n + e.ziips, e.n))
    if objective == "fewest-cps":
        return candidates[0]
    if objective == "fewest-engines":
        fewest = min(e.n + e.ziips for e in candidates)
        candidates = [e for e in candidates if e.n + e.ziips == fewest]
    least = min(spilled_native(e) for e in candidates)
    kept = [e for e in candidates if spilled_native(e) <= least + _SPILL_EPS]
    return min(kept, key=lambda e: (e.n + e.ziips, e.n))


def _sla_unreachable(
    sla: float,
    candidates: Sequence[CountEvaluation],
    rmodel: ResponseModel | None,
    tps: float,
    n: int,
    basis: Basis,
) -> SizingWarning:
    """``sla-unreachable``: no CP count meets ``sla``; name what the time is spent on."""
    best = min(candidates, key=lambda e: e.response if e.response is not None else math.inf)
    part = "the CPs"
    if rmodel is not None and best.response is not None and math.isfinite(best.response):
        bd = rmodel.breakdown(tps, cps=best.n, cost_factor=cp_cost_factor(basis, best.proj, best.gcp))
        parts = {
            "the load-independent part of the response time (network, I/O, other servers)": rmodel.fixed_ms or 0.0,
            "the software station (fitted queue)": bd.software_wait_ms or 0.0,
            "the CPs (service and queueing)": bd.cp_residence_ms,
        }
        part = max(parts, key=lambda k: parts[k])
    shortest = "unknown" if best.response is None else f"{best.response:.3g} ms"
    return SizingWarning(
        "sla-unreachable",
        f"no CP count meets the {sla:g} ms response-time goal at {tps:g} TPS (shortest {shortest} at "
        f"{best.n} CPs); most of the time is spent in {part}, which CPs do not shorten. Sized on "
        f"CPU alone: {n} CPs",
    )


def _required(
    util_ok: list[CountEvaluation], req: RateRequest, rmodel: ResponseModel | None, basis: Basis
) -> tuple[CountEvaluation | None, list[SizingWarning], list[str]]:
    """The smallest count within the ceiling (``util_ok``: the evaluations within it), raised to
    the first that meets the goal (when one does: the first meeting count keeps "more TPS never
    needs fewer CPs")."""
    sla = req.sla
    if sla is not None and rmodel is not None:
        util_ok = [with_response(e, basis=basis, rmodel=rmodel, tps=req.t) for e in util_ok]
    required: CountEvaluation | None = pick(util_ok, req.objective, req.pricer) if util_ok else None
    warnings: list[SizingWarning] = []
    assumptions: list[str] = []
    if required is not None and sla is not None and required.response is not None:
        meets = [e for e in util_ok if e.response is not None and e.response <= sla]
        if not meets:
            warnings.append(_sla_unreachable(sla, util_ok, rmodel, req.t, required.n, basis))
        elif required not in meets:
            met = pick(meets, req.objective, req.pricer)
            assumptions.append(
                f"CPs raised from {required.n} to {met.n} to meet the {sla:g} ms response-time objective"
            )
            required = met
    return required, warnings, assumptions


def _alternative(
    util_ok: Sequence[CountEvaluation], req: RateRequest, required: CountEvaluation | None
) -> tuple[CountEvaluation | None, str | None]:
    """What the other objective picks within the ceiling (``util_ok``: the evaluations within
    it), where it differs from ``required``."""
    if required is None:
        return None, None
    other = "least-msu-consumed" if canonical_objective(req.objective) == "fewest-cps" else "fewest-cps"
    alt = pick(util_ok, other)
    if (alt.n, alt.ziips) == (required.n, required.ziips):
        return None, None
    return alt, other


def choose(
    evals: Sequence[CountEvaluation],
    req: RateRequest,
    rmodel: ResponseModel | None,
    basis: Basis,
    target_machine_type: str,
) -> Choice:
    """(required, chosen): the count required and the count the figures are evaluated at
    (given, required, else the largest)."""
    umax = req.umax
    limit = umax + UTIL_EPS
    util_ok = [e for e in evals if e.util <= limit]
    required, warnings, assumptions = _required(util_ok, req, rmodel, basis)
    if req.cps is not None:
        chosen = next(e for e in evals if e.n == req.cps)
        if chosen.util > umax + UTIL_EPS:
            warnings.append(
                SizingWarning(
                    "utilization-above-ceiling",
                    f"{req.cps} CPs run {chosen.util:.1%} busy, above the {umax:.0%} ceiling"
                    + (f"; {required.n} CPs are required" if required else ""),
                )
            )
    else:
        chosen = required if required is not None else evals[-1]
    if required is None:
        warnings.append(
            SizingWarning(
                "capacity-exceeded",
                f"no CP count up to {evals[-1].n} of machine type {target_machine_type} carries "
                f"the GCP demand within {umax:.0%}: {figure_text(evals[-1].gcp)} busy CPs at "
                f"{evals[-1].n} CPs ({evals[-1].util:.0%})",
            )
        )
    alt, other = _alternative(util_ok, req, required)
    return Choice(required, chosen, tuple(warnings), tuple(assumptions), alt, other)


def chosen_of(
    evals: Sequence[CountEvaluation], req: RateRequest, rmodel: ResponseModel | None, basis: Basis
) -> CountEvaluation:
    """``choose(evals, req, rmodel, basis, ...).chosen`` without the choice's warnings, its
    assumptions and the other objective's pick (what a sentence of the count alone needs)."""
    util_ok = [e for e in evals if e.util <= req.umax + UTIL_EPS]
    if req.sla is not None and rmodel is not None:
        required = _required(util_ok, req, rmodel, basis)[0]
    else:  # no goal checked: _required's pick within the ceiling
        required = pick(util_ok, req.objective, req.pricer) if util_ok else None
    if req.cps is not None:
        return next(e for e in evals if e.n == req.cps)
    return required if required is not None else evals[-1]


def _engine_ratio_warning(
    policy: EnginePolicy,
    chosen: CountEvaluation,
    given: int | None,
    cps_given: int | None,
    found: tuple[int | None] | None = None,
) -> SizingWarning | None:
    """``engine-ratio`` when the rules cap the specialty engines below what the work needs
    (``found``: the cap, :meth:`~models_lib.engine.EnginePolicy.max_engines`, already found)."""
    cap = policy.max_engines(chosen.n) if found is None else found[0]
    want = chosen.needed if given is None else given
    if cap is None or want <= cap:
        return None
    assert policy.rules is not None
    what = (
        f"{given} {policy.name}s were given"
        if given is not None
        else f"the eligible work needs {chosen.needed} {policy.name}s"
    )
    # Sized CPs carry the rest (an answer under the generation's rule, a caveat); given CPs or
    # more given engines than the rule allows do not hold as asked.
    fixed = cps_given is not None or given is not None
    sized = "on the CPs given" if fixed else "and the CP count is sized with that work on it"
    rule = (
        f"the machine has {cap} engines left beside {chosen.n} CPs"
        if policy.per_cp is None
        else f"{policy.rules.generation} allows at most {policy.per_cp:g} {policy.name}"
        f"{'' if policy.per_cp == 1 else 's'} per CP: {cap} beside {chosen.n} CPs"
    )
    return SizingWarning(
        "engine-ratio",
        f"{what}, but {rule} ({policy.rules.reference}). {figure_text(chosen.on_gcp)} busy engines "
        f"of eligible work run on CPs, {sized}",
        "decision" if fixed else "caveat",
    )


def projection_warnings(proj: Projection) -> tuple[SizingWarning, ...]:
    """``projection`` where the CPU is projected to another machine or count (the same for every
    rate that chose the same CPs and specialty engines)."""
    if proj.is_identity():
        return ()
    return (
        SizingWarning(
            "projection",
            f"CPU projected from machine type {proj.from_machine_type} with {proj.from_cps} "
            f"CPs ({proj.from_mips_per_cp:.1f} MIPS per CP) to {proj.to_machine_type} with "
            f"{proj.to_cps} CPs ({proj.to_mips_per_cp:.1f} MIPS per CP): factor "
            f"{proj.factor:.4f} ({proj.source})",
        ),
    )


def chosen_warnings(
    chosen: CountEvaluation,
    req: RateRequest,
    projection: tuple[SizingWarning, ...] | None = None,
    cap: tuple[int | None] | None = None,
) -> list[SizingWarning]:
    """``projection``, ``ziip-overflow`` and ``engine-ratio`` at the chosen CP count;
    ``projection``: :func:`projection_warnings` of ``chosen.proj``, already found; ``cap``:
    ``(req.policy.max_engines(chosen.n),)``, already found."""
    out = list(projection_warnings(chosen.proj) if projection is None else projection)
    if req.ziips is not None and chosen.on_gcp > 0.0:
        out.append(
            SizingWarning(
                "ziip-overflow",
                f"{req.ziips} {req.policy.name}s carry {chosen.ziip:.3g} of {chosen.ziip + chosen.on_gcp:.3g} "
                f"busy engines of eligible work within the {req.zmax:.0%} ceiling; "
                f"{chosen.on_gcp:.3g} run on CPs (IIPCP)",
            )
        )
    ratio = _engine_ratio_warning(req.policy, chosen, req.ziips, req.cps, cap)
    return out if ratio is None else [*out, ratio]
