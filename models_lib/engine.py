"""Steps of the sizing engine that every caller shares: specialty-engine rules, the split of
projected demand between CPs and specialty engines, and the saturation rate with the resource
that binds it.

:func:`models_lib.sizing.size` (the estimate) and :class:`models_lib.workload.WorkloadModel`
(curves, the optimiser, Monte Carlo, the closed-network job) call these functions, so each
rule lives once.

Specialty-engine rules are reference data (:class:`~models_lib.inputs.SpecialtyEngineRules`,
one per machine generation, loaded with their technical-guide reference); nothing here knows a
generation by name.  Where a machine type has no rules stored, no ratio is enforced and the
engine is called a zIIP; the answer's basis says so.

Units: demand in busy engines (1.0 = one engine busy for the whole interval), rates in
transactions/s.

References
----------
.. [1] IBM, "IBM z13s Technical Guide", SG24-8294, section 3.5 (zIIPs: up to two per CP).
.. [2] IBM, "IBM System z10 Enterprise Class Technical Guide", SG24-7516 (zAAPs and zIIPs, each
   up to one per CP).
.. [3] IBM, "Large Systems Performance Reference", SC28-1187 (LSPR).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
import numpy.typing as npt

from models_lib.capacity import MAX_CPS, Projection, mp_projection
from models_lib.checks import InputError
from models_lib.costmodel import ConfigurationModel, student_t_quantile
from models_lib.fastinit import fast_init
from models_lib.inputs import CapacityTable, ComponentCost, ConfigurationData, SpecialtyEngineRules
from models_lib.limits import engine_limits
from models_lib.ziip import ziips_required

__all__ = [
    "component_cost",
    "EnginePolicy",
    "PoolDemand",
    "Saturation",
    "engine_policy",
    "mp_engines_array",
    "mp_specialty_engines",
    "projections",
    "rated_counts",
    "saturation",
    "specialty_engines",
    "split_pools",
    "split_pools_array",
]

# A ratio times a CP count such as 2.0 * 3 must not lose an engine to rounding.
_RATIO_TOLERANCE = 1e-9


@dataclass(frozen=True)
class EnginePolicy:
    """What a target machine allows for the offloadable (Java) work of the sources.

    Parameters
    ----------
    name : {"zIIP", "zAAP"}
        The engine that runs the eligible work: a zAAP where the generation offers zAAPs for
        Java work (z10), else a zIIP (zAAP-eligible work runs on zIIPs).
    per_cp : float or None
        Most specialty engines of that kind per general-purpose CP (``None``: no rule stored).
    min_cps : int
        General-purpose CPs every LPAR needs (>= 1).
    specialty_full_speed : bool
        Specialty engines run at full speed on sub-capacity and midrange models.
    smt2_throughput_factor : float or None
        Published SMT-2 throughput factor of a zIIP (``None``: none published or no SMT-2).
    rules : SpecialtyEngineRules or None
        The stored rules (their ``reference`` is the source).
    engine_bound : int or None
        Most engines (CPs + specialty engines) the machine type can be configured with
        (:meth:`models_lib.limits.EngineLimits.engine_bound`; ``None``: not known).
    """

    name: Literal["zIIP", "zAAP"]
    per_cp: float | None
    min_cps: int
    specialty_full_speed: bool
    smt2_throughput_factor: float | None
    rules: SpecialtyEngineRules | None
    engine_bound: int | None = None

    def max_engines(self, cps: int) -> int | None:
        """Most specialty engines that may be bought beside ``cps`` CPs: the ratio, then the
        engines the machine type has left beside them (``None``: no limit)."""
        left = None if self.engine_bound is None else max(0, self.engine_bound - cps)
        if self.per_cp is None:
            return left
        by_ratio = int(math.floor(self.per_cp * cps + _RATIO_TOLERANCE))
        return by_ratio if left is None else min(by_ratio, left)

    @property
    def ratio_field(self) -> str:
        """The rule field that limits this policy's engines: ``zaaps_per_cp`` or ``ziips_per_cp``."""
        return "zaaps_per_cp" if self.name == "zAAP" else "ziips_per_cp"

    def unconfirmed_ratio(self) -> tuple[bool, float | None]:
        """(True, the other rule's engines per CP or ``None`` for no ratio) when the ratio in force
        is marked unconfirmed and an alternative is recorded; else (False, None)."""
        if self.rules is None or self.ratio_field not in self.rules.unconfirmed:
            return False, None
        return self.rules.alternative(self.ratio_field)

    def with_ratio(self, per_cp: float | None) -> EnginePolicy:
        """The same policy under another ratio, with nothing left unconfirmed (the alternative rule)."""
        rules = None if self.rules is None else replace(self.rules, unconfirmed=(), alternatives=())
        return replace(self, per_cp=per_cp, rules=rules)

    def describe(self) -> str:
        """One sentence for the answer's basis: the rule in force with its citation."""
        if self.rules is None:
            return "no specialty-engine rules stored for this machine type: no engine ratio is enforced"
        ratio = "no limit stated" if self.per_cp is None else f"at most {self.per_cp:g} per CP"
        if self.ratio_field in self.rules.unconfirmed:
            ratio += " (unconfirmed: no IBM technical guide or announcement found states it for this generation)"
        return (
            f"{self.rules.generation}: eligible (Java) work runs on {self.name}s, {ratio}, at least "
            f"{self.min_cps} CP per LPAR ({self.rules.reference})"
        )


def component_cost(
    cfg: ConfigurationData, model: ConfigurationModel, component: str, level: float = 0.95
) -> ComponentCost | None:
    """The published cost per transaction of ``component`` in ``cfg``: its fitted slope with a
    ``level`` confidence interval (t with the fit's degrees of freedom), CP-seconds per
    transaction on ``cfg``'s measured LPAR; ``None`` when the component is not fitted."""
    fit = model.fits.get(component)
    if fit is None or cfg.lpar_cps is None or fit.slope <= 0:
        return None
    half = student_t_quantile(0.5 + level / 2.0, fit.dof) * fit.slope_se if fit.dof >= 1 else 0.0
    refs = sorted({p.reference for p in cfg.points if p.reference})
    return ComponentCost(
        component=component,
        machine_type=cfg.machine_type,
        cps=cfg.lpar_cps,
        cost_s=fit.slope,
        low_s=max(0.0, fit.slope - half),
        high_s=fit.slope + half,
        point_ids=tuple(i for i in fit.point_ids if i is not None),
        reference=f"{cfg.path}/{cfg.configuration} '{component}' slope, {level:.0%} interval"
        + (f" ({refs[0]}...)" if refs else ""),
    )


def engine_policy(table: CapacityTable, machine_type: str) -> EnginePolicy:
    """The specialty-engine policy of ``machine_type`` from the rules stored in ``table``.

    Parameters
    ----------
    table : CapacityTable
        LSPR ratings with ``engine_rules`` keyed by machine type.
    machine_type : str
        IBM machine type, e.g. ``"2097"``.

    Returns
    -------
    EnginePolicy
        Without rules for the type: a zIIP, no ratio, one CP minimum.
    """
    rules = table.engine_rules.get(machine_type)
    if rules is None:
        return EnginePolicy("zIIP", None, 1, True, None, None)
    if rules.java_engine == "zaap":
        name: Literal["zIIP", "zAAP"] = "zAAP"
        per_cp = rules.zaaps_per_cp
    else:
        name, per_cp = "zIIP", rules.ziips_per_cp
    if rules.min_cps_per_lpar < 1:
        raise InputError(
            "engine_rules",
            f"engine_rules[{machine_type!r}].min_cps_per_lpar must be >= 1, got {rules.min_cps_per_lpar!r}",
        )
    smt = rules.smt2_throughput_factor if rules.smt2_ziip else None
    bound = engine_limits(table, machine_type).engine_bound()
    return EnginePolicy(name, per_cp, rules.min_cps_per_lpar, rules.specialty_full_speed, smt, rules, bound)


#: rated_counts per (table, machine type, setting, minimum): a scan of every rating was the
#: largest single cost of an answer.  Keyed by the table's id and checked by identity.
_COUNTS: dict[tuple[int, str, str | None, int], tuple[CapacityTable, tuple[int, ...]]] = {}


def rated_counts(table: CapacityTable, machine_type: str, setting: str | None, min_cps: int) -> list[int]:
    """CP counts rated for the target, at least ``min_cps`` (the setting's models where given).

    Every answer asks this of the whole table; the counts are remembered per table object.

    Raises
    ------
    ValueError
        Naming ``capacity_setting`` when the machine type is rated but not with that setting.
    """
    key = (id(table), machine_type, setting, min_cps)
    hit = _COUNTS.get(key)
    if hit is not None and hit[0] is table:
        return list(hit[1])
    counts = _rated_counts(table, machine_type, setting, min_cps)
    if len(_COUNTS) >= 256:
        _COUNTS.clear()
    _COUNTS[key] = (table, tuple(counts))
    return counts


def _rated_counts(table: CapacityTable, machine_type: str, setting: str | None, min_cps: int) -> list[int]:
    if setting is None or setting == table.full_speed_setting.get(machine_type, setting):
        return sorted(n for mt, n in table.ratings if mt == machine_type and n >= min_cps)
    counts = sorted(n for mt, s, n in table.settings if mt == machine_type and s == setting and n >= min_cps)
    if not counts and any(mt == machine_type for mt, _ in table.ratings):
        known = sorted({s for mt, s, _ in table.settings if mt == machine_type})
        raise InputError(
            "capacity_setting",
            f"capacity_setting {setting!r} is not rated for machine type {machine_type!r} (settings: {known})",
        )
    return counts


def specialty_engines(
    policy: EnginePolicy, cps: int, eligible_busy: float, ceiling: float, given: int | None
) -> tuple[int, int]:
    """Specialty engines configured beside ``cps`` CPs, and how many the eligible work needs.

    Parameters
    ----------
    policy : EnginePolicy
        The target's rules.
    cps : int
        General-purpose CPs (>= 1).
    eligible_busy : float
        Eligible demand in specialty-engine busy engines (>= 0).
    ceiling : float
        Utilisation ceiling of a specialty engine, in (0, 1].
    given : int or None
        Engines the user gave (``None``: sized).

    Returns
    -------
    (configured, needed) : (int, int)
        ``needed`` runs all eligible work within the ceiling; ``configured`` is ``given`` or
        ``needed``, never above :meth:`EnginePolicy.max_engines` (the rest of the eligible work
        runs on CPs).
    """
    needed = ziips_required(eligible_busy, ceiling)
    want = needed if given is None else given
    cap = policy.max_engines(cps)
    return (want if cap is None else min(want, cap)), needed


@dataclass(frozen=True)
class PoolDemand:
    """Projected demand split between the pools, busy engines on the target.

    ``gcp`` = ineligible work + ``on_gcp`` (eligible work the specialty engines cannot take),
    in target-CP busy engines; ``special`` is eligible work on the specialty engines, in
    specialty-engine busy engines (full speed).  ``total = gcp + special``.
    """

    gcp: float
    special: float
    on_gcp: float
    engines: int
    needed: int

    @property
    def total(self) -> float:
        return self.gcp + self.special


def projections(
    table: CapacityTable,
    from_type: str,
    from_cps: int,
    to_type: str,
    to_cps: int,
    setting: str | None,
    *,
    from_engines: int = 0,
    to_engines: int = 0,
) -> tuple[Projection, Projection]:
    """CP and specialty-engine projections from the measured LPAR to ``to_cps`` CPs.

    Each side is rated at its total engine count (CPs + specialty engines: ``from_engines``
    beside ``from_cps``, ``to_engines`` beside ``to_cps``), the MP effect of the whole
    configuration (:func:`models_lib.capacity.mp_projection`).  The CP projection uses the
    target's capacity setting (a sub-capacity CP is slower: the full-speed figure of the total
    times the setting's speed at ``to_cps``); the specialty-engine projection the full-speed
    figure (specialty engines run at full speed on every model).  Both are equal for a
    full-speed target.
    """
    if setting is not None and setting != table.full_speed_setting.get(to_type, setting):
        if (to_type, setting, to_cps) not in table.settings:
            known = sorted({s for t, s, _ in table.settings if t == to_type})
            raise InputError(
                "capacity_setting",
                f"capacity_setting {setting!r} with {to_cps} CPs is not rated for machine type {to_type!r} (settings: {known})",
            )
    return mp_projection(
        table, from_type, from_cps, to_type, to_cps, from_engines=from_engines, to_engines=to_engines, setting=setting
    )


def mp_specialty_engines(
    policy: EnginePolicy,
    cps: int,
    eligible_native: float,
    ceiling: float,
    given: int | None,
    special_factor_at: Callable[[int], float],
) -> tuple[int, int]:
    """(configured, needed) specialty engines beside ``cps`` CPs, rated at the total count.

    The fixed point of the MP effect: the specialty engines the eligible work needs depend on
    the per-engine capacity, which depends on how many engines the configuration has.
    ``special_factor_at(z)`` is the specialty-engine projection factor with ``z`` specialty
    engines beside the CPs; it never falls as ``z`` grows (per-engine capacity never rises), so
    the count from ``z = 0`` upwards, ``z <- min(needed(z), cap)``, rises to the smallest
    consistent count in a few steps.  ``given`` engines (capped by the rules) are rated as given.
    ``eligible_native`` is in busy engines of the measured LPAR.
    """
    rules = policy.max_engines(cps)
    cap = MAX_CPS - cps if rules is None else rules  # no rules: at most the z/OS limit in all
    if given is not None:
        z = min(given, cap)
        return z, ziips_required(eligible_native * special_factor_at(z), ceiling)
    z, needed = 0, 0
    for _ in range(MAX_CPS + 1):
        needed = ziips_required(eligible_native * special_factor_at(z), ceiling)
        nz = min(needed, cap)
        if nz <= z:
            break
        z = nz
    return z, needed


def mp_engines_array(
    eligible_native: npt.NDArray[np.float64],
    special_table: npt.NDArray[np.float64],
    caps: npt.NDArray[np.int64],
    ceiling: float,
    given: int | None,
) -> npt.NDArray[np.int64]:
    """:func:`mp_specialty_engines` over arrays: ``eligible_native`` of shape (..., C) for C CP
    counts, ``special_table[c, z]`` the specialty factor of count ``c`` with ``z`` engines (z up
    to ``caps[c]``; shape (C, K + 1)), ``caps`` the engines the rules allow per count."""
    idx = np.arange(special_table.shape[0])
    shape = np.broadcast_shapes(eligible_native.shape, caps.shape)
    if given is not None:
        return np.broadcast_to(np.minimum(caps, given), shape).astype(np.int64)
    z = np.zeros(shape, dtype=np.int64)
    for _ in range(special_table.shape[1] + 1):
        need = eligible_native * special_table[idx, z]
        needed = np.where(need > 0.0, np.maximum(1.0, np.ceil(need / ceiling - 1e-9)), 0.0)
        nz = np.minimum(needed, caps).astype(np.int64)
        if np.array_equal(nz, z):
            break
        z = np.maximum(nz, z)
    return z


def split_pools(
    native_busy: float,
    fraction: float,
    cp_factor: float,
    special_factor: float,
    engines: int,
    needed: int,
    ceiling: float,
) -> PoolDemand:
    """Split native (measured-LPAR) demand into the target's CP and specialty pools.

    Eligible work (``fraction`` of ``native_busy``) runs on the ``engines`` specialty engines
    up to ``engines * ceiling`` busy engines at full speed (``special_factor``); the rest of it
    and all ineligible work run on CPs (``cp_factor``), as RMF's IIPCP reports it.
    """
    eligible = native_busy * fraction
    on_special_native = min(eligible, engines * ceiling / special_factor) if special_factor > 0 else eligible
    overflow = eligible - on_special_native
    on_gcp = overflow * cp_factor
    gcp = (native_busy - eligible) * cp_factor + on_gcp
    return PoolDemand(gcp, on_special_native * special_factor, on_gcp, engines, needed)


def split_pools_array(
    native_busy: npt.NDArray[np.float64],
    fraction: npt.NDArray[np.float64],
    cp_factor: npt.NDArray[np.float64],
    special_factor: npt.NDArray[np.float64],
    max_engines: npt.NDArray[np.float64],
    ceiling: float,
    given: int | None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """:func:`specialty_engines` and :func:`split_pools` over arrays (Monte Carlo samples x CP
    counts), broadcast together; ``max_engines`` is ``inf`` where no rule is stored.

    Returns
    -------
    (gcp, special, engines)
        CP busy engines, specialty busy engines and specialty engines configured.
    """
    eligible = native_busy * fraction
    need = eligible * special_factor
    needed = np.where(need > 0.0, np.maximum(1.0, np.ceil(need / ceiling - 1e-9)), 0.0)
    engines = np.minimum(needed if given is None else float(given), max_engines)
    on_special_native = np.minimum(eligible, engines * ceiling / special_factor)
    gcp = (native_busy - eligible) * cp_factor + (eligible - on_special_native) * cp_factor
    special = on_special_native * special_factor
    return gcp, special, np.broadcast_to(engines, special.shape).astype(np.float64)


@fast_init
@dataclass(frozen=True)
class Saturation:
    """Rate at which the first resource saturates, transactions/s, and that resource.

    ``binding`` is ``"cps"``, ``"specialty"`` (CPs and specialty engines together: the engines
    are too few for the eligible work), ``"software"`` (the fitted software station) or
    ``"none"`` (no CPU cost per transaction).
    """

    tps: float
    binding: Literal["cps", "specialty", "software", "none"]


def saturation(
    *,
    cps: int,
    engines: int | None,
    fraction: float,
    cp_factor: float,
    special_factor: float,
    intercept: float,
    slope: float,
    software_tps: float | None,
) -> Saturation:
    """Saturation rate of ``cps`` CPs (+ ``engines`` specialty engines) for a native demand line.

    Native busy engines at rate ``x`` are ``intercept + slope * x``; the CPs run the ineligible
    share and whatever eligible work the engines cannot.  CP capacity in native units is
    ``cps / cp_factor``, specialty capacity ``engines / special_factor``; the pools saturate at
    ``min(cpcap / (1 - f), cpcap + spcap)`` native busy engines (``engines=None``: sized to the
    load, only the first term).  A software station saturates at ``software_tps`` whatever the
    CPs, so adding CPs never lowers the result.
    """
    cpcap = cps / cp_factor
    alone = math.inf if fraction >= 1.0 else cpcap / (1.0 - fraction)
    helped = math.inf if engines is None else cpcap + engines / special_factor
    native = min(alone, helped)
    binding: Literal["cps", "specialty", "software", "none"] = "specialty" if helped < alone else "cps"
    sat = (native - intercept) / slope if slope > 0 else math.inf
    if not math.isfinite(sat):
        binding = "none"
    if software_tps is not None and software_tps < sat:
        return Saturation(software_tps, "software")
    return Saturation(sat, binding)
