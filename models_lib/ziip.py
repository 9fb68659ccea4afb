"""Split CPU demand between general-purpose CPs and zIIPs (or zAAPs).

Work that is zIIP-eligible (mostly Java: z/OS Connect, the CICS TG Gateway daemon) runs on a
zIIP when one is free; eligible work that finds no zIIP free runs on a general-purpose CP and
is reported by RMF as IIPCP ("AAP/IIP ON CP").  This module models the steady-state split with
a utilisation ceiling on the zIIPs: zIIPs carry eligible work up to ``ziips * ziip_ceiling``
busy engines; the rest of the eligible work, plus all ineligible work, runs on CPs.

The model ignores the short-term IIPCP that occurs even when the zIIPs are not short (work
dispatched to a CP while a zIIP is momentarily busy, governed by IIPHONORPRIORITY and the
zIIP help threshold); it is typically a few percent of eligible work and is not published by
the sources.

References
----------
.. [1] IBM, "z/OS MVS Initialization and Tuning Reference", SA23-1380: IEAOPTxx
   IIPHONORPRIORITY.
.. [2] IBM, "z/OS RMF Report Analysis", SC34-2665: Workload Activity report, APPL% IIPCP.
.. [3] z/OS Connect EE V3.0 performance summary (2018), section 3.7: "104.82% (the IIPCP value)
   is potentially offloadable to zIIP processors".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral

from models_lib.checks import InputError

__all__ = ["ZiipSplit", "split_demand", "ziips_required"]

# Busy-engine demand is a product of measured rates; a ratio such as 1.7 / 0.85 lands at
# 2.0000000000000004 and must not ask for a third engine.
_CEIL_TOLERANCE = 1e-9


@dataclass(frozen=True)
class ZiipSplit:
    """Result of :func:`split_demand`; all demands in busy engines.

    Parameters
    ----------
    total : float
        Total CPU demand (CP + zIIP), busy engines.
    eligible : float
        zIIP-eligible part of ``total``, busy engines.
    gcp : float
        Demand that runs on general-purpose CPs: ineligible work plus ``ziip_on_gcp``.
    ziip : float
        Eligible work that runs on zIIPs.
    ziip_on_gcp : float
        Eligible work that runs on CPs because the zIIPs are short (RMF IIPCP).
    ziips : int
        zIIPs online.
    ziip_ceiling : float
        Utilisation ceiling of the zIIPs, fraction of one zIIP.
    """

    total: float
    eligible: float
    gcp: float
    ziip: float
    ziip_on_gcp: float
    ziips: int
    ziip_ceiling: float

    def ziip_utilization(self) -> float | None:
        """Mean zIIP utilisation (fraction), ``None`` when there are no zIIPs."""
        return self.ziip / self.ziips if self.ziips else None

    def ziips_short(self) -> bool:
        """True when eligible work overflows to CPs."""
        return self.ziip_on_gcp > 0.0


def _check_fraction(name: str, value: float, *, allow_zero: bool) -> float:
    v = float(value)
    lo_ok = v >= 0.0 if allow_zero else v > 0.0
    if not (lo_ok and v <= 1.0):
        bound = "[0, 1]" if allow_zero else "(0, 1]"
        raise InputError(name, f"{name} must be in {bound}, got {value!r}")
    return v


def split_demand(total_busy: float, eligible_fraction: float, ziips: int, ziip_ceiling: float) -> ZiipSplit:
    """Split a CPU demand between CPs and zIIPs.

    Parameters
    ----------
    total_busy : float
        Total CPU demand, busy engines (>= 0).
    eligible_fraction : float
        Share of ``total_busy`` that is zIIP-eligible, in [0, 1].
    ziips : int
        zIIPs available (>= 0).
    ziip_ceiling : float
        Utilisation ceiling of a zIIP, in (0, 1]: the zIIPs carry at most
        ``ziips * ziip_ceiling`` busy engines.

    Returns
    -------
    ZiipSplit
        ``gcp + ziip == total`` and ``ziip_on_gcp == eligible - ziip``; ``ziip_on_gcp > 0`` only
        when ``eligible > ziips * ziip_ceiling``.

    Raises
    ------
    ValueError
        Naming the argument, for a negative/non-finite demand, a fraction or ceiling out of
        range, or a negative / non-integer zIIP count.

    References
    ----------
    .. [1] z/OS RMF Report Analysis (SC34-2665), APPL% IIPCP.

    Examples
    --------
    >>> s = split_demand(2.0, 0.75, ziips=1, ziip_ceiling=1.0)
    >>> (s.gcp, s.ziip, s.ziip_on_gcp)
    (1.0, 1.0, 0.5)
    """
    total = float(total_busy)
    if not (total >= 0.0 and math.isfinite(total)):
        raise InputError("total_busy", f"total_busy must be finite and >= 0, got {total_busy!r}")
    f = _check_fraction("eligible_fraction", eligible_fraction, allow_zero=True)
    if isinstance(ziips, bool) or not isinstance(ziips, Integral) or int(ziips) < 0:
        raise InputError("ziips", f"ziips must be an int >= 0, got {ziips!r}")
    ziips = int(ziips)
    ceiling = _check_fraction("ziip_ceiling", ziip_ceiling, allow_zero=False)
    eligible = total * f
    ziip = min(eligible, ziips * ceiling)
    on_gcp = eligible - ziip
    return ZiipSplit(
        total=total,
        eligible=eligible,
        gcp=total - ziip,
        ziip=ziip,
        ziip_on_gcp=on_gcp,
        ziips=ziips,
        ziip_ceiling=ceiling,
    )


def ziips_required(eligible_busy: float, ceiling: float) -> int:
    """Smallest zIIP count that runs all eligible work within the utilisation ceiling.

    Parameters
    ----------
    eligible_busy : float
        zIIP-eligible demand, busy engines (>= 0).
    ceiling : float
        Utilisation ceiling of one zIIP, in (0, 1].

    Returns
    -------
    int
        ``ceil(eligible_busy / ceiling)`` (0 when nothing is eligible); a ratio within 1e-9 of
        an integer is not rounded up.

    Examples
    --------
    >>> ziips_required(1.7, 0.85)
    2
    """
    e = float(eligible_busy)
    if not (e >= 0.0 and math.isfinite(e)):
        raise InputError("eligible_busy", f"eligible_busy must be finite and >= 0, got {eligible_busy!r}")
    c = _check_fraction("ceiling", ceiling, allow_zero=False)
    if e == 0.0:
        return 0
    return max(1, math.ceil(e / c - _CEIL_TOLERANCE))
