"""Which model fits: for a rate (and a response-time goal), the smallest model of every capacity
setting of every machine type asked for, each sized by the engine itself (:func:`size`), with its
MSU, and the cheapest in MSU marked per generation and overall.

Each row is exactly the estimate of that machine type and setting with the CPs sized (the same
call the estimate API makes), so a row and the estimate of its model agree; nothing here knows a
rule of its own.  MSU compared are the *installed* MSU of the model (what software is priced on
for a full-capacity licence); the MSU the work uses are given beside them.

References
----------
.. [1] IBM, LSPR multi-image AVERAGE ratings (zPCR Configuration Summary export): MIPS and MSU of
   every model, ``benchmarks/lspr_zpcr_configuration_summary.csv``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from models_lib.checks import InputError
from models_lib.inputs import CapacityTable, ConfigurationData
from models_lib.sizing import DEFAULT_MAX_UTILIZATION, SizingResult, size

__all__ = ["FitResult", "ModelFit", "fitting_models", "setting_kind"]

#: Warnings that mean a model does not meet the response-time goal.
_GOAL_MISSED = ("sla-missed", "sla-unreachable")


def setting_kind(setting: str, full_speed: str) -> str:
    """``"full speed"``, ``"sub-capacity"`` (4xx..6xx) or ``"midrange"`` (A00..Z00 below full speed)."""
    if setting == full_speed:
        return "full speed"
    return "sub-capacity" if setting[:1] in "456" else "midrange"


@dataclass(frozen=True)
class ModelFit:
    """The smallest model of one capacity setting that carries the rate, or why none does.

    Parameters
    ----------
    machine_type, generation, capacity_setting, kind : str
        The setting asked about; ``kind`` as :func:`setting_kind`.
    fits : bool or None
        A model of this setting carries the rate within the ceiling (and meets the goal);
        ``None`` where no CPU figures are published: no verdict (``reason`` says what is known).
    model : str
        Model capacity identifier of the smallest such model (or of the largest tried).
    cps, ziips : int or None
        CPs of that model and the specialty engines sized beside them.
    mips, msu : float or None
        LSPR MIPS and MSU of the model (installed capacity of its CPs).
    msu_used, gcp_utilization : float or None
        MSU of the CP work, and mean CP utilisation, at the rate.
    response_time_ms, saturation_tps : float or None
        The estimate's response time (ms) and saturation rate (transactions/s).
    cps_range, ziips_range, saturation_range : list of (float or None), or None
        The estimate's ranges ([low, high]; ``None`` where it gives none).
    reason : str
        Why no model fits (empty when one does): the answer's "does not fit" sentence where the
        engine finds no configuration of the setting that carries the rate.
    max_tps, max_tps_cps, max_tps_ziips : float, int or None
        Where no model fits: the most the setting carries (transactions/s) and on which CPs and
        specialty engines (the answer's ``feasibility``).
    cheapest_in_generation, cheapest : bool
        Least installed MSU among the fitting rows of its generation / of all rows.
    """

    machine_type: str
    generation: str
    capacity_setting: str
    kind: str
    fits: bool | None
    model: str
    cps: int | None
    ziips: int | None
    mips: float | None
    msu: float | None
    msu_used: float | None
    gcp_utilization: float | None
    response_time_ms: float | None
    saturation_tps: float | None
    cps_range: list[float | None] | None = None
    ziips_range: list[float | None] | None = None
    saturation_range: list[float | None] | None = None
    reason: str = ""
    max_tps: float | None = None
    max_tps_cps: int | None = None
    max_tps_ziips: int | None = None
    cheapest_in_generation: bool = False
    cheapest: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class FitResult:
    """Rows per machine type and setting, full speed first, for one rate and goal."""

    tps: float
    max_utilization: float
    response_time_sla_ms: float | None
    rows: tuple[ModelFit, ...]
    source: str

    def cheapest(self) -> ModelFit | None:
        """The fitting row with the least installed MSU (``None`` when nothing fits)."""
        return next((r for r in self.rows if r.cheapest), None)

    def to_dict(self) -> dict[str, Any]:
        best = self.cheapest()
        return {
            "tps": self.tps,
            "max_utilization": self.max_utilization,
            "response_time_sla_ms": self.response_time_sla_ms,
            "cheapest": None if best is None else best.model,
            "rows": [r.to_dict() for r in self.rows],
            "source": self.source,
        }


def _finite(v: float | None) -> float | None:
    return None if v is None or not math.isfinite(v) else float(v)


def _range(result: SizingResult, name: str) -> list[float | None] | None:
    """The estimate's range of ``name`` as its API gives it (``ranges`` of ``to_dict()``)."""
    value = result.ranges.get(name)
    return None if value is None else [_finite(v) for v in value]


def _row(
    sized: SizingResult, result: SizingResult, mt: str, generation: str, setting: str, kind: str, umax: float
) -> ModelFit:
    """A row: whether the setting fits from the sized answer, the figures from the estimate of
    the model found (``result``)."""
    cap: Mapping[str, Any] = result.capacity_detail or {}
    cp: Mapping[str, Any] = cap.get("cp") or {}
    codes = {w.code for w in sized.warnings}
    missed = sorted(codes & set(_GOAL_MISSED))
    fit = sized.feasibility
    # no CPU figures, no verdict: neither fits nor does not fit (the estimate's feasible null)
    fits = (
        None
        if fit.feasible is None and fit.reason == "no-cpu-data"
        else (fit.feasible is True and sized.cps_required is not None and not missed)
    )
    reason = ""
    if not fit.feasible and fit.message:
        reason = fit.message
    elif sized.cps_required is None:
        reason = f"the largest {setting} model, {cap.get('model', '?')}, is not enough within {umax:.0%} utilisation"
    elif missed:
        reason = f"{cap.get('model', '?')} misses the response-time goal ({', '.join(missed)})"
    return ModelFit(
        machine_type=mt,
        generation=generation,
        capacity_setting=setting,
        kind=kind,
        fits=fits,
        model=str(cap.get("model", "")),
        cps=result.evaluated_cps,
        ziips=result.ziips_required,
        mips=cp.get("mips_installed"),
        msu=cp.get("msu_installed"),
        msu_used=_finite(result.msu),
        gcp_utilization=_finite(result.gcp_utilization),
        response_time_ms=_finite(result.response_time_ms.get("value")),
        saturation_tps=_finite(result.saturation_tps),
        cps_range=_range(result, "cps"),
        ziips_range=_range(result, "ziips"),
        saturation_range=_range(result, "saturation_tps"),
        reason=reason,
        max_tps=_finite(fit.max_tps),
        max_tps_cps=fit.max_tps_cps,
        max_tps_ziips=fit.max_tps_ziips,
    )


def _mark_cheapest(rows: Sequence[ModelFit]) -> tuple[ModelFit, ...]:
    def key(r: ModelFit) -> tuple[float, int]:
        return (r.msu if r.msu is not None else math.inf, r.cps or 0)

    fitting = [r for r in rows if r.fits and r.msu is not None]
    best = min(fitting, key=key) if fitting else None
    per_gen: dict[str, ModelFit] = {}
    for r in fitting:
        if r.generation not in per_gen or key(r) < key(per_gen[r.generation]):
            per_gen[r.generation] = r
    out = []
    for r in rows:
        cheap_gen = per_gen.get(r.generation) is r
        out.append(ModelFit(**{**r.to_dict(), "cheapest_in_generation": cheap_gen, "cheapest": r is best}))
    return tuple(out)


def fitting_models(
    config: ConfigurationData,
    *,
    capacity: CapacityTable,
    machine_types: Iterable[str],
    tps: float,
    max_utilization: float | None = None,
    response_time_sla_ms: float | None = None,
    **engine: Any,
) -> FitResult:
    """The smallest model of each capacity setting of ``machine_types`` that carries ``tps``.

    Parameters
    ----------
    config : ConfigurationData
        Published data of the configuration.
    capacity : CapacityTable
        LSPR ratings, every setting, with the engine rules.
    machine_types : iterable of str
        Machine types to search, e.g. ``("3931", "3932")`` for the z16.
    tps : float
        Rate, transactions/s (> 0).
    max_utilization : float, optional
        CP (and specialty-engine) utilisation ceiling in (0, 1]; default the engine's.
    response_time_sla_ms : float, optional
        Response-time goal, ms: a model that misses it does not fit.
    **engine
        Further :func:`size` options (``model``, ``response_model``, ``payload_bytes``,
        ``projection_band``, ``lpar_overhead``, ``server_share``, ``other_cost``, ``ziips``).

    Returns
    -------
    FitResult
        One row per machine type and setting (full speed first, then by setting).

    Raises
    ------
    ValueError
        From :func:`size` (naming the argument), or ``machine_types`` naming a type not rated.
    """
    umax = DEFAULT_MAX_UTILIZATION if max_utilization is None else max_utilization
    rows: list[ModelFit] = []
    for mt in dict.fromkeys(machine_types):
        full = capacity.full_speed_setting.get(mt)
        if full is None:
            types = sorted(capacity.full_speed_setting)
            raise InputError("machine_types", f"machine_types: {mt!r} is not rated (types: {', '.join(types)})")
        settings = sorted({s for t, s, _ in capacity.settings if t == mt}, key=lambda s: (s != full, s))
        generation = next((r.generation for (t, s, _), r in capacity.settings.items() if t == mt and r.generation), mt)
        for setting in settings:
            asked: dict[str, Any] = {
                "target_machine": mt,
                "target_machine_type": mt,
                "capacity": capacity,
                "tps": tps,
                "max_utilization": umax,
                "response_time_sla_ms": response_time_sla_ms,
                "capacity_setting": None if setting == full else setting,
                **engine,
            }
            sized = size(config, **asked)
            # The row's figures are the estimate of the model found (its CPs given), so that a
            # row reads exactly as GET /api/v1/estimate with that model, ranges included.
            # Where the setting does not fit, the model the sized answer evaluates (its largest).
            n = sized.cps if sized.cps is not None else sized.evaluated_cps
            model = sized if n is None else size(config, cps=n, **asked)
            rows.append(_row(sized, model, mt, generation, setting, setting_kind(setting, full), umax))
    return FitResult(tps, umax, response_time_sla_ms, _mark_cheapest(rows), capacity.source)
