"""The prepared workload: everything the engine derives before a rate is known, evaluated many times.

Like ``scipy.stats.norm(loc, scale)``, :func:`prepare` does the set-up once (the fitted cost
model with its interval, the payload and LPAR steps, the eligible share and its scope, the
response model, the target's rated CP counts and engine rules) and returns a frozen
:class:`PreparedWorkload`; its methods evaluate it at a rate: :meth:`~PreparedWorkload.evaluate`
(the pool split, scalar or over an array of rates), :meth:`~PreparedWorkload.saturation`, and
:meth:`~PreparedWorkload.answer`, the sizing decision.  ``models_lib.sizing.size`` is
``prepare(...).answer(...)``.

Units: rates in transactions/s, CPU in busy engines, times in ms.

References
----------
.. [1] IBM, "Large Systems Performance Reference" (LSPR), SC28-1187.
.. [2] D. A. Menasce, V. A. F. Almeida, L. W. Dowdy, "Performance by Design", Prentice Hall, 2004.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import overload

import numpy as np
import numpy.typing as npt

from models_lib.answer import DEFAULT_MAX_UTILIZATION, SizingResult
from models_lib.answer_build import (
    no_cpu_result,
)
from models_lib.capacity import Projection, rating
from models_lib.checks import InputError, opt_int, pos_float
from models_lib.choice import RateRequest
from models_lib.cost_basis import Basis
from models_lib.costmodel import DEFAULT_LEVEL, ConfigurationModel, fit_configuration
from models_lib.decision import answer_at
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
    split_pools_array,
)
from models_lib.evaluation import Target
from models_lib.inputs import CapacityTable, ComponentCost, ConfigurationData
from models_lib.native_cost import NativeCost, native_cost
from models_lib.response import ResponseModel, fit_response
from models_lib.scope import Eligibility, eligibility_step

__all__ = ["PoolLoads", "PreparedWorkload", "prepare"]

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
class PreparedWorkload:
    """A configuration prepared for a target machine; the rate, CPs and specialty engines are free.

    Parameters
    ----------
    config : ConfigurationData
        Published data of the configuration.
    capacity : CapacityTable
        LSPR ratings and engine rules.
    target_machine, target_machine_type : str
        Target machine slug and IBM machine type.
    capacity_setting : str or None
        Capacity setting of the target (``None``: full speed).
    max_utilization, ziip_max_utilization : float
        Ceilings of the CPs and of the specialty engines (fractions).
    projection_band : float
        Relative error band of the LSPR projection (0: none given).
    fitted : ConfigurationModel
        The fitted cost model(s) with their intervals.
    cost : NativeCost or None
        The native demand as a function of the rate (``None``: no CPU data).
    eligibility : Eligibility or None
        The eligible share of the sized demand, its range and scope.
    response : ResponseModel or None
        The response model (native, measured-payload CP costs).
    policy : EnginePolicy
        The target generation's specialty-engine rules.
    counts : tuple of int
        CP counts rated for the target (and its setting).
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
    # Projections per CP count, filled on first use (the set-up, not a result).
    _projections: dict[int, tuple[Projection, Projection]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    # -- set-up derived once -------------------------------------------------------------
    def projections(self, cps: int) -> tuple[Projection, Projection]:
        """CP and specialty-engine projections from the measured LPAR to ``cps`` CPs of the target."""
        pair = self._projections.get(cps)
        if pair is None:
            cost = self._cost()
            pair = projections(
                self.capacity,
                self.config.machine_type,
                cost.from_cps,
                self.target_machine_type,
                cps,
                self.capacity_setting,
            )
            self._projections[cps] = pair
        return pair

    def cp_factor(self, cps: int) -> float:
        """LSPR factor of CP work to ``cps`` CPs (the target setting's rating)."""
        return self.projections(cps)[0].factor

    def special_factor(self, cps: int) -> float:
        """LSPR factor of specialty-engine work to ``cps`` CPs (full-speed rating)."""
        return self.projections(cps)[1].factor

    def measured_scale(self, cps: int) -> float:
        """Busy CPs measured (published points, bounds) -> busy CPs of the sized demand on ``cps``
        CPs of the target at the CPs' speed: the LSPR factor times the payload and LPAR factors."""
        cost = self._cost()
        return self.cp_factor(cps) * cost.payload.factor * (1.0 if cost.lpar.factor is None else cost.lpar.factor)

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
        cp, sp = self.cp_factor(cps), self.special_factor(cps)
        f, ceiling = self.eligible_share, self.ziip_max_utilization
        if isinstance(tps, np.ndarray):
            native = cost.busy(np.asarray(tps, dtype=np.float64))
            cap = self.policy.max_engines(cps)
            gcp, special, engines = split_pools_array(
                native, np.asarray(f), np.asarray(cp), np.asarray(sp), np.asarray(np.inf if cap is None else float(cap)),
                ceiling, ziips,
            )  # fmt: skip
            return PoolLoads(gcp, special, engines)
        native_s = cost.busy(float(tps))
        z, needed = specialty_engines(self.policy, cps, native_s * f * sp, ceiling, ziips)
        return split_pools(native_s, f, cp, sp, z, needed, ceiling)

    def saturation(self, cps: int, ziips: int | None = None) -> Saturation:
        """Rate at which ``cps`` CPs (with ``ziips`` specialty engines; ``None``: as many as the
        rules allow) or the software station saturate, and the resource that binds."""
        basis = self.line
        cap = self.policy.max_engines(cps)
        engines = cap if ziips is None else (ziips if cap is None else min(ziips, cap))
        software = self.response.software if self.response is not None else None
        return saturation(
            cps=cps,
            engines=engines,
            fraction=self.eligible_share,
            cp_factor=self.cp_factor(cps),
            special_factor=self.special_factor(cps),
            intercept=basis.intercept,
            slope=basis.slope,
            software_tps=None if software is None else software.saturation_tps(),
        )

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
    ) -> SizingResult:
        """The engine's answer at ``tps`` transactions/s (see :func:`models_lib.sizing.size`)."""
        req = self.request(
            tps,
            cps=cps,
            ziips=ziips,
            clients=clients,
            think_time_s=think_time_s,
            response_time_sla_ms=response_time_sla_ms,
        )
        if self.cost is None:
            config = self.config
            no_cpu = no_cpu_result(config, self.target_machine, self.target_machine_type, req.t, req.sla, req.umax)
            return replace(no_cpu, specialty_engine=self.policy.name, prepared=self)
        return answer_at(self, self.cost, req)

    def request(
        self,
        tps: float,
        *,
        cps: int | None,
        ziips: int | None,
        clients: int | None,
        think_time_s: float | None,
        response_time_sla_ms: float | None,
    ) -> RateRequest:
        """Check the rate's inputs; an :class:`~models_lib.checks.InputError` names the argument."""
        t = pos_float("tps", tps)
        cps_given = opt_int("cps", cps, 1)
        n_clients = opt_int("clients", clients, 1)
        think = None if think_time_s is None else pos_float("think_time_s", think_time_s, allow_zero=True)
        if (n_clients is None) != (think is None):
            raise InputError(
                "clients",
                f"clients and think_time_s must be given together, got clients={clients!r}, think_time_s={think_time_s!r}",
            )
        if cps_given is not None:
            rating(self.capacity, self.target_machine_type, cps_given)  # raises for an unrated count
            if cps_given < self.policy.min_cps:
                raise InputError(
                    "cps",
                    f"cps must be >= {self.policy.min_cps} on machine type {self.target_machine_type}, got {cps!r}",
                )
        sla = None if response_time_sla_ms is None else pos_float("response_time_sla_ms", response_time_sla_ms)
        return RateRequest(
            t, cps_given, opt_int("ziips", ziips, 0), n_clients, think, sla,
            self.max_utilization, self.ziip_max_utilization, self.policy,
        )  # fmt: skip


def _check_options(
    *,
    max_utilization: float,
    ziip_max_utilization: float | None,
    payload_bytes: int | None,
    projection_band: float | None,
    lpar_overhead: float | None,
    server_share: float | None,
) -> tuple[float, float, int | None, float]:
    """(ceiling, specialty ceiling, payload, band) checked; an InputError names the argument."""
    umax = pos_float("max_utilization", max_utilization)
    if umax > 1.0:
        raise InputError("max_utilization", f"max_utilization must be in (0, 1], got {max_utilization!r}")
    zmax = umax if ziip_max_utilization is None else pos_float("ziip_max_utilization", ziip_max_utilization)
    if zmax > 1.0:
        raise InputError(
            "ziip_max_utilization", f"ziip_max_utilization must be in (0, 1], got {ziip_max_utilization!r}"
        )
    if lpar_overhead is not None:
        pos_float("lpar_overhead", lpar_overhead, allow_zero=True)
    if server_share is not None and not 0.0 <= pos_float("server_share", server_share, allow_zero=True) <= 1.0:
        raise InputError("server_share", f"server_share must be in [0, 1], got {server_share!r}")
    band = 0.0 if projection_band is None else pos_float("projection_band", projection_band, allow_zero=True)
    if band >= 1.0:
        raise InputError("projection_band", f"projection_band must be in [0, 1), got {projection_band!r}")
    return umax, zmax, opt_int("payload_bytes", payload_bytes, 1), band


def _target_rules(
    capacity: CapacityTable, target_machine_type: str, capacity_setting: str | None
) -> tuple[EnginePolicy, tuple[int, ...]]:
    policy = engine_policy(capacity, target_machine_type)
    counts = rated_counts(capacity, target_machine_type, capacity_setting, policy.min_cps)
    if not counts:
        types = sorted({mt for mt, _ in capacity.ratings})
        raise InputError(
            "target_machine_type",
            f"target_machine_type {target_machine_type!r} is not in the LSPR table (types: {types})",
        )
    return policy, tuple(counts)


def _response_model(
    config: ConfigurationData, fitted: ConfigurationModel, cost: NativeCost | None
) -> ResponseModel | None:
    """The response model in native, measured-payload CP-seconds (payload, projection and the
    split enter through its cost factor); ``None`` where none can be fitted."""
    slope = None if cost is None else cost.raw_slope
    try:
        return fit_response(
            config,
            fitted if fitted.has_cpu_model else None,
            cp_seconds=slope if slope is not None and slope > 0 else None,
        )
    except ValueError:
        return None


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
    umax, zmax, payload, band = _check_options(
        max_utilization=max_utilization, ziip_max_utilization=ziip_max_utilization, payload_bytes=payload_bytes,
        projection_band=projection_band, lpar_overhead=lpar_overhead, server_share=server_share,
    )  # fmt: skip
    policy, counts = _target_rules(capacity, target_machine_type, capacity_setting)
    if model is not None and (model.path, model.configuration) != (config.path, config.configuration):
        raise InputError(
            "model", f"model belongs to {model.path}/{model.configuration}, not {config.path}/{config.configuration}"
        )
    fitted = model if model is not None else fit_configuration(config)
    cost = native_cost(config, fitted, payload=payload, level=level, lpar_overhead=lpar_overhead)
    rmodel = response_model if response_model is not None else _response_model(config, fitted, cost)
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
    )
