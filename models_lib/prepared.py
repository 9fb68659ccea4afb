"""The prepared workload: everything the engine derives before a rate is known, evaluated many times.

Like ``scipy.stats.norm(loc, scale)``, :func:`prepare` does the set-up once (the fitted cost
model with its interval, the payload and LPAR steps, the eligible share and its scope, the
response model, the target's rated CP counts and engine rules) and returns a frozen
:class:`PreparedWorkload`; its methods evaluate it at a rate: :meth:`~PreparedWorkload.evaluate`
(the pool split, scalar or over an array of rates), :meth:`~PreparedWorkload.saturation`,
:meth:`~PreparedWorkload.answer`, the sizing decision, and :meth:`~PreparedWorkload.answers`,
the decision at an array of rates.  ``models_lib.sizing.size`` is ``prepare(...).answer(...)``.

Units: rates in transactions/s, CPU in busy engines, times in ms.

References
----------
.. [1] IBM, "Large Systems Performance Reference" (LSPR), SC28-1187.
.. [2] D. A. Menasce, V. A. F. Almeida, L. W. Dowdy, "Performance by Design", Prentice Hall, 2004.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from models_lib.answer import DEFAULT_MAX_UTILIZATION, SizingResult
from models_lib.answer_build import no_cpu_result
from models_lib.capacity import MAX_CPS, Projection
from models_lib.checks import InputError
from models_lib.cost_basis import Basis
from models_lib.costmodel import DEFAULT_LEVEL, ConfigurationModel
from models_lib.decision import answer_at
from models_lib.engine import (
    EnginePolicy,
    PoolDemand,
    Saturation,
    mp_engines_array,
    mp_specialty_engines,
    projections,
    saturation,
    split_pools,
    split_pools_array,
)
from models_lib.evaluation import Target, cost_factor, ziip_residence_ms
from models_lib.group import answers as group_answers
from models_lib.group import rate_request
from models_lib.inputs import CapacityTable, ComponentCost, ConfigurationData
from models_lib.native_cost import NativeCost, native_cost
from models_lib.prepare_inputs import check_objective, check_options, response_model_for, smt2_option, target_rules
from models_lib.pricing import PriceBook
from models_lib.regions import fitted_for_regions
from models_lib.response import ResponseModel
from models_lib.scope import Eligibility, eligibility_step

__all__ = ["PoolLoads", "PreparedWorkload", "ResponsePoint", "check_objective", "prepare"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class PoolLoads:
    """:meth:`PreparedWorkload.evaluate` over an array of rates: busy engines per pool."""

    gcp: FloatArray
    special: FloatArray
    engines: FloatArray

    @property
    def total(self) -> FloatArray:
        return self.gcp + self.special


@dataclass(frozen=True)
class ResponsePoint:
    """:meth:`PreparedWorkload.response_at`: the rate (transactions/s), the response time (ms;
    ``None`` without published response times), the CP and software part, the specialty
    engines' residence (ms) and the cost factor of the response model's CP cost."""

    tps: float
    value: float | None
    cp_ms: float
    ziip_ms: float
    cost_factor: float


@dataclass(frozen=True)
class PreparedWorkload:
    """A configuration prepared for a target machine; the rate, CPs and specialty engines are free.

    Parameters
    ----------
    config, capacity : ConfigurationData, CapacityTable
        Published data of the configuration; LSPR ratings and engine rules.
    target_machine, target_machine_type, capacity_setting : str, str, str or None
        Target machine slug, IBM machine type and capacity setting (``None``: full speed).
    max_utilization, ziip_max_utilization, projection_band : float
        Ceilings of the CPs and of the specialty engines (fractions); relative error band of
        the LSPR projection (0: none given).
    fitted, cost : ConfigurationModel, NativeCost or None
        The fitted cost model(s) with their intervals; the native demand as a function of the
        rate (``None``: no CPU data).
    eligibility, response : Eligibility or None, ResponseModel or None
        The eligible share of the sized demand (range, scope); the response model (native,
        measured-payload CP costs).
    policy, counts : EnginePolicy, tuple of int
        The target generation's specialty-engine rules; CP counts rated for the target (and setting).
    smt2_factor, smt2_statement : float, str
        zIIP capacity factor of SMT-2 applied (1.0: not applied; the specialty-engine projection
        is divided by it); "SMT-2 on zIIPs: ..." for the answer's basis, either way.
    objective : str
        What the choice of the mix minimises by default (:data:`models_lib.choice.OBJECTIVES`).
    """

    config: ConfigurationData
    capacity: CapacityTable = field(repr=False)
    target_machine: str
    target_machine_type: str
    capacity_setting: str | None
    max_utilization: float
    ziip_max_utilization: float
    projection_band: float
    fitted: ConfigurationModel = field(repr=False)
    cost: NativeCost | None
    eligibility: Eligibility | None
    response: ResponseModel | None
    policy: EnginePolicy
    counts: tuple[int, ...]
    smt2_factor: float = 1.0
    smt2_statement: str = ""
    objective: str = "fewest-cps"
    # Projections per (CP count, specialty engines) and factor tables per CP count, filled on first use.
    _projections: dict[tuple[int, int], tuple[Projection, Projection]] = field(default_factory=dict, init=False, repr=False, compare=False)  # fmt: skip
    _tables: dict[int, tuple[FloatArray, FloatArray, int]] = field(default_factory=dict, init=False, repr=False, compare=False)  # fmt: skip

    def projections(self, cps: int, engines: int = 0) -> tuple[Projection, Projection]:
        """CP and specialty-engine projections from the measured LPAR to ``cps`` CPs and
        ``engines`` specialty engines of the target, both sides rated at their total engine
        count (the MP effect, :func:`models_lib.capacity.mp_projection`)."""
        pair = self._projections.get((cps, engines))
        if pair is None:
            cost = self._cost()
            pair = projections(
                self.capacity, self.config.machine_type, cost.from_cps, self.target_machine_type, cps,
                self.capacity_setting, from_engines=cost.from_specialty, to_engines=engines,
            )  # fmt: skip
            if self.smt2_factor != 1.0:  # each zIIP core carries smt2_factor zIIPs of eligible work
                pair = (pair[0], replace(pair[1], factor=pair[1].factor / self.smt2_factor))
            self._projections[(cps, engines)] = pair
        return pair

    def cp_factor(self, cps: int, engines: int = 0) -> float:
        """LSPR factor of CP work to ``cps`` CPs + ``engines`` specialty engines (the setting's speed)."""
        return self.projections(cps, engines)[0].factor

    def special_factor(self, cps: int, engines: int = 0) -> float:
        """LSPR factor of specialty-engine work to ``cps`` CPs + ``engines`` specialty engines (full speed)."""
        return self.projections(cps, engines)[1].factor

    def engines_for(self, cps: int, eligible_native: float, given: int | None = None) -> tuple[int, int]:
        """(configured, needed) specialty engines beside ``cps`` CPs for ``eligible_native`` busy
        engines of eligible work (measured LPAR), the MP fixed point solved at this CP count
        (:func:`models_lib.engine.mp_specialty_engines`)."""
        return mp_specialty_engines(
            self.policy, cps, eligible_native, self.ziip_max_utilization, given, lambda z: self.special_factor(cps, z)
        )

    def factor_tables(self, cps: int) -> tuple[FloatArray, FloatArray, int]:
        """(CP factors, specialty factors, cap) at ``cps`` CPs for 0..cap specialty engines."""
        if cps not in self._tables:
            cap = self.policy.max_engines(cps)
            k = max(0, MAX_CPS - cps) if cap is None else cap
            pairs = [self.projections(cps, z) for z in range(k + 1)]
            self._tables[cps] = (np.array([p[0].factor for p in pairs]), np.array([p[1].factor for p in pairs]), k)
        return self._tables[cps]

    def measured_scale(self, cps: int, engines: int = 0) -> float:
        """Busy CPs measured (published points, bounds) -> busy CPs of the sized demand on ``cps``
        CPs (+ ``engines`` specialty engines) of the target at the CPs' speed: the LSPR factor
        times the payload and LPAR factors."""
        cost = self._cost()
        lpar = 1.0 if cost.lpar.factor is None else cost.lpar.factor
        return self.cp_factor(cps, engines) * cost.payload.factor * lpar

    @property
    def has_cpu_data(self) -> bool:
        return self.cost is not None

    @property
    def eligible_share(self) -> float:
        """Eligible share of the sized demand (fraction; 0 without CPU data)."""
        return 0.0 if self.eligibility is None else self.eligibility.value

    @cached_property
    def line(self) -> Basis:
        """The native demand line: intercept (busy engines) and slope (engine-seconds per transaction)."""
        return self._cost().line()

    def _cost(self) -> NativeCost:
        if self.cost is None:
            raise InputError("config", f"{self.config.path}/{self.config.configuration} has no CPU data")
        return self.cost

    def target(self, fraction: float | None = None, ziips: int | None = None) -> Target:
        """Where the demand goes, with the eligible share ``fraction`` (default: the central one)."""
        return Target(
            self.projections,
            self.policy,
            self.eligible_share if fraction is None else fraction,
            ziips,
            self.ziip_max_utilization,
        )

    # -- evaluation ------------------------------------------------------------------------
    def native_busy(self, tps: float) -> float:
        """Central native busy engines at ``tps`` (measured LPAR, payload and LPAR steps applied)."""
        return self._cost().busy(tps)

    @overload
    def evaluate(self, tps: float, cps: int, ziips: int | None = None) -> PoolDemand: ...
    @overload
    def evaluate(self, tps: FloatArray, cps: int, ziips: int | None = None) -> PoolLoads: ...
    def evaluate(self, tps: float | FloatArray, cps: int, ziips: int | None = None) -> PoolDemand | PoolLoads:
        """The demand at ``tps`` on ``cps`` CPs split between the pools, as the answer splits it
        (``ziips=None``: the specialty engines the eligible work needs, within the rules).

        A scalar rate gives a :class:`~models_lib.engine.PoolDemand`; an array of rates a
        :class:`PoolLoads` of arrays (the same operations elementwise).
        """
        cost = self._cost()
        if isinstance(tps, np.ndarray):
            native = cost.busy(np.asarray(tps, dtype=np.float64))
            f = self.eligible_share
            cf, sf, k = self.factor_tables(cps)
            caps = np.array([k], dtype=np.int64)
            z = mp_engines_array(native * f, sf[None, :], caps, self.ziip_max_utilization, ziips)
            gcp, special, engines = split_pools_array(
                native, np.asarray(f), cf[z], sf[z], np.asarray(float(k)), self.ziip_max_utilization, ziips
            )
            return PoolLoads(gcp, special, engines)
        return self.split_native(cost.busy(float(tps)), cps, ziips)

    def split_native(self, native: float, cps: int, ziips: int | None = None, fraction: float | None = None) -> PoolDemand:  # fmt: skip
        """The scalar :meth:`evaluate` of ``native`` busy engines of the measured LPAR, with the
        eligible share ``fraction`` (default: the central one; a sampler gives its own); the
        specialty engines and both pools rated at the configuration's total engine count."""
        f = self.eligible_share if fraction is None else fraction
        z, needed = self.engines_for(cps, native * f, ziips)
        cp, sp = self.cp_factor(cps, z), self.special_factor(cps, z)
        return split_pools(native, f, cp, sp, z, needed, self.ziip_max_utilization)

    def saturation(
        self, cps: int, ziips: int | None = None, *, line: tuple[float, float] | None = None, fraction: float | None = None
    ) -> Saturation:  # fmt: skip
        """Rate at which ``cps`` CPs (with ``ziips`` specialty engines; ``None``: as many as the
        rules allow) or the software station saturate, and the binding resource; ``line``
        (intercept, slope) and ``fraction`` replace the central ones (a sampler's)."""
        intercept, slope = (self.line.intercept, self.line.slope) if line is None else line
        cap = self.policy.max_engines(cps)
        engines = cap if ziips is None else (ziips if cap is None else min(ziips, cap))
        software = self.response.software if self.response is not None else None
        z = engines or 0
        return saturation(
            cps=cps, engines=engines, fraction=self.eligible_share if fraction is None else fraction,
            cp_factor=self.cp_factor(cps, z), special_factor=self.special_factor(cps, z), intercept=intercept, slope=slope,
            software_tps=None if software is None else software.saturation_tps(),
        )  # fmt: skip

    def response_at(self, tps: float, cps: int, ziips: int | None = None) -> ResponsePoint:
        """Response time at ``tps`` on ``cps`` CPs and ``ziips`` specialty engines (``None``:
        sized), open network, ms: the response model at the cost factor of the engine's split
        (:func:`models_lib.evaluation.cost_factor`) plus the specialty engines' M/M/z residence.
        ``inf`` parts at or beyond saturation; ``value`` is ``None`` without published response times.
        """
        rmodel = self.response
        split = self.evaluate(tps, cps, ziips)
        factor = cost_factor(
            self.native_busy(tps), self.cp_factor(cps, split.engines), self.line.payload_factor, split.gcp
        )
        has_data = rmodel is not None and rmodel.has_response_data
        if rmodel is None or tps >= self.saturation(cps, split.engines).tps:
            return ResponsePoint(tps, math.inf if has_data else None, math.inf, math.inf, factor)
        bd = rmodel.breakdown(tps, cps=cps, cost_factor=factor)
        ziip_ms = ziip_residence_ms(split.special, split.engines, tps)
        value = None if bd.total_ms is None else bd.total_ms + ziip_ms
        return ResponsePoint(tps, value, bd.lower_bound_ms, ziip_ms, factor)

    # -- the sizing decision -----------------------------------------------------------------
    def answer(
        self,
        tps: float,
        *,
        cps: int | None = None,
        ziips: int | None = None,
        clients: int | None = None,
        think_time_s: float | None = None,
        response_time_sla_ms: float | None = None,
        objective: str | None = None,
        price_book: PriceBook | None = None,
    ) -> SizingResult:
        """The engine's answer at ``tps`` transactions/s (see :func:`models_lib.sizing.size`);
        with ``price_book`` it carries the chosen configuration's ``cost``."""
        req = rate_request(
            self, tps, cps=cps, ziips=ziips, clients=clients, think_time_s=think_time_s,
            response_time_sla_ms=response_time_sla_ms, objective=objective, price_book=price_book,
        )  # fmt: skip
        if self.cost is None:
            no_cpu = no_cpu_result(
                self.config, self.target_machine, self.target_machine_type, req.t, req.sla, req.umax, self.policy.name
            )
            return replace(no_cpu, specialty_engine=self.policy.name, objective=req.objective, prepared=self)
        return answer_at(self, self.cost, req)

    def answers(self, rates: Sequence[float] | FloatArray, **options: Any) -> list[SizingResult]:
        """:meth:`answer` at each of ``rates`` with the same ``options``: :func:`models_lib.group.answers`."""
        return group_answers(self, rates, **options)


def prepare(
    config: ConfigurationData,
    *,
    target_machine: str,
    target_machine_type: str,
    capacity: CapacityTable,
    max_utilization: float = DEFAULT_MAX_UTILIZATION,
    ziip_max_utilization: float | None = None,
    payload_bytes: int | None = None,
    level: float = DEFAULT_LEVEL,
    capacity_setting: str | None = None,
    projection_band: float | None = None,
    lpar_overhead: float | None = None,
    server_share: float | None = None,
    model: ConfigurationModel | None = None,
    response_model: ResponseModel | None = None,
    other_cost: ComponentCost | None = None,
    smt2_factor: float | None = None,
    objective: str = "fewest-cps",
    cics_regions: int | None = None,
) -> PreparedWorkload:
    """Prepare ``config`` for the target: everything derived before a rate is known.

    Parameters are those of :func:`models_lib.sizing.size` that do not depend on the rate, with
    the same meaning and units; ``model`` and ``response_model`` are pre-fitted models (must
    belong to ``config``).

    Raises
    ------
    InputError
        Naming the argument, for an invalid input.
    """
    if not isinstance(config, ConfigurationData):
        raise InputError("config", f"config must be a ConfigurationData, got {type(config).__name__}")
    umax, zmax, payload, band = check_options(
        max_utilization=max_utilization, ziip_max_utilization=ziip_max_utilization, payload_bytes=payload_bytes,
        projection_band=projection_band, lpar_overhead=lpar_overhead, server_share=server_share,
    )  # fmt: skip
    policy, counts = target_rules(capacity, target_machine_type, capacity_setting)
    smt2, smt2_statement = smt2_option(policy, smt2_factor)
    objective = check_objective(objective)
    fitted, regions = fitted_for_regions(config, model, cics_regions)
    cost = native_cost(config, fitted, payload=payload, level=level, lpar_overhead=lpar_overhead, ziip_ceiling=zmax)
    if cost is not None and regions:
        cost = replace(cost, assumptions=(*cost.assumptions, regions))
    rmodel = response_model if response_model is not None else response_model_for(config, fitted, cost)
    eligibility = None if cost is None else eligibility_step(cost.line(), config, capacity, server_share, other_cost)
    return PreparedWorkload(
        config=config,
        capacity=capacity,
        target_machine=target_machine,
        target_machine_type=target_machine_type,
        capacity_setting=capacity_setting,
        max_utilization=umax,
        ziip_max_utilization=zmax,
        projection_band=band,
        fitted=fitted,
        cost=cost,
        eligibility=eligibility,
        response=rmodel,
        policy=policy,
        counts=counts,
        smt2_factor=smt2,
        smt2_statement=smt2_statement,
        objective=objective,
    )
