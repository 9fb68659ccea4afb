"""Saturation, the binding resource and the ranges of the answer.

The saturation rate is where the CPs (with the specialty engines' help) or the fitted software
station saturate (:func:`models_lib.engine.saturation`); the ranges come from the same
evaluation as the centre at the ends of the cost range and of the eligible share.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from models_lib.answer import SizingWarning, finite_or_none
from models_lib.answer_parts import BindingAtTarget, Range, Ranges, SaturationBinding
from models_lib.choice import canonical_objective, pick
from models_lib.cost_basis import Basis
from models_lib.engine import EnginePolicy, Saturation, saturation
from models_lib.evaluation import UTIL_EPS, CountEvaluation, Target, count_splits, evaluate_total
from models_lib.inputs import ConfigurationData
from models_lib.pricing import Pricer
from models_lib.response import ResponseModel
from models_lib.units import figure_text

__all__ = [
    "CLOSED_TOLERANCE",
    "binding_at_target",
    "binding_label",
    "group_range_ends",
    "knee",
    "range_ends",
    "ranges",
    "ranges_of",
    "saturation_at",
    "saturations",
    "saturation_warnings",
    "servers_text",
    "software_warnings",
]

# A closed network's throughput N / (R + Z) is always a little below the paced N / Z; a
# difference up to 2 % from the sized rate is not reported.
CLOSED_TOLERANCE = 0.02


def saturation_at(
    basis: Basis, chosen: CountEvaluation, fraction: float, rmodel: ResponseModel | None
) -> Callable[..., Saturation]:
    """Saturation of the chosen configuration with the native cost scaled by a factor; ``end``
    0 or 1 takes the software station's saturation at the low or high end of its interval
    (:func:`models_lib.response.station_saturation_interval`; the high end ``None``: no
    software limit), ``None`` its fitted value."""
    station = None if rmodel is None else rmodel.software
    central = None if station is None else station.saturation_tps()

    def at(scale: float, end: int | None = None) -> Saturation:
        software = central
        if station is not None and end is not None and station.saturation_low is not None:
            software = station.saturation_low if end == 0 else station.saturation_high
        return saturation(
            cps=chosen.n,
            engines=chosen.ziips,
            fraction=fraction,
            cp_factor=chosen.proj.factor,
            special_factor=chosen.zproj.factor,
            intercept=basis.intercept * scale,
            slope=basis.slope * scale,
            software_tps=software,
        )

    return at


def saturations(
    basis: Basis, chosen: CountEvaluation, fraction: float, rmodel: ResponseModel | None, scales: tuple[float, float]
) -> tuple[Saturation, float, float]:
    """``saturation_at(basis, chosen, fraction, rmodel)`` at the centre, and the rates of its
    ``(hi, 0)`` and ``(lo, 1)`` (``scales``: :func:`range_scales`), what :func:`ranges` reads:
    the same operations as :func:`models_lib.engine.saturation`, the demand's capacity found
    once for the three."""
    station = None if rmodel is None else rmodel.software
    central = None if station is None else station.saturation_tps()
    cpcap = chosen.n / chosen.proj.factor
    alone = math.inf if fraction >= 1.0 else cpcap / (1.0 - fraction)
    engines = chosen.ziips
    helped = math.inf if engines is None else cpcap + engines / chosen.zproj.factor
    native = min(alone, helped)
    intercept, slope = basis.intercept, basis.slope

    def tps(scale: float, software: float | None) -> float:
        scaled = slope * scale
        sat = (native - intercept * scale) / scaled if scaled > 0 else math.inf
        return software if software is not None and software < sat else sat

    lo, hi = scales
    if station is not None and station.saturation_low is not None:
        s_lo, s_hi = tps(hi, station.saturation_low), tps(lo, station.saturation_high)
    else:
        s_lo, s_hi = tps(hi, central), tps(lo, central)
    scaled = slope * 1.0
    sat = (native - intercept * 1.0) / scaled if scaled > 0 else math.inf
    if central is not None and central < sat:
        return Saturation(central, "software"), s_lo, s_hi
    if not math.isfinite(sat):
        return Saturation(sat, "none"), s_lo, s_hi
    return Saturation(sat, "specialty" if helped < alone else "cps"), s_lo, s_hi


#: The count picked at an end of the ranges: its (CPs, specialty engines), what the ranges read
#: of its evaluation (``None``: no count is within the ceiling).
End = tuple[int, int] | None

#: The counts picked at the ends of the ranges: fewest and most CPs, fewest and most specialty engines.
Ends = tuple[End, End, End, End]


def range_scales(basis: Basis, band: float) -> tuple[float, float]:
    """The low and high end of the native cost as factors of its centre, widened by ``band``."""
    total = basis.total
    lo = (basis.low / total if total > 0 else 1.0) * (1.0 - band)
    hi = (basis.high / total if total > 0 else 1.0) * (1.0 + band)
    return lo, hi


def ranges(
    basis: Basis,
    ends: tuple[Target, Target],
    counts: Sequence[int],
    chosen: CountEvaluation,
    cps_given: int | None,
    umax: float,
    sat_of: Callable[..., Saturation],
    band: float,
    rt: tuple[float | None, float | None],
    sized: bool,
    objective: str = "fewest-cps",
    pricer: Pricer | None = None,
    found: Ends | None = None,
) -> Ranges:
    """[low, high] of CPs, specialty engines, saturation and response time from the cost range.

    The ends come from the same evaluation as the centre, at the low and high end of the native
    cost (prediction interval or published bounds) widened by ``band`` on each side, and at the
    ends of the eligible share (``ends``: targets with the low and the high share).  Fewest CPs:
    low cost, high share; most CPs: high cost, low share.  Specialty engines: low cost and low
    share, high cost and high share.  The count at each end is the one ``objective`` picks
    (:func:`models_lib.choice.pick`), as at the centre.  ``found``: those four ends already
    evaluated (:func:`range_scales` and :func:`group_range_ends`, for a group of rates).
    """
    lo, hi = range_scales(basis, band)
    if found is None:
        found = range_ends(basis, ends, counts, (lo, hi), cps_given, umax, objective, pricer)
    # the low end: high cost and the software limit's low end; the high end: low cost and its high end
    return ranges_of(found, chosen, cps_given, sized, (sat_of(hi, 0).tps, sat_of(lo, 1).tps), rt)


def range_ends(
    basis: Basis,
    ends: tuple[Target, Target],
    counts: Sequence[int],
    scales: tuple[float, float],
    cps_given: int | None,
    umax: float,
    objective: str = "fewest-cps",
    pricer: Pricer | None = None,
) -> Ends:
    """The counts picked at the four ends of :func:`ranges` at one rate (fewest and most CPs,
    fewest and most specialty engines; ``scales``: :func:`range_scales`)."""
    lo, hi = scales

    def at(scale: float, target: Target) -> End:
        scaled = basis.total * scale
        if cps_given is not None:
            ev = evaluate_total(cps_given, scaled, target)
            return ev.n, ev.ziips
        within = []
        for n in counts:
            ev = evaluate_total(n, scaled, target)
            if ev.util <= umax + UTIL_EPS:
                within.append(ev)
                settled = ev.on_gcp <= 0.0 or (target.ziips is not None and ev.ziips >= target.ziips)
                if settled and objective != "least-cost":
                    break  # no later count spills less or has fewer engines (it may cost less)
        if not within:
            return None
        ev = pick(within, objective, pricer)
        return ev.n, ev.ziips

    return at(lo, ends[1]), at(hi, ends[0]), at(lo, ends[0]), at(hi, ends[1])


def ranges_of(
    found: Ends,
    chosen: CountEvaluation,
    cps_given: int | None,
    sized: bool,
    sat: tuple[float, float],
    rt: tuple[float | None, float | None],
    shared: dict[tuple[int | None, int | None], Range] | None = None,
) -> Ranges:
    """The :class:`Ranges` of :func:`ranges` from what it found: the counts picked at the four
    ends (``found``), the saturation rates at the ends of the cost range (``sat``: at the high
    cost and the software limit's low end, at the low cost and its high end) and the ends of
    the response time (``rt``); ``shared``: the ranges of counts already made (for a group of
    rates), by their ends."""
    c_lo, c_hi, z_lo, z_hi = found
    if cps_given is None:
        cps = (None if c_lo is None or not sized else c_lo[0], None if c_hi is None or not sized else c_hi[0])
    else:
        cps = (chosen.n, chosen.n)
    ziips = (None if z_lo is None else z_lo[1], None if z_hi is None else z_hi[1])
    s_lo, s_hi = sat
    r_lo, r_hi = rt
    return Ranges(
        _counts_range(cps, shared),
        _counts_range(ziips, shared),
        Range(
            None if s_lo is None or not math.isfinite(s_lo) else float(s_lo),
            None if s_hi is None or not math.isfinite(s_hi) else float(s_hi),
        ),
        Range(
            None if r_lo is None or not math.isfinite(r_lo) else float(r_lo),
            None if r_hi is None or not math.isfinite(r_hi) else float(r_hi),
        ),
    )  # the ends as finite_or_none finds them


def _counts_range(
    ends: tuple[int | None, int | None], shared: dict[tuple[int | None, int | None], Range] | None
) -> Range:
    """``Range`` of two counts as floats, one record per pair in ``shared`` (ranges are records
    nothing changes: the answers of a group share them)."""
    if shared is None:
        lo, hi = ends
        return Range(None if lo is None else float(lo), None if hi is None else float(hi))
    out = shared.get(ends)
    if out is None:
        lo, hi = ends
        out = shared[ends] = Range(None if lo is None else float(lo), None if hi is None else float(hi))
    return out


def group_range_ends(
    counts: Sequence[int],
    ends: Sequence[tuple[npt.NDArray[np.float64], Target]],
    *,
    cps: int | None,
    umax: float,
    objective: str,
    pricer: Pricer | None,
) -> list[list[End]]:
    """What :func:`models_lib.saturation_ranges.ranges` finds at each of ``ends`` (the native
    demands of a group of rates at that end, and its target) for each demand: the given count's
    (CPs, specialty engines), or those of the count ``objective`` picks among those within the
    ceiling (``None``: none is; :func:`range_ends`).  The ends' targets differ only in their eligible share: every count is evaluated once
    for the demands of every end still looking (:func:`~models_lib.evaluation.count_splits`
    with a share per demand).  Fewest CPs picks the first count within the ceiling: a demand
    stops looking there, and its (CPs, specialty engines) are read without building its evaluation."""
    sizes = [len(totals) for totals, _ in ends]
    offsets = [sum(sizes[:k]) for k in range(len(sizes) + 1)]
    everything = np.concatenate([totals for totals, _ in ends])
    fractions = np.concatenate([np.full(len(totals), end.fraction) for totals, end in ends])
    target = ends[0][1]
    assert all(
        (end.project, end.policy, end.ziips, end.ziip_ceiling)
        == (target.project, target.policy, target.ziips, target.ziip_ceiling)
        for _, end in ends
    )
    found: list[End]
    if cps is not None:
        splits = count_splits(cps, everything, target, fractions)
        found = [(cps, z) for z in splits.engines]
    else:
        first = canonical_objective(objective) == "fewest-cps"
        within: list[list[CountEvaluation]] = [[] for _ in range(len(everything))]
        found = [None] * len(everything)
        active = list(range(len(everything)))
        for n in counts:
            if not active:
                break
            still = []
            splits = count_splits(n, everything[active], target, fractions[active])
            if first:  # the first count within the ceiling is the pick: the others need no evaluation
                ok = (np.array(splits.gcp, dtype=np.float64) / n <= umax + UTIL_EPS).tolist()
                engines = splits.engines
                for j, fits in enumerate(ok):
                    if fits:
                        found[active[j]] = (n, engines[j])
                still = [i for i, fits in zip(active, ok, strict=True) if not fits]
                active = still
                continue
            for j, i in enumerate(active):
                if splits.util(j) <= umax + UTIL_EPS:
                    within[i].append(splits.evaluation(j))
                    if first or (splits.settled(j) and objective != "least-cost"):
                        continue  # no later count spills less or has fewer engines (it may cost less)
                still.append(i)
            active = still
        if not first:
            found = [None if not w else _end(pick(w, objective, pricer)) for w in within]
    return [found[offsets[k] : offsets[k + 1]] for k in range(len(ends))]


def _end(ev: CountEvaluation) -> End:
    return ev.n, ev.ziips


def binding_at_target(
    chosen: CountEvaluation, policy: EnginePolicy, rmodel: ResponseModel | None, tps: float, closed_x: float | None
) -> BindingAtTarget:
    """The busiest resource at the target rate (utilisation as a fraction): the first of the CPs,
    the specialty engines, the software station and the clients whose utilisation no later one
    exceeds (as ``max`` picks it), in words."""
    resource, busiest = "cps", chosen.util
    if chosen.ziips:
        util = chosen.ziip / chosen.ziips
        if util > busiest:
            resource, busiest = "specialty", util
    sw = None if rmodel is None else rmodel.software
    if sw is not None:
        util = tps * sw.service_s / sw.servers
        if util > busiest:
            resource, busiest = "software", util
    if closed_x is not None and closed_x < tps * (1.0 - CLOSED_TOLERANCE):
        util = tps / closed_x if closed_x > 0 else math.inf
        if util > busiest:
            resource, busiest = "clients", util
    if resource == "cps":
        label = f"{chosen.n} CP{'' if chosen.n == 1 else 's'}"
    elif resource == "specialty":
        label = f"{chosen.ziips} {policy.name}{'' if chosen.ziips == 1 else 's'}"
    elif resource == "software":
        assert sw is not None
        label = f"software station ({servers_text(sw.servers)})"
    else:
        label = "the client population"
    return BindingAtTarget(resource=resource, label=label, utilization=finite_or_none(busiest))


def binding_label(sat: Saturation, policy: EnginePolicy, rmodel: ResponseModel | None) -> SaturationBinding | None:
    labels = {
        "cps": "the CPs",
        "specialty": f"the CPs and {policy.name}s together (the {policy.name}s configured fill, then eligible work "
        "spills onto the CPs)",
        "software": "the software station"
        + ("" if rmodel is None or rmodel.software is None else f" ({servers_text(rmodel.software.servers)})"),
    }
    if sat.binding == "none":
        return None
    return SaturationBinding(resource=sat.binding, label=labels[sat.binding])


def servers_text(m: int) -> str:
    return f"{m} server{'' if m == 1 else 's'}"


def software_warnings(sat: Saturation, rmodel: ResponseModel | None, config: ConfigurationData) -> list[SizingWarning]:
    """Say that a software-bound saturation is the measured configuration's, not a scaled one.

    The software station is fitted to the response times published for one configuration (for
    FiTeq: the wait for a free HSM channel, REDP-5114 section 11.3).  No source at hand publishes
    the count behind it (REDP-5114 gives neither the number of channels nor of HSMs), so it is
    not scaled to other configurations; more CPs do not raise it.
    """
    if sat.binding != "software" or rmodel is None or rmodel.software is None:
        return []
    sw = rmodel.software
    interval = ""
    if sw.saturation_low is not None:
        interval = (
            f"; inferred from the points, its 95 % interval is {sw.saturation_low:,.0f}..{sw.saturation_high:,.0f} TPS"
            if sw.saturation_high is not None
            else f"; inferred from the points, it is at least {sw.saturation_low:,.0f} TPS at 95 % and the "
            "points do not bound it above (the range's high end is then where the CPs saturate)"
        )
    return [
        SizingWarning(
            "software-unscaled",
            f"saturation {figure_text(sat.tps)} TPS is the fitted software station ({servers_text(sw.servers)} of "
            f"{sw.service_s * 1000.0:.3g} ms), fitted to the response times published for "
            f"{config.path}/{config.configuration} as measured; more CPs do not raise it, and the source "
            f"publishes no count (of channels, connections or regions) to scale it to another configuration{interval}",
        )
    ]


def knee(rmodel: ResponseModel | None, n: int, cp_factor: float) -> float | None:
    if rmodel is None or not rmodel.has_response_data:
        return None
    try:
        return rmodel.knee_tps(cps=n, cost_factor=cp_factor)
    except ValueError:
        return None


def saturation_warnings(
    t: float, chosen: CountEvaluation, sat: float, policy: EnginePolicy, lower_bound: bool = False
) -> list[SizingWarning]:
    """``beyond-saturation`` when ``t`` transactions/s is at or beyond ``sat``; where ``sat`` is a
    lower bound (the cost is the published upper bound), only beyond it: a published run at
    its bound's rate is where the bound came from (z/OS Connect 256K: 600 TPS on 6 CPs)."""
    if t < sat or (lower_bound and t <= sat * (1.0 + 1e-9)):
        return []
    return [
        SizingWarning(
            "beyond-saturation",
            f"{figure_text(t)} TPS is at or beyond the saturation rate {figure_text(sat)} TPS of {chosen.n} CPs"
            + (f" + {chosen.ziips} {policy.name}s" if chosen.ziips else "")
            + ": no steady state, response time unbounded",
        )
    ]
