"""N clients with a think time (a terminal-driven system) on one LPAR, solved by exact MVA.

The network is the estimate's own, taken at a rate ``tps``:
:meth:`models_lib.workload.WorkloadModel.closed_network`, which calls
:func:`models_lib.sizing.closed_network` with the engine's split of the demand at ``tps``.  Per
transaction on the target LPAR (``cps`` CPs, ``ziips`` zIIPs):

* ``cp``: ``cps`` servers with the GCP CPU per transaction, eligible work that overflows the
  zIIPs' ceiling included; the cost model's fixed busy CPs are spread over the transactions at
  ``tps`` (demand ``b + a / tps``), as in the estimate.
* ``ziip``: with ``ziips`` > 0, ``ziips`` servers with the eligible work the zIIPs carry at
  ``tps``.
* ``software``: the response model's software station (m servers of s seconds), if it has one.
* ``fixed``: a delay of the response model's load-independent part D, where the source
  publishes response times.  Without it the response time is unknown and the residence at the
  queues is its lower bound.

One exact solve at the largest population gives throughput and response time for every
n = 1..N (:func:`models_lib.queueing.mva`: normalising-constant convolution, exact also for the
multi-server stations [1]_).  Two more solves at the low and high end of the CPU cost range
(the 95 % prediction interval, or the published bounds) give the throughput range
(:func:`cost_scales`).

Units: rates in transactions/s, times in s unless the name says ms, demands in engine-seconds
per transaction.

References
----------
.. [1] M. Reiser and S. S. Lavenberg, "Mean-value analysis of closed multichain queuing
   networks", J. ACM 27(2), 1980; J. P. Buzen, Comm. ACM 16(9), 1973.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from models_lib.queueing import MVAResult, Station, mva
from models_lib.workload import WorkloadModel

__all__ = ["ClosedNetwork", "closed_network_at", "clients_ziips", "cost_scales", "network_rate"]

#: Fixed-point steps and tolerance of the rate the network is taken at (:func:`network_rate`).
RATE_STEPS = 60
RATE_RTOL = 1e-10

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class ClosedNetwork:
    """The engine's closed network of one LPAR at one rate and one cost scale.

    Attributes
    ----------
    cps : int
        General-purpose CPs of the LPAR.
    ziips : int
        Specialty engines the network has (the engine's split at ``tps``).
    tps : float
        Rate the network is taken at, transactions/s.
    stations : tuple of Station
        The stations (:func:`models_lib.sizing.closed_network`); demands in s per transaction.
    """

    cps: int
    ziips: int
    tps: float
    stations: tuple[Station, ...]

    @property
    def fixed_s(self) -> float | None:
        """The load-independent delay, s (``None`` without published response times)."""
        return next((s.demand for s in self.stations if s.kind == "delay"), None)

    def solve(self, clients: int, think_time_s: float) -> MVAResult:
        """Exact MVA for 1..``clients`` clients with think time ``think_time_s`` (s)."""
        return mva(list(self.stations), clients, think_time=think_time_s)

    def demand(self, name: str) -> float:
        """Demand of the station ``name`` (s per transaction), 0 where the network has none."""
        return next((s.demand for s in self.stations if s.name == name), 0.0)

    def gcp_utilization(self, throughput: FloatArray) -> FloatArray:
        """Utilisation law, U = X D / c (the fixed load is spread over the transactions at ``tps``,
        so this is the LPAR's real GCP busy where X = ``tps``)."""
        return np.asarray(throughput * self.demand("cp") / self.cps, dtype=np.float64)

    def ziip_utilization(self, throughput: FloatArray) -> FloatArray | None:
        """Utilisation law on the specialty engines (``None`` without any)."""
        if not self.ziips:
            return None
        return np.asarray(throughput * self.demand("ziip") / self.ziips, dtype=np.float64)


def closed_network_at(wm: WorkloadModel, *, cps: int, ziips: int, tps: float, scale: float = 1.0) -> ClosedNetwork:
    """The estimate's closed network of ``wm`` on ``cps`` CPs and ``ziips`` specialty engines,
    taken at the rate ``tps`` (transactions/s, finite and > 0), every CPU cost times ``scale``.

    Raises
    ------
    ValueError
        Naming ``tps`` when it is not finite and positive; from the workload model when it has
        no response model.
    """
    if not (tps > 0.0 and math.isfinite(tps)):
        raise ValueError(f"tps: the rate the network is taken at must be finite and > 0, got {tps!r}")
    stations, split = wm.closed_network(tps, cps, ziips, scale=scale)
    return ClosedNetwork(cps=cps, ziips=split.engines, tps=tps, stations=tuple(stations))


def network_rate(wm: WorkloadModel, *, cps: int, ziips: int, clients: int, think_time_s: float) -> float:
    """The rate the clients drive when the network is taken at that same rate, transactions/s.

    The largest fixed point of T = X_N(T), from T = N / Z down (X_N rises with T, so the
    iteration falls monotonically onto it).  Without fixed load the network does not depend on
    T beyond the specialty-engine split, and one or two steps suffice.
    """
    t = clients / think_time_s if think_time_s > 0 else float(wm.reference["tps"])
    for _ in range(RATE_STEPS):
        x = float(closed_network_at(wm, cps=cps, ziips=ziips, tps=t).solve(clients, think_time_s).throughput)
        if abs(x - t) <= RATE_RTOL * t:
            return x
        t = x
    return t


def clients_ziips(wm: WorkloadModel, *, cps: int, ziips: int | None, clients: int, think_time_s: float) -> int:
    """Specialty engines of the LPAR: ``ziips`` as given, else what the estimate sizes at the most
    the clients can drive (``clients`` / ``think_time_s``); never above the generation's ratio."""
    if ziips is None:
        top = clients / think_time_s if think_time_s > 0 else float(wm.reference["tps"])
        ziips = wm.ziips_for(top, cps)
    allowed = wm.max_engines(cps)
    return ziips if allowed is None else min(ziips, allowed)


def cost_scales(wm: WorkloadModel) -> tuple[float, float]:
    """(low, high) of the CPU cost range over the central cost at the reference rate: the
    factors the throughput range's two networks scale every CPU cost by."""
    t_ref = float(wm.reference["tps"])
    central = wm.native_busy(t_ref) / t_ref
    low_s, high_s = wm.cost_range_s
    return (low_s / central, high_s / central) if central > 0 else (1.0, 1.0)
