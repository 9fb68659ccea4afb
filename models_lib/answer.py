"""The engine's answer: :class:`SizingResult`, its warnings and their stable codes.

Serialised at the API boundary only, by :meth:`SizingResult.to_dict`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from models_lib.answer_json import served_json
from models_lib.answer_parts import (
    Alternative,
    AnswerBasis,
    BindingAtTarget,
    BusyEngines,
    Capacity,
    CpuPerTran,
    Feasibility,
    Ranges,
    ResponseTime,
    SaturationBinding,
)
from models_lib.fastinit import fast_init
from models_lib.pricing import ConfigurationCost

if TYPE_CHECKING:
    from models_lib.answer_curves import CapacityLine, CpuCurve, FloatArray, ResponseCurve
    from models_lib.prepared import PreparedWorkload

__all__ = [
    "DEFAULT_MAX_UTILIZATION",
    "LEVEL_ORDER",
    "SATURATION_KINDS",
    "WARNING_CODES",
    "WARNING_INPUTS",
    "WARNING_LEVELS",
    "Level",
    "SizingResult",
    "SizingWarning",
    "finite_or_none",
]

#: Default ceiling on the mean utilisation of the general-purpose CPs (and, unless told
#: otherwise, of the zIIPs): 0.85.  The sources show healthy response at up to 76 % LPAR busy
#: (REDP-5114 Table 11-1 row 4: 75.99 % of 10 CPs at 8680 TPS, 14 ms) and call 97 % "constrained
#: by the number of CPs available" (REDP-5320, performance class monitoring section).  0.85 sits
#: between the two and leaves headroom for peaks inside an RMF interval: for a 10-CP pool the
#: M/M/c queueing delay at 85 % is 2.6 times that at 76 %, and grows another 4.7 times by 95 %.
DEFAULT_MAX_UTILIZATION = 0.85

#: What an answer's ``saturation_tps`` is (``SizingResult.saturation_kind``): a central value, a
#: lower bound (the central cost is the published upper bound), or unknown (no saturation rate:
#: no CPU figures are published).
SATURATION_KINDS = ("value", "lower-bound", "unknown")

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
    "response-fit-weak": "the response-time fit has too few degrees of freedom or misses published points left out",
    "does-not-fit": "no configuration the target can be built with carries the rate (engines, software limit, saturation)",
    "fixed-base-dominates": "at least half the CPU at the rate is the CICS regions' fixed base (cics_regions scales it)",
}


#: How much a warning matters to the person buying: ``decision``, the answer does not hold as
#: asked (beyond capacity, a software limit passed, the user's fixed configuration forcing
#: eligible work onto CPs); ``caveat``, an assumption the reader must accept; ``note``, how the
#: number was computed.
Level = Literal["decision", "caveat", "note"]

#: Order in which levels are shown: decision-changing first.
LEVEL_ORDER: tuple[Level, ...] = ("decision", "caveat", "note")

#: The level of each code where the step that raises it says nothing else.  ``engine-ratio``
#: is a caveat when the answer resolves it by sizing more CPs (a decision where the user fixed
#: the CPs); ``utilization-above-ceiling``, ``ziip-overflow`` and ``published-limit`` are
#: caveats for a source's own measured configuration at its published rate (:mod:`models_lib.levels`).
WARNING_LEVELS: Mapping[str, Level] = {
    "capacity-exceeded": "decision",
    "beyond-saturation": "decision",
    "sla-missed": "decision",
    "sla-unreachable": "decision",
    "utilization-above-ceiling": "decision",
    "ziip-overflow": "decision",
    "clients-limit-throughput": "decision",
    "published-limit": "decision",
    "no-cpu-data": "decision",
    "does-not-fit": "decision",
    "engine-ratio": "caveat",
    "eligibility-scope": "caveat",
    "bounds-only": "caveat",
    "ratio-only": "caveat",
    "extrapolation": "caveat",
    "payload-outside-range": "caveat",
    "interval-assumed": "caveat",
    "no-eligibility-data": "caveat",
    "no-response-time-data": "caveat",
    "clients-exceed-throughput": "caveat",
    "cics-only": "caveat",
    "software-unscaled": "caveat",
    "fixed-base-dominates": "caveat",
    "response-fit-weak": "caveat",
    "projection": "note",
    "payload-scaled": "note",
}


#: The inputs each warning refers to (the request fields a reader would change to act on it):
#: a page can put the warning beside them, and a caller can tell which input it concerns
#: without reading the message.
WARNING_INPUTS: Mapping[str, tuple[str, ...]] = {
    "extrapolation": ("tps",),
    "projection": ("machine", "model", "capacity_setting", "projection_band"),
    "payload-outside-range": ("payload_bytes",),
    "payload-scaled": ("payload_bytes",),
    "eligibility-scope": ("server_share",),
    "sla-missed": ("response_time_sla_ms",),
    "sla-unreachable": ("response_time_sla_ms",),
    "utilization-above-ceiling": ("cps", "max_utilization"),
    "ziip-overflow": ("ziips",),
    "capacity-exceeded": ("tps", "max_utilization"),
    "beyond-saturation": ("tps", "cps", "ziips"),
    "clients-limit-throughput": ("clients", "think_time_s"),
    "clients-exceed-throughput": ("clients", "think_time_s"),
    "no-cpu-data": ("path", "configuration"),
    "engine-ratio": ("cps", "ziips", "objective"),
    "published-limit": ("tps",),
    "cics-only": ("lpar_overhead",),
    "fixed-base-dominates": ("cics_regions", "tps"),
    "does-not-fit": ("tps", "machine", "model", "cps", "ziips"),
}


@fast_init
@dataclass(frozen=True)
class SizingWarning:
    """A warning with a stable ``code`` (see :data:`WARNING_CODES`), a ``message``, its
    ``level`` (default: the code's in :data:`WARNING_LEVELS`, a caveat for an unknown code) and
    the ``inputs`` it refers to (default: the code's in :data:`WARNING_INPUTS`, none)."""

    code: str
    message: str
    level: Level | None = None
    inputs: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.inputs is None:
            object.__setattr__(self, "inputs", WARNING_INPUTS.get(self.code, ()))
        if self.level is None:
            object.__setattr__(self, "level", WARNING_LEVELS.get(self.code, "caveat"))
        elif self.level not in LEVEL_ORDER:
            raise ValueError(f"level must be one of {LEVEL_ORDER}, got {self.level!r}")


@fast_init
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
    cpu_per_tran_ms : CpuPerTran
        ``total``, ``gcp``, ``ziip`` (CP-ms per transaction) and ``low``/``high`` of the total
        (95 % prediction interval, or the bounded range).
    busy_cps : BusyEngines
        ``total``, ``gcp``, ``ziip``, ``ziip_on_gcp`` busy engines.
    breakdown : Mapping[str, float]
        Busy engines per published component (``lpar``, ``cics``, ``tor``, ``aor``, ``for``,
        ``smsvsam``) projected to the target, and ``icf``: coupling-facility busy on its own ICF
        engines, outside the LPAR, as measured (never in the CPs sized; ``capacity.icf``).
    gcp_utilization, ziip_utilization : float or None
        Mean utilisation (fraction).
    mips, msu : float or None
        Capacity demand of the GCP work, LSPR MIPS and MSU at ``cps``.
    ziip_mips : float or None
        Capacity demand of the zIIP work, MIPS (zIIPs rated as CPs of the same count).
    response_time_ms : ResponseTime
        ``value`` (``None`` where no absolute model exists), ``low``, ``high``.
    saturation_tps : float or None
        Rate at which the CPs (+ zIIPs) or the software station saturate, transactions/s.
    knee_tps : float or None
        Rate at which the response time doubles its low-load value.
    closed_throughput_tps : float or None
        Throughput of the closed network when ``clients`` were given.
    warnings : tuple of SizingWarning
    basis : AnswerBasis
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
    binding_resource : BindingAtTarget or None
        The busiest resource at ``tps``: ``resource`` ("cps", "specialty", "software",
        "clients"), ``label``, ``utilization``.
    saturation_binding : SaturationBinding or None
        The resource that saturates first: ``resource``, ``label``.
    saturation_kind : {"value", "lower-bound", "unknown"}
        "lower-bound" where the central cost is the published upper bound (bounds-only) and no
        projection band widens it: the true saturation rate is at least ``saturation_tps``,
        which is then the low end of ``ranges.saturation_tps``.  "unknown" where
        ``saturation_tps`` is ``None`` (no CPU figures are published: HostBridge).
    ranges : Ranges
        ``cps`` (CPs required), ``ziips``, ``saturation_tps``, ``response_time_ms``: [low,
        high] from the cost range (prediction interval or published bounds), widened by the
        projection band where given; ``None`` for an end that is unbounded or unknown.
    capacity_detail : Capacity or None
        Served as ``capacity``: the target model's MIPS and MSU installed and used for the CPs,
        the specialty engines' MIPS (not priced), utilisation of each pool and the projection
        basis (both models, ratings, factors, source).
    feasibility : Feasibility
        Served as ``feasible`` (bool, or ``None``: no CPU figures, no CPU verdict) and
        ``feasibility``: the one predicate of :func:`models_lib.feasibility.fits_at`; where the
        answer does not fit, the reason (``engines``, ``ceiling``, ``saturation``,
        ``software-limit``, ``response-goal``), the sentence, and the most the target carries
        (``max_tps`` on ``max_tps_cps`` CPs + ``max_tps_ziips`` specialty engines: the largest
        rate the same predicate holds for).  ``cps`` and ``ziips`` are then ``None``, and so are
        their ``_required`` except where given CPs run above the ceiling or saturate and a sized
        count would carry the rate (``ceiling``, ``saturation``: they name that count); the
        other figures are those of ``evaluated_cps`` CPs (the largest count, or the given one).
    objective : {"fewest-cps", "least-msu-consumed", "fewest-engines", "least-cost"}
        What the choice of the mix minimised (:data:`models_lib.choice.OBJECTIVES`).
    alternative : Alternative or None
        What the other objective picks where it differs (``objective``, ``cps``, ``ziips``,
        ``msu`` consumed, ``msu_installed``).
    evaluated_cps, evaluated_ziips : int or None
        The CPs and specialty engines the figures are evaluated at (equal to ``cps``/``ziips``
        where the answer fits).
    cost : ConfigurationCost or None
        Only where a price book is given and the answer fits: the configuration's cost over the
        book's term (:func:`models_lib.pricing.configuration_cost`); the key is absent otherwise.
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
    cpu_per_tran_ms: CpuPerTran
    busy_cps: BusyEngines
    breakdown: Mapping[str, float]
    gcp_utilization: float | None
    ziip_utilization: float | None
    mips: float | None
    msu: float | None
    ziip_mips: float | None
    response_time_ms: ResponseTime
    saturation_tps: float | None
    knee_tps: float | None
    closed_throughput_tps: float | None
    warnings: tuple[SizingWarning, ...]
    basis: AnswerBasis
    max_utilization: float = DEFAULT_MAX_UTILIZATION
    specialty_engine: str = "zIIP"
    specialty_engine_max: int | None = None
    binding_resource: BindingAtTarget | None = None
    saturation_binding: SaturationBinding | None = None
    saturation_kind: str = "value"
    ranges: Ranges = field(default_factory=Ranges.unknown)
    capacity_detail: Capacity | None = None
    feasibility: Feasibility = field(default_factory=Feasibility.fits)
    objective: str = "fewest-cps"
    alternative: Alternative | None = None
    evaluated_cps: int | None = None
    evaluated_ziips: int | None = None
    cost: ConfigurationCost | None = None
    prepared: PreparedWorkload | None = field(default=None, repr=False, compare=False)

    def response_curve(self, tps: FloatArray | list[float]) -> ResponseCurve:
        """Response time at each rate of ``tps`` (transactions/s) on this answer's CPs and
        specialty engines (:func:`models_lib.answer_curves.response_curve`)."""
        from models_lib.answer_curves import response_curve  # drawn from the engine's steps, which import this module

        return response_curve(self, tps)

    def cpu_curve(self, tps: FloatArray | list[float]) -> CpuCurve:
        """Busy engines at each rate of ``tps`` on this answer's LPAR (:func:`models_lib.answer_curves.cpu_curve`)."""
        from models_lib.answer_curves import cpu_curve

        return cpu_curve(self, tps)

    def capacity_line(self) -> CapacityLine:
        """This answer's CPs plus specialty engines as a level of busy engines, with its label."""
        from models_lib.answer_curves import capacity_line

        return capacity_line(self)

    def warning_codes(self) -> tuple[str, ...]:
        """Codes of :attr:`warnings`, in order."""
        return tuple(w.code for w in self.warnings)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe plain form (non-finite floats become ``None``): :meth:`_plain`'s keys and values,
        each converted by its field's declared type in one generated function
        (:mod:`models_lib.answer_json`); a fresh dict of fresh blocks the caller may change."""
        return served_json(self, _SERVED, _TYPE_CHECKING_ONLY)

    def _plain(self) -> dict[str, Any]:
        """The serialised form's keys and values before they are made JSON-safe."""
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
            "cpu_per_tran_ms": self.cpu_per_tran_ms,
            "busy_cps": self.busy_cps,
            "breakdown": self.breakdown,
            "gcp_utilization": self.gcp_utilization,
            "ziip_utilization": self.ziip_utilization,
            "mips": self.mips,
            "msu": self.msu,
            "ziip_mips": self.ziip_mips,
            "response_time_ms": self.response_time_ms,
            "saturation_tps": self.saturation_tps,
            "knee_tps": self.knee_tps,
            "closed_throughput_tps": self.closed_throughput_tps,
            "warnings": [
                {"code": w.code, "message": w.message, "level": w.level, "inputs": list(w.inputs or ())}
                for w in self.warnings
            ],
            "basis": self.basis,
            "max_utilization": self.max_utilization,
            "specialty_engine": self.specialty_engine,
            "specialty_engine_max": self.specialty_engine_max,
            "binding_resource": self.binding_resource,
            "saturation_binding": self.saturation_binding,
            "saturation_kind": self.saturation_kind,
            "ranges": self.ranges,
            "capacity": self.capacity_detail,
            "feasible": self.feasibility.feasible,
            "feasibility": self.feasibility,
            "objective": self.objective,
            "alternative": self.alternative,
            "evaluated_cps": self.evaluated_cps,
            "evaluated_ziips": self.evaluated_ziips,
        }
        if self.cost is not None:  # only with the user's price book: no invented prices
            out["cost"] = self.cost
        return out


#: The keys of :meth:`SizingResult.to_dict` in order (those of :meth:`SizingResult._plain`):
#: (key, the attribute it is read from, whether it is left out where ``None``).
_SERVED: tuple[tuple[str, str, bool], ...] = (
    *((name, name, False) for name in (
        "path", "configuration", "target_machine", "target_machine_type", "tps", "cps", "cps_required", "ziips",
        "ziips_required", "cpu_per_tran_ms", "busy_cps", "breakdown", "gcp_utilization", "ziip_utilization", "mips",
        "msu", "ziip_mips", "response_time_ms", "saturation_tps", "knee_tps", "closed_throughput_tps", "warnings",
        "basis", "max_utilization", "specialty_engine", "specialty_engine_max", "binding_resource",
        "saturation_binding", "saturation_kind", "ranges",
    )),
    ("capacity", "capacity_detail", False),
    ("feasible", "feasibility.feasible", False),
    *((name, name, False) for name in ("feasibility", "objective", "alternative", "evaluated_cps", "evaluated_ziips")),
    ("cost", "cost", True),
)  # fmt: skip

#: The names :class:`SizingResult`'s annotations take from modules imported for type checking only.
_TYPE_CHECKING_ONLY: Mapping[str, Any] = {"PreparedWorkload": object}


def finite_or_none(v: float | None) -> float | None:
    return None if v is None or not math.isfinite(v) else float(v)
