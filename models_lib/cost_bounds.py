"""The cost basis from published throughput bounds (and a throughput table).

Where the source only publishes throughput observed on a known capacity
(:class:`~models_lib.inputs.CapacityBound`), CPU per transaction is bounded: ``<= engines /
tps`` for a sustained rate, ``> engines / tps`` for an exhausted one.  The central value is then
the **upper bound** (conservative: the engine never promises more capacity than a published run
demonstrated), and the interval runs from the lower bound (0 where none is published) to the
upper bound.  Where the source also publishes a table of throughput against clients at a think
time, measured on the capacity of the sustained bound (z/OS Connect EE V3.0, section 7.1), the
upper bound is tightened to the largest cost with which the closed network reproduces every row
(:func:`cost_from_throughput_rows`, :data:`THROUGHPUT_TABLE_TOLERANCE`); the reported range
keeps the published bounds.

References
----------
.. [1] M. Reiser and S. S. Lavenberg, "Mean-value analysis of closed multichain queuing
   networks", J. ACM 27(2), 1980, pp. 313-322.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from numbers import Integral

from models_lib.answer import SizingWarning
from models_lib.bounds import sustainable_cost
from models_lib.checks import InputError, opt_int, pos_float
from models_lib.cost_basis import Basis
from models_lib.inputs import CapacityBound, ConfigurationData
from models_lib.queueing import Station, mva

__all__ = ["THROUGHPUT_TABLE_TOLERANCE", "BoundsCost", "bounds_cost", "bytes_text", "cost_from_throughput_rows"]

#: Relative shortfall allowed between a published throughput row and the closed network that
#: reproduces it, when a throughput table tightens a CPU bound: 0.01 (an assumption).
#:
#: The z/OS Connect EE V3.0 table (section 7.1) prints the paced targets N / Z = 200, 400, ...,
#: 1000 TPS and says each run "was maintained at" that rate.  A closed loop runs at
#: X = N / (Z + R) and can only fall short of N / Z, so the tolerance is one-sided.  1 % is
#: chosen because (a) the table already rounds a shortfall of that size away on its lightest
#: row: at the resulting cost (4.26 ms) the CPU service alone puts 100 clients at 198.3 TPS
#: (-0.85 %), printed "200", so 1 % asks no more precision of the 1000-TPS row than the table
#: shows on the 200-TPS one; (b) it is half the engine's 2 % closed-network tolerance, so a
#: sizing of the published runs reproduces them without a ``clients-limit-throughput``
#: warning and with margin; (c) where a rate was not kept the document says so in its own
#: section (12, 256K: "the system ran out of CPU"), so the 3.9 % shortfall that the published
#: bound gives at 500 clients (961 TPS) is not what "maintained" describes.  The cost is
#: sensitive to this number, because X >= (1 - tol) N / Z caps the response time at
#: R <= Z tol / (1 - tol) (5.05 ms here) whatever the capacity: 0.5 % gives 2.48 ms, 1 %
#: 4.26 ms, 2 % 5.42 ms (6 CPs, Z = 0.5 s; see docs/models.md).
THROUGHPUT_TABLE_TOLERANCE = 0.01


@dataclass(frozen=True)
class BoundsCost:
    """CPU per transaction from bounds, engine-seconds: ``lower`` <= ``central`` <= ``high``,
    on ``from_cps`` CPs (``from_specialty`` specialty engines beside them: the measured LPAR's
    total is rated by the MP effect), with the notes that hold at every rate.

    ``measured`` is the payload range (bytes) of the bounds used; ``outside``: the payload asked
    for is outside every bound's range.
    """

    lower: float
    central: float
    high: float
    from_cps: int
    cost_is_upper_bound: bool
    statements: tuple[int, ...]
    assumptions: tuple[str, ...]
    warnings: tuple[SizingWarning, ...]
    measured: tuple[float, float]
    outside: bool
    from_specialty: int = 0

    def at(
        self, tps: float, notes: tuple[tuple[SizingWarning, ...], tuple[str, ...], tuple[int, ...]] | None = None
    ) -> Basis:
        """Native demand at ``tps`` transactions/s (busy engines), with ``notes`` (warnings,
        assumptions, statements) in place of the bounds' own where given."""
        warnings, assumptions, statements = (
            (self.warnings, self.assumptions, self.statements) if notes is None else notes
        )
        return Basis(
            component="lpar",
            total=self.central * tps,
            low=self.lower * tps,
            high=self.high * tps,
            intercept=0.0,
            slope=self.central,
            from_cps=self.from_cps,
            components={"lpar": self.central * tps},
            statements=statements,
            model=None,
            assumptions=assumptions,
            warnings=warnings,
            cost_is_upper_bound=self.cost_is_upper_bound,
        )


def _bound_range(b: CapacityBound) -> tuple[float, float]:
    lo = 0.0 if b.response_bytes_min is None else float(b.response_bytes_min)
    hi = math.inf if b.response_bytes_max is None else float(b.response_bytes_max)
    return lo, hi


def _select_bounds(
    bounds: Sequence[CapacityBound], payload: int | None
) -> tuple[list[CapacityBound], str | None, bool]:
    """Bounds that apply to ``payload``; (bounds, note, payload outside every bound range)."""
    groups: dict[tuple[float, float], list[CapacityBound]] = {}
    for b in bounds:
        groups.setdefault(_bound_range(b), []).append(b)
    if payload is None:
        key = min(groups, key=lambda k: (k[0], k[1]))
        lo, hi = key
        if lo == 0.0 and hi == math.inf:
            return groups[key], None, False
        return (
            groups[key],
            f"payload not given: the bounds measured at {bytes_text(lo, hi)} are used",
            False,
        )
    inside = [g for k, g in groups.items() if k[0] <= payload <= k[1]]
    if inside:
        return [b for g in inside for b in g], None, False

    def distance(k: tuple[float, float]) -> float:
        edge = k[0] if payload < k[0] else k[1]
        return abs(math.log(payload / max(edge, 1.0)))

    key = min(groups, key=lambda k: (distance(k), -k[1]))
    return groups[key], None, True


def bytes_text(lo: float, hi: float) -> str:
    if lo == hi:
        return f"{int(lo)} bytes"
    return f"{int(lo)}-{'open' if hi == math.inf else int(hi)} bytes"


def cost_from_throughput_rows(
    rows: Sequence[tuple[int, float]],
    think_time_s: float,
    servers: int,
    upper: float,
    tolerance: float = THROUGHPUT_TABLE_TOLERANCE,
) -> float:
    """Largest CPU per transaction with which a closed network reproduces published rows.

    The network is the only station known for a bounds-only path: ``servers`` CPs (one
    ``servers``-server queue of demand ``D``) and ``clients`` terminals thinking
    ``think_time_s``; no fixed delay, no other station.  Its throughput X(N; D), solved exactly
    by :func:`models_lib.queueing.mva`, falls as ``D`` grows, so the set of costs with
    ``X(N; D) >= (1 - tolerance) * tps`` for every row ``(N, tps)`` is an interval [0, D*];
    D* is found by bisection on ``D`` in (0, ``upper``].

    Parameters
    ----------
    rows : sequence of (int, float)
        Published (clients, transactions/s) pairs.
    think_time_s : float
        Think time of the rows, s (>= 0).
    servers : int
        CPs of the LPAR the rows were measured on (>= 1).
    upper : float
        Published upper bound on the cost, CP-seconds per transaction (> 0); the result never
        exceeds it.
    tolerance : float
        Allowed relative shortfall of the network below each row, in [0, 1); default
        :data:`THROUGHPUT_TABLE_TOLERANCE`.

    Returns
    -------
    float
        D*, CP-seconds per transaction: ``upper`` when the network reproduces every row at
        ``upper``; else the largest cost (to a relative 1e-10 of ``upper``, from below) that
        does; ``nan`` when no cost does (a row above what the clients can drive at zero cost,
        N / Z, by more than the tolerance).

    Raises
    ------
    ValueError
        Naming the argument, for an empty ``rows``, a bad row, ``think_time_s``, ``servers``,
        ``upper`` or ``tolerance``.

    References
    ----------
    .. [1] M. Reiser and S. S. Lavenberg, J. ACM 27(2), 1980 (exact MVA); Menasce, Almeida and
       Dowdy (2004), interactive response-time law X = N / (R + Z).
    """
    if not rows:
        raise InputError("rows", "rows must not be empty")
    checked: list[tuple[int, float]] = []
    for row in rows:
        n, x = row
        if isinstance(n, bool) or not isinstance(n, Integral) or int(n) < 1:
            raise InputError("rows", f"rows: clients must be an int >= 1, got {row!r}")
        checked.append((int(n), pos_float("rows: tps", x)))
    think = pos_float("think_time_s", think_time_s, allow_zero=True)
    c = opt_int("servers", servers, 1)
    assert c is not None
    cap = pos_float("upper", upper)
    tol = pos_float("tolerance", tolerance, allow_zero=True)
    if tol >= 1.0:
        raise InputError("tolerance", f"tolerance must be in [0, 1), got {tolerance!r}")
    return _cost_from_rows(tuple(sorted(checked)), think, c, cap, tol)


# Sizing calls this with the same few arguments again and again (curves, batches, jobs): one
# bisection is ~40 exact MVA solves (~10 ms), a cache hit is free.
@lru_cache(maxsize=64)
def _cost_from_rows(rows: tuple[tuple[int, float], ...], think: float, servers: int, upper: float, tol: float) -> float:
    def reproduces(demand: float) -> bool:
        model = _row_throughputs(tuple(n for n, _ in rows), think, servers, demand)
        return all(m >= (1.0 - tol) * x for m, (_, x) in zip(model, rows, strict=True))

    # At D -> 0 the network runs at N / Z (or without limit when Z = 0).
    if think > 0.0 and any(n / think < (1.0 - tol) * x for n, x in rows):
        return math.nan
    if reproduces(upper):
        return upper
    lo, hi = 0.0, upper
    while hi - lo > 1e-10 * upper:
        mid = 0.5 * (lo + hi)
        if reproduces(mid):
            lo = mid
        else:
            hi = mid
    return lo


@lru_cache(maxsize=256)
def _row_throughputs(clients: tuple[int, ...], think: float, servers: int, demand: float) -> tuple[float, ...]:
    """X(N), transactions/s, of ``servers`` CPs of ``demand`` s and think time ``think`` s, at
    each N of ``clients``: one exact MVA solve at the largest N gives the whole curve."""
    curve = mva([Station("cp", demand, servers=servers)], max(clients), think_time=think).throughput_curve
    assert curve is not None
    return tuple(float(curve[n - 1]) for n in clients)


def _table_bound(cfg: ConfigurationData, sustained: Sequence[CapacityBound]) -> CapacityBound | None:
    """The sustained bound that restates the top row of the published throughput table.

    The table's rows were measured on that bound's capacity and payload range (z/OS Connect EE
    V3.0: 500 clients at 0.5 s ran 1000 TPS on 6 GCPs for 1K-128K responses); only such a
    bound ties the table to a capacity and a payload range.  A bound that matches a lower row
    only (256K: 300 clients, 600 TPS) is another experiment.  ``None`` without such a bound, or
    when the bound's engines include zIIPs (the network would need their split).
    """
    if not cfg.throughput_rows or cfg.think_time_s is None:
        return None
    top_clients, top_tps = max(cfg.throughput_rows)
    for b in sustained:
        if (
            b.ziips == 0
            and b.engines == b.gcps
            and b.clients == top_clients
            and math.isclose(b.tps, top_tps, rel_tol=1e-12)
            and b.think_time_s is not None
            and math.isclose(b.think_time_s, cfg.think_time_s, rel_tol=1e-12)
        ):
            return b
    return None


def _bound_texts(upper_b: CapacityBound | None, lower_b: CapacityBound | None) -> list[str]:
    parts = []
    if upper_b is not None:
        upper = upper_b.engines / upper_b.tps
        parts.append(
            f"<= {upper_b.engines}/{upper_b.tps:g} = {upper * 1000:.4g} ms "
            f"(sustained {upper_b.tps:g} TPS on {upper_b.engines} engines, {upper_b.reference})"
        )
    if lower_b is not None:
        lower = lower_b.engines / lower_b.tps
        parts.append(
            f"> {lower_b.engines}/{lower_b.tps:g} = {lower * 1000:.4g} ms "
            f"(CPU exhausted before {lower_b.tps:g} TPS on {lower_b.engines} engines, "
            f"{lower_b.reference})"
        )
    return parts


def bounds_cost(cfg: ConfigurationData, payload: int | None, ziip_ceiling: float = 1.0) -> BoundsCost:
    """The cost per transaction from the bounds that apply to ``payload`` (bytes).

    Where a sustained run had specialty engines, the central cost lies between the published
    floors and the largest cost with which every such run is sustainable under the engine's
    split at ``ziip_ceiling`` (:func:`models_lib.bounds.sustainable_cost`); otherwise it is the upper bound.
    """
    chosen, note, outside = _select_bounds(cfg.bounds, payload)
    sustained = [b for b in chosen if b.outcome == "sustained"]
    exhausted = [b for b in chosen if b.outcome == "exhausted"]
    upper_b = min(sustained, key=lambda b: b.engines / b.tps) if sustained else None
    lower_b = max(exhausted, key=lambda b: b.engines / b.tps) if exhausted else None
    upper = None if upper_b is None else upper_b.engines / upper_b.tps
    lower = 0.0 if lower_b is None else lower_b.engines / lower_b.tps
    ref_b = upper_b or lower_b
    assert ref_b is not None
    parts = _bound_texts(upper_b, lower_b)
    assumptions: list[str] = []
    if upper is None:
        central = lower
        high = lower
        choice = "Only a lower bound is published: the central value is that lower bound (optimistic)"
    else:
        if lower > upper:
            assumptions.append(
                f"published bounds conflict (lower {lower * 1000:.4g} ms > upper "
                f"{upper * 1000:.4g} ms): the lower bound is ignored"
            )
            lower = 0.0
        central, high = upper, upper
        choice = (
            "Central value = the upper bound (conservative: no more capacity is assumed than a "
            "published run demonstrated)"
        )
    statements = [b.statement_id for b in (upper_b, lower_b) if b is not None]
    held = None if upper is None else sustainable_cost(cfg, sustained, lower, ziip_ceiling)
    if held is not None:
        lower, central, high, choice, floor_ids = held
        statements.extend(floor_ids)
    table_b = None if outside else _table_bound(cfg, sustained)
    if table_b is not None and upper is not None:
        tightened = _tighten_with_table(cfg, table_b, upper, lower)
        if tightened is not None:
            central, choice, table_text = tightened
            assumptions.append(table_text)
            statements.append(table_b.statement_id)
            if cfg.throughput_statement_id is not None:
                statements.append(cfg.throughput_statement_id)
    warning = SizingWarning(
        "bounds-only",
        f"{cfg.path}/{cfg.configuration} publishes no CPU measurements; CPU per transaction "
        f"(whole LPAR, native machine) is bounded: {'; '.join(parts)}. {choice}; range "
        f"{lower * 1000:.4g}-{high * 1000:.4g} ms per transaction",
    )
    assumptions.insert(0, f"CPU per transaction from published throughput bounds. {choice}")
    if note:
        assumptions.append(note)
    return BoundsCost(
        lower=lower,
        central=central,
        high=high,
        from_cps=ref_b.gcps,
        cost_is_upper_bound=upper is not None and central == high,
        statements=tuple(dict.fromkeys(statements)),
        assumptions=tuple(assumptions),
        warnings=(warning,),
        measured=_bound_range(ref_b),
        outside=outside,
        from_specialty=ref_b.ziips,
    )


def _tighten_with_table(
    cfg: ConfigurationData, table_b: CapacityBound, upper: float, lower: float
) -> tuple[float, str, str] | None:
    """Central cost from the throughput table, the sentence for the ``bounds-only`` warning and
    the assumption; ``None`` when the table does not tighten ``upper`` (or contradicts the
    bounds: no cost reproduces it, or only one below the published lower bound)."""
    think = cfg.think_time_s
    assert think is not None
    rows = tuple(sorted(cfg.throughput_rows))
    cost = cost_from_throughput_rows(rows, think, table_b.gcps, upper)
    if not math.isfinite(cost) or cost >= upper or cost <= lower:
        return None
    tol = THROUGHPUT_TABLE_TOLERANCE
    clients = tuple(n for n, _ in rows)
    x_upper = _row_throughputs(clients, think, table_b.gcps, upper)
    x_cost = _row_throughputs(clients, think, table_b.gcps, cost)
    short, worst = min((m / x - 1.0, n) for m, (n, x) in zip(x_upper, rows, strict=True))
    published = ", ".join(f"{n}: {x:g}" for n, x in rows)
    model = ", ".join(f"{n}: {m:.4g}" for m, n in zip(x_cost, clients, strict=True))
    payloads = bytes_text(*_bound_range(table_b))
    choice = (
        f"Central value = {cost * 1000:.4g} ms: the upper bound tightened with the published "
        f"throughput table, the largest cost with which a closed network of {table_b.gcps} CPs "
        f"and {think:g} s think time reproduces every row within {tol:.0%} (at the published "
        f"bound, {upper * 1000:.4g} ms, it gives {short:+.1%} at {worst} clients)"
    )
    assumption = (
        f"Published throughput table ({table_b.reference}), clients: TPS = {published} at "
        f"{think:g} s think time, on the {table_b.gcps} GCPs (no zIIPs) and at the payloads "
        f"({payloads}) of the sustained bound. Its rates are round paced targets N / Z, taken as "
        f"exact to within {tol:.0%} (a closed loop can only fall short of N / Z). The largest CPU "
        f"per transaction with which the closed network ({table_b.gcps}-server CP queue, think "
        f"time {think:g} s, no other station known; exact MVA) reaches at least {1 - tol:.0%} of "
        f"every row is {cost * 1000:.4g} ms by bisection (clients: model TPS = {model}); it is the "
        f"tightened upper bound and the central value for payloads of {payloads}. The published "
        f"bound (<= {upper * 1000:.4g} ms) remains the reported range"
    )
    return cost, choice, assumption
