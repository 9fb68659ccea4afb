"""One configuration on a target machine, evaluated as the sizing engine evaluates it, at any
CP count, specialty-engine count and rate, cheaply enough to sweep (curves, the optimiser, Monte
Carlo, mixes, the closed-network job).

``models_lib.sizing.size`` answers one (rate, CPs) question per call; a curve, an optimisation
or a Monte Carlo run asks thousands of them.  :func:`workload_model` prepares the configuration
once (:func:`models_lib.prepared.prepare`: the basis, payload and LPAR steps, eligible share,
projections per CP count, response model) and :class:`WorkloadModel` evaluates through that
prepared workload: the native demand, the pool split, the saturation rate, the cost factor of
the response model and the specialty engines' residence are the engine's own functions, so a
point of a curve equals the estimate with the same inputs (``tests/sizing/test_engine_agreement.py``).

Units: rates in transactions/s, CPU in busy engines or engine-seconds per transaction, times in
ms unless the name says otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from models_lib.answer import DEFAULT_MAX_UTILIZATION
from models_lib.capacity import MAX_CPS
from models_lib.checks import InputError
from models_lib.costmodel import ConfigurationModel, LinearFit
from models_lib.engine import EnginePolicy, PoolDemand, Saturation
from models_lib.evaluation import cost_factor, ziip_residence_ms
from models_lib.inputs import CapacityTable, ConfigurationData
from models_lib.prepared import PreparedWorkload, prepare
from models_lib.pricing import ConfigurationCost, PriceBook, Pricer
from models_lib.queueing import Station
from models_lib.response import ResponseModel
from models_lib.response_step import closed_network
from models_lib.sizing import size

FloatArray = npt.NDArray[np.float64]
__all__ = ["Evaluation", "WorkloadModel", "reference_rate", "workload_model", "ziip_residence_ms"]

#: Floor of the GCP share in the response model's cost factor (as in the engine).
_MIN_SHARE = 1e-12


@dataclass(frozen=True)
class Evaluation:
    """The workload at ``tps`` on ``cps`` CPs and ``ziips`` zIIPs (busy engines, ms)."""

    tps: float
    cps: int
    ziips: int
    total: float
    gcp: float
    ziip: float
    ziip_on_gcp: float
    gcp_utilization: float
    ziip_utilization: float | None
    stable: bool
    response_time_ms: float | None  # None without published response times; inf when saturated
    lower_bound_ms: float  # CP service + queueing + software wait + zIIP residence (no fixed part)


@dataclass(frozen=True)
class WorkloadModel:
    """A configuration on a target machine; the CP count, zIIP count and rate are free.

    Parameters
    ----------
    path, configuration, machine, machine_type : str
        What and where.
    intercept, slope : float
        Busy engines on the measured LPAR = ``max(0, intercept + slope * tps)`` (payload scaled):
        fixed busy engines and engine-seconds per transaction.
    factors : Mapping[int, float]
        LSPR projection factor of CP work from the measured LPAR to ``cps`` CPs of the target
        (its capacity setting), per rated CP count.
    special_factors : Mapping[int, float]
        The same for specialty-engine work (full-speed rating); equal to ``factors`` on a
        full-speed target.
    policy : EnginePolicy
        The target generation's specialty-engine rules.
    eligible, eligible_low, eligible_high : float
        zIIP-eligible share (central, published range); 0 where none is published.
    ziip_ceiling : float
        Utilisation ceiling of the zIIPs (= ``max_utilization``, as in the engine).
    response : ResponseModel or None
        The engine's response model (CP costs in its own basis, see ``response_scale``).
    response_scale : float
        Factor from the response model's CP cost to the payload-scaled cost (the payload
        factor; the response model is the engine's, built on the cost as measured).
    fit : LinearFit or None
        The primary cost fit (``None`` for a bounds-only configuration).
    cost_range_s : (float, float)
        Range of the native per-transaction cost, engine-seconds (bounds-only: the published
        bounds, payload scaled; fitted: the 95 % prediction interval at the reference rate).
    reference : dict
        The answer at the reference rate (``SizingResult.to_dict()``), for display: basis,
        warnings.  No figure of the model is read back from it.
    published_throughput, published_think_time_s
        The source's throughput against clients (clients, transactions/s) and its think time, s.
    """

    path: str
    configuration: str
    machine: str
    machine_type: str
    intercept: float
    slope: float
    factors: Mapping[int, float]
    eligible: float
    eligible_low: float
    eligible_high: float
    ziip_ceiling: float
    response: ResponseModel | None
    response_scale: float
    fit: LinearFit | None
    cost_range_s: tuple[float, float]
    reference: dict[str, Any] = field(repr=False)
    published_throughput: tuple[tuple[int, float], ...] = ()
    published_think_time_s: float | None = None
    config: ConfigurationData | None = field(default=None, repr=False)
    capacity: CapacityTable | None = field(default=None, repr=False)
    payload_bytes: int | None = None
    special_factors: Mapping[int, float] = field(default_factory=dict)
    policy: EnginePolicy = field(default_factory=lambda: EnginePolicy("zIIP", None, 1, True, None, None))
    capacity_setting: str | None = None
    engine_options: Mapping[str, Any] = field(default_factory=dict)
    prepared: PreparedWorkload | None = field(default=None, repr=False, compare=False)
    price_book: PriceBook | None = None

    @property
    def counts(self) -> tuple[int, ...]:
        """CP counts rated for the target machine (LSPR)."""
        return tuple(sorted(self.factors))

    @property
    def has_response_data(self) -> bool:
        return self.response is not None and self.response.has_response_data

    def factor(self, cps: int, engines: int = 0) -> float:
        """LSPR factor of CP work to ``cps`` CPs + ``engines`` specialty engines (the MP effect)."""
        if engines and self.prepared is not None and self.prepared.has_cpu_data:
            self.factor(cps)  # ValueError naming cps when it is not rated
            return self.prepared.cp_factor(cps, engines)
        try:
            return self.factors[cps]
        except KeyError:
            raise InputError(
                "cps",
                f"cps={cps} is not rated for machine {self.machine} (LSPR covers {self.counts[0]}..{self.counts[-1]})",
            ) from None

    def native_busy(self, tps: float) -> float:
        """Native busy engines at ``tps`` (measured LPAR, payload scaled), as the engine computes
        them: this model's own line (equal to the prepared workload's, unless a sampler replaced
        ``intercept`` or ``slope``)."""
        if self._own_line_is_prepared():
            assert self.prepared is not None
            return self.prepared.native_busy(tps)
        return max(0.0, self.intercept + self.slope * tps)

    def _own_line_is_prepared(self) -> bool:
        """This model's line and share are the prepared workload's (no sampler replaced them)."""
        pw = self.prepared
        if pw is None or not pw.has_cpu_data:
            return False
        line = pw.line
        return (self.intercept, self.slope, self.eligible) == (line.intercept, line.slope, pw.eligible_share)

    def special_factor(self, cps: int, engines: int = 0) -> float:
        """Projection factor of specialty-engine work to ``cps`` CPs + ``engines`` engines."""
        if engines and self.prepared is not None and self.prepared.has_cpu_data:
            self.factor(cps)
            return self.prepared.special_factor(cps, engines)
        return self.special_factors.get(cps, self.factor(cps))

    def factor_tables(self, cps: int) -> tuple[FloatArray, FloatArray, int]:
        """(CP factors, specialty factors, cap) at ``cps`` CPs (``PreparedWorkload.factor_tables``)."""
        self.factor(cps)
        if self.prepared is not None and self.prepared.has_cpu_data:
            return self.prepared.factor_tables(cps)
        cap = self.max_engines(cps)
        k = MAX_CPS if cap is None else cap
        return np.full(k + 1, self.factor(cps)), np.full(k + 1, self.special_factor(cps)), k

    def max_engines(self, cps: int) -> int | None:
        """Most specialty engines the generation's rules allow beside ``cps`` CPs."""
        return self.policy.max_engines(cps)

    def split(self, tps: float, cps: int, ziips: int | None = None) -> PoolDemand:
        """The engine's split of the demand at ``tps`` between CPs and specialty engines
        (``ziips=None``: sized to the eligible work, within the rules' ratio)."""
        # The prepared workload's split with this model's own line and eligible share, so that a
        # model with a sampled line (models_lib.montecarlo) is evaluated by the same steps.
        return self._prepared().split_native(self.native_busy(float(tps)), cps, ziips, self.eligible)

    def ziips_for(self, tps: float, cps: int) -> int:
        """Specialty engines the engine sizes for ``tps``: the eligible work within the ceiling
        and the rules' ratio."""
        return self.split(tps, cps).engines

    def estimate(
        self, *, tps: float, cps: int | None = None, ziips: int | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """The engine's full answer (``size().to_dict()``), as the estimate API gives it."""
        rate_options = {"clients", "think_time_s", "response_time_sla_ms"}
        if self.prepared is not None and set(kwargs) <= rate_options:
            return self.prepared.answer(tps, cps=cps, ziips=ziips, price_book=self.price_book, **kwargs).to_dict()
        assert self.config is not None and self.capacity is not None
        return size(
            self.config,
            target_machine=self.machine,
            target_machine_type=self.machine_type,
            capacity=self.capacity,
            tps=tps,
            cps=cps,
            ziips=ziips,
            max_utilization=self.ziip_ceiling,
            payload_bytes=self.payload_bytes,
            capacity_setting=self.capacity_setting,
            **{"price_book": self.price_book, **self.engine_options, **kwargs},
        ).to_dict()

    def mix_cost(self, cps: int, ziips: int, gcp: float) -> ConfigurationCost | None:
        """The cost of ``cps`` CPs + ``ziips`` engines doing ``gcp`` busy CPs (``None``: no price book)."""
        if self.price_book is None or self.capacity is None:
            return None
        return Pricer(self.price_book, self.capacity, self.machine_type, self.capacity_setting).mix(cps, ziips, gcp)

    def evaluate(self, tps: float, cps: int, ziips: int | None = None) -> Evaluation:
        """Busy engines, utilisation and response time at ``tps`` (``ziips=None``: sized)."""
        split = self.split(tps, cps, ziips)
        total, z = split.total, split.engines
        stable = tps < self.saturation_tps(cps, z)
        value: float | None = None
        lower = math.inf
        if self.response is not None and stable:
            bd = self.response.breakdown(tps, cps=cps, cost_factor=self._split_cost_factor(split, tps, cps, ziips))
            ziip_ms = ziip_residence_ms(split.special, z, tps)
            lower = bd.lower_bound_ms + ziip_ms
            if bd.total_ms is not None:
                value = bd.total_ms + ziip_ms
        elif self.has_response_data:  # saturated
            value = math.inf
        return Evaluation(
            tps=tps,
            cps=cps,
            ziips=z,
            total=total,
            gcp=split.gcp,
            ziip=split.special,
            ziip_on_gcp=split.on_gcp,
            gcp_utilization=split.gcp / cps,
            ziip_utilization=split.special / z if z else None,
            stable=stable,
            response_time_ms=value,
            lower_bound_ms=lower,
        )

    def _split_cost_factor(self, split: PoolDemand, tps: float, cps: int, ziips: int | None) -> float:
        """:meth:`cp_cost_factor` for the share of the work ``split`` leaves on the GCPs (eligible
        work that spilled onto them included)."""
        # No load at all (a rate of 0, or a negative intercept): the share's limit.
        idle = 1.0 if ziips == 0 else 1.0 - self.eligible
        return cost_factor(self.native_busy(tps), self.factor(cps, split.engines), self.response_scale, split.gcp, idle)

    def closed_network(
        self, tps: float, cps: int, ziips: int | None = None, *, scale: float = 1.0, with_fixed: bool = True
    ) -> tuple[list[Station], PoolDemand]:
        """The estimate's closed network at the rate ``tps`` on ``cps`` CPs and ``ziips`` specialty
        engines (``None``: sized), with every CPU cost times ``scale`` (the ends of the CPU range),
        and the engine's split at ``tps`` it is built on (:func:`models_lib.sizing.closed_network`)."""
        if self.response is None:
            raise ValueError(f"{self.path}/{self.configuration}: no response model, so no closed network")
        split = self.split(tps, cps, ziips)
        stations = closed_network(
            self.response,
            cps=cps,
            cost_factor=self._split_cost_factor(split, tps, cps, ziips) * max(scale, _MIN_SHARE),
            tps=tps,
            ziip_busy=split.special * scale,
            ziips=split.engines,
            with_fixed=with_fixed,
        )
        return stations, split

    def cp_cost_factor(self, cps: int, gcp_share: float) -> float:
        """Response model CP cost -> target GCP cost per transaction (LSPR x payload x GCP share)."""
        return self.factor(cps) * self.response_scale * max(gcp_share, _MIN_SHARE)

    def saturation_tps(self, cps: int, ziips: int | None = None) -> float:
        """Rate at which the CPs (with the specialty engines' help) or the software station
        saturate, as the engine computes it (:func:`models_lib.engine.saturation`); ``ziips=None``:
        as many specialty engines as the rules allow beside ``cps`` CPs (no limit without rules)."""
        return self.saturation(cps, ziips).tps

    def saturation(self, cps: int, ziips: int | None = None) -> Saturation:
        """:meth:`saturation_tps` with the resource that binds, as
        :meth:`PreparedWorkload.saturation` computes it, with this model's own line and share."""
        return self._prepared().saturation(cps, ziips, line=(self.intercept, self.slope), fraction=self.eligible)

    def _prepared(self) -> PreparedWorkload:
        if self.prepared is None:
            raise InputError("config", f"{self.path}/{self.configuration}: no prepared workload")
        return self.prepared

    def knee_tps(self, cps: int, ziips: int | None = None) -> tuple[float | None, str]:
        """Rate at which the response time doubles its low-load value, and what it is the knee of.

        ``"response_time"`` with published response times; otherwise ``"lower_bound"``, the
        knee of CP service + queueing (+ software wait, zIIP residence), the part that queues.
        """
        basis = "response_time" if self.has_response_data else "lower_bound"

        def r(t: float) -> float:
            ev = self.evaluate(t, cps, ziips)
            v = ev.response_time_ms if basis == "response_time" else ev.lower_bound_ms
            return math.inf if v is None else v

        sat = self.saturation_tps(cps, ziips)
        if not math.isfinite(sat) or sat <= 0.0 or self.response is None:
            return None, basis
        r0 = r(sat * 1e-9)
        if not (r0 > 0.0 and math.isfinite(r0)):
            return None, basis
        lo, hi = sat * 1e-9, sat * (1.0 - 1e-9)
        if r(hi) <= 2.0 * r0:
            return None, basis
        for _ in range(100):  # bisection: R is increasing in tps; 1e-9 relative is plenty
            mid = 0.5 * (lo + hi)
            if r(mid) > 2.0 * r0:
                hi = mid
            else:
                lo = mid
            if hi - lo <= 1e-9 * sat:
                break
        return 0.5 * (lo + hi), basis


def reference_rate(cfg: ConfigurationData) -> float:
    """A rate inside what was measured: the mean published ETR, else the first bound's rate."""
    if cfg.points:
        return sum(p.etr for p in cfg.points) / len(cfg.points)
    if cfg.bounds:
        return cfg.bounds[0].tps
    return 1.0


def workload_model(
    cfg: ConfigurationData,
    *,
    machine: str,
    machine_type: str,
    capacity: CapacityTable,
    payload_bytes: int | None = None,
    max_utilization: float | None = None,
    tps: float | None = None,
    capacity_setting: str | None = None,
    fitted: ConfigurationModel | None = None,
    price_book: PriceBook | None = None,
    **engine: Any,
) -> WorkloadModel:
    """Build a :class:`WorkloadModel` on :func:`models_lib.prepared.prepare` (no database access);
    ``engine``: further ``size()`` options the model keeps for every evaluation
    (``server_share``, ``other_cost``, ``lpar_overhead``, ``projection_band``); ``fitted``: the
    configuration's cost model when the caller has it already; ``price_book``: the user's prices."""
    umax = DEFAULT_MAX_UTILIZATION if max_utilization is None else max_utilization
    t_ref = tps if tps is not None else reference_rate(cfg)
    prepared = prepare(
        cfg,
        target_machine=machine,
        target_machine_type=machine_type,
        capacity=capacity,
        max_utilization=umax,
        payload_bytes=payload_bytes,
        model=fitted,
        capacity_setting=capacity_setting,
        **engine,
    )
    result = prepared.answer(t_ref, price_book=price_book)
    cost, elig = prepared.cost, prepared.eligibility
    if cost is None or elig is None:
        codes = {w.code: w.message for w in result.warnings}
        raise InputError(
            "configuration", codes.get("no-cpu-data") or f"{cfg.path}/{cfg.configuration} cannot be sized: no CPU data."
        )
    line, at_ref = prepared.line, cost.at(t_ref)
    pairs = {n: prepared.projections(n) for n in prepared.counts}
    return WorkloadModel(
        path=cfg.path,
        configuration=cfg.configuration,
        machine=machine,
        machine_type=machine_type,
        intercept=line.intercept,
        slope=line.slope,
        factors={n: cp.factor for n, (cp, _) in pairs.items()},
        special_factors={n: sp.factor for n, (_, sp) in pairs.items()},
        policy=prepared.policy,
        capacity_setting=capacity_setting,
        engine_options=dict(engine),
        eligible=elig.value,
        eligible_low=elig.low,
        eligible_high=elig.high,
        ziip_ceiling=umax,
        response=prepared.response,
        response_scale=line.payload_factor,
        fit=cost.model.primary_fit() if cost.model is not None else None,
        cost_range_s=(at_ref.low / t_ref, at_ref.high / t_ref),
        reference=result.to_dict(),
        published_throughput=tuple(cfg.throughput_rows),
        published_think_time_s=cfg.think_time_s,
        config=cfg,
        capacity=capacity,
        payload_bytes=payload_bytes,
        prepared=prepared,
        price_book=price_book,
    )
