"""The rest of the LPAR beside the CICS regions, from what a source publishes about both.

A source that publishes only the CPU of the CICS address spaces (RMF workload report) sizes
the CICS regions, not the LPAR a buyer pays for: z/OS, TCP/IP, RMF, the WLM and monitor
address spaces and the uncaptured time of the LPAR come on top.  Where the same source also
publishes a figure for more than CICS at one of its measured rates, the rest of the LPAR is
stated as an *overhead*: a share of the CICS CPU, so that

    LPAR CPU = CICS CPU x (1 + overhead).

REDP-5320 (CICS TS V5.3 on z13, 18 dedicated CPs, 174,624.3 TPS) publishes two such figures at
its top rate:

* the RMF report by WLM policy (Figure 14, "the total MOBILE CPU for this system across all
  address spaces"): APPL% CP 1669.7, beside the CICSCPU workload's 1499.4 (Figure 10).  APPL%
  is *captured* time of the service classes: it leaves out the uncaptured time of the LPAR, so
  it gives the smallest overhead, the low end;
* "the LPAR was already running at 97%": LPAR busy of 18 CPs (RMF CPU activity), i.e. the
  whole LPAR, captured or not.  It is the figure a buyer buys, so it gives the central
  overhead; printed to whole percent, so it stands for 96.5 % .. 97.5 % and its upper end
  gives the high end of the range.

The range therefore covers both published figures.

Units: CPU in percent of one CP (RMF APPL%, 100 = one CP busy), LPAR busy in percent of the
LPAR's CPs; the overhead is a dimensionless share of the CICS CPU.

References
----------
.. [1] J. Burgess, I. Mitchell, C. Moxey, "IBM CICS Performance Series: CICS TS V5.3 Benchmark
   on IBM z13", IBM Redpaper REDP-5320: Table 1, Figure 10 (p. 14), Figure 14, section "CICS
   TS with performance class monitoring".
.. [2] IBM, "z/OS RMF Report Analysis", SC34-2665: Workload Activity report (APPL%), CPU
   Activity report (LPAR busy); captured and uncaptured CPU time.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["LparOverhead", "lpar_overhead_from_published", "lpar_overhead_from_statement"]


@dataclass(frozen=True)
class LparOverhead:
    """The rest of the LPAR as a share of the CICS CPU, with the figures it comes from.

    Parameters
    ----------
    cics_cpu_pct : float
        CPU of the CICS address spaces, percent of one CP (RMF workload APPL% CP).
    policy_cpu_pct : float
        CPU of every service class of the system, percent of one CP (RMF report by policy).
    lpar_busy_pct : float
        LPAR busy as printed, percent of the LPAR's CPs.
    lpar_busy_half_step : float
        Half the printing step of ``lpar_busy_pct``, percentage points (0.5 for a whole
        percent): the busy lies within ``lpar_busy_pct`` +/- this.
    lpar_cps : int
        CPs of the LPAR.
    central : float
        Overhead from the LPAR busy as printed, share of the CICS CPU.
    low : float
        Lowest overhead the published figures allow (the captured policy total).
    high : float
        Highest overhead the published figures allow (the LPAR busy's printed upper end).
    """

    cics_cpu_pct: float
    policy_cpu_pct: float
    lpar_busy_pct: float
    lpar_busy_half_step: float
    lpar_cps: int
    central: float
    low: float
    high: float

    def policy_overhead(self) -> float:
        """Overhead from the policy total: (policy - CICS) / CICS, share of the CICS CPU."""
        return self.policy_cpu_pct / self.cics_cpu_pct - 1.0

    def lpar_cpu_pct(self) -> float:
        """LPAR CPU as printed, percent of one CP: busy% x CPs."""
        return self.lpar_busy_pct * self.lpar_cps

    def capture_ratio(self) -> float:
        """Captured share of the LPAR busy: policy APPL% / LPAR CPU (fraction)."""
        return self.policy_cpu_pct / self.lpar_cpu_pct()

    def lpar_cpu(self, cics_cpu: float) -> tuple[float, float, float]:
        """LPAR CPU for a CICS CPU, in the unit of ``cics_cpu``: (central, low, high)."""
        value = float(cics_cpu)
        if not math.isfinite(value) or value < 0.0:
            raise ValueError(f"cics_cpu must be finite and >= 0, got {cics_cpu!r}")
        return value * (1.0 + self.central), value * (1.0 + self.low), value * (1.0 + self.high)

    def covers(self, overhead: float) -> bool:
        """True when ``overhead`` (share of the CICS CPU) lies in [low, high]."""
        return self.low <= overhead <= self.high


def _positive(name: str, value: float) -> float:
    v = float(value)
    if not math.isfinite(v) or v <= 0.0:
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")
    return v


def lpar_overhead_from_published(
    *,
    cics_cpu_pct: float,
    policy_cpu_pct: float,
    lpar_busy_pct: float,
    lpar_cps: int,
    lpar_busy_half_step: float = 0.5,
) -> LparOverhead:
    """State the rest of the LPAR as a share of the CICS CPU, from one measured rate.

    Parameters
    ----------
    cics_cpu_pct : float
        CPU of the CICS address spaces at that rate, percent of one CP (> 0).
    policy_cpu_pct : float
        CPU of all service classes at the same rate, percent of one CP (>= ``cics_cpu_pct``).
    lpar_busy_pct : float
        LPAR busy at the same rate as printed, percent of the LPAR's CPs, in (0, 100].
    lpar_cps : int
        CPs of the LPAR (>= 1).
    lpar_busy_half_step : float, optional
        Half the printing step of ``lpar_busy_pct``, percentage points (default 0.5: the
        source prints a whole percent), >= 0.

    Returns
    -------
    LparOverhead
        ``central`` from the LPAR busy as printed; ``low`` the smaller of the policy overhead
        and the busy's lower end; ``high`` the busy's upper end (capped at 100 % busy).

    Raises
    ------
    ValueError
        Naming the argument: a value out of range, a policy total below the CICS CPU, or an
        LPAR busy (at its upper end) below the captured policy total.
    """
    cics = _positive("cics_cpu_pct", cics_cpu_pct)
    policy = _positive("policy_cpu_pct", policy_cpu_pct)
    busy = _positive("lpar_busy_pct", lpar_busy_pct)
    if busy > 100.0:
        raise ValueError(f"lpar_busy_pct must be <= 100, got {lpar_busy_pct!r}")
    if isinstance(lpar_cps, bool) or not isinstance(lpar_cps, int) or lpar_cps < 1:
        raise ValueError(f"lpar_cps must be a whole number >= 1, got {lpar_cps!r}")
    step = float(lpar_busy_half_step)
    if not math.isfinite(step) or step < 0.0:
        raise ValueError(f"lpar_busy_half_step must be finite and >= 0, got {lpar_busy_half_step!r}")
    if policy < cics:
        raise ValueError(
            f"policy_cpu_pct ({policy_cpu_pct!r}) is below cics_cpu_pct ({cics_cpu_pct!r}): the policy "
            "total covers every service class, CICS included"
        )
    busy_high = min(100.0, busy + step)
    if busy_high * lpar_cps < policy:
        raise ValueError(
            f"lpar_busy_pct ({lpar_busy_pct!r} % of {lpar_cps} CPs) is below the captured policy total "
            f"({policy_cpu_pct!r} % of one CP)"
        )
    central = busy * lpar_cps / cics - 1.0
    busy_low = max(0.0, busy - step)
    low = min(policy / cics - 1.0, busy_low * lpar_cps / cics - 1.0)
    high = busy_high * lpar_cps / cics - 1.0
    return LparOverhead(
        cics_cpu_pct=cics,
        policy_cpu_pct=policy,
        lpar_busy_pct=busy,
        lpar_busy_half_step=step,
        lpar_cps=lpar_cps,
        central=central,
        low=max(0.0, low),
        high=high,
    )


def lpar_overhead_from_statement(data: Mapping[str, Any]) -> LparOverhead:
    """The overhead of a stored ``lpar_overhead`` statement, recomputed from its ``inputs``.

    Parameters
    ----------
    data : mapping
        The statement's ``data`` (``quantity: lpar_overhead`` and ``inputs`` with the keyword
        arguments of :func:`lpar_overhead_from_published`).

    Raises
    ------
    ValueError
        Naming ``data`` when it is not an ``lpar_overhead`` statement or its stored ``value``,
        ``low`` or ``high`` (rounded to 5 decimals) disagree with the recomputation.
    """
    if data.get("quantity") != "lpar_overhead" or not isinstance(data.get("inputs"), Mapping):
        raise ValueError(f"data must be an lpar_overhead statement with inputs, got quantity {data.get('quantity')!r}")
    overhead = lpar_overhead_from_published(**dict(data["inputs"]))
    for key, value in (("value", overhead.central), ("low", overhead.low), ("high", overhead.high)):
        stored = data.get(key)
        if stored is not None and abs(float(stored) - value) > 5e-6:
            raise ValueError(f"data {key!r} {stored!r} disagrees with the inputs ({value:.5f})")
    return overhead
