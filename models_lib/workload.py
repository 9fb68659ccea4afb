"""One configuration on a target machine, evaluated as the sizing engine evaluates it, at any
CP count, specialty-engine count and rate, cheaply enough to sweep (curves, the optimiser, Monte
Carlo, mixes, the closed-network job).

``models_lib.sizing.size`` answers one (rate, CPs) question per call and always evaluates every
CP count of the machine; a curve, an optimisation or a Monte Carlo run asks thousands of them.
:func:`load_workload` calls ``size()`` once for the basis it chose (points or bounds, payload
scaling, LSPR projection, response model) and keeps the pieces; :class:`WorkloadModel` then
evaluates with the same steps ``size()`` uses (:mod:`models_lib.engine`: projections per
capacity setting, specialty-engine rules, the pool split and the saturation rate;
``ResponseModel.breakdown``, ``erlang_c``), so that a point of a curve equals the estimate with
the same inputs (``tests/models_lib/test_workload.py`` checks this against ``size()``).

Units: rates in transactions/s, CPU in busy engines or engine-seconds per transaction, times in
ms unless the name says otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from models_lib.costmodel import ConfigurationModel, LinearFit, fit_configuration
from models_lib.engine import (
    EnginePolicy,
    PoolDemand,
    Saturation,
    engine_policy,
    projections,
    rated_counts,
    saturation,
    specialty_engines,
    split_pools,
)
from models_lib.inputs import CapacityTable, ConfigurationData
from models_lib.queueing import Station, erlang_c
from models_lib.response import ResponseModel, fit_response
from models_lib.sizing import DEFAULT_MAX_UTILIZATION, closed_network, size

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
        Factor from the response model's CP cost to ``slope`` (the payload factor for a fitted
        model; 1 for a bounds-only one, whose model is built on ``slope``).
    fit : LinearFit or None
        The primary cost fit (``None`` for a bounds-only configuration).
    cost_range_s : (float, float)
        Range of the native per-transaction cost, engine-seconds (bounds-only: the published
        bounds, payload scaled; fitted: the 95 % prediction interval at the reference rate).
    reference : dict
        ``size()`` at the reference rate (``SizingResult.to_dict()``): basis, warnings.
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

    # -- basics ---------------------------------------------------------------------------
    @property
    def counts(self) -> tuple[int, ...]:
        """CP counts rated for the target machine (LSPR)."""
        return tuple(sorted(self.factors))

    @property
    def has_response_data(self) -> bool:
        return self.response is not None and self.response.has_response_data

    def factor(self, cps: int) -> float:
        try:
            return self.factors[cps]
        except KeyError:
            raise ValueError(
                f"cps={cps} is not rated for machine {self.machine} (LSPR covers {self.counts[0]}..{self.counts[-1]})"
            ) from None

    def native_busy(self, tps: float) -> float:
        return max(0.0, self.intercept + self.slope * tps)

    def special_factor(self, cps: int) -> float:
        """Projection factor of specialty-engine work to ``cps`` CPs (full-speed rating)."""
        return self.special_factors.get(cps, self.factor(cps))

    def max_engines(self, cps: int) -> int | None:
        """Most specialty engines the generation's rules allow beside ``cps`` CPs."""
        return self.policy.max_engines(cps)

    def split(self, tps: float, cps: int, ziips: int | None = None) -> PoolDemand:
        """The engine's split of the demand at ``tps`` between CPs and specialty engines
        (``ziips=None``: sized to the eligible work, within the rules' ratio)."""
        native = self.native_busy(tps)
        kz = self.special_factor(cps)
        z, needed = specialty_engines(self.policy, cps, native * self.eligible * kz, self.ziip_ceiling, ziips)
        return split_pools(native, self.eligible, self.factor(cps), kz, z, needed, self.ziip_ceiling)

    def ziips_for(self, tps: float, cps: int) -> int:
        """Specialty engines the engine sizes for ``tps``: the eligible work within the ceiling
        and the rules' ratio."""
        return self.split(tps, cps).engines

    def estimate(
        self, *, tps: float, cps: int | None = None, ziips: int | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """The engine's full answer (``size().to_dict()``), as the estimate API gives it."""
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
            **{**self.engine_options, **kwargs},
        ).to_dict()

    # -- one point --------------------------------------------------------------------------
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
        on_target = self.native_busy(tps) * self.factor(cps)  # all work at the CPs' speed
        share = split.gcp / on_target if on_target > 0.0 else (1.0 if ziips == 0 else 1.0 - self.eligible)
        return self.cp_cost_factor(cps, share)

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

    def _engines(self, cps: int, ziips: int | None) -> int | None:
        """Specialty engines configured beside ``cps`` CPs: given ones never above the rules."""
        cap = self.max_engines(cps)
        if ziips is None or cap is None:
            return cap if ziips is None else ziips
        return min(ziips, cap)

    def saturation(self, cps: int, ziips: int | None = None) -> Saturation:
        """:meth:`saturation_tps` with the resource that binds."""
        return saturation(
            cps=cps,
            engines=self._engines(cps, ziips),
            fraction=self.eligible,
            cp_factor=self.factor(cps),
            special_factor=self.special_factor(cps),
            intercept=self.intercept,
            slope=self.slope,
            software_tps=None
            if self.response is None or self.response.software is None
            else self.response.software.saturation_tps(),
        )

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


def ziip_residence_ms(ziip_busy: float, ziips: int, tps: float) -> float:
    """M/M/z residence of the eligible work on the zIIPs, ms (0 without zIIP work), as the engine."""
    if ziips == 0 or ziip_busy <= 0.0 or tps <= 0.0:
        return 0.0
    if ziip_busy >= ziips:
        return math.inf
    service = ziip_busy / tps
    return (service + erlang_c(ziips, ziip_busy) * service / (ziips - ziip_busy)) * 1000.0


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
    **engine: Any,
) -> WorkloadModel:
    """Build a :class:`WorkloadModel` from one ``size()`` call (no database access); ``engine``:
    further ``size()`` options the model keeps for every evaluation (``server_share``,
    ``other_cost``, ``lpar_overhead``, ``projection_band``); ``fitted``: the configuration's cost
    model when the caller has it already."""
    umax = DEFAULT_MAX_UTILIZATION if max_utilization is None else max_utilization
    t_ref = tps if tps is not None else reference_rate(cfg)
    if fitted is None:
        fitted = fit_configuration(cfg)
    result = size(
        cfg,
        target_machine=machine,
        target_machine_type=machine_type,
        capacity=capacity,
        tps=t_ref,
        max_utilization=umax,
        payload_bytes=payload_bytes,
        model=fitted,
        capacity_setting=capacity_setting,
        **engine,
    )
    ref = result.to_dict()
    if result.cps is None or ref["basis"]["projection"] is None:
        codes = {w.code: w.message for w in result.warnings}
        raise ValueError(codes.get("no-cpu-data") or f"{cfg.path}/{cfg.configuration} cannot be sized: no CPU data.")
    projection = ref["basis"]["projection"]
    from_cps = int(projection["from_cps"])
    factor_ref = float(projection["factor"])
    per_tran = ref["cpu_per_tran_ms"]
    # The engine's own native (measured-LPAR, payload-scaled) demand line, as it reports it.
    native = ref["basis"]["native"]
    intercept, slope = float(native["intercept_cps"]), float(native["slope_s"])
    if fitted.has_cpu_model:
        fit = fitted.primary_fit()
        try:
            response: ResponseModel | None = fit_response(cfg, fitted)
        except ValueError:
            response = None
        # The response model is fitted on the unscaled points: scale its CP cost by the payload.
        response_scale = float(native["payload_factor"])
    else:
        fit = None
        # Bounds-only: the cost per transaction is a constant (no intercept) and the engine
        # builds its response model on that cost, so no further scaling applies.
        try:
            response = fit_response(cfg, None, cp_seconds=slope)
        except ValueError:
            response = None
        response_scale = 1.0
    low = float(per_tran["low"] or 0.0) / 1000.0 / factor_ref
    high = float(per_tran["high"] or 0.0) / 1000.0 / factor_ref
    policy = engine_policy(capacity, machine_type)
    counts = rated_counts(capacity, machine_type, capacity_setting, policy.min_cps)
    pairs = {n: projections(capacity, cfg.machine_type, from_cps, machine_type, n, capacity_setting) for n in counts}
    factors = {n: cp.factor for n, (cp, _) in pairs.items()}
    special = {n: sp.factor for n, (_, sp) in pairs.items()}
    share = ref["basis"]["eligible_share"]  # the engine's share, scoped to what was measured
    return WorkloadModel(
        path=cfg.path,
        configuration=cfg.configuration,
        machine=machine,
        machine_type=machine_type,
        intercept=intercept,
        slope=slope,
        factors=factors,
        special_factors=special,
        policy=policy,
        capacity_setting=capacity_setting,
        engine_options=dict(engine),
        eligible=float(share["value"]),
        eligible_low=float(share["low"]),
        eligible_high=float(share["high"]),
        ziip_ceiling=umax,
        response=response,
        response_scale=response_scale,
        fit=fit,
        cost_range_s=(low, high),
        reference=ref,
        published_throughput=tuple(cfg.throughput_rows),
        published_think_time_s=cfg.think_time_s,
        config=cfg,
        capacity=capacity,
        payload_bytes=payload_bytes,
    )
