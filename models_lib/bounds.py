"""A central CPU cost per transaction between published bounds, which keeps every published
sustained run sustainable.

Some sources publish no CPU figure, only that a configuration *carried* a rate on a known
capacity (a ceiling: cost <= engines / rate) and sentences that bound the cost from below.
CICS TG V9.0 (seed 004, Scenario 1) is the case in point: six configurations each ran "an
approximate transaction rate of 1780 TPS" on 3 dedicated GCPs and 1 zAAP, and "The single zAAP
was unable to satisfy all the eligible workload".  The second sentence is a floor: the
eligible work per second exceeded what one zAAP carries,

    eligible_fraction x cost x tps > specialty engines x zAAP ceiling,

so ``cost > specialty x ceiling / (eligible_fraction x tps)`` (:func:`floor_from_unabsorbed_eligible`).

Taking the ceiling itself as the central cost (the engine's former choice) makes every engine
of the published run exactly busy; with the engine's own zIIP/zAAP ceiling (eligible work
beyond ``ceiling`` busy zAAPs spills to CPs) the published configuration then comes out above
100 % CP, i.e. infeasible, although the source ran it sustained.  :func:`bounded_cost` instead

1. lowers the ceiling to the largest cost with which every published sustained run stays at or
   below ``cp_ceiling`` CP utilisation under the same split the engine uses
   (:func:`models_lib.ziip.split_demand`): the *sustainable ceiling*;
2. takes the highest floor;
3. returns the geometric mean of the two as the central cost.  With only bounds known, the
   geometric mean is the value whose worst-case ratio to the true cost, max(c / true,
   true / c), is smallest over the interval; the arithmetic midpoint would favour the upper
   end on a ratio scale.  Without a floor the central cost is the sustainable ceiling.

Units: cost in CP-seconds per transaction on the measured machine (one engine busy for one
second = 1 CP-second), rates in transactions/s, demand in busy engines.

References
----------
.. [1] "CICS Transaction Gateway for z/OS V9.0 Performance summary", IBM, 11 April 2014,
   Scenario 1 (Tables 1 and 2, Illustrations 1 and 2).
.. [2] D. A. Menasce, V. A. F. Almeida, L. W. Dowdy, "Performance by Design", Prentice Hall,
   2004: utilisation law U = X x D.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral
from typing import Any

from models_lib.inputs import CapacityBound, ConfigurationData, CostFloor
from models_lib.ziip import ZiipSplit, split_demand

__all__ = [
    "BoundedCost",
    "SustainedRun",
    "bounded_cost",
    "cost_floors",
    "carried_floor_note",
    "floor_from_unabsorbed_eligible",
    "floors_for_configuration",
    "sustainable_cost",
]


def _finite(name: str, value: float, *, minimum: float = 0.0, inclusive: bool = False) -> float:
    v = float(value)
    ok = v >= minimum if inclusive else v > minimum
    if not (math.isfinite(v) and ok):
        bound = ">=" if inclusive else ">"
        raise ValueError(f"{name} must be finite and {bound} {minimum:g}, got {value!r}")
    return v


def _fraction(name: str, value: float, *, allow_zero: bool) -> float:
    v = float(value)
    ok = (v >= 0.0 if allow_zero else v > 0.0) and v <= 1.0
    if not ok:
        raise ValueError(f"{name} must be in {'[0, 1]' if allow_zero else '(0, 1]'}, got {value!r}")
    return v


def _count(name: str, value: int, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or int(value) < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


@dataclass(frozen=True)
class SustainedRun:
    """A rate a source ran sustained on a known configuration of its measured machine.

    Parameters
    ----------
    tps : float
        Published rate, transactions/s (> 0).
    gcps : int
        General-purpose CPs of the LPAR (>= 1).
    specialty : int
        zIIPs or zAAPs of the LPAR (>= 0).
    eligible_fraction : float
        Share of the cost that is zIIP/zAAP-eligible, in [0, 1].
    label : str
        Where it is published (for messages).
    """

    tps: float
    gcps: int
    specialty: int
    eligible_fraction: float
    label: str = ""

    def __post_init__(self) -> None:
        _finite("tps", self.tps)
        _count("gcps", self.gcps, minimum=1)
        _count("specialty", self.specialty, minimum=0)
        _fraction("eligible_fraction", self.eligible_fraction, allow_zero=True)

    def published_ceiling_s(self) -> float:
        """Cost at which every engine of the run is exactly busy: (gcps + specialty) / tps."""
        return (self.gcps + self.specialty) / self.tps

    def split(self, cost_s: float, ziip_ceiling: float) -> ZiipSplit:
        """The engine's CP/specialty split of this run at ``cost_s`` CP-seconds per transaction."""
        busy = _finite("cost_s", cost_s, inclusive=True) * self.tps
        return split_demand(busy, self.eligible_fraction, self.specialty, ziip_ceiling)

    def cp_utilization(self, cost_s: float, ziip_ceiling: float) -> float:
        """CP utilisation (fraction) of this run at ``cost_s``, eligible overflow included."""
        return self.split(cost_s, ziip_ceiling).gcp / self.gcps

    def sustainable_ceiling_s(self, ziip_ceiling: float, cp_ceiling: float = 1.0) -> float:
        """Largest cost with which the run's CPs stay at or below ``cp_ceiling`` (fraction).

        CP demand is ``c x tps - min(e x c x tps, specialty x ziip_ceiling)``: linear with slope
        ``(1 - e) x tps`` while the specialty engines keep up, ``tps`` once they are short.
        """
        zc = _fraction("ziip_ceiling", ziip_ceiling, allow_zero=False)
        target = _fraction("cp_ceiling", cp_ceiling, allow_zero=False) * self.gcps
        capacity = self.specialty * zc
        short = (target + capacity) / self.tps  # the crossing if the specialty engines are short there
        if self.eligible_fraction * short * self.tps >= capacity:
            return short
        return target / ((1.0 - self.eligible_fraction) * self.tps)


def floor_from_unabsorbed_eligible(
    *, tps: float, specialty: int, eligible_fraction: float, ziip_ceiling: float
) -> float:
    """Lowest cost per transaction consistent with "the specialty engines could not absorb all
    eligible work" at ``tps``.

    Parameters
    ----------
    tps : float
        Rate of the run, transactions/s (> 0).
    specialty : int
        zIIPs/zAAPs of the run (>= 1).
    eligible_fraction : float
        Eligible share of the cost, in (0, 1].
    ziip_ceiling : float
        Busy fraction of a specialty engine beyond which eligible work spills to CPs, in (0, 1]
        (the engine's ceiling: with it, every cost above the floor reproduces the overflow).

    Returns
    -------
    float
        ``specialty x ziip_ceiling / (eligible_fraction x tps)``, CP-seconds per transaction
        (the cost is *above* it).

    Examples
    --------
    >>> round(floor_from_unabsorbed_eligible(tps=1780, specialty=1, eligible_fraction=0.5,
    ...                                      ziip_ceiling=1.0) * 1000, 4)
    1.1236
    """
    rate = _finite("tps", tps)
    engines = _count("specialty", specialty, minimum=1)
    e = _fraction("eligible_fraction", eligible_fraction, allow_zero=False)
    zc = _fraction("ziip_ceiling", ziip_ceiling, allow_zero=False)
    return engines * zc / (e * rate)


@dataclass(frozen=True)
class BoundedCost:
    """Central cost per transaction between a floor and the ceilings of sustained runs.

    Parameters
    ----------
    floor_s : float
        Highest published floor, CP-seconds per transaction (0 where none).
    published_ceiling_s : float
        Lowest published ceiling, CP-seconds per transaction (engines / rate of a run).
    sustainable_ceiling_s : float
        Largest cost with which every run stays at or below ``cp_ceiling`` CP utilisation.
    central_s : float
        The central cost, CP-seconds per transaction.
    ziip_ceiling : float
        Specialty-engine ceiling used in the split (fraction of one engine).
    cp_ceiling : float
        CP utilisation a run may reach and still count as sustained (fraction).
    runs : tuple of SustainedRun
        The published sustained runs.
    """

    floor_s: float
    published_ceiling_s: float
    sustainable_ceiling_s: float
    central_s: float
    ziip_ceiling: float
    cp_ceiling: float
    runs: tuple[SustainedRun, ...]

    def upper_s(self) -> float:
        """The effective upper bound: min(published ceiling, sustainable ceiling)."""
        return min(self.published_ceiling_s, self.sustainable_ceiling_s)

    def interval(self) -> tuple[float, float]:
        """(floor, effective upper bound), CP-seconds per transaction."""
        return self.floor_s, self.upper_s()

    def cp_utilizations(self, cost_s: float | None = None) -> tuple[float, ...]:
        """CP utilisation of every run at ``cost_s`` (default: the central cost), fractions."""
        c = self.central_s if cost_s is None else cost_s
        return tuple(r.cp_utilization(c, self.ziip_ceiling) for r in self.runs)

    def all_sustainable(self, cost_s: float | None = None) -> bool:
        """True when every run stays at or below ``cp_ceiling`` at ``cost_s`` (default: central)."""
        return all(u <= self.cp_ceiling * (1.0 + 1e-12) for u in self.cp_utilizations(cost_s))


def bounded_cost(
    *,
    runs: Sequence[SustainedRun],
    floors_s: Sequence[float] = (),
    ziip_ceiling: float,
    cp_ceiling: float = 1.0,
) -> BoundedCost:
    """Choose a central CPU cost per transaction inside [floor, ceiling] with which every
    published sustained run comes out sustainable.

    Parameters
    ----------
    runs : sequence of SustainedRun
        The runs the source carried sustained (at least one), all on the measured machine.
    floors_s : sequence of float, optional
        Published lower bounds, CP-seconds per transaction (each >= 0), e.g. from
        :func:`floor_from_unabsorbed_eligible`.
    ziip_ceiling : float
        Busy fraction of a zIIP/zAAP beyond which eligible work spills to CPs, in (0, 1] (the
        engine's ``max_utilization``).
    cp_ceiling : float, optional
        CP utilisation up to which a run counts as sustained, in (0, 1] (default 1.0: the run
        was carried, so its CPs were at most fully busy).

    Returns
    -------
    BoundedCost
        ``central_s`` = sqrt(floor x upper) with a floor, the upper bound without one; upper =
        min(published ceiling, sustainable ceiling).

    Raises
    ------
    ValueError
        Naming the argument: no runs, a negative or non-finite floor, a ceiling out of range, or
        a floor at or above the upper bound (the statements contradict each other).
    """
    if not runs:
        raise ValueError("runs must name at least one sustained run, got none")
    zc = _fraction("ziip_ceiling", ziip_ceiling, allow_zero=False)
    cpc = _fraction("cp_ceiling", cp_ceiling, allow_zero=False)
    floor = max((_finite("floors_s", f, inclusive=True) for f in floors_s), default=0.0)
    published = min(r.published_ceiling_s() for r in runs)
    sustainable = min(r.sustainable_ceiling_s(zc, cpc) for r in runs)
    upper = min(published, sustainable)
    if floor >= upper:
        raise ValueError(
            f"floors_s: the highest floor {floor * 1000:.4g} ms is not below the upper bound "
            f"{upper * 1000:.4g} ms: the published statements contradict each other"
        )
    central = math.sqrt(floor * upper) if floor > 0.0 else upper
    return BoundedCost(
        floor_s=floor,
        published_ceiling_s=published,
        sustainable_ceiling_s=sustainable,
        central_s=central,
        ziip_ceiling=zc,
        cp_ceiling=cpc,
        runs=tuple(runs),
    )


def cost_floors(
    configuration: str, statements: Sequence[tuple[str | None, Mapping[str, Any], int, str]]
) -> tuple[CostFloor, ...]:
    """The published floors that apply to ``configuration``, as records (no ceiling applied yet).

    Parameters
    ----------
    configuration : str
        The configuration slug.
    statements : sequence of (configuration or None, data, id, reference)
        ``bound`` statements of the path: ``cpu_per_tran_floor`` ones (``basis:
        eligible-not-absorbed``) and ``cpu_per_tran_order`` ones (``greater`` configurations cost
        more than ``than``, so ``than``'s floors are theirs too).

    Returns
    -------
    tuple of CostFloor
        The configuration's own floors, then those carried over (with the order's statement id).
    """
    own: dict[str, list[CostFloor]] = {}
    orders: list[tuple[Mapping[str, Any], int, str]] = []
    for config, data, sid, reference in statements:
        if data.get("quantity") == "cpu_per_tran_floor" and data.get("basis") == "eligible-not-absorbed" and config:
            engines = int(data.get("zaaps") or 0) + int(data.get("ziips") or 0)
            own.setdefault(config, []).append(
                CostFloor(float(data["tps"]), engines, float(data["eligible_fraction"]), (sid,), reference)
            )
        elif data.get("quantity") == "cpu_per_tran_order" and data.get("relation") == "greater":
            orders.append((data, sid, reference))
    floors = list(own.get(configuration, ()))
    for order, sid, order_reference in orders:
        if configuration in (order.get("greater") or ()):
            floors.extend(
                CostFloor(
                    f.tps,
                    f.specialty,
                    f.eligible_fraction,
                    (*f.statement_ids, sid),
                    f.reference,
                    order_reference or "the source",
                )  # fmt: skip
                for f in own.get(str(order.get("than")), ())
            )
    return tuple(floors)


def floors_for_configuration(
    configuration: str, statements: Sequence[tuple[str | None, Mapping[str, Any]]], *, ziip_ceiling: float
) -> tuple[float, ...]:
    """Cost floors of ``configuration`` from stored ``bound`` statements, CP-seconds per transaction.

    Parameters
    ----------
    configuration : str
        The configuration slug.
    statements : sequence of (configuration or None, data)
        ``bound`` statements of the path: ``cpu_per_tran_floor`` ones (``basis:
        eligible-not-absorbed``, with ``tps``, ``zaaps`` or ``ziips`` and ``eligible_fraction``)
        and ``cpu_per_tran_order`` ones (``greater``: configurations whose cost is above that of
        ``than``), whose floors carry over to the greater configurations.
    ziip_ceiling : float
        The engine's zIIP/zAAP ceiling, in (0, 1]; each floor is recomputed with it.

    Returns
    -------
    tuple of float
        Every floor that applies (empty: none published).
    """
    own: dict[str, list[float]] = {}
    orders: list[Mapping[str, Any]] = []
    for config, data in statements:
        if data.get("quantity") == "cpu_per_tran_floor" and data.get("basis") == "eligible-not-absorbed" and config:
            engines = int(data.get("zaaps") or 0) + int(data.get("ziips") or 0)
            own.setdefault(config, []).append(
                floor_from_unabsorbed_eligible(
                    tps=data["tps"],
                    specialty=engines,
                    eligible_fraction=data["eligible_fraction"],
                    ziip_ceiling=ziip_ceiling,
                )
            )
        elif data.get("quantity") == "cpu_per_tran_order" and data.get("relation") == "greater":
            orders.append(data)
    floors = list(own.get(configuration, ()))
    for order in orders:
        if configuration in (order.get("greater") or ()):
            floors.extend(own.get(str(order.get("than")), ()))
    return tuple(floors)


def sustainable_cost(
    cfg: ConfigurationData, sustained: Sequence[CapacityBound], lower: float, ziip_ceiling: float
) -> tuple[float, float, float, str, tuple[int, ...]] | None:
    """(floor, central, upper, the sentence, floor statement ids) where a sustained run had
    zIIPs/zAAPs, else ``None``.

    The upper bound engines / rate makes every engine of such a run exactly busy; with the
    engine's specialty ceiling the eligible work then spills and the run comes out above 100 %
    CP, although the source ran it sustained.  :func:`models_lib.bounds.bounded_cost` lowers the
    upper bound until every run is sustainable and takes the geometric mean with the highest
    published floor (CICS TG V9.0 Scenario 1: "The single zAAP was unable to satisfy all the
    eligible workload") as the central cost.
    """
    elig = cfg.eligibility
    if elig is None or not any(b.ziips for b in sustained):
        return None
    runs = [SustainedRun(b.tps, b.gcps, b.ziips, elig.fraction, b.reference) for b in sustained]
    floors = [
        f
        for f in cfg.cost_floors
        if any(math.isclose(f.tps, b.tps, rel_tol=1e-9) and f.specialty == b.ziips for b in sustained)
    ]
    values = [
        floor_from_unabsorbed_eligible(
            tps=f.tps, specialty=f.specialty, eligible_fraction=f.eligible_fraction, ziip_ceiling=ziip_ceiling
        )
        for f in floors
    ]
    b = bounded_cost(runs=runs, floors_s=[lower, *values], ziip_ceiling=ziip_ceiling)
    low, high = b.interval()
    floor_text = (
        f"the highest published floor {low * 1000:.4g} ms ({floors[values.index(max(values))].reference}: the "
        f"specialty engines could not absorb all eligible work at {floors[0].tps:g} TPS, so cost > engines x "
        f"{ziip_ceiling:g} / (eligible share x rate))"
        if values and max(values) >= lower
        else f"the published lower bound {low * 1000:.4g} ms"
    )
    choice = (
        f"Central value = {b.central_s * 1000:.4g} ms, the geometric mean of {floor_text} and "
        f"{high * 1000:.4g} ms, the largest cost with which every published sustained run stays at or below "
        f"100 % CP under the engine's split ({ziip_ceiling:g} specialty-engine ceiling; the published upper bound "
        f"{b.published_ceiling_s * 1000:.4g} ms would put them above it)"
        if low > 0.0
        else f"Central value = {high * 1000:.4g} ms, the largest cost with which every published sustained run "
        f"stays at or below 100 % CP under the engine's split (the published upper bound "
        f"{b.published_ceiling_s * 1000:.4g} ms would put them above it)"
    )
    ids = tuple(i for f in floors for i in f.statement_ids)
    binding = floors[values.index(max(values))] if values and max(values) >= lower else None
    if binding is not None and binding.carried_from is not None:
        choice += carried_floor_note(binding.carried_from)
    return low, b.central_s, high, choice, ids


def carried_floor_note(reference: str) -> str:
    """Why a configuration published only as costing more than another of the same run gets that
    one's central cost: the order carries the cheaper one's floor over, and nothing published
    separates the two (CICS TG V9.0 Scenario 1: IPIC's "total path length is slightly longer"
    than EXCI's, and Illustration 2, which had the costs, is lost).  ``reference``: where the
    order is stated."""
    return (
        f". This configuration is published only as costing more per transaction than a configuration measured in "
        f"the same run ({reference}), with no figure for how much: that configuration's floor is its floor too, and "
        f"with the same published sustained run as the ceiling both get the same central CPU per transaction; its "
        f"true cost is higher by an amount the source does not give, and none is invented"
    )
