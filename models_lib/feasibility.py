"""Whether the answer fits the target, and if not why, with the most the target carries.

An answer does not fit when

* ``engines``: no configuration the machine type can be built with (its CP counts at the
  setting, specialty engines within the generation's ratio and the machine's most engines,
  :meth:`models_lib.engine.EnginePolicy.max_engines`) carries the rate within the utilisation
  ceilings;
* ``software-limit``: the rate is at or beyond the saturation of the fitted software station
  (FiTeq: the wait for a free HSM channel, REDP-5114 section 11.3), which more CPs do not raise;
* ``saturation``: the given CPs (and specialty engines) would run at or beyond 100 % busy, or
  the rate is at or beyond their saturation.

The most the target carries is the largest rate at which some buildable configuration keeps
its CPs within ``max_utilization`` and its specialty engines within their ceiling (the
saturation of :func:`models_lib.engine.saturation` with each pool's capacity taken at its
ceiling), and below the software station's saturation; the configuration is the fewest CPs that
reach it, with the specialty engines the rules allow beside them.

Units: transactions/s, engine counts.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from models_lib.answer_parts import Alternative, Feasibility, FeasibilityReason, MostCarried
from models_lib.capacity import MAX_CPS
from models_lib.engine import Saturation, saturation
from models_lib.evaluation import CountEvaluation

if TYPE_CHECKING:
    from models_lib.prepared import PreparedWorkload

__all__ = ["Alternative", "Feasibility", "MostCarried", "feasibility_step", "most_carried"]


def _carry_at(pw: PreparedWorkload, n: int, ziips: int | None, software_tps: float | None) -> float:
    """Rate ``n`` CPs with ``ziips`` specialty engines (``None``: those the engine sizes, at most
    the rules' cap) carry within the ceilings.

    The configuration is rated at its total engine count (the MP effect).  With sized engines a
    rate ``t`` fits when ``t`` <= the rate ``n`` CPs + z(t) engines carry, z(t) the engines sized
    at ``t``; z(t) <= z exactly below the rate ``b_z`` at which the eligible work fills z engines
    at their ceiling (rated at n + z).  So the most is max over z of min(carry(z), b_z).
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
        cp_factor=pw.cp_factor(n, z) / pw.max_utilization,
        special_factor=pw.special_factor(n, z) / pw.ziip_max_utilization,
        intercept=line.intercept,
        slope=line.slope,
        software_tps=software_tps,
    )
    return max(0.0, sat.tps)


def most_carried(pw: PreparedWorkload, *, cps: int | None = None, ziips: int | None = None) -> MostCarried | None:
    """The most the target carries and in which configuration (``None``: no rate is carried);
    on ``cps`` CPs and ``ziips`` specialty engines where they are given."""
    software = pw.response.software if pw.response is not None else None
    software_tps = None if software is None else software.saturation_tps()
    best_n, best = pw.counts[0], -1.0
    for n in pw.counts if cps is None else (cps,):
        tps = _carry_at(pw, n, ziips, software_tps)
        if tps > best * (1.0 + 1e-9):
            best_n, best = n, tps
    if not 0.0 < best < math.inf:
        return None  # nothing carried, or no bound (all work eligible and no rule): no figure to give
    return MostCarried(best, best_n, pw.evaluate(best, best_n, ziips).engines)


def _reason(t: float, required: CountEvaluation | None, chosen: CountEvaluation, sat: Saturation,
            given: bool, lower_bound: bool) -> FeasibilityReason | None:  # fmt: skip
    if sat.binding == "software" and t >= sat.tps:
        return "software-limit"
    # A saturation that is a lower bound is passed only beyond it: a published run at its bound's
    # rate is where the bound came from (as models_lib.saturation_ranges.saturation_warnings).
    beyond = t > sat.tps * (1.0 + 1e-9) if lower_bound else t >= sat.tps
    if given:
        return "saturation" if chosen.util > 1.0 + 1e-9 or beyond else None
    return "engines" if required is None else None


def _largest_model(pw: PreparedWorkload) -> str:
    """Model capacity identifier of the largest CP count rated at the target's setting."""
    mt, n, table = pw.target_machine_type, pw.counts[-1], pw.capacity
    rated = table.settings.get((mt, pw.capacity_setting, n)) if pw.capacity_setting else None
    rated = rated or table.ratings.get((mt, n))
    return rated.model if rated is not None and rated.model else f"{mt} with {n} CPs"


def _why(pw: PreparedWorkload, reason: FeasibilityReason, t: float, chosen: CountEvaluation, sat: Saturation) -> str:
    """The plain reason an answer does not fit, with its numbers."""
    name = pw.policy.name
    if reason == "engines":
        return (
            f"no configuration up to {_largest_model(pw)} ({name}s within the generation's ratio and the "
            f"machine's engines) carries {t:,.0f} TPS within {pw.max_utilization:.0%} busy"
        )
    if reason == "software-limit":
        return (
            f"{t:,.0f} TPS is at or beyond the saturation of the software station ({sat.tps:,.0f} TPS), "
            "which more CPs do not raise"
        )
    where = f"{chosen.n} CPs" + (f" + {chosen.ziips} {name}s" if chosen.ziips else "")
    return (
        f"{t:,.0f} TPS would run {where} at {chosen.util:.0%} busy, at or beyond their saturation ({sat.tps:,.0f} TPS)"
    )


def feasibility_step(
    pw: PreparedWorkload, t: float, required: CountEvaluation | None, chosen: CountEvaluation, sat: Saturation,
    given: tuple[int | None, int | None], lower_bound: bool = False,
) -> Feasibility:  # fmt: skip
    """Whether the answer at ``t`` transactions/s fits; ``given``: the CPs and specialty engines
    given; ``lower_bound``: the saturation is a lower bound (the cost is the published upper bound)."""
    reason = _reason(t, required, chosen, sat, given[0] is not None, lower_bound)
    if reason is None:
        return Feasibility.fits()
    name = pw.policy.name
    why = _why(pw, reason, t, chosen, sat)
    most = most_carried(pw, cps=given[0], ziips=given[1])
    if most is None:
        message = f"does not fit: {why}; this model carries no rate within the ceiling (its fixed load alone passes it)"
        return Feasibility(False, reason, message, None, None, None)
    where = f"{most.cps} CPs" + (f" + {most.ziips} {name}s" if most.ziips else "")
    message = f"does not fit: {why}; the most this model carries is {most.tps:,.0f} TPS on {where}"
    return Feasibility(False, reason, message, most.tps, most.cps, most.ziips)
