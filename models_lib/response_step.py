"""The response step: response time at the chosen count, open (M/M/c) or closed (exact MVA).

References
----------
.. [1] D. A. Menasce, V. A. F. Almeida, L. W. Dowdy, "Performance by Design", Prentice Hall,
   2004 (open and closed queueing networks).
.. [2] M. Reiser and S. S. Lavenberg, "Mean-value analysis of closed multichain queuing
   networks", J. ACM 27(2), 1980, pp. 313-322.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from models_lib.answer import SizingWarning
from models_lib.choice import RateRequest
from models_lib.cost_basis import Basis
from models_lib.evaluation import CountEvaluation, ziip_residence_ms
from models_lib.fastinit import fast_init
from models_lib.queueing import Station, erlang_c, mva
from models_lib.queueing.erlang import _erlang_c_scalar
from models_lib.response import ResponseModel
from models_lib.saturation_ranges import CLOSED_TOLERANCE

__all__ = ["ResponseTimes", "closed_network", "fitted_parts", "response_step"]


@fast_init
@dataclass(frozen=True)
class ResponseTimes:
    """Response time at the chosen count, ms, and the closed network's throughput.

    Parameters
    ----------
    value : float or None
        The fitted model at the central cost (``None`` without published response times).
    low, high : float or None
        The ends of its range (``inf`` high: the high end of the CPU range saturates).
    closed_throughput : float or None
        Throughput of the closed network, transactions/s (``None`` without clients).
    warnings : tuple of SizingWarning
        What the step has to say (closed-network throughput, no data, goal missed).
    """

    value: float | None
    low: float | None
    high: float | None
    closed_throughput: float | None
    warnings: tuple[SizingWarning, ...] = ()


def spread_ms(rmodel: ResponseModel, level: float) -> float:
    """Half-width of the response-time prediction interval at ``level``, ms (0 without a fit):
    :meth:`models_lib.response_interval.ResponseInterval.half_width_ms`."""
    if rmodel.fit is None or rmodel.fit.interval is None:
        return 0.0
    return rmodel.fit.interval.half_width_ms(level)


def _open(
    rmodel: ResponseModel,
    chosen: CountEvaluation,
    t: float,
    cp_factor: float,
    ratios: tuple[float, float],
    spread: float,
) -> tuple[float | None, float | None, float | None]:
    """(value, low, high) of the open network at ``t`` below saturation; ``spread`` is the
    prediction interval's half-width, ms.  The parts of :meth:`ResponseModel.breakdown` it reads
    (:func:`_cp_times`), the software station's wait found once for the three costs."""
    rt_value = rt_low = rt_high = None
    n = chosen.n
    lo_ratio, hi_ratio = ratios
    software = (0.0, True) if rmodel.software is None else _software_wait(rmodel, t)
    if lo_ratio > 0.0:  # a bounds-only path without a lower bound has no CPU floor
        rt_low = low_end_ms(rmodel, t, n, cp_factor, lo_ratio, (chosen.ziip, chosen.ziips), software)
    if rmodel.fixed_ms is not None:  # has_response_data
        _, total = _cp_times(rmodel, t, n, cp_factor, software)
        assert total is not None
        rt_value = total + ziip_residence_ms(chosen.ziip * 1.0, chosen.ziips, t)
        rt_low = max(rt_low or 0.0, rt_value - spread)
        hi_f = cp_factor * hi_ratio
        if rmodel.saturation_tps(cps=n, cost_factor=hi_f) > t:
            _, r_hi = _cp_times(rmodel, t, n, hi_f, software)
            assert r_hi is not None
            rt_high = r_hi + ziip_residence_ms(chosen.ziip * hi_ratio, chosen.ziips, t) + spread
        else:
            rt_high = math.inf  # the high end of the CPU range saturates: no upper bound
    return rt_value, rt_low, rt_high


def low_end_ms(
    rmodel: ResponseModel,
    t: float,
    n: int,
    cp_factor: float,
    ratio: float,
    special: tuple[float, int],
    software: tuple[float, bool] | None = None,
) -> float:
    """The time at the engines at the low end of the cost range, ms: CP service and queueing at
    ``cp_factor`` x ``ratio`` (the low end's share of the central cost), the software station's
    wait, and the residence of the specialty engines' work ``special`` (busy engines, engines)
    scaled by ``ratio``.  The answer's lower bound on the response time (:func:`_open`) and the
    line of it at every rate (:func:`models_lib.answer_curves.response_lower_bound`).
    ``software``: :func:`_software_wait` at ``t``, where already found."""
    if software is None:
        software = (0.0, True) if rmodel.software is None else _software_wait(rmodel, t)
    lower, _ = _cp_times(rmodel, t, n, cp_factor * ratio, software)
    busy, engines = special
    return lower + ziip_residence_ms(busy * ratio, engines, t)


def _software_wait(rmodel: ResponseModel, t: float) -> tuple[float, bool]:
    """The software station's wait at ``t``, ms, and whether it is stable, as
    :meth:`ResponseModel.breakdown` finds them (0 and stable without a station)."""
    if rmodel.software is None:
        return 0.0, True
    m, s = rmodel.software.servers, rmodel.software.service_s
    sw_load = t * s
    if t < m / s and sw_load < m:
        return erlang_c(m, sw_load) * s / (m - sw_load) * 1000.0, True
    return math.inf, False


def _cp_times(
    rmodel: ResponseModel, t: float, n: int, cost_factor: float, software: tuple[float, bool]
) -> tuple[float, float | None]:
    """``(lower_bound_ms, total_ms)`` of ``rmodel.breakdown(t, cps=n, cost_factor=cost_factor)``
    with the same operations, ``software``: :func:`_software_wait` at ``t``.  Inputs the
    breakdown would refuse go to it (it raises)."""
    f = float(cost_factor)
    if not (type(t) is float and 0.0 <= t < math.inf and type(n) is int and n >= 1 and 0.0 < f < math.inf):
        bd = rmodel.breakdown(t, cps=n, cost_factor=cost_factor)
        return bd.lower_bound_ms, bd.total_ms
    b = rmodel.cp_seconds * f  # as projected(): CP-seconds and fixed busy CPs scaled by f
    a = rmodel.intercept_cps * f
    load = max(a + b * t, 0.0)
    service = b * 1000.0
    sw, sw_stable = software
    if t < (n - a) / b and load < n:
        # erlang_c's checks hold: n is an int >= 1, 0 <= load < n
        cp_res = (b + _erlang_c_scalar(n, load) * b / (n - load)) * 1000.0
        lower = service + (cp_res - service) + sw
        if rmodel.fixed_ms is None:
            return lower, None
        return lower, (rmodel.fixed_ms + cp_res + sw if sw_stable else math.inf)
    return service + math.inf + sw, (None if rmodel.fixed_ms is None else math.inf)


def response_step(
    rmodel: ResponseModel | None,
    chosen: CountEvaluation,
    basis: Basis,
    req: RateRequest,
    cp_factor: float,
    sat: float,
    level: float,
    fitted: tuple[float, tuple[SizingWarning, ...]] | None = None,
) -> ResponseTimes:
    """Response time at the chosen count, ms, with its range and warnings.

    Value: the fitted model at the central cost (None without published response times).  Low:
    the larger of value - h and the queueing lower bound at the low end of the CPU range (CP
    residence of the CP work + specialty-engine residence of the eligible work).  High: the
    model at the high end of the CPU range + h.  ``h`` is the half-width of the fit's
    prediction interval at ``level`` (:mod:`models_lib.response_interval`).  ``fitted``: that
    half-width and :func:`fit_warnings`, which do not depend on the rate (:func:`fitted_parts`),
    already found for a group of rates.
    """
    spread, weak = fitted_parts(rmodel, level) if fitted is None else fitted
    rt_value = rt_low = rt_high = closed_x = None
    t, n = req.t, chosen.n
    lo_ratio = basis.low / basis.total if basis.total > 0 else 1.0
    hi_ratio = basis.high / basis.total if basis.total > 0 else 1.0
    warnings: list[SizingWarning] = []
    if rmodel is not None and req.clients is not None and req.think is not None:
        rt_value, rt_low, closed_x = _closed(rmodel, n, cp_factor, t, req.clients, req.think, chosen, lo_ratio)
        warnings.extend(_closed_warnings(req, n, closed_x))
        if rt_value is not None and rmodel.fit is not None:
            rt_high = rt_value + spread
            rt_low = max(rt_low or 0.0, rt_value - spread)
    elif rmodel is not None and t < sat:
        rt_value, rt_low, rt_high = _open(rmodel, chosen, t, cp_factor, (lo_ratio, hi_ratio), spread)
    if rmodel is not None and rmodel.floor_ms is not None:
        rt_low = max(rt_low or 0.0, rmodel.floor_ms)
    return ResponseTimes(
        rt_value, rt_low, rt_high, closed_x, (*warnings, *_response_warnings(req, n, rmodel, rt_value, rt_low), *weak)
    )


def fitted_parts(rmodel: ResponseModel | None, level: float) -> tuple[float, tuple[SizingWarning, ...]]:
    """What :func:`response_step` reads of the response-time fit, the same at every rate: the
    prediction interval's half-width at ``level`` (:func:`spread_ms`, 0 without a model) and
    :func:`fit_warnings`."""
    return (0.0 if rmodel is None else spread_ms(rmodel, level)), tuple(fit_warnings(rmodel, level))


def fit_warnings(rmodel: ResponseModel | None, level: float) -> list[SizingWarning]:
    """``response-fit-weak`` where the response-time fit is weak
    (:meth:`~models_lib.response_interval.ResponseInterval.weak`)."""
    if rmodel is None or rmodel.fit is None or rmodel.fit.interval is None:
        return []
    iv = rmodel.fit.interval
    if not iv.weak(level):
        return []
    hw = iv.half_width_ms(level)
    return [
        SizingWarning(
            "response-fit-weak",
            f"the response time rests on {iv.n} published response times with {iv.params} fitted "
            f"parameter{'s' if iv.params > 1 else ''} ({iv.dof} degrees of freedom): its {level:.0%} range is "
            + (f"±{hw:.3g} ms wide" if math.isfinite(hw) else "unbounded")
            + f" and covers {sum(iv.loo_covered(level))} of the {iv.n} published response times when each is "
            "left out of the fit; read the response time as an order of magnitude",
        )
    ]


def _closed_warnings(req: RateRequest, n: int, closed_x: float) -> list[SizingWarning]:
    t, who = req.t, f"{req.clients} clients with {req.think:g} s think time"
    if closed_x < t * (1.0 - CLOSED_TOLERANCE):
        return [
            SizingWarning(
                "clients-limit-throughput",
                f"{who} reach only {closed_x:.4g} TPS on {n} CPs (X = N / (R + Z)), below {t:g} TPS",
            )
        ]
    if closed_x > t * (1.0 + CLOSED_TOLERANCE):
        return [
            SizingWarning(
                "clients-exceed-throughput",
                f"{who} drive {closed_x:.4g} TPS on {n} CPs (X = N / (R + Z)), more than the {t:g} TPS sized "
                "for; the response time shown is at that higher rate",
            )
        ]
    return []


def _response_warnings(
    req: RateRequest, n: int, rmodel: ResponseModel | None, rt_value: float | None, rt_low: float | None
) -> list[SizingWarning]:
    """``no-response-time-data`` and ``sla-missed``."""
    out = []
    sla = req.sla
    if rmodel is None or not rmodel.has_response_data:
        out.append(
            SizingWarning(
                "no-response-time-data",
                "the source publishes no response times for this configuration: the absolute "
                "response time is unknown; "
                + (
                    f"CP (and {req.policy.name}) service + queueing at the low end of the CPU range gives a "
                    f"lower bound of {rt_low:.3g} ms"
                    if rt_low is not None and math.isfinite(rt_low) and rt_low > 0
                    else "no useful lower bound can be given"
                )
                + (f"; the {sla:g} ms objective cannot be verified" if sla is not None else ""),
            )
        )
    worst = rt_value if rt_value is not None else rt_low
    if sla is not None and worst is not None and worst > sla:
        what = "response time" if rt_value is not None else "lower bound of the response time"
        out.append(
            SizingWarning(
                "sla-missed", f"the {what} {worst:.3g} ms exceeds the {sla:g} ms objective at {req.t:g} TPS on {n} CPs"
            )
        )
    return out


def closed_network(
    rmodel: ResponseModel,
    *,
    cps: int,
    cost_factor: float,
    tps: float,
    ziip_busy: float,
    ziips: int,
    with_fixed: bool = True,
) -> list[Station]:
    """The engine's closed network of one transaction at the rate ``tps`` (its stations for MVA).

    ``cp``: ``cps`` servers with the GCP demand per transaction, the response model's CP cost
    times ``cost_factor`` (LSPR x payload x the share of the work left on GCPs, eligible work
    that spilled onto them included).  MVA has no background load, so the fixed busy CPs of the
    cost model are spread over the transactions at ``tps`` (demand ``b + a / tps``).  ``ziip``:
    ``ziips`` servers with the eligible work the specialty engines carry at ``tps``
    (``ziip_busy`` busy engines).  Then the software station and, ``with_fixed``, the
    load-independent part ``D`` as a delay.  The estimate (:func:`_closed`) and the
    closed-network job both solve this network.
    """
    m = rmodel.projected(cps=cps, cost_factor=cost_factor)
    st = [Station("cp", m.cp_seconds + max(m.intercept_cps, 0.0) / tps, servers=cps)]
    if ziips and ziip_busy > 0.0:
        st.append(Station("ziip", ziip_busy / tps, servers=ziips))
    if m.software is not None:
        st.append(Station("software", m.software.service_s, servers=m.software.servers))
    if with_fixed and m.fixed_ms is not None:
        st.append(Station("fixed", m.fixed_ms / 1000.0, kind="delay"))
    return st


def _closed(
    rmodel: ResponseModel,
    n: int,
    cp_factor: float,
    tps: float,
    clients: int,
    think: float,
    chosen: CountEvaluation,
    lo_ratio: float,
) -> tuple[float | None, float | None, float]:
    """Closed network by exact MVA (:func:`closed_network`): (response ms or None without data,
    lower bound ms or None, throughput transactions/s).

    The lower bound is the same network at the low end of the CPU range and without ``D``
    (none when the CPU range has no lower end).
    """

    def network(scale: float, with_fixed: bool) -> list[Station]:
        return closed_network(
            rmodel,
            cps=n,
            cost_factor=cp_factor * max(scale, 1e-12),
            tps=tps,
            ziip_busy=chosen.ziip * scale,
            ziips=chosen.ziips,
            with_fixed=with_fixed,
        )

    lower_ms: float | None = None
    if lo_ratio > 0.0:
        lower_ms = float(mva(network(lo_ratio, False), clients, think_time=think).response_time) * 1000.0
    if rmodel.fixed_ms is None:
        central = mva(network(1.0, False), clients, think_time=think)
        return None, lower_ms, float(central.throughput)
    res = mva(network(1.0, True), clients, think_time=think)
    return float(res.response_time) * 1000.0, lower_ms, float(res.throughput)
