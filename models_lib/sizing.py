"""The sizing engine: from published data to CPs, zIIPs, MIPS and response time.

:func:`size` answers "what does configuration X need to carry ``tps`` transactions/s on
machine Y?" in these steps:

1. **CPU per transaction on the measured machine.**  Where the source publishes CPU at
   several rates, the linear cost model of :mod:`models_lib.costmodel` (primary component:
   LPAR busy where published, else CICS address spaces) predicts busy CPs at ``tps`` with a
   95 % prediction interval.  Where the source only publishes throughput observed on a known
   capacity (:class:`~models_lib.inputs.CapacityBound`), CPU per transaction is bounded:
   ``<= engines / tps`` for a sustained rate, ``> engines / tps`` for an exhausted one.  The
   central value is then the **upper bound** (conservative: the engine never promises more
   capacity than a published run demonstrated), and the interval runs from the lower bound (0
   where none is published) to the upper bound.  Where the source also publishes a table of
   throughput against clients at a think time, measured on the capacity of the sustained
   bound (z/OS Connect EE V3.0, section 7.1), the upper bound is tightened to the largest cost
   with which the closed network reproduces every row (:func:`cost_from_throughput_rows`,
   :data:`THROUGHPUT_TABLE_TOLERANCE`); the reported range keeps the published bounds.
2. **Payload.**  A published proportionality scales the cost from the measured payload; a
   "linear" statement with an unknown fixed part gives a range whose higher-cost end is used.
3. **Projection** to the target machine and CP count with LSPR (:mod:`models_lib.capacity`):
   CP-seconds on the target = CP-seconds measured * factor.  When ``cps`` is not given the
   smallest CP count is searched from 1 up: per-CP capacity depends on the count, so every
   count gets its own factor.
4. **zIIP split** (:mod:`models_lib.ziip`) with the published eligible share (0, with a
   warning, where none is published).
5. **Response time** (:mod:`models_lib.response`): open M/M/c at ``tps`` or, with ``clients``
   and ``think_time_s``, a closed network solved by MVA (:mod:`models_lib.queueing`).
6. **Saturation** rate and **warnings** with stable codes (:data:`WARNING_CODES`).

References
----------
.. [1] IBM, "Large Systems Performance Reference" (LSPR), SC28-1187.
.. [2] D. A. Menasce, V. A. F. Almeida, L. W. Dowdy, "Performance by Design", Prentice Hall,
   2004 (service demand law, open and closed queueing networks).
.. [3] M. Reiser and S. S. Lavenberg, "Mean-value analysis of closed multichain queuing
   networks", J. ACM 27(2), 1980, pp. 313-322.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from numbers import Integral, Real
from typing import Any

from models_lib.capacity import (
    Projection,
    projection_factor,
    rating,
)
from models_lib.costmodel import (
    DEFAULT_LEVEL,
    ConfigurationModel,
    PayloadModel,
    PayloadScale,
    fit_configuration,
    payload_model,
)
from models_lib.engine import (
    EnginePolicy,
    Saturation,
    engine_policy,
    projections,
    rated_counts,
    saturation,
    specialty_engines,
    split_pools,
)
from models_lib.inputs import CapacityBound, CapacityTable, ComponentCost, ConfigurationData
from models_lib.queueing import Station, erlang_c, mva
from models_lib.response import ResponseModel, fit_response

__all__ = [
    "DEFAULT_MAX_UTILIZATION",
    "THROUGHPUT_TABLE_TOLERANCE",
    "WARNING_CODES",
    "SizingResult",
    "SizingWarning",
    "closed_network",
    "cost_from_throughput_rows",
    "size",
]

#: Default ceiling on the mean utilisation of the general-purpose CPs (and, unless told
#: otherwise, of the zIIPs): 0.85.  The sources show healthy response at up to 76 % LPAR busy
#: (REDP-5114 Table 11-1 row 4: 75.99 % of 10 CPs at 8680 TPS, 14 ms) and call 97 % "constrained
#: by the number of CPs available" (REDP-5320, performance class monitoring section).  0.85 sits
#: between the two and leaves headroom for peaks inside an RMF interval: for a 10-CP pool the
#: M/M/c queueing delay at 85 % is 2.6 times that at 76 %, and grows another 4.7 times by 95 %.
DEFAULT_MAX_UTILIZATION = 0.85

#: Relative shortfall allowed between a published throughput row and the closed network that
#: reproduces it, when a throughput table tightens a CPU bound: 0.01 (an assumption).
#:
#: The z/OS Connect EE V3.0 table (section 7.1) prints the paced targets N / Z = 200, 400, ...,
#: 1000 TPS and says each run "was maintained at" that rate.  A closed loop runs at
#: X = N / (Z + R) and can only fall short of N / Z, so the tolerance is one-sided.  1 % is
#: chosen because (a) the table already rounds a shortfall of that size away on its lightest
#: row: at the resulting cost (4.26 ms) the CPU service alone puts 100 clients at 198.3 TPS
#: (-0.85 %), printed "200", so 1 % asks no more precision of the 1000-TPS row than the table
#: shows on the 200-TPS one; (b) it is half the engine's 2 % closed-network tolerance, so a
#: sizing of the published runs reproduces them without a ``clients-limit-throughput``
#: warning and with margin; (c) where a rate was not kept the document says so in its own
#: section (12, 256K: "the system ran out of CPU"), so the 3.9 % shortfall that the published
#: bound gives at 500 clients (961 TPS) is not what "maintained" describes.  The cost is
#: sensitive to this number, because X >= (1 - tol) N / Z caps the response time at
#: R <= Z tol / (1 - tol) (5.05 ms here) whatever the capacity: 0.5 % gives 2.48 ms, 1 %
#: 4.26 ms, 2 % 5.42 ms (6 CPs, Z = 0.5 s; see docs/models.md).
THROUGHPUT_TABLE_TOLERANCE = 0.01

#: Stable warning codes, with what triggers them.
WARNING_CODES: Mapping[str, str] = {
    "extrapolation": "tps outside the measured ETR range",
    "projection": "another machine type or CP count than measured (LSPR factor applied)",
    "payload-outside-range": "payload outside the published payload range or relation",
    "payload-scaled": "CPU per transaction scaled to the payload with a published relation",
    "ratio-only": "the configuration has published CPU ratios only to other configurations",
    "bounds-only": "CPU per transaction from published throughput bounds (and throughput table), not measured",
    "interval-assumed": "the cost interval rests on an assumed spread (too few points)",
    "no-response-time-data": "no published response times: absolute response time unknown",
    "no-eligibility-data": "no published zIIP eligibility: 0 % assumed",
    "eligibility-scope": "the eligible share was published for part of the demand only",
    "sla-missed": "the response time (or its lower bound) exceeds the SLA",
    "utilization-above-ceiling": "the given CPs run above max_utilization",
    "ziip-overflow": "the given zIIPs are short: eligible work runs on CPs (IIPCP)",
    "capacity-exceeded": "no CP count of the target machine carries the demand",
    "beyond-saturation": "tps is at or beyond the saturation rate: no steady state",
    "clients-limit-throughput": "the closed network (clients, think time) falls > 2 % short of tps",
    "clients-exceed-throughput": "the closed network drives > 2 % more than tps: sized for less",
    "no-cpu-data": "no CPU data at all: CPs cannot be sized",
    "engine-ratio": "the specialty-engine-to-CP ratio of the generation binds: eligible work runs on CPs",
    "sla-unreachable": "no CP count meets the response-time goal: sized on CPU alone",
    "published-limit": "the target rate passes a software limit that a source states",
    "cics-only": "CPU of the CICS regions only (no LPAR figure published; no lpar_overhead given)",
    "software-unscaled": "the saturation is the fitted software station of the measured configuration, not scaled",
}

_UTIL_EPS = 1e-9
# A closed network's throughput N / (R + Z) is always a little below the paced N / Z; a
# difference up to 2 % from the sized rate is not reported.
_CLOSED_TOLERANCE = 0.02


@dataclass(frozen=True)
class SizingWarning:
    """A warning with a stable ``code`` (see :data:`WARNING_CODES`) and a ``message``."""

    code: str
    message: str


@dataclass(frozen=True)
class SizingResult:
    """Result of :func:`size`.  All CPU figures are on the target machine.

    Parameters
    ----------
    path, configuration : str
        Slugs of the sized configuration.
    target_machine, target_machine_type : str
        Target machine slug and IBM machine type.
    tps : float
        Rate sized for, transactions/s.
    cps : int or None
        General-purpose CPs the figures are evaluated at (the given ``cps``, else
        ``cps_required``, else the largest rated count).
    cps_required : int or None
        Smallest CP count that keeps GCP utilisation <= ``max_utilization`` (and meets the
        SLA where a response-time model with data can); ``None`` if none can.
    ziips, ziips_required : int or None
        zIIPs evaluated (given or required) and required (all eligible work within the zIIP
        ceiling).
    cpu_per_tran_ms : Mapping[str, float or None]
        ``total``, ``gcp``, ``ziip`` (CP-ms per transaction) and ``low``/``high`` of the total
        (95 % prediction interval, or the bounded range).
    busy_cps : Mapping[str, float or None]
        ``total``, ``gcp``, ``ziip``, ``ziip_on_gcp`` busy engines.
    breakdown : Mapping[str, float]
        Busy engines per published component (``lpar``, ``cics``, ``tor``, ``aor``, ``for``,
        ``smsvsam``, ``cf``); ``cf`` counts coupling-facility engines, projected with the same
        factor (an assumption).
    gcp_utilization, ziip_utilization : float or None
        Mean utilisation (fraction).
    mips, msu : float or None
        Capacity demand of the GCP work, LSPR MIPS and MSU at ``cps``.
    ziip_mips : float or None
        Capacity demand of the zIIP work, MIPS (zIIPs rated as CPs of the same count).
    response_time_ms : Mapping[str, float or None]
        ``value`` (``None`` where no absolute model exists), ``low``, ``high``.
    saturation_tps : float or None
        Rate at which the CPs (+ zIIPs) or the software station saturate, transactions/s.
    knee_tps : float or None
        Rate at which the response time doubles its low-load value.
    closed_throughput_tps : float or None
        Throughput of the closed network when ``clients`` were given.
    warnings : tuple of SizingWarning
    basis : Mapping[str, Any]
        ``points`` (ids), ``model`` (component, slope_ms, intercept_cps, r2, n, etr_min,
        etr_max), ``projection`` (from/to machine type and CPs, factor, source, rating ids),
        ``statements`` (ids), ``assumptions`` (text), ``native`` (the demand on the measured
        LPAR before projection: component, intercept_cps (busy CPs), slope_s (CP-seconds per
        transaction), payload_factor, busy_cps at ``tps``; all payload-scaled).
    max_utilization : float
        Ceiling used.
    specialty_engine : {"zIIP", "zAAP"}
        The engine that runs the eligible work on the target generation (``ziips`` and
        ``ziip_*`` fields count these engines).
    specialty_engine_max : int or None
        Most such engines the rules allow beside ``cps`` CPs (``None``: no rule stored).
    binding_resource : Mapping or None
        The busiest resource at ``tps``: ``resource`` ("cps", "specialty", "software",
        "clients"), ``label``, ``utilization``.
    saturation_binding : Mapping or None
        The resource that saturates first: ``resource``, ``label``.
    saturation_kind : {"value", "lower-bound"}
        "lower-bound" where the cost is an upper bound (bounds-only): the true saturation rate
        is at least ``saturation_tps``.
    ranges : Mapping[str, list]
        ``cps`` (CPs required), ``ziips``, ``saturation_tps``, ``response_time_ms``: [low,
        high] from the cost range (prediction interval or published bounds), widened by the
        projection band where given; ``None`` for an end that is unbounded or unknown.
    capacity_detail : Mapping or None
        Served as ``capacity``: the target model's MIPS and MSU installed and used for the CPs,
        the specialty engines' MIPS (not priced), utilisation of each pool and the projection
        basis (both models, ratings, factors, source).
    """

    path: str
    configuration: str
    target_machine: str
    target_machine_type: str
    tps: float
    cps: int | None
    cps_required: int | None
    ziips: int | None
    ziips_required: int | None
    cpu_per_tran_ms: Mapping[str, float | None]
    busy_cps: Mapping[str, float | None]
    breakdown: Mapping[str, float]
    gcp_utilization: float | None
    ziip_utilization: float | None
    mips: float | None
    msu: float | None
    ziip_mips: float | None
    response_time_ms: Mapping[str, float | None]
    saturation_tps: float | None
    knee_tps: float | None
    closed_throughput_tps: float | None
    warnings: tuple[SizingWarning, ...]
    basis: Mapping[str, Any]
    max_utilization: float = DEFAULT_MAX_UTILIZATION
    specialty_engine: str = "zIIP"
    specialty_engine_max: int | None = None
    binding_resource: Mapping[str, Any] | None = None
    saturation_binding: Mapping[str, Any] | None = None
    saturation_kind: str = "value"
    ranges: Mapping[str, list[float | None]] = field(default_factory=dict)
    capacity_detail: Mapping[str, Any] | None = None

    def warning_codes(self) -> tuple[str, ...]:
        """Codes of :attr:`warnings`, in order."""
        return tuple(w.code for w in self.warnings)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe plain form: non-finite floats become ``None``."""
        out: dict[str, Any] = {
            "path": self.path,
            "configuration": self.configuration,
            "target_machine": self.target_machine,
            "target_machine_type": self.target_machine_type,
            "tps": self.tps,
            "cps": self.cps,
            "cps_required": self.cps_required,
            "ziips": self.ziips,
            "ziips_required": self.ziips_required,
            "cpu_per_tran_ms": dict(self.cpu_per_tran_ms),
            "busy_cps": dict(self.busy_cps),
            "breakdown": dict(self.breakdown),
            "gcp_utilization": self.gcp_utilization,
            "ziip_utilization": self.ziip_utilization,
            "mips": self.mips,
            "msu": self.msu,
            "ziip_mips": self.ziip_mips,
            "response_time_ms": dict(self.response_time_ms),
            "saturation_tps": self.saturation_tps,
            "knee_tps": self.knee_tps,
            "closed_throughput_tps": self.closed_throughput_tps,
            "warnings": [{"code": w.code, "message": w.message} for w in self.warnings],
            "basis": self.basis,
            "max_utilization": self.max_utilization,
            "specialty_engine": self.specialty_engine,
            "specialty_engine_max": self.specialty_engine_max,
            "binding_resource": self.binding_resource,
            "saturation_binding": self.saturation_binding,
            "saturation_kind": self.saturation_kind,
            "ranges": {k: list(v) for k, v in self.ranges.items()},
            "capacity": self.capacity_detail,
        }
        safe: dict[str, Any] = _json_safe(out)
        return safe


def _json_safe(value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, Integral):
        return int(value)
    if isinstance(value, Real):
        v = float(value)
        return v if math.isfinite(v) else None
    if isinstance(value, Mapping):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    raise TypeError(f"cannot serialise {type(value).__name__}")


def _finite_or_none(v: float | None) -> float | None:
    return None if v is None or not math.isfinite(v) else float(v)


# ---------------------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------------------


def _opt_int(name: str, value: int | None, minimum: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Integral) or int(value) < minimum:
        raise ValueError(f"{name} must be an int >= {minimum}, got {value!r}")
    return int(value)


def _pos_float(name: str, value: float, *, allow_zero: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ValueError(f"{name} must be a number, got {value!r}")
    v = float(value)
    ok = (v >= 0.0) if allow_zero else (v > 0.0)
    if not (ok and math.isfinite(v)):
        raise ValueError(f"{name} must be finite and {'>=' if allow_zero else '>'} 0, got {value!r}")
    return v


# ---------------------------------------------------------------------------------------
# CPU basis: points or bounds
# ---------------------------------------------------------------------------------------


@dataclass
class _Basis:
    """Native CPU demand at tps, before projection (busy engines on the measured LPAR)."""

    component: str
    total: float
    low: float
    high: float
    intercept: float
    slope: float  # engine-seconds per transaction (central)
    from_cps: int
    payload_factor: float = 1.0
    components: dict[str, float] = field(default_factory=dict)
    points: list[int] = field(default_factory=list)
    statements: list[int] = field(default_factory=list)
    model: dict[str, Any] | None = None
    assumptions: list[str] = field(default_factory=list)
    warnings: list[SizingWarning] = field(default_factory=list)
    cost_is_upper_bound: bool = False
    server_share: dict[str, Any] | None = None


def _bound_range(b: CapacityBound) -> tuple[float, float]:
    lo = 0.0 if b.response_bytes_min is None else float(b.response_bytes_min)
    hi = math.inf if b.response_bytes_max is None else float(b.response_bytes_max)
    return lo, hi


def _select_bounds(
    bounds: Sequence[CapacityBound], payload: int | None
) -> tuple[list[CapacityBound], str | None, bool]:
    """Bounds that apply to ``payload``; (bounds, note, payload outside every bound range)."""
    groups: dict[tuple[float, float], list[CapacityBound]] = {}
    for b in bounds:
        groups.setdefault(_bound_range(b), []).append(b)
    if payload is None:
        key = min(groups, key=lambda k: (k[0], k[1]))
        lo, hi = key
        if lo == 0.0 and hi == math.inf:
            return groups[key], None, False
        return (
            groups[key],
            f"payload not given: the bounds measured at {_bytes_text(lo, hi)} are used",
            False,
        )
    inside = [g for k, g in groups.items() if k[0] <= payload <= k[1]]
    if inside:
        return [b for g in inside for b in g], None, False

    def distance(k: tuple[float, float]) -> float:
        edge = k[0] if payload < k[0] else k[1]
        return abs(math.log(payload / max(edge, 1.0)))

    key = min(groups, key=lambda k: (distance(k), -k[1]))
    return groups[key], None, True


def _bytes_text(lo: float, hi: float) -> str:
    if lo == hi:
        return f"{int(lo)} bytes"
    return f"{int(lo)}-{'open' if hi == math.inf else int(hi)} bytes"


def _basis_from_points(cfg: ConfigurationData, model: ConfigurationModel, tps: float, level: float) -> _Basis:
    fit = model.primary_fit()
    comp = model.primary
    assert comp is not None
    if cfg.lpar_cps is None:
        raise ValueError(f"config.lpar_cps is required to project {cfg.path}/{cfg.configuration}")
    pi = fit.prediction_interval(tps, level)
    central = max(0.0, fit.predict(tps))
    basis = _Basis(
        component=comp,
        total=central,
        low=max(0.0, pi.low),
        high=max(0.0, pi.high),
        intercept=fit.intercept,
        slope=fit.slope,
        from_cps=cfg.lpar_cps,
        components=_consistent_parts(model, tps, central),
        points=list(model.point_ids),
        model={"component": comp, **fit.summary()},
    )
    if not fit.in_range(tps):
        basis.warnings.append(
            SizingWarning(
                "extrapolation",
                f"{tps:g} TPS is outside the measured ETR range {fit.etr_min:g}-{fit.etr_max:g} "
                f"TPS of {cfg.path}/{cfg.configuration}: the linear cost model is extrapolated",
            )
        )
    if fit.interval_basis != "residuals":
        basis.warnings.append(
            SizingWarning(
                "interval-assumed",
                f"only {fit.n} points: the cost interval assumes a relative spread of "
                f"{(fit.assumed_relative_sd or 0.0) * 100:.1f} % per measurement",
            )
        )
    basis.assumptions.append(
        f"busy CPs = intercept + slope x TPS fitted by least squares to {fit.n} published "
        f"points ({comp}); interval = {level:.0%} prediction interval"
    )
    return basis


#: Components published as parts of a whole: the CICS address spaces are TOR + AOR + FOR
#: (REDP-5320 prints "CICS" as their sum, e.g. 34.99 + 310.84 + 14.90 = 360.73 % of one CP).
_PARTS = {"cics": ("tor", "aor", "for")}


def _consistent_parts(model: ConfigurationModel, tps: float, total: float) -> dict[str, float]:
    """Busy engines per component at ``tps`` whose parts add up to their whole.

    Each component has its own linear fit; far from the measured rates the separate lines
    disagree (a negative intercept clipped to 0, a part above its whole).  The primary
    component's prediction is the total; a whole (``cics`` under an ``lpar`` total) is capped by
    the total; its parts share the whole in proportion to their own predictions (to their
    slopes, the marginal cost per transaction, where a part's prediction is clipped at 0).
    """
    predicted = model.predict_busy(tps)
    out = dict(predicted)
    primary = model.primary
    if primary is not None:
        out[primary] = total
    for whole, names in _PARTS.items():
        if whole not in out:
            continue
        value = out[whole] if whole == primary else min(out[whole], total)
        out[whole] = value
        parts = [n for n in names if n in model.fits]
        weights = [predicted[n] for n in parts]
        if min(weights, default=0.0) <= 0.0:  # a part's line clipped at 0: out of its range
            weights = [max(model.fits[n].slope, 0.0) for n in parts]
        scale = sum(weights)
        for n, w in zip(parts, weights, strict=True):
            out[n] = value * w / scale if scale > 0.0 else 0.0
    return out


def _lpar_step(basis: _Basis, cfg: ConfigurationData, overhead: float | None) -> None:
    """From the CICS regions to the LPAR where only CICS CPU is published (in place)."""
    if basis.component == "lpar":
        return
    if overhead is None:
        basis.warnings.append(
            SizingWarning(
                "cics-only",
                f"{cfg.path}/{cfg.configuration} publishes the CPU of the '{basis.component}' address "
                "spaces only: the CPs sized carry those regions, not the rest of the LPAR (z/OS, "
                "TCP/IP, monitors). Give lpar_overhead (the rest as a share of the CICS CPU) to size "
                "the LPAR",
            )
        )
        return
    k = 1.0 + overhead
    basis.total *= k
    basis.low *= k
    basis.high *= k
    basis.intercept *= k
    basis.slope *= k
    basis.components["lpar"] = basis.total
    basis.assumptions.append(
        f"LPAR = {basis.component} CPU x {k:.4g}: the rest of the LPAR is {overhead:.1%} of the "
        f"{basis.component} CPU (lpar_overhead, given; the source publishes no LPAR figure)"
    )


def _eligibility_step(
    basis: _Basis,
    cfg: ConfigurationData,
    table: CapacityTable,
    server_share: float | None,
    other: ComponentCost | None,
) -> tuple[float, tuple[float, float], SizingWarning | None]:
    """Eligible share of the sized demand, its range, and a warning (in place: basis notes).

    A published share applies to the component it was published for.  Where that is part of
    the sized demand (the z/OS Connect server within the LPAR), the share is scaled by the
    part's share of the demand: ``server_share`` when given, else 1 - (a published cost of the
    other component on the same machine type, LSPR-projected to the measured CP count) / the
    cost per transaction; without either, the share is applied to the whole demand and the
    ``eligibility-scope`` warning says so.
    """
    elig = cfg.eligibility
    if elig is None:
        return (
            0.0,
            (0.0, 0.0),
            SizingWarning(
                "no-eligibility-data",
                "no zIIP/zAAP eligibility is published for this configuration: 0 % eligible assumed "
                "(all work on general-purpose CPs)",
            ),
        )
    if elig.statement_id is not None:
        basis.statements.append(elig.statement_id)
    basis.assumptions.append(
        f"eligible share {elig.fraction:.4g} of '{elig.applies_to}' (published range {elig.low:.4g}-"
        f"{elig.high:.4g}, {elig.reference})"
    )
    scope = set(elig.applies_to.split("+"))
    if elig.applies_to == "all" or basis.component in scope:
        return elig.fraction, (elig.low, elig.high), None
    share = _part_share(basis, cfg, table, server_share, other, scope)
    if share is None:
        return (
            elig.fraction,
            (elig.low, elig.high),
            SizingWarning(
                "eligibility-scope",
                f"the eligible share {elig.fraction:.4g} was published for '{elig.applies_to}' but is applied "
                f"to the whole '{basis.component}' demand (no split published, none derivable, no server_share "
                f"given); work outside '{elig.applies_to}' is usually not eligible, so CP demand may be understated",
            ),
        )
    s, s_lo, s_hi, text = share
    basis.assumptions.append(text)
    basis.server_share = {"value": s, "low": s_lo, "high": s_hi, "source": text}
    return (
        elig.fraction * s,
        (elig.low * s_lo, elig.high * s_hi),
        SizingWarning(
            "eligibility-scope",
            f"the eligible share {elig.fraction:.4g} was published for '{elig.applies_to}' only: it is applied "
            f"to that part, {s:.1%} (range {s_lo:.1%}-{s_hi:.1%}) of the '{basis.component}' demand; {text}",
        ),
    )


def _part_share(
    basis: _Basis,
    cfg: ConfigurationData,
    table: CapacityTable,
    given: float | None,
    other: ComponentCost | None,
    scope: set[str],
) -> tuple[float, float, float, str] | None:
    """(share, low, high, sentence) of the eligible part in the sized demand, or ``None``."""
    if given is not None:
        return given, given, given, f"server_share {given:.4g} given by the user"
    if other is None or other.component in scope or other.machine_type != cfg.machine_type or basis.slope <= 0:
        return None
    k = projection_factor(table, other.machine_type, other.cps, cfg.machine_type, basis.from_cps).factor
    cost = basis.slope / basis.payload_factor  # as measured (the other cost is at its own payload)

    def share(c: float) -> float:
        return min(1.0, max(0.0, 1.0 - c * k / cost))

    text = (
        f"the {other.component} part of each transaction is taken as the published {other.component} cost "
        f"on the same machine type, {other.cost_s * 1000:.4g} ms (range {other.low_s * 1000:.4g}-"
        f"{other.high_s * 1000:.4g}) at {other.cps} CPs x LSPR {k:.4g} to {basis.from_cps} CPs ({other.reference}), "
        f"of {cost * 1000:.4g} ms per transaction; the rest is the server the share was published for. "
        "Override with server_share"
    )
    basis.statements.extend(other.statement_ids)
    return share(other.cost_s), share(other.high_s), share(other.low_s), text


def cost_from_throughput_rows(
    rows: Sequence[tuple[int, float]],
    think_time_s: float,
    servers: int,
    upper: float,
    tolerance: float = THROUGHPUT_TABLE_TOLERANCE,
) -> float:
    """Largest CPU per transaction with which a closed network reproduces published rows.

    The network is the only station known for a bounds-only path: ``servers`` CPs (one
    ``servers``-server queue of demand ``D``) and ``clients`` terminals thinking
    ``think_time_s``; no fixed delay, no other station.  Its throughput X(N; D), solved exactly
    by :func:`models_lib.queueing.mva`, falls as ``D`` grows, so the set of costs with
    ``X(N; D) >= (1 - tolerance) * tps`` for every row ``(N, tps)`` is an interval [0, D*];
    D* is found by bisection on ``D`` in (0, ``upper``].

    Parameters
    ----------
    rows : sequence of (int, float)
        Published (clients, transactions/s) pairs.
    think_time_s : float
        Think time of the rows, s (>= 0).
    servers : int
        CPs of the LPAR the rows were measured on (>= 1).
    upper : float
        Published upper bound on the cost, CP-seconds per transaction (> 0); the result never
        exceeds it.
    tolerance : float
        Allowed relative shortfall of the network below each row, in [0, 1); default
        :data:`THROUGHPUT_TABLE_TOLERANCE`.

    Returns
    -------
    float
        D*, CP-seconds per transaction: ``upper`` when the network reproduces every row at
        ``upper``; else the largest cost (to a relative 1e-10 of ``upper``, from below) that
        does; ``nan`` when no cost does (a row above what the clients can drive at zero cost,
        N / Z, by more than the tolerance).

    Raises
    ------
    ValueError
        Naming the argument, for an empty ``rows``, a bad row, ``think_time_s``, ``servers``,
        ``upper`` or ``tolerance``.

    References
    ----------
    .. [1] M. Reiser and S. S. Lavenberg, J. ACM 27(2), 1980 (exact MVA); Menasce, Almeida and
       Dowdy (2004), interactive response-time law X = N / (R + Z).
    """
    if not rows:
        raise ValueError("rows must not be empty")
    checked: list[tuple[int, float]] = []
    for row in rows:
        n, x = row
        if isinstance(n, bool) or not isinstance(n, Integral) or int(n) < 1:
            raise ValueError(f"rows: clients must be an int >= 1, got {row!r}")
        checked.append((int(n), _pos_float("rows: tps", x)))
    think = _pos_float("think_time_s", think_time_s, allow_zero=True)
    c = _opt_int("servers", servers, 1)
    assert c is not None
    cap = _pos_float("upper", upper)
    tol = _pos_float("tolerance", tolerance, allow_zero=True)
    if tol >= 1.0:
        raise ValueError(f"tolerance must be in [0, 1), got {tolerance!r}")
    return _cost_from_rows(tuple(sorted(checked)), think, c, cap, tol)


# Sizing calls this with the same few arguments again and again (curves, batches, jobs): one
# bisection is ~40 exact MVA solves (~10 ms), a cache hit is free.
@lru_cache(maxsize=64)
def _cost_from_rows(rows: tuple[tuple[int, float], ...], think: float, servers: int, upper: float, tol: float) -> float:
    def reproduces(demand: float) -> bool:
        model = _row_throughputs(tuple(n for n, _ in rows), think, servers, demand)
        return all(m >= (1.0 - tol) * x for m, (_, x) in zip(model, rows, strict=True))

    # At D -> 0 the network runs at N / Z (or without limit when Z = 0).
    if think > 0.0 and any(n / think < (1.0 - tol) * x for n, x in rows):
        return math.nan
    if reproduces(upper):
        return upper
    lo, hi = 0.0, upper
    while hi - lo > 1e-10 * upper:
        mid = 0.5 * (lo + hi)
        if reproduces(mid):
            lo = mid
        else:
            hi = mid
    return lo


@lru_cache(maxsize=256)
def _row_throughputs(clients: tuple[int, ...], think: float, servers: int, demand: float) -> tuple[float, ...]:
    """X(N), transactions/s, of ``servers`` CPs of ``demand`` s and think time ``think`` s, at
    each N of ``clients``: one exact MVA solve at the largest N gives the whole curve."""
    curve = mva([Station("cp", demand, servers=servers)], max(clients), think_time=think).throughput_curve
    assert curve is not None
    return tuple(float(curve[n - 1]) for n in clients)


def _table_bound(cfg: ConfigurationData, sustained: Sequence[CapacityBound]) -> CapacityBound | None:
    """The sustained bound that restates the top row of the published throughput table.

    The table's rows were measured on that bound's capacity and payload range (z/OS Connect EE
    V3.0: 500 clients at 0.5 s ran 1000 TPS on 6 GCPs for 1K-128K responses); only such a
    bound ties the table to a capacity and a payload range.  A bound that matches a lower row
    only (256K: 300 clients, 600 TPS) is another experiment.  ``None`` without such a bound, or
    when the bound's engines include zIIPs (the network would need their split).
    """
    if not cfg.throughput_rows or cfg.think_time_s is None:
        return None
    top_clients, top_tps = max(cfg.throughput_rows)
    for b in sustained:
        if (
            b.ziips == 0
            and b.engines == b.gcps
            and b.clients == top_clients
            and math.isclose(b.tps, top_tps, rel_tol=1e-12)
            and b.think_time_s is not None
            and math.isclose(b.think_time_s, cfg.think_time_s, rel_tol=1e-12)
        ):
            return b
    return None


def _basis_from_bounds(
    cfg: ConfigurationData, tps: float, payload: int | None
) -> tuple[_Basis, tuple[float, float] | None, bool]:
    chosen, note, outside = _select_bounds(cfg.bounds, payload)
    sustained = [b for b in chosen if b.outcome == "sustained"]
    exhausted = [b for b in chosen if b.outcome == "exhausted"]
    upper_b = min(sustained, key=lambda b: b.engines / b.tps) if sustained else None
    lower_b = max(exhausted, key=lambda b: b.engines / b.tps) if exhausted else None
    upper = None if upper_b is None else upper_b.engines / upper_b.tps
    lower = 0.0 if lower_b is None else lower_b.engines / lower_b.tps
    ref_b = upper_b or lower_b
    assert ref_b is not None
    parts = []
    if upper_b is not None and upper is not None:
        parts.append(
            f"<= {upper_b.engines}/{upper_b.tps:g} = {upper * 1000:.4g} ms "
            f"(sustained {upper_b.tps:g} TPS on {upper_b.engines} engines, {upper_b.reference})"
        )
    if lower_b is not None:
        parts.append(
            f"> {lower_b.engines}/{lower_b.tps:g} = {lower * 1000:.4g} ms "
            f"(CPU exhausted before {lower_b.tps:g} TPS on {lower_b.engines} engines, "
            f"{lower_b.reference})"
        )
    warnings: list[SizingWarning] = []
    assumptions: list[str] = []
    if upper is None:
        central = lower
        high = lower
        choice = "Only a lower bound is published: the central value is that lower bound (optimistic)"
    else:
        if lower > upper:
            assumptions.append(
                f"published bounds conflict (lower {lower * 1000:.4g} ms > upper "
                f"{upper * 1000:.4g} ms): the lower bound is ignored"
            )
            lower = 0.0
        central, high = upper, upper
        choice = (
            "Central value = the upper bound (conservative: no more capacity is assumed than a "
            "published run demonstrated)"
        )
    statements = [b.statement_id for b in (upper_b, lower_b) if b is not None]
    table_b = None if outside else _table_bound(cfg, sustained)
    if table_b is not None and upper is not None:
        tightened = _tighten_with_table(cfg, table_b, upper, lower)
        if tightened is not None:
            central, choice, table_text = tightened
            assumptions.append(table_text)
            statements.append(table_b.statement_id)
            if cfg.throughput_statement_id is not None:
                statements.append(cfg.throughput_statement_id)
    lo_b, hi_b = _bound_range(ref_b)
    warnings.append(
        SizingWarning(
            "bounds-only",
            f"{cfg.path}/{cfg.configuration} publishes no CPU measurements; CPU per transaction "
            f"(whole LPAR, native machine) is bounded: {'; '.join(parts)}. {choice}; range "
            f"{lower * 1000:.4g}-{high * 1000:.4g} ms per transaction",
        )
    )
    assumptions.insert(0, f"CPU per transaction from published throughput bounds. {choice}")
    if note:
        assumptions.append(note)
    basis = _Basis(
        component="lpar",
        total=central * tps,
        low=lower * tps,
        high=high * tps,
        intercept=0.0,
        slope=central,
        from_cps=ref_b.gcps,
        components={"lpar": central * tps},
        statements=list(dict.fromkeys(statements)),
        model=None,
        assumptions=assumptions,
        warnings=warnings,
        cost_is_upper_bound=upper is not None,
    )
    return basis, (lo_b, hi_b), outside


def _tighten_with_table(
    cfg: ConfigurationData, table_b: CapacityBound, upper: float, lower: float
) -> tuple[float, str, str] | None:
    """Central cost from the throughput table, the sentence for the ``bounds-only`` warning and
    the assumption; ``None`` when the table does not tighten ``upper`` (or contradicts the
    bounds: no cost reproduces it, or only one below the published lower bound)."""
    think = cfg.think_time_s
    assert think is not None
    rows = tuple(sorted(cfg.throughput_rows))
    cost = cost_from_throughput_rows(rows, think, table_b.gcps, upper)
    if not math.isfinite(cost) or cost >= upper or cost <= lower:
        return None
    tol = THROUGHPUT_TABLE_TOLERANCE
    clients = tuple(n for n, _ in rows)
    x_upper = _row_throughputs(clients, think, table_b.gcps, upper)
    x_cost = _row_throughputs(clients, think, table_b.gcps, cost)
    short, worst = min((m / x - 1.0, n) for m, (n, x) in zip(x_upper, rows, strict=True))
    published = ", ".join(f"{n}: {x:g}" for n, x in rows)
    model = ", ".join(f"{n}: {m:.4g}" for m, n in zip(x_cost, clients, strict=True))
    payloads = _bytes_text(*_bound_range(table_b))
    choice = (
        f"Central value = {cost * 1000:.4g} ms: the upper bound tightened with the published "
        f"throughput table, the largest cost with which a closed network of {table_b.gcps} CPs "
        f"and {think:g} s think time reproduces every row within {tol:.0%} (at the published "
        f"bound, {upper * 1000:.4g} ms, it gives {short:+.1%} at {worst} clients)"
    )
    assumption = (
        f"Published throughput table ({table_b.reference}), clients: TPS = {published} at "
        f"{think:g} s think time, on the {table_b.gcps} GCPs (no zIIPs) and at the payloads "
        f"({payloads}) of the sustained bound. Its rates are round paced targets N / Z, taken as "
        f"exact to within {tol:.0%} (a closed loop can only fall short of N / Z). The largest CPU "
        f"per transaction with which the closed network ({table_b.gcps}-server CP queue, think "
        f"time {think:g} s, no other station known; exact MVA) reaches at least {1 - tol:.0%} of "
        f"every row is {cost * 1000:.4g} ms by bisection (clients: model TPS = {model}); it is the "
        f"tightened upper bound and the central value for payloads of {payloads}. The published "
        f"bound (<= {upper * 1000:.4g} ms) remains the reported range"
    )
    return cost, choice, assumption


def _payload_step(
    basis: _Basis,
    measured: tuple[float, float] | None,
    outside: bool,
    payload: int | None,
    pm: PayloadModel | None,
) -> float:
    """Apply payload scaling to ``basis`` in place; returns the central factor."""
    if payload is None or measured is None:
        return 1.0
    lo, hi = measured
    if not outside and lo <= payload <= hi:
        return 1.0
    ref = lo if payload < lo else hi
    where = _bytes_text(lo, hi)
    if pm is None or not math.isfinite(ref) or ref <= 0:
        basis.warnings.append(
            SizingWarning(
                "payload-outside-range",
                f"payload {payload} bytes is outside the measured {where} and no payload "
                "relation is published for this configuration: CPU per transaction is held at "
                f"the value measured at {where} (it may be higher for larger payloads)",
            )
        )
        return 1.0
    sc: PayloadScale = pm.scale(int(ref), payload)
    basis.total *= sc.factor
    basis.slope *= sc.factor
    basis.intercept *= sc.factor
    basis.low *= sc.low
    basis.high *= sc.high
    basis.components = {k: v * sc.factor for k, v in basis.components.items()}
    if pm.statement_id is not None:
        basis.statements.append(pm.statement_id)
    basis.assumptions.append(sc.assumption)
    basis.warnings.append(
        SizingWarning(
            "payload-scaled",
            f"CPU per transaction scaled from {int(ref)} to {payload} bytes: factor "
            f"{sc.factor:.4g} (range {sc.low:.4g}-{sc.high:.4g}); {sc.assumption}",
        )
    )
    if not sc.in_range:
        rng = pm.range_bytes
        rtext = (
            "unpublished"
            if rng is None
            else _bytes_text(float(rng[0] or 0), math.inf if rng[1] is None else float(rng[1]))
        )
        basis.warnings.append(
            SizingWarning(
                "payload-outside-range",
                f"payload {payload} bytes is outside the range of the published payload "
                f"relation ({rtext}, {pm.reference}): the relation is extrapolated",
            )
        )
    return sc.factor


# ---------------------------------------------------------------------------------------
# Per-CP-count evaluation
# ---------------------------------------------------------------------------------------


@dataclass
class _Eval:
    n: int
    proj: Projection  # CP projection (the target setting's rating)
    zproj: Projection  # specialty-engine projection (full-speed rating)
    total: float
    gcp: float
    ziip: float
    on_gcp: float
    ziips: int
    util: float
    response: float | None  # absolute response time where modelled (inf when saturated)
    cp_residence: float = math.inf  # CP service + queueing, ms, where modelled
    needed: int = 0  # specialty engines the eligible work needs (before the ratio cap)


@dataclass(frozen=True)
class _Target:
    """Where the demand goes: machine type, capacity setting and specialty-engine rules."""

    table: CapacityTable
    native_type: str
    target_type: str
    setting: str | None
    policy: EnginePolicy
    fraction: float
    ziips: int | None
    ziip_ceiling: float


def _evaluate(n: int, *, basis: _Basis, target: _Target, rmodel: ResponseModel | None, tps: float) -> _Eval:
    proj, zproj = projections(target.table, target.native_type, basis.from_cps, target.target_type, n, target.setting)
    eligible = basis.total * target.fraction * zproj.factor
    z, needed = specialty_engines(target.policy, n, eligible, target.ziip_ceiling, target.ziips)
    split = split_pools(basis.total, target.fraction, proj.factor, zproj.factor, z, needed, target.ziip_ceiling)
    total = split.total
    ev = _Eval(n, proj, zproj, total, split.gcp, split.special, split.on_gcp, z, split.gcp / n, None, needed=needed)
    return ev if rmodel is None else _with_response(ev, basis=basis, rmodel=rmodel, tps=tps)


def _with_response(ev: _Eval, *, basis: _Basis, rmodel: ResponseModel, tps: float) -> _Eval:
    """``ev`` with its modelled response time (ms) at ``ev.n`` CPs, where the model has response data."""
    if rmodel.has_response_data and ev.total > 0 and ev.response is None:
        bd = rmodel.breakdown(tps, cps=ev.n, cost_factor=_cp_cost_factor(basis, ev.proj, ev.gcp, ev.total))
        assert bd.total_ms is not None
        ev.response = bd.total_ms + _ziip_residence_ms(ev, tps, 1.0)
        ev.cp_residence = bd.cp_residence_ms
    return ev


def _evaluations(req: _Request, basis: _Basis, target: _Target) -> list[_Eval]:
    """The CP counts :func:`_choose` reads, evaluated in order without response times.

    Up to the first count within the utilisation ceiling (and the given count), which is all
    :func:`_choose` needs unless a response-time goal is checked at every count within the
    ceiling; then, or when no count is within it, every rated count.  Response times are
    modelled only where a goal is checked (:func:`_with_response`).  Evaluating all 141
    counts of a z13 with their response times was most of the cost of an answer.
    """
    out = []
    for k in req.counts:
        ev = _evaluate(k, basis=basis, target=target, rmodel=None, tps=req.t)
        out.append(ev)
        if req.sla is None and ev.util <= req.umax + _UTIL_EPS and (req.cps is None or k >= req.cps):
            break
    return out


def _cp_cost_factor(basis: _Basis, proj: Projection, gcp: float, total: float) -> float:
    """Factor from the response model's native CP cost to the target GCP cost per transaction:
    LSPR factor x payload factor x the share of the work left on GCPs."""
    # Share of the native work that runs on CPs (``gcp`` is in target-CP busy engines).
    native_on_target = basis.total * proj.factor
    gcp_share = gcp / native_on_target if native_on_target > 0 else 1.0
    return proj.factor * basis.payload_factor * max(gcp_share, 1e-12)


# ---------------------------------------------------------------------------------------
# Checks, saturation, ranges and the capacity block of the answer
# ---------------------------------------------------------------------------------------


def _engine_ratio_warning(policy: EnginePolicy, chosen: _Eval, given: int | None) -> SizingWarning | None:
    """``engine-ratio`` when the rules cap the specialty engines below what the work needs."""
    cap = policy.max_engines(chosen.n)
    want = chosen.needed if given is None else given
    if cap is None or want <= cap:
        return None
    assert policy.rules is not None
    what = f"{given} {policy.name}s were given" if given is not None else f"the eligible work needs {chosen.needed}"
    return SizingWarning(
        "engine-ratio",
        f"{what}, but {policy.rules.generation} allows at most {policy.per_cp:g} {policy.name} per CP: "
        f"{cap} beside {chosen.n} CPs ({policy.rules.reference}). {chosen.on_gcp:.3g} busy engines "
        f"of eligible work run on CPs, and the CP count is sized with that work on it",
    )


def _sla_unreachable(
    sla: float, candidates: Sequence[_Eval], rmodel: ResponseModel | None, tps: float, n: int, basis: _Basis
) -> SizingWarning:
    """``sla-unreachable``: no CP count meets ``sla``; name what the time is spent on."""
    best = min(candidates, key=lambda e: e.response if e.response is not None else math.inf)
    part = "the CPs"
    if rmodel is not None and best.response is not None and math.isfinite(best.response):
        bd = rmodel.breakdown(tps, cps=best.n, cost_factor=_cp_cost_factor(basis, best.proj, best.gcp, best.total))
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


def _saturation_at(
    basis: _Basis, chosen: _Eval, fraction: float, rmodel: ResponseModel | None
) -> Callable[[float], Saturation]:
    """Saturation of the chosen configuration with the native cost scaled by a factor."""
    software = None if rmodel is None or rmodel.software is None else rmodel.software.saturation_tps()

    def at(scale: float) -> Saturation:
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


def _ranges(
    basis: _Basis,
    ends: tuple[_Target, _Target],
    counts: Sequence[int],
    chosen: _Eval,
    cps_given: int | None,
    umax: float,
    sat_of: Callable[[float], Saturation],
    band: float,
    rt: tuple[float | None, float | None],
    sized: bool,
) -> dict[str, list[float | None]]:
    """[low, high] of CPs, specialty engines, saturation and response time from the cost range.

    The ends come from the same evaluation as the centre, at the low and high end of the native
    cost (prediction interval or published bounds) widened by ``band`` on each side, and at the
    ends of the eligible share (``ends``: targets with the low and the high share).  Fewest CPs:
    low cost, high share; most CPs: high cost, low share.  Specialty engines: low cost and low
    share, high cost and high share.
    """
    total = basis.total
    lo = (basis.low / total if total > 0 else 1.0) * (1.0 - band)
    hi = (basis.high / total if total > 0 else 1.0) * (1.0 + band)

    def at(scale: float, target: _Target) -> _Eval | None:
        scaled = replace(basis, total=basis.total * scale)
        if cps_given is not None:
            return _evaluate(cps_given, basis=scaled, target=target, rmodel=None, tps=1.0)
        for n in counts:
            ev = _evaluate(n, basis=scaled, target=target, rmodel=None, tps=1.0)
            if ev.util <= umax + _UTIL_EPS:
                return ev
        return None

    c_lo, c_hi = at(lo, ends[1]), at(hi, ends[0])
    z_lo, z_hi = at(lo, ends[0]), at(hi, ends[1])
    s_lo, s_hi = sat_of(hi).tps, sat_of(lo).tps
    return {
        "cps": [None if e is None or not sized else float(e.n) for e in (c_lo, c_hi)]
        if cps_given is None
        else [float(chosen.n), float(chosen.n)],
        "ziips": [None if e is None else float(e.ziips) for e in (z_lo, z_hi)],
        "saturation_tps": [_finite_or_none(s_lo), _finite_or_none(s_hi)],
        "response_time_ms": [_finite_or_none(rt[0]), _finite_or_none(rt[1])],
    }


def _binding_at_target(
    chosen: _Eval, policy: EnginePolicy, rmodel: ResponseModel | None, tps: float, closed_x: float | None
) -> dict[str, Any]:
    """The busiest resource at the target rate (utilisation as a fraction)."""
    util = {"cps": (chosen.util, f"{chosen.n} CP{'' if chosen.n == 1 else 's'}")}
    if chosen.ziips:
        util["specialty"] = (
            chosen.ziip / chosen.ziips,
            f"{chosen.ziips} {policy.name}{'' if chosen.ziips == 1 else 's'}",
        )
    if rmodel is not None and rmodel.software is not None:
        sw = rmodel.software
        util["software"] = (tps * sw.service_s / sw.servers, f"software station ({_servers(sw.servers)})")
    if closed_x is not None and closed_x < tps * (1.0 - _CLOSED_TOLERANCE):
        util["clients"] = (tps / closed_x if closed_x > 0 else math.inf, "the client population")
    key = max(util, key=lambda k: util[k][0])
    return {"resource": key, "label": util[key][1], "utilization": _finite_or_none(util[key][0])}


def _binding_label(sat: Saturation, policy: EnginePolicy, rmodel: ResponseModel | None) -> dict[str, Any] | None:
    labels = {
        "cps": "the CPs",
        "specialty": f"the CPs and {policy.name}s together (the {policy.name}s configured fill, then eligible work "
        "spills onto the CPs)",
        "software": "the software station"
        + ("" if rmodel is None or rmodel.software is None else f" ({_servers(rmodel.software.servers)})"),
    }
    if sat.binding == "none":
        return None
    return {"resource": sat.binding, "label": labels[sat.binding]}


def _capacity_block(table: CapacityTable, chosen: _Eval, policy: EnginePolicy, setting: str | None) -> dict[str, Any]:
    """MIPS and MSU of the target model, installed and used, per pool, with the basis."""
    n, mt = chosen.n, chosen.proj.to_machine_type
    full = rating(table, mt, n)
    cp_rating = full if setting is None else table.settings.get((mt, setting, n), full)
    full_per_cp = full.mips / n
    src = rating(table, chosen.proj.from_machine_type, chosen.proj.from_cps)
    return {
        "model": cp_rating.model,
        "machine_type": mt,
        "capacity_setting": setting or table.full_speed_setting.get(mt, ""),
        "cps": n,
        "specialty_engines": chosen.ziips,
        "cp": {
            "mips_installed": cp_rating.mips,
            "msu_installed": cp_rating.msu,
            "mips_used": chosen.gcp * cp_rating.mips / n,
            "msu_used": chosen.gcp * cp_rating.msu / n,
            "utilization": chosen.util,
        },
        "specialty": {
            "engine": policy.name,
            "mips_installed": chosen.ziips * full_per_cp,
            "mips_used": chosen.ziip * full_per_cp,
            "utilization": (chosen.ziip / chosen.ziips) if chosen.ziips else None,
            "priced": False,
        },
        "basis": {
            "from_model": src.model,
            "from_machine_type": src.machine_type,
            "from_cps": src.cps,
            "from_mips": src.mips,
            "to_model": cp_rating.model,
            "to_mips": cp_rating.mips,
            "to_full_speed_mips": full.mips,
            "cp_factor": chosen.proj.factor,
            "specialty_factor": chosen.zproj.factor,
            "source": table.source,
        },
    }


def _limit_warnings(config: ConfigurationData, tps: float) -> list[SizingWarning]:
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
                f"{tps:g} TPS passes the published limit of {lim.value:g} TPS per {lim.scope}{when}{per} "
                f"({lim.reference})",
            )
        )
    return out


# ---------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------


def size(
    config: ConfigurationData,
    *,
    target_machine: str,
    target_machine_type: str,
    capacity: CapacityTable,
    tps: float,
    cps: int | None = None,
    ziips: int | None = None,
    max_utilization: float = DEFAULT_MAX_UTILIZATION,
    payload_bytes: int | None = None,
    clients: int | None = None,
    think_time_s: float | None = None,
    response_time_sla_ms: float | None = None,
    model: ConfigurationModel | None = None,
    response_model: ResponseModel | None = None,
    ziip_max_utilization: float | None = None,
    level: float = DEFAULT_LEVEL,
    capacity_setting: str | None = None,
    projection_band: float | None = None,
    lpar_overhead: float | None = None,
    server_share: float | None = None,
    other_cost: ComponentCost | None = None,
) -> SizingResult:
    """Size a configuration for a transaction rate on a target machine.

    Parameters
    ----------
    config : ConfigurationData
        Published data of the configuration.
    target_machine : str
        Slug of the target machine (carried into the result).
    target_machine_type : str
        Its IBM machine type, the key into ``capacity``.
    capacity : CapacityTable
        LSPR ratings.
    tps : float
        Transaction rate to size for, transactions/s (> 0).
    cps : int, optional
        General-purpose CPs of the target LPAR; by default the smallest count that carries the
        GCP demand within ``max_utilization`` (and the SLA, see below).
    ziips : int, optional
        zIIPs of the target LPAR; by default enough for all eligible work within the zIIP
        ceiling.
    max_utilization : float
        Ceiling on mean GCP utilisation, in (0, 1].  Default :data:`DEFAULT_MAX_UTILIZATION`
        = 0.85: the sources show good response at 76 % LPAR busy (REDP-5114 Table 11-1) and
        call 97 % constrained (REDP-5320); 0.85 leaves headroom for peaks inside an RMF
        interval.
    payload_bytes : int, optional
        Response payload size, bytes (the size the sources vary).
    clients : int, optional
        Simulated/real clients of a closed workload (with ``think_time_s``).
    think_time_s : float, optional
        Client think time, s (with ``clients``).
    response_time_sla_ms : float, optional
        Response-time objective, ms.  When the configuration has a response-time model with
        published data, ``cps_required`` is raised above the ceiling-based count to the first
        count that meets the objective or, when no count can, to the count with the shortest
        CP residence (more CPs would not help); ``sla-missed`` is reported when it is missed.
    model : ConfigurationModel, optional
        Pre-fitted cost model (avoids refitting); must belong to ``config``.
    response_model : ResponseModel, optional
        Pre-fitted response model (avoids refitting).
    ziip_max_utilization : float, optional
        zIIP utilisation ceiling; defaults to ``max_utilization``.
    level : float
        Coverage of the cost interval (default 0.95).
    capacity_setting : str, optional
        Capacity setting of the target model (``"5xx"`` as ``"500"``, ``"A00"`` ..): CP work
        projects with that setting's rating, specialty-engine work with the full-speed rating
        (specialty engines run at full speed).  Default: full speed.
    projection_band : float, optional
        Relative error band of the LSPR projection to another machine or CP count, in [0, 1)
        (e.g. the spread between the LSPR LOW and HIGH workload categories the user picks);
        widens every range when the projection is not the identity.  Default: none (the
        ranges then carry no projection error, and the basis says so).
    lpar_overhead : float, optional
        Where a source publishes the CICS address spaces' CPU only (CICS TS): the rest of the
        LPAR (z/OS, TCP/IP, monitors) as a share of the CICS CPU, >= 0; the LPAR is sized as
        CICS x (1 + ``lpar_overhead``).  Default: none, and the ``cics-only`` warning says the
        answer covers the CICS regions only (the source publishes no LPAR figure to derive it).
    server_share : float, optional
        Where the eligible share was published for part of the demand (the z/OS Connect server,
        not CICS): that part's share of the demand, in [0, 1] (user override).
    other_cost : ComponentCost, optional
        A published cost of the rest of the demand (CICS) on the same machine type, from which
        the part's share is derived when ``server_share`` is not given.

    Returns
    -------
    SizingResult

    Raises
    ------
    ValueError
        Naming the argument, for invalid inputs; or when the configuration has no CPU data
        and no published response floor (nothing can be sized).

    References
    ----------
    .. [1] LSPR (SC28-1187); Menasce, Almeida and Dowdy (2004); Reiser and Lavenberg (1980).
    """
    if not isinstance(config, ConfigurationData):
        raise ValueError(f"config must be a ConfigurationData, got {type(config).__name__}")
    req = _request(
        capacity, target_machine_type, tps=tps, cps=cps, ziips=ziips, max_utilization=max_utilization,
        ziip_max_utilization=ziip_max_utilization, payload_bytes=payload_bytes, clients=clients,
        think_time_s=think_time_s, response_time_sla_ms=response_time_sla_ms, projection_band=projection_band,
        lpar_overhead=lpar_overhead, server_share=server_share, capacity_setting=capacity_setting,
    )  # fmt: skip
    if model is not None and (model.path, model.configuration) != (config.path, config.configuration):
        raise ValueError(
            f"model belongs to {model.path}/{model.configuration}, not {config.path}/{config.configuration}"
        )
    # ---- 1. CPU basis (points or bounds, payload, LPAR) and response model --------------------
    prepared = _prepared_basis(config, req, model, response_model, level, lpar_overhead)
    if prepared is None:
        no_cpu = _no_cpu_result(config, target_machine, target_machine_type, req.t, req.sla, req.umax)
        return replace(no_cpu, specialty_engine=req.policy.name)
    basis, rmodel = prepared
    warnings = list(basis.warnings)
    # ---- 2. eligibility, scoped to what it was published for --------------------------------
    fraction, frac_range, elig_warning = _eligibility_step(basis, config, capacity, server_share, other_cost)
    warnings.extend([] if elig_warning is None else [elig_warning])
    # ---- 3-4. CP count, projection, specialty-engine split ------------------------------------
    target = _Target(
        capacity, config.machine_type, target_machine_type, capacity_setting, req.policy, fraction, req.ziips, req.zmax
    )
    evals = _evaluations(req, basis, target)
    required, chosen = _choose(evals, req, rmodel, basis, warnings, target_machine_type)
    warnings.extend(_chosen_warnings(chosen, req))
    # ---- 5. saturation and knee ----------------------------------------------------------
    sat_of = _saturation_at(basis, chosen, fraction, rmodel)
    sat_result = sat_of(1.0)
    cp_factor = _cp_cost_factor(basis, chosen.proj, chosen.gcp, chosen.total)
    warnings.extend(_saturation_warnings(req, chosen, sat_result.tps))
    warnings.extend(_software_warnings(sat_result, rmodel, config))
    # ---- 6. response time ----------------------------------------------------------------
    rt = _response_step(rmodel, chosen, basis, req, cp_factor, sat_result.tps, warnings)
    # ---- 7. checks, ranges and the answer --------------------------------------------------
    warnings.extend(_limit_warnings(config, req.t))
    band_used = 0.0 if chosen.proj.is_identity() and chosen.zproj.is_identity() else req.band
    ends = (replace(target, fraction=frac_range[0]), replace(target, fraction=frac_range[1]))
    ranges = _ranges(
        basis, ends, req.counts, chosen, req.cps, req.umax, sat_of, band_used, rt[1:3], required is not None
    )
    _final_assumptions(basis, req.policy, chosen, band_used, rmodel)
    cap_block = _capacity_block(capacity, chosen, req.policy, capacity_setting)
    cap = req.policy.max_engines(chosen.n)
    return SizingResult(
        path=config.path,
        configuration=config.configuration,
        target_machine=target_machine,
        target_machine_type=target_machine_type,
        tps=req.t,
        cps=chosen.n,
        cps_required=None if required is None else required.n,
        ziips=chosen.ziips,
        ziips_required=chosen.needed if cap is None else min(chosen.needed, cap),
        cpu_per_tran_ms=_per_tran_ms(chosen, basis, req.t),
        busy_cps={"total": chosen.total, "gcp": chosen.gcp, "ziip": chosen.ziip, "ziip_on_gcp": chosen.on_gcp},
        breakdown={k: v * chosen.proj.factor for k, v in basis.components.items()},
        gcp_utilization=chosen.util,
        ziip_utilization=(chosen.ziip / chosen.ziips) if chosen.ziips else None,
        mips=cap_block["cp"]["mips_used"],
        msu=cap_block["cp"]["msu_used"],
        ziip_mips=cap_block["specialty"]["mips_used"],
        response_time_ms={
            "value": _finite_or_none(rt[0]),
            "low": _finite_or_none(rt[1]),
            "high": _finite_or_none(rt[2]),
        },
        saturation_tps=_finite_or_none(sat_result.tps),
        knee_tps=_finite_or_none(_knee(rmodel, chosen.n, cp_factor)),
        closed_throughput_tps=_finite_or_none(rt[3]),
        specialty_engine=req.policy.name,
        specialty_engine_max=cap,
        binding_resource=_binding_at_target(chosen, req.policy, rmodel, req.t, rt[3]),
        saturation_binding=_binding_label(sat_result, req.policy, rmodel),
        saturation_kind="lower-bound" if basis.cost_is_upper_bound else "value",
        ranges=ranges,
        capacity_detail=cap_block,
        warnings=tuple(warnings),
        basis=_basis_dict(basis, chosen, capacity, capacity_setting, (fraction, *frac_range)),
        max_utilization=req.umax,
    )


@dataclass(frozen=True)
class _Request:
    """Checked inputs of :func:`size` (names as there; ``t`` is ``tps``)."""

    t: float
    cps: int | None
    ziips: int | None
    umax: float
    zmax: float
    payload: int | None
    clients: int | None
    think: float | None
    sla: float | None
    band: float
    policy: EnginePolicy
    counts: tuple[int, ...]


def _request(
    capacity: CapacityTable,
    target_machine_type: str,
    *,
    tps: float,
    cps: int | None,
    ziips: int | None,
    max_utilization: float,
    ziip_max_utilization: float | None,
    payload_bytes: int | None,
    clients: int | None,
    think_time_s: float | None,
    response_time_sla_ms: float | None,
    projection_band: float | None,
    lpar_overhead: float | None,
    server_share: float | None,
    capacity_setting: str | None,
) -> _Request:
    """Check :func:`size`'s inputs; a ``ValueError`` names the argument."""
    t = _pos_float("tps", tps)
    cps_given = _opt_int("cps", cps, 1)
    umax = _pos_float("max_utilization", max_utilization)
    if umax > 1.0:
        raise ValueError(f"max_utilization must be in (0, 1], got {max_utilization!r}")
    zmax = umax if ziip_max_utilization is None else _pos_float("ziip_max_utilization", ziip_max_utilization)
    if zmax > 1.0:
        raise ValueError(f"ziip_max_utilization must be in (0, 1], got {ziip_max_utilization!r}")
    if lpar_overhead is not None:
        _pos_float("lpar_overhead", lpar_overhead, allow_zero=True)
    if server_share is not None and not 0.0 <= _pos_float("server_share", server_share, allow_zero=True) <= 1.0:
        raise ValueError(f"server_share must be in [0, 1], got {server_share!r}")
    n_clients = _opt_int("clients", clients, 1)
    think = None if think_time_s is None else _pos_float("think_time_s", think_time_s, allow_zero=True)
    if (n_clients is None) != (think is None):
        raise ValueError(
            f"clients and think_time_s must be given together, got clients={clients!r}, think_time_s={think_time_s!r}"
        )
    band = 0.0 if projection_band is None else _pos_float("projection_band", projection_band, allow_zero=True)
    if band >= 1.0:
        raise ValueError(f"projection_band must be in [0, 1), got {projection_band!r}")
    policy = engine_policy(capacity, target_machine_type)
    counts = rated_counts(capacity, target_machine_type, capacity_setting, policy.min_cps)
    if not counts:
        types = sorted({mt for mt, _ in capacity.ratings})
        raise ValueError(f"target_machine_type {target_machine_type!r} is not in the LSPR table (types: {types})")
    if cps_given is not None:
        rating(capacity, target_machine_type, cps_given)  # raises for an unrated count
        if cps_given < policy.min_cps:
            raise ValueError(f"cps must be >= {policy.min_cps} on machine type {target_machine_type}, got {cps!r}")
    return _Request(
        t, cps_given, _opt_int("ziips", ziips, 0), umax, zmax, _opt_int("payload_bytes", payload_bytes, 1),
        n_clients, think, None if response_time_sla_ms is None else _pos_float("response_time_sla_ms", response_time_sla_ms),
        band, policy, tuple(counts),
    )  # fmt: skip


def _prepared_basis(
    config: ConfigurationData,
    req: _Request,
    model: ConfigurationModel | None,
    response_model: ResponseModel | None,
    level: float,
    lpar_overhead: float | None,
) -> tuple[_Basis, ResponseModel | None] | None:
    """Native CPU demand (points or bounds, payload, LPAR) and the response model; ``None``
    without CPU data."""
    fitted = model if model is not None else fit_configuration(config)
    basis: _Basis
    if fitted.has_cpu_model:
        basis = _basis_from_points(config, fitted, req.t, level)
        sizes = [p.response_bytes for p in config.points if p.response_bytes is not None]
        measured = (float(min(sizes)), float(max(sizes))) if sizes else None
        outside = False
        if req.payload is not None and measured is None:
            basis.warnings.append(
                SizingWarning(
                    "payload-outside-range",
                    f"the source publishes no payload size for {config.path}/{config.configuration}: CPU per "
                    f"transaction is not scaled to {req.payload} bytes",
                )
            )
    elif config.bounds:
        basis, measured, outside = _basis_from_bounds(config, req.t, req.payload)
    else:
        return None
    # The response model works in native, measured-payload CP-seconds; payload, projection
    # and the zIIP split enter through its cost factor.
    rmodel = response_model
    if rmodel is None:
        try:
            rmodel = fit_response(
                config, fitted if fitted.has_cpu_model else None, cp_seconds=basis.slope if basis.slope > 0 else None
            )
        except ValueError:
            rmodel = None
    basis.payload_factor = _payload_step(basis, measured, outside, req.payload, payload_model(config))
    _lpar_step(basis, config, lpar_overhead)
    _ratio_note(basis, config)
    return basis, rmodel


def _ratio_note(basis: _Basis, config: ConfigurationData) -> None:
    """``ratio-only``: published cost ratios to other configurations, shown for context."""
    if not config.ratios:
        return
    texts = [
        f"{r.numerator}/{r.denominator} = {r.low:g}-{r.high:g}"
        f" ({', '.join(f'{k}={v}' for k, v in r.condition.items() if not isinstance(v, str))})"
        for r in config.ratios
    ]
    basis.warnings.append(
        SizingWarning(
            "ratio-only",
            "published CPU-per-transaction ratios involving this configuration: "
            + "; ".join(texts)
            + ". They relate configurations measured under other conditions and are "
            "shown for context; the central value does not use them",
        )
    )
    basis.statements.extend(r.statement_id for r in config.ratios)


def _choose(
    evals: Sequence[_Eval],
    req: _Request,
    rmodel: ResponseModel | None,
    basis: _Basis,
    warnings: list[SizingWarning],
    target_machine_type: str,
) -> tuple[_Eval | None, _Eval]:
    """(required, chosen): the smallest CP count within the ceiling (raised to the first that
    meets the goal, when one does: the first meeting count keeps "more TPS never needs fewer
    CPs"), and the count the figures are evaluated at (given, required, else the largest)."""
    umax, sla = req.umax, req.sla
    util_ok = [e for e in evals if e.util <= umax + _UTIL_EPS]
    if sla is not None and rmodel is not None:
        util_ok = [_with_response(e, basis=basis, rmodel=rmodel, tps=req.t) for e in util_ok]
    required: _Eval | None = util_ok[0] if util_ok else None
    if required is not None and sla is not None and required.response is not None:
        meets = [e for e in util_ok if e.response is not None and e.response <= sla]
        if not meets:
            warnings.append(_sla_unreachable(sla, util_ok, rmodel, req.t, required.n, basis))
        elif meets[0].n > required.n:
            basis.assumptions.append(
                f"CPs raised from {required.n} to {meets[0].n} to meet the {sla:g} ms response-time objective"
            )
            required = meets[0]
    if req.cps is not None:
        chosen = next(e for e in evals if e.n == req.cps)
        if chosen.util > umax + _UTIL_EPS:
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
                f"the GCP demand within {umax:.0%}: {evals[-1].gcp:.3g} busy CPs at "
                f"{evals[-1].n} CPs ({evals[-1].util:.0%})",
            )
        )
    return required, chosen


def _chosen_warnings(chosen: _Eval, req: _Request) -> list[SizingWarning]:
    """``projection``, ``ziip-overflow`` and ``engine-ratio`` at the chosen CP count."""
    out = []
    proj = chosen.proj
    if not proj.is_identity():
        out.append(
            SizingWarning(
                "projection",
                f"CPU projected from machine type {proj.from_machine_type} with {proj.from_cps} "
                f"CPs ({proj.from_mips_per_cp:.1f} MIPS per CP) to {proj.to_machine_type} with "
                f"{proj.to_cps} CPs ({proj.to_mips_per_cp:.1f} MIPS per CP): factor "
                f"{proj.factor:.4f} ({proj.source})",
            )
        )
    if req.ziips is not None and chosen.on_gcp > 0.0:
        out.append(
            SizingWarning(
                "ziip-overflow",
                f"{req.ziips} {req.policy.name}s carry {chosen.ziip:.3g} of {chosen.ziip + chosen.on_gcp:.3g} "
                f"busy engines of eligible work within the {req.zmax:.0%} ceiling; "
                f"{chosen.on_gcp:.3g} run on CPs (IIPCP)",
            )
        )
    ratio = _engine_ratio_warning(req.policy, chosen, req.ziips)
    return out if ratio is None else [*out, ratio]


def _saturation_warnings(req: _Request, chosen: _Eval, sat: float) -> list[SizingWarning]:
    if req.t < sat:
        return []
    return [
        SizingWarning(
            "beyond-saturation",
            f"{req.t:g} TPS is at or beyond the saturation rate {sat:.4g} TPS of {chosen.n} CPs"
            + (f" + {chosen.ziips} {req.policy.name}s" if chosen.ziips else "")
            + ": no steady state, response time unbounded",
        )
    ]


def _servers(m: int) -> str:
    return f"{m} server{'' if m == 1 else 's'}"


def _software_warnings(sat: Saturation, rmodel: ResponseModel | None, config: ConfigurationData) -> list[SizingWarning]:
    """Say that a software-bound saturation is the measured configuration's, not a scaled one.

    The software station is fitted to the response times published for one configuration (for
    FiTeq: the wait for a free HSM channel, REDP-5114 section 11.3).  No source at hand publishes
    the count behind it (REDP-5114 gives neither the number of channels nor of HSMs), so it is
    not scaled to other configurations; more CPs do not raise it.
    """
    if sat.binding != "software" or rmodel is None or rmodel.software is None:
        return []
    sw = rmodel.software
    return [
        SizingWarning(
            "software-unscaled",
            f"saturation {sat.tps:.4g} TPS is the fitted software station ({_servers(sw.servers)} of "
            f"{sw.service_s * 1000.0:.3g} ms), fitted to the response times published for "
            f"{config.path}/{config.configuration} as measured; more CPs do not raise it, and the source "
            "publishes no count (of channels, connections or regions) to scale it to another configuration",
        )
    ]


def _knee(rmodel: ResponseModel | None, n: int, cp_factor: float) -> float | None:
    if rmodel is None or not rmodel.has_response_data:
        return None
    try:
        return rmodel.knee_tps(cps=n, cost_factor=cp_factor)
    except ValueError:
        return None


def _response_step(
    rmodel: ResponseModel | None,
    chosen: _Eval,
    basis: _Basis,
    req: _Request,
    cp_factor: float,
    sat: float,
    warnings: list[SizingWarning],
) -> tuple[float | None, float | None, float | None, float | None]:
    """(value, low, high, closed-network throughput) of the response time, ms.

    Value: the fitted model at the central cost (None without published response times).  Low:
    the larger of value - RMSE of the fit and the queueing lower bound at the low end of the
    CPU range (CP residence of the CP work + specialty-engine residence of the eligible work).
    High: the model at the high end of the CPU range + RMSE.
    """
    rt_value = rt_low = rt_high = closed_x = None
    t, n = req.t, chosen.n
    lo_ratio = basis.low / basis.total if basis.total > 0 else 1.0
    hi_ratio = basis.high / basis.total if basis.total > 0 else 1.0
    if rmodel is not None and req.clients is not None and req.think is not None:
        rt_value, rt_low, closed_x = _closed(rmodel, n, cp_factor, t, req.clients, req.think, chosen, lo_ratio)
        warnings.extend(_closed_warnings(req, n, closed_x))
        if rt_value is not None and rmodel.fit is not None:
            rt_high = rt_value + rmodel.fit.rmse_ms
            rt_low = max(rt_low or 0.0, rt_value - rmodel.fit.rmse_ms)
    elif rmodel is not None and t < sat:
        if lo_ratio > 0.0:  # a bounds-only path without a lower bound has no CPU floor
            bd_lo = rmodel.breakdown(t, cps=n, cost_factor=cp_factor * lo_ratio)
            rt_low = bd_lo.lower_bound_ms + _ziip_residence_ms(chosen, t, lo_ratio)
        if rmodel.has_response_data:
            bd = rmodel.breakdown(t, cps=n, cost_factor=cp_factor)
            assert bd.total_ms is not None
            rt_value = bd.total_ms + _ziip_residence_ms(chosen, t, 1.0)
            spread = rmodel.fit.rmse_ms if rmodel.fit is not None else 0.0
            rt_low = max(rt_low or 0.0, rt_value - spread)
            hi_f = cp_factor * hi_ratio
            if rmodel.saturation_tps(cps=n, cost_factor=hi_f) > t:
                r_hi = rmodel.response_time_ms(t, cps=n, cost_factor=hi_f)
                assert r_hi is not None
                rt_high = r_hi + _ziip_residence_ms(chosen, t, hi_ratio) + spread
            else:
                rt_high = math.inf  # the high end of the CPU range saturates: no upper bound
    if rmodel is not None and rmodel.floor_ms is not None:
        rt_low = max(rt_low or 0.0, rmodel.floor_ms)
    warnings.extend(_response_warnings(req, n, rmodel, rt_value, rt_low))
    return rt_value, rt_low, rt_high, closed_x


def _closed_warnings(req: _Request, n: int, closed_x: float) -> list[SizingWarning]:
    t, who = req.t, f"{req.clients} clients with {req.think:g} s think time"
    if closed_x < t * (1.0 - _CLOSED_TOLERANCE):
        return [
            SizingWarning(
                "clients-limit-throughput",
                f"{who} reach only {closed_x:.4g} TPS on {n} CPs (X = N / (R + Z)), below {t:g} TPS",
            )
        ]
    if closed_x > t * (1.0 + _CLOSED_TOLERANCE):
        return [
            SizingWarning(
                "clients-exceed-throughput",
                f"{who} drive {closed_x:.4g} TPS on {n} CPs (X = N / (R + Z)), more than the {t:g} TPS sized "
                "for; the response time shown is at that higher rate",
            )
        ]
    return []


def _response_warnings(
    req: _Request, n: int, rmodel: ResponseModel | None, rt_value: float | None, rt_low: float | None
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
                    f"CP (and zIIP) service + queueing at the low end of the CPU range gives a "
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


def _final_assumptions(
    basis: _Basis, policy: EnginePolicy, chosen: _Eval, band: float, rmodel: ResponseModel | None
) -> None:
    """The basis sentences about the rules, the projection band, the split and the response model."""
    basis.assumptions.append(policy.describe())
    if band == 0.0 and not chosen.proj.is_identity():
        basis.assumptions.append(
            "the ranges carry no error of the LSPR projection (no projection_band given): LSPR "
            "ratings are for a workload category, and the measured workload's category is not published"
        )
    elif band > 0.0:
        basis.assumptions.append(f"ranges widened by the projection band of ±{band:.0%} (given)")
    basis.assumptions.append(
        f"{policy.name}s run eligible work at full speed (the full-speed rating of the same CP count); "
        f"eligible work uses the {policy.name}s up to their ceiling and the rest runs on CPs (no short-term IIPCP)"
    )
    if rmodel is not None and rmodel.has_response_data:
        software = rmodel.software
        basis.assumptions.append(
            f"response time = {rmodel.fixed_ms:.3g} ms load-independent part + M/M/{chosen.n} CP residence"
            + (
                f" + M/M/{software.servers} software station (s = {software.service_s * 1000:.4g} ms)"
                if software
                else ""
            )
            + (f"; fit to published response times: RMSE {rmodel.fit.rmse_ms:.3g} ms" if rmodel.fit else "")
        )


def _per_tran_ms(chosen: _Eval, basis: _Basis, t: float) -> dict[str, float | None]:
    per_ms = 1000.0 / t
    factor = chosen.proj.factor
    return {
        "total": chosen.total * per_ms,
        "gcp": chosen.gcp * per_ms,
        "ziip": chosen.ziip * per_ms,
        "low": basis.low * factor * per_ms,
        "high": basis.high * factor * per_ms,
    }


def _basis_dict(
    basis: _Basis,
    chosen: _Eval,
    capacity: CapacityTable,
    setting: str | None,
    share: tuple[float, float, float],
) -> dict[str, Any]:
    """The answer's ``basis``: points, model, projection, statements, assumptions, native demand."""
    proj = chosen.proj
    return {
        "points": list(basis.points),
        "model": basis.model,
        "projection": {
            "from_machine_type": proj.from_machine_type,
            "from_cps": proj.from_cps,
            "to_machine_type": proj.to_machine_type,
            "to_cps": proj.to_cps,
            "factor": proj.factor,
            "specialty_factor": chosen.zproj.factor,
            "capacity_setting": setting or capacity.full_speed_setting.get(proj.to_machine_type, ""),
            "source": proj.source,
            "rating_ids": list(proj.rating_ids),
        },
        "statements": list(dict.fromkeys(basis.statements)),
        "assumptions": list(basis.assumptions),
        "server_share": basis.server_share,
        "eligible_share": {"value": share[0], "low": share[1], "high": share[2]},
        "native": {
            "component": basis.component,
            "intercept_cps": basis.intercept,
            "slope_s": basis.slope,
            "payload_factor": basis.payload_factor,
            "busy_cps": basis.total,
        },
    }


def _ziip_residence_ms(chosen: _Eval, tps: float, scale: float) -> float:
    """M/M/z residence of the eligible work on the zIIPs, ms (0 without zIIP work)."""
    work = chosen.ziip * scale
    if chosen.ziips == 0 or work <= 0.0:
        return 0.0
    if work >= chosen.ziips:
        return math.inf
    service = work / tps
    return (service + erlang_c(chosen.ziips, work) * service / (chosen.ziips - work)) * 1000.0


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
    chosen: _Eval,
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


def _no_cpu_result(
    cfg: ConfigurationData,
    target_machine: str,
    target_machine_type: str,
    tps: float,
    sla: float | None,
    umax: float,
) -> SizingResult:
    """Result for a configuration without any CPU data (HostBridge)."""
    floor = cfg.response_floor
    if floor is None:
        raise ValueError(
            f"config {cfg.path}/{cfg.configuration} has no CPU data (no points, no bounds) and "
            "no published response floor: CPs cannot be sized"
        )
    warnings = [
        SizingWarning(
            "no-cpu-data",
            f"{cfg.path}/{cfg.configuration} publishes no CPU figures: CPs, zIIPs and MIPS "
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
        cpu_per_tran_ms={"total": None, "gcp": None, "ziip": None, "low": None, "high": None},
        busy_cps={"total": None, "gcp": None, "ziip": None, "ziip_on_gcp": None},
        breakdown={},
        gcp_utilization=None,
        ziip_utilization=None,
        mips=None,
        msu=None,
        ziip_mips=None,
        response_time_ms={"value": None, "low": floor.value_ms, "high": None},
        ranges={
            "cps": [None, None],
            "ziips": [None, None],
            "saturation_tps": [None, None],
            "response_time_ms": [floor.value_ms, None],
        },
        saturation_tps=None,
        knee_tps=None,
        closed_throughput_tps=None,
        warnings=tuple(warnings),
        basis={
            "points": [],
            "model": None,
            "projection": None,
            "statements": [] if floor.statement_id is None else [floor.statement_id],
            "assumptions": ["response floor = elapsed time of a published packet trace of one request"],
        },
        max_utilization=umax,
    )
