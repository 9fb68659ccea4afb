"""The inputs of :func:`models_lib.prepared.prepare` that do not depend on the rate: the checked
options, the target's engine rules and rated CP counts, and the response model.

Every check raises :class:`~models_lib.checks.InputError` naming its argument.
"""

from __future__ import annotations

from models_lib.checks import InputError, opt_int, pos_float
from models_lib.choice import OBJECTIVES, canonical_objective
from models_lib.costmodel import ConfigurationModel
from models_lib.engine import EnginePolicy, engine_policy, rated_counts
from models_lib.inputs import CapacityTable, ConfigurationData
from models_lib.limits import smt2_ziip_capacity
from models_lib.native_cost import NativeCost
from models_lib.response import ResponseModel, fit_response

__all__ = ["check_objective", "check_options", "response_model_for", "smt2_option", "target_rules"]


def check_options(
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


def check_objective(objective: str) -> str:
    """``objective`` by its current name when it is one of :data:`~models_lib.choice.OBJECTIVES`
    or an alias of one (``least-msu``), else an InputError naming it."""
    objective = canonical_objective(objective)
    if objective not in OBJECTIVES:
        raise InputError("objective", f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    return objective


def target_rules(
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


def response_model_for(
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


def smt2_option(policy: EnginePolicy, smt2_factor: float | None) -> tuple[float, str]:
    """(zIIP capacity factor applied, the basis sentence) for a user-given SMT-2 factor.

    Applied only where the target generation runs SMT-2 on zIIPs (``SpecialtyEngineRules.smt2_ziip``,
    z13 and later) and the eligible work runs on zIIPs; elsewhere a given factor is not applied and
    the sentence says so.  Each zIIP core then carries ``smt2_factor`` zIIPs of eligible work
    (:func:`models_lib.limits.smt2_ziip_capacity`).
    """
    available = policy.name == "zIIP" and policy.rules is not None and policy.rules.smt2_ziip
    if smt2_factor is None:
        return 1.0, smt2_ziip_capacity(ziips=0, smt2_factor=None, smt2_available=available).statement
    f = pos_float("smt2_factor", smt2_factor)
    if not 1.0 <= f <= 2.0:
        raise InputError(
            "smt2_factor", f"smt2_factor must be in [1, 2] (two threads per core at most), got {smt2_factor!r}"
        )
    if not available:
        where = "zAAPs run the eligible work" if policy.name == "zAAP" else "this generation has no SMT-2 on zIIPs"
        return 1.0, f"SMT-2 on zIIPs: not applied (factor {f:g} given, but {where})"
    return f, smt2_ziip_capacity(ziips=0, smt2_factor=f, smt2_available=True).statement
