"""Whether the answer fits the target, and if not why, with the most the target carries.

One predicate says whether a rate fits (:func:`fits_at`): some configuration the machine type
can be built with (its CP counts at the setting, specialty engines within the generation's
ratio and the machine's most engines, :meth:`models_lib.engine.EnginePolicy.max_engines`), or
the CPs and specialty engines given, carries the rate with

* every pool at or under its ceiling (CPs within ``max_utilization``; the specialty engines
  take eligible work up to theirs and the rest runs on CPs, as RMF's IIPCP reports it) and
  below saturation: 100 % busy CPs never fit, whatever the ceiling;
* the fitted software station (FiTeq: the wait for a free HSM channel, REDP-5114 section 11.3),
  which more CPs do not raise, at or under the same ceiling ``max_utilization`` and below
  saturation: its utilisation ``t * service_s / servers`` (as
  :func:`models_lib.saturation_ranges.binding_at_target` names it) is held to the ceiling like
  the CPs', so a rate fits only up to the ceiling times the station's saturation;
* the modelled response time within the goal, when one is given.

Where it does not, the reason is ``engines`` (no sized configuration within the ceiling),
``ceiling`` (the given CPs run above it), ``saturation`` (the given CPs run at or beyond 100 %),
``software-limit`` (the software station runs above the ceiling or saturates) or
``response-goal``.  A path without CPU figures gets no verdict
(``feasible: None``, ``no-cpu-data``; :func:`no_cpu_verdict`).

The most the target carries (:func:`most_carried`) is the largest rate for which the same
predicate holds: per CP count the closed form of :func:`models_lib.engine.saturation` with each
pool's capacity taken at its ceiling and the software station's saturation at the ceiling, checked against the
predicate and, where it does not hold there (a response goal; 100 % busy at a ceiling of 1), a
bisection on the predicate below it.  The configuration is the fewest CPs that reach it, with
the specialty engines the rules allow beside them.

Units: transactions/s, engine counts, ms.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from models_lib.answer_parts import Alternative, Feasibility, FeasibilityReason, MostCarried
from models_lib.capacity import MAX_CPS
from models_lib.engine import Saturation, saturation
from models_lib.evaluation import UTIL_EPS, CountEvaluation, count_splits
from models_lib.saturation_ranges import servers_text

if TYPE_CHECKING:
    from models_lib.prepared import PreparedWorkload

__all__ = [
    "Alternative",
    "Feasibility",
    "MostCarried",
    "feasibility_step",
    "fits_at",
    "fits_of",
    "group_fits",
    "most_carried",
    "no_cpu_verdict",
    "software_util",
]

#: Bisection steps on the predicate (the bracket shrinks by 2**-48: below a millionth of a TPS
#: at any rate the engine sizes).
_STEPS = 48


def _software_tps(pw: PreparedWorkload) -> float | None:
    """The largest rate within the software station's ceiling: its saturation (transactions/s)
    times ``max_utilization`` (at most 1; ``None``: no station)."""
    software = pw.response.software if pw.response is not None else None
    return None if software is None else software.saturation_tps() * min(pw.max_utilization, 1.0)


def software_util(pw: PreparedWorkload, t: float) -> float | None:
    """Utilisation of the fitted software station at ``t`` transactions/s, ``t * service_s /
    servers`` as :func:`models_lib.saturation_ranges.binding_at_target` reports it (``None``: no
    station)."""
    software = pw.response.software if pw.response is not None else None
    return None if software is None else software.utilization(t)


def _software_over(pw: PreparedWorkload, t: float) -> bool:
    """Whether the software station runs above the ceiling at ``t`` (or at or beyond saturation),
    held to ``max_utilization`` as the CPs are."""
    util = software_util(pw, t)
    return util is not None and (util > pw.max_utilization + UTIL_EPS or util >= 1.0)


def _holds_on(pw: PreparedWorkload, t: float, n: int, ziips: int | None, sla: float | None) -> bool:
    """The predicate on ``n`` CPs with ``ziips`` specialty engines (``None``: sized)."""
    if _software_over(pw, t):
        return False
    split = pw.evaluate(t, n, ziips)
    util = split.gcp / n
    if util > pw.max_utilization + UTIL_EPS or util >= 1.0:
        return False
    if sla is not None:
        value = pw.response_at(t, n, ziips).value
        if value is not None and not value <= sla:
            return False
    return True


def fits_at(
    pw: PreparedWorkload, t: float, *, cps: int | None = None, ziips: int | None = None, sla: float | None = None
) -> bool:
    """Whether ``t`` transactions/s fits the target: on the ``cps`` CPs given, else on some
    rated CP count, with ``ziips`` specialty engines (``None``: sized) and the response goal
    ``sla`` (ms).  The one predicate of "fits" (module docstring)."""
    return any(_holds_on(pw, t, n, ziips, sla) for n in (pw.counts if cps is None else (cps,)))


def group_fits(
    pw: PreparedWorkload, rates: Sequence[float], *, cps: int | None = None, ziips: int | None = None,
    sla: float | None = None,
) -> list[bool]:  # fmt: skip
    """:func:`fits_at` of each of ``rates`` (transactions/s), each equal to the scalar one: every
    count's split evaluated once over the rates not yet found to fit
    (:func:`~models_lib.evaluation.evaluate_totals` of the central native demand)."""
    out = [False] * len(rates)
    busy = pw.cost.busy(np.asarray(rates, dtype=np.float64)) if pw.cost is not None else None
    active = [i for i, t in enumerate(rates) if not _software_over(pw, t)]
    if busy is None:
        return out
    target = pw.target(None, ziips)
    for n in pw.counts if cps is None else (cps,):
        if not active:
            break
        still = []
        splits = count_splits(n, busy[active], target)
        if sla is None:  # the ceiling alone: over the array (util(j) is gcp[j] / n)
            utils = np.array(splits.gcp, dtype=np.float64) / n
            holds = (~((utils > pw.max_utilization + UTIL_EPS) | (utils >= 1.0))).tolist()
            for j, i in enumerate(active):
                if holds[j]:
                    out[i] = True
                else:
                    still.append(i)
            active = still
            continue
        for j, i in enumerate(active):
            util = splits.util(j)
            holds = not (util > pw.max_utilization + UTIL_EPS or util >= 1.0)
            if holds and sla is not None:
                value = pw.response_at(rates[i], n, ziips).value
                holds = value is None or value <= sla
            if holds:
                out[i] = True
            else:
                still.append(i)
        active = still
    return out


def fits_of(
    pw: PreparedWorkload, rates: Sequence[float], evaluated: Sequence[Sequence[CountEvaluation]], *,
    cps: int | None = None, ziips: int | None = None, sla: float | None = None,
) -> list[bool]:  # fmt: skip
    """:func:`group_fits` of each of ``rates`` from the counts already evaluated for it
    (``evaluated``: :func:`~models_lib.evaluation.group_evaluations` of the rates' central
    native demands with ``pw``'s central target and ``ziips``, in ``pw.counts`` order): the
    predicate holds on a count evaluated, or on none of them, all counts evaluated; a rate whose
    evaluations stopped before the last count without the predicate holding (or without the
    given count) is found by :func:`group_fits`, as is every rate where a response goal is
    checked."""
    if sla is not None or pw.cost is None:
        return group_fits(pw, rates, cps=cps, ziips=ziips, sla=sla)
    limit = pw.max_utilization + UTIL_EPS
    last = len(pw.counts)
    out = [False] * len(rates)
    rest = []
    for i, (t, evs) in enumerate(zip(rates, evaluated, strict=True)):
        if _software_over(pw, t):
            continue
        if cps is not None:
            ev = next((e for e in evs if e.n == cps), None)
            if ev is None:
                rest.append(i)
            else:
                out[i] = not (ev.util > limit or ev.util >= 1.0)
        elif any(not (e.util > limit or e.util >= 1.0) for e in evs):
            out[i] = True
        elif len(evs) < last:
            rest.append(i)
    if rest:
        for i, fit in zip(rest, group_fits(pw, [rates[i] for i in rest], cps=cps, ziips=ziips), strict=True):
            out[i] = fit
    return out


def _carry_at(pw: PreparedWorkload, n: int, ziips: int | None, software_tps: float | None) -> float:
    """Rate ``n`` CPs with ``ziips`` specialty engines (``None``: those the engine sizes, at most
    the rules' cap) carry within the ceilings.

    The configuration is rated at its total engine count (the MP effect).  With sized engines a
    rate ``t`` fits when ``t`` <= the rate ``n`` CPs + z(t) engines carry, z(t) the engines sized
    at ``t``; z(t) <= z exactly below the rate ``b_z`` at which the eligible work fills z engines
    at their ceiling (rated at n + z).  So the most is max over z of min(carry(z), b_z).
    The closed form; the predicate is checked by the caller.
    """
    cap = pw.policy.max_engines(n)
    if ziips is not None:
        return _carry_with(pw, n, ziips if cap is None else min(ziips, cap), software_tps)
    line, f = pw.line, pw.eligible_share
    top = cap if cap is not None else MAX_CPS - n

    def fills(z: int) -> float:
        if f <= 0.0 or z == top or line.slope <= 0.0:
            return math.inf
        return (z * pw.ziip_max_utilization / pw.special_factor(n, z) / f - line.intercept) / line.slope

    # fills(z) rises with z; once it passes carry(z) the CPs (or the software) bind and carry(z)
    # only falls: the first such z is found by bisection, and the most is at it or just below.
    lo, hi = 0, top
    while lo < hi:
        mid = (lo + hi) // 2
        if fills(mid) >= _carry_with(pw, n, mid, software_tps):
            hi = mid
        else:
            lo = mid + 1
    best = min(_carry_with(pw, n, lo, software_tps), fills(lo))
    return max(best, fills(lo - 1)) if lo > 0 else best


def _carry_with(pw: PreparedWorkload, n: int, engines: int | None, software_tps: float | None) -> float:
    """Rate ``n`` CPs + ``engines`` carry within the ceilings, rated at their total (the MP effect)."""
    z = engines or 0
    line = pw.line
    sat = saturation(
        cps=n,
        engines=engines,
        fraction=pw.eligible_share,
        cp_factor=pw.cp_factor(n, z) / min(pw.max_utilization, 1.0),
        special_factor=pw.special_factor(n, z) / pw.ziip_max_utilization,
        intercept=line.intercept,
        slope=line.slope,
        software_tps=software_tps,
    )
    return max(0.0, sat.tps)


def _most_on(pw: PreparedWorkload, n: int, ziips: int | None, sla: float | None, above: float) -> float:
    """The largest rate the predicate holds on ``n`` CPs, where it is above ``above`` (else 0)."""
    top = _carry_at(pw, n, ziips, _software_tps(pw))
    if not top > above * (1.0 + 1e-9) or not math.isfinite(top):
        return top if not math.isfinite(top) else 0.0
    if _holds_on(pw, top, n, ziips, sla):
        return top
    low = above
    if low > 0.0 and not _holds_on(pw, low, n, ziips, sla):
        return 0.0  # the predicate is monotone in the rate: nothing above ``above`` holds
    high = top
    for _ in range(_STEPS):
        mid = 0.5 * (low + high)
        if _holds_on(pw, mid, n, ziips, sla):
            low = mid
        else:
            high = mid
    return low if low > above else 0.0


def most_carried(
    pw: PreparedWorkload, *, cps: int | None = None, ziips: int | None = None, sla: float | None = None
) -> MostCarried | None:
    """The largest rate for which :func:`fits_at` holds, and in which configuration (``None``:
    no rate is carried, or no bound); on ``cps`` CPs and ``ziips`` specialty engines where they
    are given, within the response goal ``sla`` (ms) where one is given."""
    best_n, best = pw.counts[0], 0.0
    for n in pw.counts if cps is None else (cps,):
        tps = _most_on(pw, n, ziips, sla, best)
        if tps > best * (1.0 + 1e-9):
            best_n, best = n, tps
        if not math.isfinite(best):
            break
    if not 0.0 < best < math.inf:
        return None  # nothing carried, or no bound (all work eligible and no rule): no figure to give
    return MostCarried(best, best_n, pw.evaluate(best, best_n, ziips).engines)


def carried_rate(tps: float) -> float:
    """The most a target carries as a planner writes it: rounded *down* at the digits a rate is
    written with (whole TPS from 100, one decimal from 10, two from 0.1, three below), so that
    the written figure is itself a rate that fits (7,505.47 -> 7,505; 10,779.51 -> 10,779, not
    10,780, which does not fit)."""
    digits = 0 if tps >= 100 else 1 if tps >= 10 else 2 if tps >= 0.1 else 3
    scale = 10.0**digits
    return math.floor(tps * scale) / scale


def carried_text(tps: float) -> str:
    """:func:`carried_rate` written with separators, without trailing zeros ("7,505", "12.5")."""
    return f"{carried_rate(tps):,.3f}".rstrip("0").rstrip(".")


def _reason(
    pw: PreparedWorkload, t: float, required: CountEvaluation | None, chosen: CountEvaluation, given: bool
) -> FeasibilityReason:
    """Why the predicate does not hold at ``t``, from the decision's configuration."""
    if _software_over(pw, t):
        return "software-limit"
    if given:
        if chosen.util >= 1.0:
            return "saturation"
        return "ceiling" if chosen.util > pw.max_utilization + UTIL_EPS else "response-goal"
    return "engines" if required is None else "response-goal"


def _largest_model(pw: PreparedWorkload) -> str:
    """Model capacity identifier of the largest CP count rated at the target's setting."""
    mt, n, table = pw.target_machine_type, pw.counts[-1], pw.capacity
    rated = table.settings.get((mt, pw.capacity_setting, n)) if pw.capacity_setting else None
    rated = rated or table.ratings.get((mt, n))
    return rated.model if rated is not None and rated.model else f"{mt} with {n} CPs"


def _why(
    pw: PreparedWorkload, reason: FeasibilityReason, t: float, chosen: CountEvaluation, sat: Saturation,
    sla: float | None, response_ms: float | None,
) -> str:  # fmt: skip
    """The plain reason an answer does not fit, with its numbers."""
    name = pw.policy.name
    if reason == "engines":
        return (
            f"no configuration up to {_largest_model(pw)} ({name}s within the generation's ratio and the "
            f"machine's engines) carries {t:,.0f} TPS within {pw.max_utilization:.0%} busy"
        )
    if reason == "software-limit":
        return _software_why(pw, t)
    where = f"{chosen.n} CPs" + (f" + {chosen.ziips} {name}s" if chosen.ziips else "")
    if reason == "ceiling":
        return f"{t:,.0f} TPS would run {where} at {chosen.util:.0%} busy, above the {pw.max_utilization:.0%} ceiling"
    if reason == "response-goal":
        took = "" if response_ms is None or not math.isfinite(response_ms) else f" ({response_ms:,.1f} ms on {where})"
        return (
            f"{t:,.0f} TPS misses the {sla:g} ms response-time goal{took}, and no configuration of this model meets it"
        )
    return (
        f"{t:,.0f} TPS would run {where} at {chosen.util:.0%} busy, at or beyond their saturation ({sat.tps:,.0f} TPS)"
    )


def _software_why(pw: PreparedWorkload, t: float) -> str:
    """Why a rate past the software station's ceiling does not fit: its utilisation against the
    ceiling, and its saturation, which more CPs do not raise."""
    software = pw.response.software if pw.response is not None else None
    assert software is not None
    util = software.utilization(t)
    station = f"the software station ({servers_text(software.servers)})"
    if util >= 1.0:
        return (
            f"{t:,.0f} TPS is at or beyond the {software.saturation_tps():,.0f} TPS at which {station} saturates, "
            "which more CPs do not raise"
        )
    return (
        f"{t:,.0f} TPS would run {station} at {util:.0%} busy, above the {pw.max_utilization:.0%} ceiling "
        f"(it saturates at {software.saturation_tps():,.0f} TPS, which more CPs do not raise)"
    )


def _most_binding(pw: PreparedWorkload, most: MostCarried, reason: FeasibilityReason) -> str:
    """What holds the most carried: the software station at the ceiling, where it binds there;
    where the rate is refused for the software station but the engines reach their ceiling at a
    lower rate (FiTeq on a z17 4xx: 43 slow CPs), the engines, so the sentence names what binds."""
    util = software_util(pw, most.tps)
    if util is None:
        return ""
    if util < min(pw.max_utilization, 1.0) * (1.0 - 1e-6):
        if reason != "software-limit":
            return ""
        return f", where the engines reach the {pw.max_utilization:.0%} ceiling before the software station does"
    return f", the software station at {util:.0%} busy"


def no_cpu_verdict(floor_ms: float) -> Feasibility:
    """No CPU figures, no CPU verdict: ``feasible`` is ``None``, with what is known."""
    return Feasibility(
        None,
        "no-cpu-data",
        "No CPU figures are published for this path, so no CPU verdict; what is known is the response "
        f"floor of {floor_ms:,.4g} ms for one request on an idle system",
        None,
        None,
        None,
    )


def feasibility_step(
    pw: PreparedWorkload, t: float, required: CountEvaluation | None, chosen: CountEvaluation, sat: Saturation,
    given: tuple[int | None, int | None], sla: float | None = None, response_ms: float | None = None,
    fits: bool | None = None, cost_upper_bound: bool = False,
) -> Feasibility:  # fmt: skip
    """Whether the answer at ``t`` transactions/s fits (:func:`fits_at`; ``fits``: already found,
    :func:`group_fits`); ``given``: the CPs and specialty engines given; ``sla``: the response
    goal (ms); ``response_ms``: the answer's response time (for the sentence);
    ``cost_upper_bound``: the cost per transaction is a published upper bound (bounds-only, no
    band), so a refusal by the engines is "not shown to fit" and the most carried a floor."""
    if fits_at(pw, t, cps=given[0], ziips=given[1], sla=sla) if fits is None else fits:
        return Feasibility.fits()
    reason = _reason(pw, t, required, chosen, given[0] is not None)
    name = pw.policy.name
    why = _why(pw, reason, t, chosen, sat, sla, response_ms)
    most = most_carried(pw, cps=given[0], ziips=given[1], sla=sla)
    if most is None:
        none = (
            "no rate meets the goal on this model"
            if reason == "response-goal" or sla is not None
            else "this model carries no rate within the ceiling (its fixed load alone passes it)"
        )
        message = f"does not fit: {why}; {none}"
        return Feasibility(False, reason, message, None, None, None)
    where = f"{most.cps} CPs" + (f" + {most.ziips} {name}s" if most.ziips else "")
    goal = "" if sla is None else f" within the {sla:g} ms goal"
    binds = _most_binding(pw, most, reason)
    if cost_upper_bound and reason in COST_BOUND_REASONS:
        # the engines' demand is at the published upper bound of the cost: a floor on what they carry
        message = (
            f"not shown to fit: at the published upper bound of the cost per transaction, {why}; the "
            f"published figures show this model carries{goal} at least {carried_text(most.tps)} TPS on {where}{binds}"
        )
    else:
        message = (
            f"does not fit: {why}; the most this model carries{goal} is {carried_text(most.tps)} TPS on {where}{binds}"
        )
    return Feasibility(False, reason, message, most.tps, most.cps, most.ziips)


#: The refusals that rest on the engines' demand (the cost per transaction), not on the software
#: station or a response-time goal: with a cost that is a published upper bound, "not shown to fit".
COST_BOUND_REASONS = frozenset({"engines", "ceiling", "saturation"})
