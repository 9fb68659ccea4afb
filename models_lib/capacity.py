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
    "full_speed_per_engine",
    "mp_projection",
    "per_cp_mips",
    "per_engine_mips_at",
    "per_cp_msu",
    "projection_factor",
    "rating",
    "setting_speed",
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
    from_engines, to_engines : int or None
        Total engines (CPs + specialty engines) each side is rated at (:func:`mp_projection`);
        ``None``: the CP count.
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
    from_engines: int | None = None
    to_engines: int | None = None

    @property
    def from_total(self) -> int:
        """Engines the source side is rated at."""
        return self.from_cps if self.from_engines is None else self.from_engines

    @property
    def to_total(self) -> int:
        """Engines the target side is rated at."""
        return self.to_cps if self.to_engines is None else self.to_engines

    def is_identity(self) -> bool:
        """True when source and target are the same machine type, CP count and total engines."""
        return (
            self.from_machine_type == self.to_machine_type
            and self.from_cps == self.to_cps
            and self.from_total == self.to_total
        )

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


# -- The MP effect of the whole configuration ---------------------------------------------------
#
# LSPR rates a model by its CP count, but the processors of one configuration (CPs and the
# specialty engines beside them) share the caches and the fabric: a 14-CP LPAR with 28 zIIPs
# runs 42 engines, and each of them delivers what one engine of a 42-way delivers.  The rule the
# engine applies (docs/models.md, "The MP effect"):
#
# * full-speed target: every engine (CP or specialty) rates MIPS_full(total) / total, the
#   full-speed (7xx, or a midrange type's fastest setting) rating of the total engine count;
# * sub-capacity or midrange setting: specialty engines as above (they run at full speed); a CP
#   rates the same figure times the setting's speed at the CP count,
#   MIPS_setting(cps) / MIPS_full(cps) (the setting slows every CP by the same ratio);
# * a total beyond the largest count the type's full-speed table rates (midrange types stop at
#   6): the rating at that largest count times the MP ratio of a full-speed type of the same
#   generation from that count to the total (2965 -> 2964, 3907 -> 3906, 8562 -> 8561,
#   3932 -> 3931, 9176 -> 9175); without one, the per-engine capacity stays at the largest
#   count's (it never rises).


#: Per table (by id, checked by identity): machine type -> its full-speed counts, and per-engine
#: figures already computed.  A Monte Carlo job asks for thousands of (count, engines) pairs.
_PER_ENGINE: dict[int, tuple[CapacityTable, dict[str, list[int]], dict[tuple[str, int], float]]] = {}


def _cache(table: CapacityTable) -> tuple[dict[str, list[int]], dict[tuple[str, int], float]]:
    hit = _PER_ENGINE.get(id(table))
    if hit is None or hit[0] is not table:
        counts: dict[str, list[int]] = {}
        for mt, n in table.ratings:
            counts.setdefault(mt, []).append(n)
        if len(_PER_ENGINE) >= 32:
            _PER_ENGINE.clear()
        hit = _PER_ENGINE[id(table)] = (table, {k: sorted(v) for k, v in counts.items()}, {})
    return hit[1], hit[2]


def _sibling(table: CapacityTable, counts: dict[str, list[int]], machine_type: str, top: int) -> str | None:
    """The full-speed type of ``machine_type``'s generation that rates counts beyond ``top``."""
    gen = table.ratings[(machine_type, top)].generation
    best: tuple[int, str] | None = None
    for mt, ns in counts.items():
        r = table.ratings[(mt, ns[-1])]
        if gen and mt != machine_type and r.generation and gen.startswith(r.generation) and ns[-1] > top:
            best = max(best or (0, ""), (ns[-1], mt))
    return None if best is None else best[1]


def full_speed_per_engine(table: CapacityTable, machine_type: str, total_engines: int) -> float:
    """MIPS per engine of a ``total_engines``-way at full speed (see the rule above), MIPS."""
    total = _check_cps("total_engines", total_engines)
    hit = table.ratings.get((machine_type, total))
    if hit is not None:
        return hit.mips / total
    counts, memo = _cache(table)
    if (machine_type, total) in memo:
        return memo[(machine_type, total)]
    ns = counts.get(machine_type)
    if not ns or total < ns[0]:
        types = sorted(counts)
        raise InputError(
            "machine_type", f"{total} engines of machine type {machine_type!r} are not rated (types: {types})"
        )
    top = ns[-1]
    if total < top:  # a gap in the table: the count below
        below = max(n for n in ns if n <= total)
        value = table.ratings[(machine_type, below)].mips / below
    else:
        value = table.ratings[(machine_type, top)].mips / top
        sibling = _sibling(table, counts, machine_type, top)
        if sibling is not None:
            s_top = max(n for n in counts[sibling] if n <= total)
            ratio = (table.ratings[(sibling, s_top)].mips / s_top) / (table.ratings[(sibling, top)].mips / top)
            value *= min(1.0, ratio)
    memo[(machine_type, total)] = value
    return value


def setting_speed(table: CapacityTable, machine_type: str, setting: str | None, cps: int) -> float:
    """Speed of one CP of ``setting`` against full speed at ``cps`` CPs, MIPS_setting(cps) / MIPS_full(cps)
    (1.0 at full speed)."""
    if setting is None or setting == table.full_speed_setting.get(machine_type, setting):
        return 1.0
    rated = table.settings.get((machine_type, setting, cps))
    if rated is None:
        raise InputError(
            "capacity_setting", f"capacity_setting {setting!r} with {cps} CPs is not rated for {machine_type!r}"
        )
    return rated.mips / rating(table, machine_type, cps).mips


def per_engine_mips_at(
    table: CapacityTable, machine_type: str, total_engines: int, *, setting: str | None = None, cps: int | None = None
) -> float:
    """Per-engine MIPS of a configuration of ``total_engines`` engines (CPs + zIIPs/zAAPs).

    Parameters
    ----------
    table : CapacityTable
        LSPR ratings.
    machine_type : str
        IBM machine type of the CEC.
    total_engines : int
        CPs plus specialty engines of the configuration (the LPAR, or a CEC feature's total).
    setting : str or None
        Capacity setting of the CPs (``None`` or the full-speed setting: full speed).  With a
        sub-capacity or midrange setting the result is a *CP's* capacity: the full-speed figure
        times :func:`setting_speed` at ``cps``.  Specialty engines: call without ``setting``.
    cps : int or None
        CP count at which the setting's speed is read (default ``total_engines``, capped to
        the setting's largest rated count).

    Returns
    -------
    float
        MIPS per engine; never rises as ``total_engines`` grows (same setting and ``cps``).
    """
    per = full_speed_per_engine(table, machine_type, total_engines)
    if setting is None or setting == table.full_speed_setting.get(machine_type, setting):
        return per
    if cps is None:
        rated = [n for mt, s, n in table.settings if mt == machine_type and s == setting]
        if not rated:
            raise InputError("capacity_setting", f"capacity_setting {setting!r} is not rated for {machine_type!r}")
        cps = min(int(total_engines), max(rated))
    return per * setting_speed(table, machine_type, setting, cps)


def mp_projection(
    table: CapacityTable,
    from_type: str,
    from_cps: int,
    to_type: str,
    to_cps: int,
    *,
    from_engines: int = 0,
    to_engines: int = 0,
    setting: str | None = None,
) -> tuple[Projection, Projection]:
    """CP and specialty-engine projections from the measured LPAR (``from_cps`` CPs +
    ``from_engines`` specialty engines) to ``to_cps`` CPs + ``to_engines`` specialty engines of
    the target, each side rated at its total engine count (:func:`per_engine_mips_at`).

    With no specialty engines on either side this is :func:`projection_factor` (and, for a
    setting, the setting's rating at ``to_cps``).
    """
    r_from = rating(table, from_type, from_cps, arg="from_cps", type_arg="from_type")
    r_to = rating(table, to_type, to_cps, arg="to_cps", type_arg="to_type")
    mips_from = full_speed_per_engine(table, from_type, from_cps + from_engines)
    full_to = full_speed_per_engine(table, to_type, to_cps + to_engines)
    cp_to = full_to * setting_speed(table, to_type, setting, to_cps)
    rated = table.settings.get((to_type, setting or "", to_cps))
    ids = (r_from.rating_id, r_to.rating_id)

    def proj(per: float, rid: tuple[int | None, int | None]) -> Projection:
        return Projection(
            from_machine_type=from_type, from_cps=from_cps, to_machine_type=to_type, to_cps=to_cps,
            factor=mips_from / per, from_mips_per_cp=mips_from, to_mips_per_cp=per, source=table.source,
            rating_ids=rid, from_engines=from_cps + from_engines, to_engines=to_cps + to_engines,
        )  # fmt: skip

    cp_ids = ids if rated is None or cp_to == full_to else (r_from.rating_id, rated.rating_id)
    return proj(cp_to, cp_ids), proj(full_to, ids)
