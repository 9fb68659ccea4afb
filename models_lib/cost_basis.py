"""The cost basis from published points: native CPU demand at a rate, before projection.

Where the source publishes CPU at several rates, the linear cost model of
:mod:`models_lib.costmodel` (primary component: LPAR busy where published, else the CICS
address spaces) predicts busy CPs at a rate with a prediction interval.  :class:`Basis` is the
demand at one rate on the measured LPAR, the record every later step reads and none changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from models_lib.answer import SizingWarning
from models_lib.checks import InputError
from models_lib.costmodel import ConfigurationModel, Interval, LinearFit
from models_lib.fastinit import fast_init
from models_lib.inputs import ConfigurationData
from models_lib.units import figure_text

__all__ = [
    "Basis", "consistent_parts", "extrapolation_warnings", "parts_plan", "planned_parts", "points_demand", "points_notes",
]  # fmt: skip


@fast_init
@dataclass(frozen=True)
class Basis:
    """Native CPU demand at one rate, before projection (busy engines on the measured LPAR).

    Parameters
    ----------
    component : str
        What the demand covers (``"lpar"``, ``"cics"``).
    total, low, high : float
        Busy engines at the rate: central value and the ends of the cost range.
    intercept : float
        Fixed busy engines of the line.
    slope : float
        Engine-seconds per transaction (central).
    from_cps : int
        CPs of the measured LPAR.
    payload_factor : float
        Central payload factor applied (1 when none).
    components : Mapping[str, float]
        Busy engines per published component.
    points, statements : tuple of int
        Ids of the points and statements the demand rests on.
    model : Mapping or None
        Summary of the primary fit (``None`` for bounds).
    assumptions : tuple of str
        The sentences the demand rests on.
    warnings : tuple of SizingWarning
        What the steps that built it have to say.
    cost_is_upper_bound : bool
        The central cost is an upper bound (bounds-only).
    """

    component: str
    total: float
    low: float
    high: float
    intercept: float
    slope: float
    from_cps: int
    payload_factor: float = 1.0
    components: Mapping[str, float] = field(default_factory=dict)
    points: tuple[int, ...] = ()
    statements: tuple[int, ...] = ()
    model: Mapping[str, Any] | None = None
    assumptions: tuple[str, ...] = ()
    warnings: tuple[SizingWarning, ...] = ()
    cost_is_upper_bound: bool = False


def points_demand(
    model: ConfigurationModel,
    from_cps: int,
    tps: float,
    level: float,
    notes: tuple[tuple[SizingWarning, ...], tuple[str, ...], tuple[int, ...]] = ((), (), ()),
    found: tuple[Interval, Mapping[str, Any]] | None = None,
) -> Basis:
    """Busy engines at ``tps`` from the fitted line, with ``notes`` (warnings, assumptions,
    statements) attached as given; ``found``: the prediction interval at ``tps`` and the fit's
    summary, already found (for a group of rates)."""
    fit = model.primary_fit()
    comp = model.primary
    assert comp is not None
    pi = fit.prediction_interval(tps, level) if found is None else found[0]
    central = max(0.0, fit.predict(tps))
    return Basis(
        component=comp,
        total=central,
        low=max(0.0, pi.low),
        high=max(0.0, pi.high),
        intercept=fit.intercept,
        slope=fit.slope,
        from_cps=from_cps,
        components=consistent_parts(model, tps, central),
        points=tuple(model.point_ids),
        model={"component": comp, **(fit.summary() if found is None else found[1])},
        warnings=notes[0],
        assumptions=notes[1],
        statements=notes[2],
    )


def points_notes(
    cfg: ConfigurationData, model: ConfigurationModel, level: float
) -> tuple[int, tuple[SizingWarning, ...], tuple[str, ...]]:
    """(measured CPs, warnings, assumptions) of a points basis that hold at every rate."""
    fit = model.primary_fit()
    if cfg.lpar_cps is None:
        raise InputError("config", f"config.lpar_cps is required to project {cfg.path}/{cfg.configuration}")
    warnings: tuple[SizingWarning, ...] = ()
    if fit.interval_basis != "residuals":
        warnings = (
            SizingWarning(
                "interval-assumed",
                f"only {fit.n} points: the cost interval assumes a relative spread of "
                f"{(fit.assumed_relative_sd or 0.0) * 100:.1f} % per measurement",
            ),
        )
    assumption = (
        f"busy CPs = intercept + slope x TPS fitted by least squares to {fit.n} published "
        f"points ({model.primary}); interval = {level:.0%} prediction interval"
    )
    return cfg.lpar_cps, warnings, (assumption,)


def extrapolation_warnings(cfg: ConfigurationData, fit: LinearFit, tps: float) -> tuple[SizingWarning, ...]:
    """``extrapolation`` when ``tps`` is outside the measured ETR range."""
    if fit.in_range(tps):
        return ()
    return (
        SizingWarning(
            "extrapolation",
            f"{figure_text(tps)} TPS is outside the measured ETR range {figure_text(fit.etr_min)}-{figure_text(fit.etr_max)} "
            f"TPS of {cfg.path}/{cfg.configuration}: the linear cost model is extrapolated",
        ),
    )


#: Components published as parts of a whole: the CICS address spaces are TOR + AOR + FOR
#: (REDP-5320 prints "CICS" as their sum, e.g. 34.99 + 310.84 + 14.90 = 360.73 % of one CP).
_PARTS = {"cics": ("tor", "aor", "for")}


def consistent_parts(
    model: ConfigurationModel, tps: float, total: float, predicted: dict[str, float] | None = None
) -> dict[str, float]:
    """Busy engines per component at ``tps`` whose parts add up to their whole.

    Each component has its own linear fit; far from the measured rates the separate lines
    disagree (a negative intercept clipped to 0, a part above its whole).  The primary
    component's prediction is the total; a whole (``cics`` under an ``lpar`` total) is capped by
    the total; its parts share the whole in proportion to their own predictions (to their
    slopes, the marginal cost per transaction, where a part's prediction is clipped at 0).
    ``predicted``: ``model.predict_busy(tps)`` where the caller has it.
    """
    if predicted is None:
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


#: What :func:`consistent_parts` reads of a model besides the rate: each whole it holds, with its
#: parts and their slopes floored at 0 (the weights where a part's line is clipped).
PartsPlan = list[tuple[str, list[str], list[float]]]


def parts_plan(model: ConfigurationModel) -> PartsPlan:
    """The :data:`PartsPlan` of ``model``, for :func:`planned_parts` at many rates."""
    fits = model.fits
    return [
        (whole, [n for n in names if n in fits], [max(fits[n].slope, 0.0) for n in names if n in fits])
        for whole, names in _PARTS.items()
        if whole in fits or whole == model.primary
    ]


def planned_parts(plan: PartsPlan, primary: str | None, total: float, predicted: dict[str, float]) -> dict[str, float]:
    """:func:`consistent_parts` of a model whose :func:`parts_plan` is ``plan`` and primary
    component ``primary``, where ``predicted`` has a value for each of its fits: the same
    operations in the same order, what does not depend on the rate found once."""
    out = dict(predicted)
    if primary is not None:
        out[primary] = total
    for whole, parts, slopes in plan:
        value = out[whole] if whole == primary else min(out[whole], total)
        out[whole] = value
        weights = [predicted[n] for n in parts]
        if min(weights, default=0.0) <= 0.0:  # a part's line clipped at 0: out of its range
            weights = slopes
        scale = sum(weights)
        for n, w in zip(parts, weights, strict=True):
            out[n] = value * w / scale if scale > 0.0 else 0.0
    return out
