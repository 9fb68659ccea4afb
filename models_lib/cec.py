"""The customer's machine: a CEC (central electronic complex), its LPARs and their shares.

A CEC is one model capacity identifier (``8561-710``: z15, full speed, 10 CPs) with its
installed specialty engines (zIIPs, or zAAPs up to zEC12/zBC12), ICFs and IFLs, and the LPARs
(logical partitions) that PR/SM dispatches on them.  Each pool of engines (CPs, zIIPs) is
shared separately, with its own weights [3]_.  This module holds the records and IBM's
documented rules; placing work into an LPAR is :mod:`models_lib.cec_place`.

Rules, each from its document:

* **Shared pool**: the physical engines of a type less those dedicated to LPARs ("The number
  of CPs available for use by sharing LPs is determined by adding the number of CPs already
  assigned to active, dedicated LPs and subtracting that sum from the total" [1]_).
* **Guaranteed share**: "The processing weights for all active, sharing LPs are added together
  ... The share of processing resources for each LP is calculated by dividing the processing
  weight for each sharing LP by the total processing weight" [1]_ (example: 300, 100 and 900
  of 1,300 on 6 CPs are 23.1 %, 7.7 % and 69.2 %); in engines, the share times the shared
  physical engines ("Entitlement is calculated separately for each CPU type as the number of
  shared CPUs multiplied by the ratio of an LPAR's weight to the sum of the weights" [4]_).
* **Never more than its logical engines**: "an LP defined to have two CPs on a three-way CPC
  can never be allocated more than 67% of the CP resources no matter what its processing
  weight" [2]_; what it is entitled to and cannot use "is made available to other logical
  cores in proportion to the weights set for the other logical cores" [1]_, so the share is
  filled pool-wide by weight up to each LPAR's logical engines (:func:`pool_shares`).
* **Dedicated**: "An LP with dedicated CPs is not affected by processing weights" [1]_; each
  dedicated logical engine is one physical engine, outside the shared pool [4]_.
* **Hard cap**: "A capped LP running at its cap does not have access to the CP resources that
  are not utilized by other LPs" [1]_: a capped LPAR uses at most its share.
* **Vertical polarization** (HiperDispatch): a vertical-high logical engine is entitled to
  100 % of a physical engine, a vertical-medium to part of one, a vertical-low to none [5]_;
  "a logical partition with a 200% processor share and four logical processors, two logical
  processors are sufficient to obtain the two physical processors worth of capacity" [6]_;
  PR/SM gives the integer part of the share as vertical highs and one vertical medium when the
  fraction is at least 50 %, and one vertical high fewer with two vertical mediums sharing
  1 + the fraction (each at least 50 %) when it is below [7]_; the rest are vertical lows.  The
  PR/SM guide's example: 8 CPs, weights 600 and 400, share 4.8 with 8 logical processors,
  "5 will be active at all times and up to 3 will be active only in periods that WLM
  determines" [8]_ (4 VH + 1 VM, 3 VL).

References
----------
.. [1] IBM Z PR/SM Planning Guide (machine type 9176, ibm.com/docs systems-hardware/zsystems/
   9176-MER), "Use of processing weights", "Processing weights", "Capping processing
   weights", "Processing weight management", "Shared central processors".
.. [2] IBM System z9 PR/SM Planning Guide (SB10-7041), "Processing Weights": the two-CP LP on
   a three-way CPC.
.. [3] Same guide, "Processing Weights and Shared CP, ICF, IFA, IFL and zIIP Processors":
   "Shared general purpose, ICF, IFA, IFL and zIIP processors are each managed as separate
   'pools' of physical resources".
.. [4] IBM z/VM 7.2 Performance, "HiperDispatch: PR/SM Concepts", Entitlement.
.. [5] IBM z/VM performance tips, "LPAR Entitlement Calculator" (ibm.com/support/pages/zvm/
   perf/tips/lparcalc.html): VH entitled to 100 %, VM or HZ to 0-100 %.
.. [6] z/OS V2R1 MVS Planning: Workload Management, "The concept of HiperDispatch mode".
.. [7] IBM white paper "Planning Considerations for HiperDispatch Mode", Version 2 (S. Grabarits,
   G. King, B. Pierce, IBM System z Performance, May 11, 2011), "Introduction to HiperDispatch
   Mode" (https://www.ibm.com/support/pages/system/files/inline-files/davcm_ver2_2011_final.pdf,
   listed at https://www.ibm.com/support/pages/node/6355081).  The reference library holds this
   document, but only its opening pages could be read there: the passage stating the split into
   vertical highs and mediums was not found in an IBM document's own words.  The split coded
   here is as a third party works it ("How PR/SM calculates the number of Vertical High and
   Vertical Medium processors", mainframe-tips-and-tricks, 2021: 32 x 0.28 = 8.96 -> 8 VH +
   1 VM; 32 x 0.26 = 8.32 -> 7 VH + 2 VM); IBM's own example [8]_ (share 4.8 of 8 logical, 5
   active at all times) agrees with it.  Open: a whole-number share (7.00) is coded as 7 VH and
   no VM; a summary of IBM presentations on IBM-MAIN (2008: "always have at least one medium")
   would give 6 VH + 1 VM.  Neither changes a share or a fits answer (the counts are shown only).
.. [8] IBM Z PR/SM Planning Guide, "Enabling HiperDispatch for z/OS Logical Partitions".
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from models_lib.capacity import MAX_CPS, per_engine_mips_at
from models_lib.checks import InputError
from models_lib.inputs import CapacityTable

__all__ = [
    "MAX_WEIGHT",
    "POOLS",
    "Cec",
    "Lpar",
    "LparPool",
    "PoolShare",
    "cec_engine_mips",
    "check_cec",
    "pool_shares",
    "vertical_counts",
]

#: Pools PR/SM shares with their own weights: general-purpose CPs and zIIPs (zAAPs on z10..zEC12).
POOLS = ("cp", "ziip")
#: PR/SM processing weights range from 1 to 999 [1].
MAX_WEIGHT = 999


@dataclass(frozen=True)
class LparPool:
    """One LPAR's engines of one type.

    Parameters
    ----------
    logical : int
        Logical engines of this type (0: none).
    weight : int or None
        Processing weight, 1..999 (shared); ``None`` when the LPAR is dedicated or has none.
    capped : bool
        Initial capping (a hard cap at its share).
    busy_pct : float
        Percent of its logical engines busy today (RMF's LOGICAL PROCESSORS TOTAL), 0..100.
    """

    logical: int = 0
    weight: int | None = None
    capped: bool = False
    busy_pct: float = 0.0

    @property
    def busy(self) -> float:
        """Busy engines today (logical engines x busy percent / 100)."""
        return self.logical * self.busy_pct / 100.0

    def with_logical(self, logical: int) -> LparPool:
        """The same busy engines on ``logical`` logical engines (its percent rescaled)."""
        pct = self.busy / logical * 100.0 if logical > 0 else 0.0
        return LparPool(logical, self.weight, self.capped, min(pct, 100.0))


@dataclass(frozen=True)
class Lpar:
    """A logical partition: its name, its CPs and zIIPs, dedicated or shared."""

    name: str
    cp: LparPool
    ziip: LparPool = field(default_factory=LparPool)
    dedicated: bool = False

    def pool(self, name: str) -> LparPool:
        return self.cp if name == "cp" else self.ziip


@dataclass(frozen=True)
class Cec:
    """A machine: its model capacity identifier, the engines installed and its LPARs.

    Parameters
    ----------
    model : str
        Model capacity identifier, e.g. ``"8561-710"``.
    machine_type : str
        IBM machine type (``"8561"``).
    capacity_setting : str
        ``"700"`` (full speed), ``"400"``..``"600"`` or ``"A00"``..``"Z00"``.
    cps : int
        Installed CPs (the model's).
    ziips, icfs, ifls : int
        Installed zIIPs (zAAPs on z10..zEC12), ICFs and IFLs.
    lpars : tuple of Lpar
    specialty : str
        The generation's name of the specialty-engine pool: ``"zIIP"``, or ``"zAAP"`` where
        the eligible work runs on zAAPs (z10..zEC12/zBC12).
    """

    model: str
    machine_type: str
    capacity_setting: str
    cps: int
    ziips: int = 0
    icfs: int = 0
    ifls: int = 0
    lpars: tuple[Lpar, ...] = ()
    specialty: str = "zIIP"

    def engine_name(self, pool: str) -> str:
        """``CP``, or the specialty engine's name."""
        return "CP" if pool == "cp" else self.specialty

    def installed(self, pool: str) -> int:
        return self.cps if pool == "cp" else self.ziips

    @property
    def total_engines(self) -> int:
        """Every characterised engine of the CEC (CPs, zIIPs, ICFs, IFLs): the count the
        capacity is rated at (the MP effect)."""
        return self.cps + self.ziips + self.icfs + self.ifls

    def lpar(self, name: str) -> Lpar:
        for lp in self.lpars:
            if lp.name == name:
                return lp
        raise InputError("lpar", f"lpar {name!r} is not one of this CEC's LPARs ({', '.join(self.names)})")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(lp.name for lp in self.lpars)


def _check_pool(cec: Cec, i: int, lp: Lpar, pool: str) -> None:
    where = f"lpars.{i}.{pool}"
    p = lp.pool(pool)
    installed = cec.installed(pool)
    if not 0 <= p.logical <= installed:
        raise InputError(
            f"{where}.logical",
            f"LPAR {lp.name}: {p.logical} logical {pool.upper()}s, more than the {installed} installed",
        )
    if not (0.0 <= p.busy_pct <= 100.0 and math.isfinite(p.busy_pct)):
        raise InputError(f"{where}.busy_pct", f"LPAR {lp.name}: busy {p.busy_pct!r} % must be within 0..100 %")
    if p.logical == 0 and p.busy_pct > 0.0:
        raise InputError(f"{where}.busy_pct", f"LPAR {lp.name}: busy {p.busy_pct} % on no logical {pool.upper()}s")
    if lp.dedicated:
        if p.weight is not None:
            raise InputError(f"{where}.weight", f"LPAR {lp.name} is dedicated: PR/SM weights do not apply to it")
        return
    if p.logical > 0 and (p.weight is None or not 1 <= p.weight <= MAX_WEIGHT):
        raise InputError(
            f"{where}.weight", f"LPAR {lp.name}: a shared LPAR's weight is 1..{MAX_WEIGHT}, got {p.weight!r}"
        )


def check_cec(cec: Cec) -> Cec:
    """``cec`` if PR/SM could run it; else :class:`InputError` naming the field.

    Checks: at least one LPAR, unique names; an LPAR has at least one CP; logical engines no
    more than installed; busy 0..100 %; shared weights 1..999; dedicated engines of each pool
    no more than installed.
    """
    if not 1 <= cec.cps <= MAX_CPS:
        raise InputError("model", f"model {cec.model}: {cec.cps} CPs is outside 1..{MAX_CPS}")
    for name, n in (("ziips", cec.ziips), ("icfs", cec.icfs), ("ifls", cec.ifls)):
        if not 0 <= n <= MAX_CPS:
            raise InputError(name, f"{name} must be within 0..{MAX_CPS}, got {n}")
    if not cec.lpars:
        raise InputError("lpars", "give at least one LPAR")
    seen: set[str] = set()
    for i, lp in enumerate(cec.lpars):
        if not lp.name or len(lp.name) > 8 or lp.name.upper() in seen:
            raise InputError(f"lpars.{i}.name", f"LPAR name {lp.name!r} must be 1..8 characters and unique")
        seen.add(lp.name.upper())
        if lp.cp.logical < 1:
            raise InputError(f"lpars.{i}.cp.logical", f"LPAR {lp.name}: a z/OS LPAR needs at least one CP")
        for pool in POOLS:
            _check_pool(cec, i, lp, pool)
    for pool in POOLS:
        dedicated = sum(lp.pool(pool).logical for lp in cec.lpars if lp.dedicated)
        if dedicated > cec.installed(pool):
            raise InputError(
                "lpars",
                f"{dedicated} {pool.upper()}s dedicated to LPARs, more than the {cec.installed(pool)} installed",
            )
    return cec


@dataclass(frozen=True)
class PoolShare:
    """One LPAR's part of one pool.

    Attributes
    ----------
    name, pool : str
    dedicated, capped : bool
    logical : int
    weight : int or None
    weight_fraction : float
        Its weight over the sum of the active weights (0 when dedicated).
    share : float
        Guaranteed engines: its dedicated engines, or its weight share of the shared engines
        (filled up to its logical engines, the rest given to the others by weight).
    by_logical : bool
        The share is its logical engines (it would be entitled to more).
    limit : float
        The most it can use: its logical engines, or its share when capped.
    busy : float
        Busy engines today.
    vh, vm, vl : int
        Vertical high, medium and low logical engines (a shared LPAR under HiperDispatch; a
        dedicated one counts its engines as vertical high).
    """

    name: str
    pool: str
    dedicated: bool
    capped: bool
    logical: int
    weight: int | None
    weight_fraction: float
    share: float
    by_logical: bool
    limit: float
    busy: float
    vh: int
    vm: int
    vl: int


def vertical_counts(share: float, logical: int) -> tuple[int, int, int]:
    """(vertical high, vertical medium, vertical low) logical engines of a shared LPAR with
    ``share`` guaranteed engines and ``logical`` logical engines, as HiperDispatch assigns
    them [7]_ [8]_ (see the module docstring)."""
    if logical <= 0:
        return 0, 0, 0
    if share >= logical - 1e-9:
        return logical, 0, 0
    whole = math.floor(share + 1e-9)
    fraction = share - whole
    if fraction <= 1e-9:
        vh, vm = whole, 0
    elif fraction >= 0.5 or whole == 0:
        vh, vm = whole, 1
    else:
        vh, vm = whole - 1, 2
    return vh, vm, logical - vh - vm


def _fill(weights: Mapping[str, int], logical: Mapping[str, int], engines: float) -> dict[str, float]:
    """Shares of ``engines`` by weight, none above its logical engines, the rest refilled by
    weight among the others [1]_ [2]_."""
    out: dict[str, float] = {}
    free = dict(weights)
    left = float(engines)
    while free:
        total = sum(free.values())
        over = [n for n, w in free.items() if w / total * left >= logical[n] - 1e-12]
        if not over:
            out.update({n: w / total * left for n, w in free.items()})
            break
        for n in over:
            out[n] = float(logical[n])
            left -= logical[n]
            del free[n]
    return out


def pool_shares(cec: Cec, pool: str, *, weights: Mapping[str, int] | None = None) -> tuple[PoolShare, ...]:
    """Every LPAR's part of ``pool`` (``"cp"`` or ``"ziip"``), in the CEC's order; ``weights``
    replaces some LPARs' weights (a what-if)."""
    members = [lp for lp in cec.lpars if lp.pool(pool).logical > 0]
    shared_engines = cec.installed(pool) - sum(lp.pool(pool).logical for lp in members if lp.dedicated)
    shared = [lp for lp in members if not lp.dedicated]
    weight = {lp.name: int((weights or {}).get(lp.name) or lp.pool(pool).weight or 0) for lp in shared}
    total = sum(weight.values())
    filled = _fill(weight, {lp.name: lp.pool(pool).logical for lp in shared}, shared_engines)
    out = []
    for lp in members:
        p = lp.pool(pool)
        if lp.dedicated:
            share, fraction, by_logical = float(p.logical), 0.0, True
            counts = (p.logical, 0, 0)
        else:
            share, fraction = filled[lp.name], weight[lp.name] / total
            by_logical = fraction * shared_engines > p.logical + 1e-12
            counts = vertical_counts(share, p.logical)
        limit = share if p.capped and not lp.dedicated else float(p.logical)
        out.append(
            PoolShare(
                name=lp.name, pool=pool, dedicated=lp.dedicated, capped=p.capped and not lp.dedicated,
                logical=p.logical, weight=None if lp.dedicated else weight[lp.name], weight_fraction=fraction,
                share=share, by_logical=by_logical, limit=limit, busy=p.busy, vh=counts[0], vm=counts[1], vl=counts[2],
            )
        )  # fmt: skip
    return tuple(out)


def cec_engine_mips(
    table: CapacityTable, machine_type: str, total_engines: int, *, setting: str | None = None, cps: int | None = None
) -> float:
    """MIPS of one engine of a CEC with ``total_engines`` engines (the MP effect at the CEC's
    total engine count): :func:`models_lib.capacity.per_engine_mips_at`, the rule every
    estimate rates its configuration by (issue 32 item 6): the full-speed rating's MIPS(N) / N,
    for CPs of a sub-capacity or midrange ``setting`` scaled by the setting's speed at ``cps``
    CPs; specialty engines (``setting=None``) at full speed on every model.

    Raises
    ------
    InputError
        Naming ``model`` when the machine type is not rated at ``total_engines``.
    """
    try:
        return per_engine_mips_at(table, machine_type, total_engines, setting=setting, cps=cps)
    except InputError as exc:
        raise InputError(
            "model", f"machine type {machine_type} at {total_engines} engines (the CEC's total): {exc}"
        ) from exc


def pool_engine_mips(table: CapacityTable, cec: Cec, pool: str) -> float:
    """MIPS of one engine of ``pool``: CPs at the model's setting, zIIPs at full speed, both at
    the CEC's total engine count."""
    full = table.full_speed_setting.get(cec.machine_type, "")
    setting = cec.capacity_setting if pool == "cp" and cec.capacity_setting != full else None
    return cec_engine_mips(table, cec.machine_type, cec.total_engines, setting=setting, cps=cec.cps)


def shares_by_pool(cec: Cec) -> dict[str, tuple[PoolShare, ...]]:
    """:func:`pool_shares` of each pool that has engines installed."""
    return {pool: pool_shares(cec, pool) for pool in POOLS if cec.installed(pool) > 0}


def share_of(shares: Sequence[PoolShare], name: str) -> PoolShare | None:
    return next((s for s in shares if s.name == name), None)
