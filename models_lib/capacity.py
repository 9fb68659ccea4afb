"""LSPR capacity projection between machines and CP counts.

A published cost was measured as CP-seconds per transaction on one machine type with one CP
count.  IBM's Large Systems Performance Reference (LSPR) rates each (machine type, CP count) in
MIPS; the capacity of *one* CP of an N-way is ``MIPS(N) / N`` and falls as N grows (multi-
processor effects).  Work that costs ``c`` CP-seconds on the source costs

    c * (MIPS_from(N_from) / N_from) / (MIPS_to(N_to) / N_to)

CP-seconds on the target: the amount of work (in MIPS-seconds) is preserved.

References
----------
.. [1] IBM, "Large Systems Performance Reference for IBM Z", SC28-1187 (LSPR), multi-image
   AVERAGE workload ratings, as exported by zPCR.
.. [2] IBM Redpaper REDP-5114, Chapter 5: "Any CPU timing that is documented in this Redpaper
   publication can be scaled to other IBM hardware by using the Large Systems Performance
   Report (LSPR)."
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral

from models_lib.checks import InputError
from models_lib.inputs import CapacityTable, Rating

__all__ = [
    "MAX_CPS",
    "Projection",
    "demand_mips",
    "demand_msu",
    "per_cp_mips",
    "per_cp_msu",
    "projection_factor",
    "rating",
]

#: Largest CP count a z/OS LPAR can have (z/OS supports up to 256 CPs; the largest model in
#: the LSPR export, 9175-7K8, has 208). The table says which counts each machine type rates.
MAX_CPS = 256


def _check_cps(name: str, cps: int) -> int:
    if type(cps) is int and 1 <= cps <= MAX_CPS:  # the common case, without the ABC check
        return cps
    if isinstance(cps, bool) or not isinstance(cps, Integral):
        raise InputError(name, f"{name} must be an int in 1..{MAX_CPS}, got {cps!r}")
    if not 1 <= int(cps) <= MAX_CPS:
        raise InputError(name, f"{name} must be in 1..{MAX_CPS}, got {cps!r}")
    return int(cps)


def rating(
    table: CapacityTable,
    machine_type: str,
    cps: int,
    *,
    arg: str = "cps",
    type_arg: str = "machine_type",
) -> Rating:
    """Return the LSPR rating of ``machine_type`` with ``cps`` CPs.

    Parameters
    ----------
    table : CapacityTable
        LSPR ratings.
    machine_type : str
        IBM machine type, e.g. ``"2964"`` (z13).
    cps : int
        General-purpose CP count, 1..40.
    arg, type_arg : str
        Names of the CP-count and machine-type arguments used in error messages.

    Returns
    -------
    Rating

    Raises
    ------
    ValueError
        If the machine type is not in the table, or the CP count is outside 1..40 or not rated
        for that machine type.
    """
    cps = _check_cps(arg, cps)
    key = (machine_type, cps)
    found = table.ratings.get(key)
    if found is not None:
        return found
    types = sorted({mt for mt, _ in table.ratings})
    if machine_type not in types:
        raise InputError(type_arg, f"{type_arg} {machine_type!r} is not in the LSPR table (types: {types})")
    counts = sorted(n for mt, n in table.ratings if mt == machine_type)
    raise InputError(
        arg, f"{arg}={cps} is not rated for machine type {machine_type!r} (rated CP counts {counts[0]}..{counts[-1]})"
    )


def per_cp_mips(table: CapacityTable, machine_type: str, cps: int) -> float:
    """Capacity of one CP of a ``cps``-way ``machine_type``, MIPS per CP.

    Parameters
    ----------
    table : CapacityTable
        LSPR ratings.
    machine_type : str
        IBM machine type.
    cps : int
        CP count of the LPAR (1..40).

    Returns
    -------
    float
        ``MIPS(cps) / cps``, MIPS.

    References
    ----------
    .. [1] LSPR (SC28-1187), multi-image AVERAGE ratings.
    """
    r = rating(table, machine_type, cps)
    return r.mips / cps


def per_cp_msu(table: CapacityTable, machine_type: str, cps: int) -> float:
    """Capacity of one CP of a ``cps``-way ``machine_type``, MSU per CP (``MSU(cps) / cps``)."""
    r = rating(table, machine_type, cps)
    return r.msu / cps


@dataclass(frozen=True)
class Projection:
    """Projection of a CPU cost from one machine and CP count to another.

    Parameters
    ----------
    from_machine_type, to_machine_type : str
        IBM machine types.
    from_cps, to_cps : int
        CP counts of the source and target LPARs.
    factor : float
        ``(MIPS_from(N_from) / N_from) / (MIPS_to(N_to) / N_to)``: CP-seconds per transaction
        on the target = source CP-seconds per transaction * factor (dimensionless).
    from_mips_per_cp, to_mips_per_cp : float
        Per-CP capacities, MIPS.
    source : str
        The document the ratings come from.
    rating_ids : tuple of (int or None)
        Ids of the two ratings used (source, target).
    """

    from_machine_type: str
    from_cps: int
    to_machine_type: str
    to_cps: int
    factor: float
    from_mips_per_cp: float
    to_mips_per_cp: float
    source: str
    rating_ids: tuple[int | None, int | None]

    def is_identity(self) -> bool:
        """True when source and target are the same machine type and CP count."""
        return self.from_machine_type == self.to_machine_type and self.from_cps == self.to_cps

    def apply(self, cp_seconds: float) -> float:
        """Project a CPU amount (CP-seconds or busy CPs) from the source to the target."""
        return cp_seconds * self.factor


def projection_factor(table: CapacityTable, from_type: str, from_cps: int, to_type: str, to_cps: int) -> Projection:
    """LSPR projection factor of CP time from one machine/CP count to another.

    Parameters
    ----------
    table : CapacityTable
        LSPR ratings.
    from_type : str
        Machine type the cost was measured on.
    from_cps : int
        CP count of the measured LPAR (1..40).
    to_type : str
        Target machine type.
    to_cps : int
        CP count of the target LPAR (1..40).

    Returns
    -------
    Projection
        ``factor = (MIPS_from(N_from)/N_from) / (MIPS_to(N_to)/N_to)``; a target with faster
        CPs has ``factor < 1``.

    Raises
    ------
    ValueError
        For a machine type not in the table or a CP count outside 1..40 / not rated; the
        message names the argument (``from_type``, ``from_cps``, ``to_type``, ``to_cps``).

    References
    ----------
    .. [1] LSPR (SC28-1187): capacity ratios between processors are taken from the ITR ratios
       of the same workload mix; MIPS tables are a single-number rendering of them.
    """
    r_from = rating(table, from_type, from_cps, arg="from_cps", type_arg="from_type")
    r_to = rating(table, to_type, to_cps, arg="to_cps", type_arg="to_type")
    mips_from = r_from.mips / from_cps
    mips_to = r_to.mips / to_cps
    return Projection(
        from_machine_type=from_type,
        from_cps=from_cps,
        to_machine_type=to_type,
        to_cps=to_cps,
        factor=mips_from / mips_to,
        from_mips_per_cp=mips_from,
        to_mips_per_cp=mips_to,
        source=table.source,
        rating_ids=(r_from.rating_id, r_to.rating_id),
    )


def demand_mips(busy_cps: float, table: CapacityTable, machine_type: str, cps: int) -> float:
    """Capacity demand of ``busy_cps`` busy CPs on a ``cps``-way ``machine_type``, MIPS.

    Parameters
    ----------
    busy_cps : float
        Busy CPs on that LPAR (>= 0).
    table : CapacityTable
        LSPR ratings.
    machine_type : str
        IBM machine type.
    cps : int
        CP count of the LPAR (1..40); the per-CP capacity depends on it.

    Returns
    -------
    float
        ``busy_cps * MIPS(cps) / cps``, MIPS.
    """
    return _check_busy(busy_cps) * per_cp_mips(table, machine_type, cps)


def demand_msu(busy_cps: float, table: CapacityTable, machine_type: str, cps: int) -> float:
    """Capacity demand of ``busy_cps`` busy CPs in MSU (``busy_cps * MSU(cps) / cps``)."""
    return _check_busy(busy_cps) * per_cp_msu(table, machine_type, cps)


def _check_busy(busy_cps: float) -> float:
    v = float(busy_cps)
    if not (v >= 0.0 and v < float("inf")):
        raise InputError("busy_cps", f"busy_cps must be finite and >= 0, got {busy_cps!r}")
    return v
