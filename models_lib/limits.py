"""What a machine type can be configured with: the most engines, CPs at a capacity setting,
specialty engines per CP, and SMT-2 on zIIPs.

Pure reads of reference data the engine already holds (:class:`~models_lib.inputs.CapacityTable`
and its :class:`~models_lib.inputs.SpecialtyEngineRules`):

* ``max_engines``: CPs + specialty engines of the machine type's largest model.  For a
  full-speed type it is the CP count of the largest full-speed (7xx) model in the zPCR table,
  where every characterisable PU is a CP (2097-764: 64, 2827-7A1: 101, 2964-7E1: 141, 3906-7H0:
  170, 8561-7J0: 190, 3931-7K0: 200, 9175-7K8: 208).  Midrange types state none; their CPs are
  capped by the table (6) and their specialty engines by the ratio, so the bound used is
  ``max CPs x (1 + per CP)``.
* CPs at a capacity setting: the largest CP count the table lists for that setting (z16: 39
  at 4xx..6xx, 200 at 7xx).
* SMT-2 on zIIPs: IBM publishes no single throughput factor ("variable core capacity gains",
  REDP-5144), so the factor is the user's; :func:`smt2_ziip_capacity` applies it and says so.

Units: engine counts; capacity in zIIP-equivalents (one zIIP core without SMT = 1).

References
----------
.. [1] IBM LSPR ratings, zPCR Configuration Summary export (benchmarks/lspr_zpcr_configuration_summary.csv).
.. [2] IBM System z10 EC Reference Guide, "z10 EC Model Capacity IDs" (701 to 764), p. 13.
.. [3] IBM z13s Technical Guide, SG24-8294, 3.4.1 (SMT on IFLs and zIIPs) and 3.5.5 (zIIPs per CP).
.. [4] IBM Redpaper REDP-5144 (SMT on the z13: variable core capacity gains).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral
from typing import Literal

from models_lib.inputs import CapacityTable, SpecialtyEngineRules

__all__ = ["EngineLimits", "LimitCheck", "Smt2Capacity", "engine_limits", "smt2_ziip_capacity", "specialty_name"]

_TOLERANCE = 1e-9


@dataclass(frozen=True)
class LimitCheck:
    """Whether a CP/specialty mix can be configured, and why not.

    Parameters
    ----------
    fits : bool
        True when the mix can be built.
    reason : {"engines", "cps", "ratio"} or None
        What it passes: the machine's most engines, the CPs at the setting, or the specialty
        engines per CP.
    message : str
        One sentence for the answer.
    """

    fits: bool
    reason: Literal["engines", "cps", "ratio"] | None
    message: str


@dataclass(frozen=True)
class EngineLimits:
    """Configuration limits of one machine type at one capacity setting.

    Parameters
    ----------
    machine_type : str
        IBM machine type, e.g. ``"3931"``.
    capacity_setting : str or None
        The setting the CPs run at (``None``: the full-speed setting).
    max_engines : int or None
        CPs + specialty engines of the largest model as stored (``None``: not stated).
    max_cps : int or None
        Most CPs the capacity table lists at the setting (``None``: no ratings for the type).
    max_cps_full_speed : int or None
        Most CPs at the full-speed setting.
    per_cp : float or None
        Most specialty engines per CP (``None``: no rule).
    specialty : {"zIIP", "zAAP"}
        The engine that runs the eligible work.
    """

    machine_type: str
    capacity_setting: str | None
    max_engines: int | None
    max_cps: int | None
    max_cps_full_speed: int | None
    per_cp: float | None
    specialty: Literal["zIIP", "zAAP"]

    def engine_bound(self) -> int | None:
        """The most engines used for feasibility: ``max_engines``, else ``max CPs x (1 + per CP)``."""
        if self.max_engines is not None:
            return self.max_engines
        if self.max_cps_full_speed is None or self.per_cp is None:
            return None
        return self.max_cps_full_speed + int(math.floor(self.per_cp * self.max_cps_full_speed + _TOLERANCE))

    def max_specialty(self, cps: int) -> int | None:
        """Most specialty engines beside ``cps`` CPs: the ratio, then the engines left (``None``: no limit)."""
        n = _count("cps", cps, minimum=1)
        by_ratio = None if self.per_cp is None else int(math.floor(self.per_cp * n + _TOLERANCE))
        bound = self.engine_bound()
        left = None if bound is None else max(0, bound - n)
        if by_ratio is None:
            return left
        return by_ratio if left is None else min(by_ratio, left)

    def check(self, cps: int, specialty: int) -> LimitCheck:
        """Whether ``cps`` CPs and ``specialty`` specialty engines can be configured."""
        n = _count("cps", cps, minimum=1)
        z = _count("specialty", specialty, minimum=0)
        where = f"{self.machine_type}" + (
            f" at capacity setting {self.capacity_setting}" if self.capacity_setting else ""
        )
        if self.max_cps is not None and n > self.max_cps:
            return LimitCheck(False, "cps", f"{n} CPs: {where} offers at most {self.max_cps} CPs")
        bound = self.engine_bound()
        if bound is not None and n + z > bound:
            return LimitCheck(
                False,
                "engines",
                f"{n} CPs + {z} {self.specialty}s = {n + z} engines: {self.machine_type} has at most {bound}",
            )
        if self.per_cp is not None and z > self.per_cp * n + _TOLERANCE:
            return LimitCheck(False, "ratio", f"{z} {self.specialty}s beside {n} CPs: at most {self.per_cp:g} per CP")
        return LimitCheck(True, None, f"{n} CPs + {z} {self.specialty}s can be configured on {where}")


def _count(name: str, value: int, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or int(value) < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def specialty_name(table: CapacityTable, machine_type: str) -> Literal["zIIP", "zAAP"]:
    """The specialty engine eligible Java work runs on: zAAP where the generation's rules say so
    (z10..zEC12/zBC12, benchmarks/engine_rules.yaml), else zIIP (also where no rule is loaded)."""
    rules = table.engine_rules.get(machine_type)
    return "zAAP" if rules is not None and rules.java_engine == "zaap" else "zIIP"


def engine_limits(table: CapacityTable, machine_type: str, capacity_setting: str | None = None) -> EngineLimits:
    """The configuration limits of ``machine_type`` at ``capacity_setting``.

    Parameters
    ----------
    table : CapacityTable
        LSPR ratings (every setting) with the engine rules keyed by machine type.
    machine_type : str
        IBM machine type, e.g. ``"2964"``.
    capacity_setting : str, optional
        ``"400"``..``"700"`` or ``"A00"``..``"Z00"``; default the full-speed setting.

    Returns
    -------
    EngineLimits

    Raises
    ------
    ValueError
        ``capacity_setting`` that the table does not list for the machine type.
    """
    full = table.full_speed_setting.get(machine_type)
    setting = capacity_setting if capacity_setting is not None else full
    counts: dict[str, int] = {}
    for mt, s, cps in table.settings:
        if mt == machine_type:
            counts[s] = max(counts.get(s, 0), cps)
    if not counts:
        counts_full = [cps for mt, cps in table.ratings if mt == machine_type]
        max_full = max(counts_full) if counts_full else None
        max_cps = max_full
    else:
        if setting is not None and setting not in counts:
            raise ValueError(
                f"capacity_setting {capacity_setting!r} is not rated for machine type {machine_type} "
                f"(rated: {', '.join(sorted(counts))})"
            )
        max_full = counts.get(full) if full is not None else max(counts.values())
        max_cps = counts[setting] if setting is not None else max_full
    rules: SpecialtyEngineRules | None = table.engine_rules.get(machine_type)
    name = specialty_name(table, machine_type)
    if rules is None:
        per_cp, max_engines = None, None
    else:
        per_cp = rules.zaaps_per_cp if rules.java_engine == "zaap" else rules.ziips_per_cp
        max_engines = rules.max_engines_for(machine_type)
    return EngineLimits(
        machine_type=machine_type,
        capacity_setting=None if capacity_setting is None else setting,
        max_engines=max_engines,
        max_cps=max_cps,
        max_cps_full_speed=max_full,
        per_cp=per_cp,
        specialty=name,
    )


@dataclass(frozen=True)
class Smt2Capacity:
    """zIIP capacity with or without SMT-2, and the sentence every answer carries.

    Parameters
    ----------
    ziips : int
        zIIP cores.
    factor : float
        Throughput of one SMT-2 core relative to one without SMT (1.0: SMT-2 not applied).
    applied : bool
        True when a user-given factor was applied.
    capacity : float
        zIIP-equivalents: ``ziips x factor``.
    statement : str
        "SMT-2 on zIIPs: ..." for the answer's basis.
    """

    ziips: int
    factor: float
    applied: bool
    capacity: float
    statement: str


def smt2_ziip_capacity(*, ziips: int, smt2_factor: float | None, smt2_available: bool) -> Smt2Capacity:
    """zIIP capacity under a user-given SMT-2 throughput factor.

    Parameters
    ----------
    ziips : int
        zIIP cores (>= 0).
    smt2_factor : float or None
        User-given throughput of one SMT-2 zIIP core relative to one without SMT, in [1, 2];
        ``None``: SMT-2 not applied (the default; no factor is published).
    smt2_available : bool
        The generation offers SMT-2 on zIIPs (``SpecialtyEngineRules.smt2_ziip``).

    Returns
    -------
    Smt2Capacity
        ``capacity = ziips x factor`` with the sentence saying whether SMT-2 was applied.

    Raises
    ------
    ValueError
        Naming ``ziips`` or ``smt2_factor``; a factor on a generation without SMT-2.
    """
    n = _count("ziips", ziips, minimum=0)
    if smt2_factor is None:
        why = "not applied (no throughput factor given; IBM publishes none: gains vary by workload)"
        if not smt2_available:
            why = "not available on this generation"
        return Smt2Capacity(n, 1.0, False, float(n), f"SMT-2 on zIIPs: {why}")
    f = float(smt2_factor)
    if not (math.isfinite(f) and 1.0 <= f <= 2.0):
        raise ValueError(f"smt2_factor must be in [1, 2] (two threads per core at most), got {smt2_factor!r}")
    if not smt2_available:
        raise ValueError(f"smt2_factor {smt2_factor!r} is given, but this generation has no SMT-2 on zIIPs")
    return Smt2Capacity(
        n, f, True, n * f, f"SMT-2 on zIIPs: applied with the user-given factor {f:g} (each zIIP core = {f:g} zIIPs)"
    )
