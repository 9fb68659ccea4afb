"""Native CPU demand as a function of the rate: the cost basis (points or bounds) with the
payload and LPAR steps decided once, before a rate is known.

:meth:`NativeCost.at` gives the demand at one rate as a :class:`~models_lib.cost_basis.Basis`;
:meth:`NativeCost.busy` the central busy engines, scalar or over an array of rates, with the
same floating-point operations in the same order (a curve point equals the estimate).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from models_lib.answer import SizingWarning
from models_lib.cost_basis import Basis, extrapolation_warnings, parts_plan, planned_parts, points_demand, points_notes
from models_lib.cost_bounds import BoundsCost, bounds_cost
from models_lib.costmodel import ConfigurationModel, payload_model
from models_lib.inputs import ConfigurationData
from models_lib.payload_step import PayloadStep, payload_decision, payload_scaled
from models_lib.scope import LparStep, lpar_decision, lpar_scaled, ratio_notes

__all__ = ["NativeCost", "native_cost"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class NativeCost:
    """How the native demand (busy engines on the measured LPAR) follows the rate.

    Parameters
    ----------
    config : ConfigurationData
        The configuration (for the sentences of the rate-dependent warnings).
    model : ConfigurationModel or None
        The fitted cost model of a points basis (``None`` for bounds).
    bounds : BoundsCost or None
        The bounds basis (``None`` for points).
    level : float
        Coverage of the prediction interval of a points basis.
    from_cps : int
        CPs of the measured LPAR.
    from_specialty : int
        Specialty engines of the measured LPAR (its total engine count is rated: the MP effect).
    payload, lpar : PayloadStep, LparStep
        The payload scale and the LPAR factor, decided once.
    warnings, assumptions, statements
        The notes of the basis that hold at every rate, in the order the steps gave them.
    """

    config: ConfigurationData
    model: ConfigurationModel | None
    bounds: BoundsCost | None
    level: float
    from_cps: int
    payload: PayloadStep
    lpar: LparStep
    warnings: tuple[SizingWarning, ...]
    assumptions: tuple[str, ...]
    statements: tuple[int, ...]
    from_specialty: int = 0

    def at(self, tps: float) -> Basis:
        """The native demand at ``tps`` transactions/s, with every note of the basis."""
        if self.bounds is not None:
            raw = self.bounds.at(tps, (self.warnings, self.assumptions, self.statements))
        else:
            assert self.model is not None
            moving = extrapolation_warnings(self.config, self.model.primary_fit(), tps)
            notes = (moving + self.warnings, self.assumptions, self.statements)
            raw = points_demand(self.model, self.from_cps, tps, self.level, notes)
        return lpar_scaled(payload_scaled(raw, self.payload.scale), self.lpar)

    def at_rates(self, rates: Sequence[float]) -> list[Basis]:
        """:meth:`at` of each of ``rates``, equal to it basis for basis: a points basis's
        prediction intervals over the array and its fit's summary found once, and each basis
        built once with the payload and LPAR steps applied (:meth:`_scaled`: the numbers of
        :func:`~models_lib.payload_step.payload_scaled` then
        :func:`~models_lib.scope.lpar_scaled`, in their order)."""
        if not rates:
            return []
        if self.bounds is not None:
            b = self.bounds
            notes = (self.warnings, self.assumptions, self.statements)
            upper = b.cost_is_upper_bound
            lpar = [(b.central * t, b.lower * t, b.high * t, {"lpar": b.central * t}) for t in rates]
            return [
                self._scaled("lpar", c, lo, hi, 0.0, b.central, parts, (), None, notes, upper)
                for c, lo, hi, parts in lpar
            ]
        model = self.model
        assert model is not None
        comp = model.primary
        assert comp is not None
        fit = model.primary_fit()
        summary = fit.summary()
        points = tuple(model.point_ids)
        out = []
        lines = [(c, f.intercept, f.slope) for c, f in model.fits.items()]  # LinearFit.predict's numbers
        plan = parts_plan(model)
        # the fit's summary, one mapping the group's bases share (nothing changes it: the answer's
        # basis block is built from it, and a group's answers find that block once while it is the same)
        summarised = {"component": comp, **summary}
        within = (self.warnings, self.assumptions, self.statements)  # the notes where nothing is extrapolated
        etr_min, etr_max = fit.etr_min, fit.etr_max
        for t, (pi_low, pi_high) in zip(rates, fit.prediction_bounds(rates, self.level), strict=True):
            if etr_min <= t <= etr_max:  # fit.in_range(t): extrapolation_warnings says nothing
                notes = within
            else:
                notes = (extrapolation_warnings(self.config, fit, t) + self.warnings, self.assumptions, self.statements)
            x = float(t)
            predicted = {c: max(0.0, a + b * x) for c, a, b in lines}  # model.predict_busy(t)
            central = predicted[comp]  # max(0.0, fit.predict(t)): the primary's fit
            parts = planned_parts(plan, comp, central, predicted)  # consistent_parts(model, t, central, predicted)
            low, high = max(0.0, pi_low), max(0.0, pi_high)
            out.append(
                self._scaled(
                    comp, central, low, high, fit.intercept, fit.slope, parts, points, summarised, notes, False
                )
            )
        return out

    def _scaled(
        self, component: str, total: float, low: float, high: float, intercept: float, slope: float,
        components: dict[str, float], points: tuple[int, ...], model: dict[str, Any] | None,
        notes: tuple[tuple[SizingWarning, ...], tuple[str, ...], tuple[int, ...]], upper: bool,
    ) -> Basis:  # fmt: skip
        """The basis of :func:`~models_lib.cost_basis.points_demand` (or
        :meth:`~models_lib.cost_bounds.BoundsCost.at`) of these numbers, through
        :func:`~models_lib.payload_step.payload_scaled` and :func:`~models_lib.scope.lpar_scaled`:
        the same products in the same order, one :class:`Basis` built."""
        payload_factor = 1.0
        scale = self.payload.scale
        if scale is not None:
            total = total * scale.factor
            slope = slope * scale.factor
            intercept = intercept * scale.factor
            low = low * scale.low
            high = high * scale.high
            components = {k: v * scale.factor for k, v in components.items()}
            payload_factor = scale.factor
        step = self.lpar
        k = step.factor
        if k is not None:
            k_lo = k if step.low is None else step.low
            k_hi = k if step.high is None else step.high
            total = total * k
            low = low * k_lo
            high = high * k_hi
            intercept = intercept * k
            slope = slope * k
            components = {**components, "lpar": total}
        return Basis(
            component=component, total=total, low=low, high=high, intercept=intercept, slope=slope,
            from_cps=self.from_cps, payload_factor=payload_factor, components=components, points=points,
            statements=notes[2], model=model, assumptions=notes[1], warnings=notes[0], cost_is_upper_bound=upper,
        )  # fmt: skip

    def line(self) -> Basis:
        """The demand line (intercept, slope, payload factor) without the rate-dependent parts:
        ``total``, ``low`` and ``high`` are 0 and no note is attached."""
        if self.bounds is not None:
            raw = Basis(component="lpar", total=0.0, low=0.0, high=0.0, intercept=0.0, slope=self.bounds.central,
                        from_cps=self.from_cps)  # fmt: skip
        else:
            assert self.model is not None
            fit = self.model.primary_fit()
            raw = Basis(component=self.component, total=0.0, low=0.0, high=0.0, intercept=fit.intercept,
                        slope=fit.slope, from_cps=self.from_cps)  # fmt: skip
        return lpar_scaled(payload_scaled(raw, self.payload.scale), self.lpar)

    @overload
    def busy(self, tps: float) -> float: ...
    @overload
    def busy(self, tps: FloatArray) -> FloatArray: ...
    def busy(self, tps: float | FloatArray) -> float | FloatArray:
        """Central busy engines at ``tps`` (scalar or array), equal to ``at(tps).total``."""
        if self.bounds is not None:
            x = self.bounds.central * tps
        else:
            assert self.model is not None
            y = self.model.primary_fit().predict(tps)
            x = np.maximum(0.0, y) if isinstance(y, np.ndarray) else max(0.0, y)
        if self.payload.scale is not None:
            x = x * self.payload.scale.factor
        if self.lpar.factor is not None:
            x = x * self.lpar.factor
        return x

    @property
    def component(self) -> str:
        """What the demand covers (``"lpar"``, ``"cics"``)."""
        if self.model is None:
            return "lpar"
        assert self.model.primary is not None
        return self.model.primary

    @property
    def raw_slope(self) -> float:
        """Engine-seconds per transaction as measured (before the payload and LPAR steps)."""
        if self.bounds is not None:
            return self.bounds.central
        assert self.model is not None
        return self.model.primary_fit().slope


def native_cost(
    config: ConfigurationData,
    fitted: ConfigurationModel,
    *,
    payload: int | None,
    level: float,
    lpar_overhead: float | None,
    ziip_ceiling: float = 1.0,
) -> NativeCost | None:
    """The configuration's native cost (points or bounds, payload, LPAR); ``None`` without CPU data.

    ``ziip_ceiling``: the specialty engines' ceiling (fraction) the engine splits with, with
    which a bounds basis keeps every published sustained run sustainable."""
    bounds: BoundsCost | None = None
    statements: tuple[int, ...] = ()
    if fitted.has_cpu_model:
        from_cps, warnings, assumptions = points_notes(config, fitted, level)
        sizes = [p.response_bytes for p in config.points if p.response_bytes is not None]
        measured = (float(min(sizes)), float(max(sizes))) if sizes else None
        outside = False
        if payload is not None and measured is None:
            warnings += (
                SizingWarning(
                    "payload-outside-range",
                    f"the source publishes no payload size for {config.path}/{config.configuration}: CPU per "
                    f"transaction is not scaled to {payload} bytes",
                ),
            )
    elif config.bounds:
        bounds = bounds_cost(config, payload, ziip_ceiling)
        from_cps, warnings, assumptions, statements = (
            bounds.from_cps,
            bounds.warnings,
            bounds.assumptions,
            bounds.statements,
        )
        measured, outside = bounds.measured, bounds.outside
    else:
        return None
    step = payload_decision(measured, outside, payload, payload_model(config))
    component = "lpar" if bounds is not None else str(fitted.primary)
    lpar = lpar_decision(component, config, lpar_overhead)
    ratio_warnings, ratio_ids = ratio_notes(config)
    return NativeCost(
        config=config,
        model=fitted if bounds is None else None,
        bounds=bounds,
        level=level,
        from_cps=from_cps,
        payload=step,
        lpar=lpar,
        warnings=warnings + step.warnings + lpar.warnings + ratio_warnings,
        assumptions=assumptions + step.assumptions + lpar.assumptions,
        statements=statements + step.statements + lpar.statements + ratio_ids,
        from_specialty=bounds.from_specialty
        if bounds is not None
        else max((p.ziips for p in config.points if p.lpar_cps == from_cps), default=0),
    )
