"""Evaluation per CP count: projection, specialty-engine split and response time at one count.

Every count of the target gets its own LSPR factor, rated at the configuration's total engine
count (CPs + the specialty engines sized beside them, the MP effect's fixed point solved per
count: :func:`models_lib.engine.mp_specialty_engines`); the projected demand is split between the CPs and the specialty engines within the generation's
rules (:mod:`models_lib.engine`), and where a response-time goal is checked the response model
gives the time at that count.

References
----------
.. [1] IBM, "Large Systems Performance Reference" (LSPR), SC28-1187.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import cast

import numpy as np
import numpy.typing as npt

from models_lib.capacity import MAX_CPS, Projection
from models_lib.cost_basis import Basis
from models_lib.engine import EnginePolicy, mp_specialty_engines, split_pools
from models_lib.queueing import erlang_c
from models_lib.response import ResponseModel
from models_lib.ziip import _CEIL_TOLERANCE

__all__ = [
    "UTIL_EPS",
    "CountEvaluation",
    "Target",
    "cost_factor",
    "cp_cost_factor",
    "evaluate_count",
    "evaluate_total",
    "evaluate_totals",
    "given_totals",
    "count_splits",
    "CountSplits",
    "evaluations",
    "group_evaluations",
    "with_response",
    "ziip_residence_ms",
]

FloatArray = npt.NDArray[np.float64]

#: Slack on the utilisation ceiling, so that a count exactly at the ceiling passes.
UTIL_EPS = 1e-9

#: The CP and specialty-engine projections to ``n`` CPs and ``z`` specialty engines of the target.
Projector = Callable[[int, int], tuple[Projection, Projection]]


@dataclass(frozen=True)
class CountEvaluation:
    """The demand at one rate on ``n`` CPs of the target (busy engines, ms).

    ``proj``: CP projection (the target setting's rating); ``zproj``: specialty-engine
    projection (full-speed rating); ``response``: the modelled response time where a goal is
    checked (``inf`` when saturated); ``needed``: specialty engines the eligible work needs
    before the rules' ratio caps them.
    """

    n: int
    proj: Projection
    zproj: Projection
    total: float
    gcp: float
    ziip: float
    on_gcp: float
    ziips: int
    util: float
    response: float | None = None
    cp_residence: float = math.inf
    needed: int = 0


@dataclass(frozen=True)
class Target:
    """Where the demand goes: projections, specialty-engine rules, eligible share, given engines."""

    project: Projector
    policy: EnginePolicy
    fraction: float
    ziips: int | None
    ziip_ceiling: float


def evaluate_count(n: int, *, basis: Basis, target: Target) -> CountEvaluation:
    """``basis`` projected to ``n`` CPs and split between the pools (no response time)."""
    return evaluate_total(n, basis.total, target)


def evaluate_total(n: int, total: float, target: Target) -> CountEvaluation:
    """:func:`evaluate_count` of a native demand of ``total`` busy engines."""
    z, needed = mp_specialty_engines(
        target.policy,
        n,
        total * target.fraction,
        target.ziip_ceiling,
        target.ziips,
        lambda k: target.project(n, k)[1].factor,
    )
    proj, zproj = target.project(n, z)
    split = split_pools(total, target.fraction, proj.factor, zproj.factor, z, needed, target.ziip_ceiling)
    return CountEvaluation(
        n, proj, zproj, split.total, split.gcp, split.special, split.on_gcp, z, split.gcp / n, needed=needed
    )


def _ints(a: npt.NDArray[np.int64]) -> list[int]:
    return cast("list[int]", a.tolist())


def _floats(a: FloatArray) -> list[float]:
    return cast("list[float]", a.tolist())


@dataclass(frozen=True)
class CountSplits:
    """:func:`count_splits`: the split of an array of native demands at ``n`` CPs, as lists (one
    entry per demand), each entry what :func:`evaluate_total` gives for its demand.

    ``peak`` (where asked for): the most engines any entry was capped against, the given count
    or the most the fixed point needed at any step (0: none); with a cap of at least ``peak``
    every entry is the same whatever the cap (the rules' ratio does not bind)."""

    n: int
    target: Target
    engines: list[int]
    needed: list[int]
    gcp: list[float]
    special: list[float]
    on_gcp: list[float]
    peak: int = 0
    pairs: dict[int, tuple[Projection, Projection]] | None = field(default=None, compare=False, repr=False)

    def util(self, i: int) -> float:
        return self.gcp[i] / self.n

    def settled(self, i: int) -> bool:
        """No later count spills less or has fewer engines (see :func:`evaluations`)."""
        given = self.target.ziips
        return self.on_gcp[i] <= 0.0 or (given is not None and self.engines[i] >= given)

    def total(self, i: int) -> float:
        return self.gcp[i] + self.special[i]

    def evaluation(self, i: int) -> CountEvaluation:
        """The :class:`CountEvaluation` of entry ``i`` (built as :func:`_evaluation` builds it)."""
        return self.evaluations((i,))[0]

    def evaluations(self, entries: Iterable[int]) -> list[CountEvaluation]:
        """:meth:`evaluation` of each of ``entries``, the projections of each engine count
        looked up once."""
        n, engines, gcp, special = self.n, self.engines, self.gcp, self.special
        on_gcp, needed = self.on_gcp, self.needed
        known = {} if self.pairs is None else self.pairs
        project, new, setattr_, inf = self.target.project, _new, _setattr, math.inf
        out = []
        for i in entries:
            z, g, sp = engines[i], gcp[i], special[i]
            pair = known.get(z)
            if pair is None:
                pair = project(n, z)
            ev = new(CountEvaluation)
            setattr_(ev, "__dict__", {
                "n": n, "proj": pair[0], "zproj": pair[1], "total": g + sp, "gcp": g, "ziip": sp, "on_gcp": on_gcp[i],
                "ziips": z, "util": g / n, "response": None, "cp_residence": inf, "needed": needed[i],
            })  # fmt: skip
            out.append(ev)
        return out


_new = object.__new__
_setattr = object.__setattr__


def _evaluation(
    n: int, proj: Projection, zproj: Projection, total: float, gcp: float, ziip: float, on_gcp: float,
    ziips: int, util: float, needed: int,
) -> CountEvaluation:  # fmt: skip
    """``CountEvaluation(n, proj, zproj, total, gcp, ziip, on_gcp, ziips, util, needed=needed)``
    without the frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field): the
    fields written at once as the instance's dictionary, the defaults included.  A group builds
    thousands of them."""
    ev: CountEvaluation = _new(CountEvaluation)
    _setattr(ev, "__dict__", {
        "n": n, "proj": proj, "zproj": zproj, "total": total, "gcp": gcp, "ziip": ziip, "on_gcp": on_gcp,
        "ziips": ziips, "util": util, "response": None, "cp_residence": math.inf, "needed": needed,
    })  # fmt: skip
    return ev


def count_splits(
    n: int, totals: FloatArray, target: Target, fractions: FloatArray | None = None, *, peak: bool = False
) -> CountSplits:
    """:func:`evaluate_total` of each of ``totals`` at ``n`` CPs, over the array at once: the MP
    fixed point of :func:`~models_lib.engine.mp_specialty_engines` (the same sequence of counts
    from 0 upwards, per element), the required engines of :func:`~models_lib.ziip.ziips_required`
    and the split of :func:`~models_lib.engine.split_pools`, each with the same floating-point
    operations in the same order, so that every entry equals the scalar evaluation.

    ``fractions``: an eligible share per entry in place of ``target.fraction`` (entry ``i`` is
    then the evaluation with the target of share ``fractions[i]``; a share of 0 finds no engine
    needed at the first step of the fixed point, as the scalar's shortcut says).

    Where every entry has the same engine count (the first step of the fixed point, a count
    given, most counts), its factors are Python floats: a float64 array times a float is the
    elementwise product with an array of that float, without building the array."""
    rules = target.policy.max_engines(n)
    cap = MAX_CPS - n if rules is None else rules
    ceiling = target.ziip_ceiling
    project = target.project
    factors: dict[int, tuple[float, float]] = {}  # (CP, specialty) factor per engine count
    pairs: dict[int, tuple[Projection, Projection]] = {}  # the projections of those counts

    def factor(k: int) -> tuple[float, float]:
        found = factors.get(k)
        if found is None:
            pair = pairs[k] = project(n, k)
            found = factors[k] = (pair[0].factor, pair[1].factor)
        return found

    def table(z: npt.NDArray[np.int64], counts: list[int], side: int) -> float | FloatArray:
        """The factor of each entry's engine count ``counts`` (``z`` as a list): one float where
        they are all the same count, else looked up in a table of the counts present."""
        present = set(counts)
        if len(present) == 1:
            return factor(counts[0])[side]
        values = np.empty(max(present, default=0) + 1, dtype=np.float64)
        for k in present:
            values[k] = factor(k)[side]
        return values[z]

    eligible = totals * (target.fraction if fractions is None else fractions)

    def needed_at(sf: float | FloatArray) -> npt.NDArray[np.int64]:
        need = eligible * sf
        return np.where(need > 0.0, np.maximum(1.0, np.ceil(need / ceiling - _CEIL_TOLERANCE)), 0.0).astype(np.int64)

    size = len(totals)
    most = 0  # CountSplits.peak
    if target.ziips is not None:
        given = min(target.ziips, cap)
        z = np.full(size, given, dtype=np.int64)
        counts = [given] * size
        sf = table(z, counts, 1)
        needed = needed_at(sf)
        most = target.ziips
    elif fractions is None and target.fraction == 0.0:  # nothing eligible: no engine needed (ziips_required(0) == 0)
        z = needed = np.zeros(size, dtype=np.int64)
        counts = [0] * size
        sf = table(z, counts, 1)
    else:
        z = np.zeros(size, dtype=np.int64)
        counts = [0] * size
        for _ in range(MAX_CPS + 1):
            sf = table(z, counts, 1)
            needed = needed_at(sf)
            if peak and size:
                most = max(most, int(needed.max()))
            # every entry's needed count within the cap at most its count: the fixed point (the
            # counts compared as lists, those of the next step needed anyway)
            grown = np.maximum(np.minimum(needed, cap), z)
            more = _ints(grown)
            if more == counts:
                break
            z, counts = grown, more
    cf = table(z, counts, 0)
    if isinstance(sf, float):
        on_special = np.minimum(eligible, z * ceiling / sf) if sf > 0 else eligible
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            on_special = np.where(sf > 0, np.minimum(eligible, z * ceiling / sf), eligible)
    on_gcp = (eligible - on_special) * cf
    gcp = (totals - eligible) * cf + on_gcp
    spec = on_special * sf
    return CountSplits(n, target, counts, _ints(needed), _floats(gcp), _floats(spec), _floats(on_gcp), most, pairs)


def given_totals(n: int, totals: FloatArray, target: Target, fractions: FloatArray) -> list[float]:
    """:meth:`CountSplits.total` of each entry of :func:`count_splits` where ``target`` gives its
    specialty engines (the same operations, without the counts they need or the split's parts)."""
    assert target.ziips is not None
    rules = target.policy.max_engines(n)
    z = min(target.ziips, MAX_CPS - n if rules is None else rules)
    proj, zproj = target.project(n, z)
    cf, sf = proj.factor, zproj.factor
    eligible = totals * fractions
    on_special = np.minimum(eligible, z * target.ziip_ceiling / sf) if sf > 0 else eligible
    gcp = (totals - eligible) * cf + (eligible - on_special) * cf
    return _floats(gcp + on_special * sf)


def evaluate_totals(n: int, totals: FloatArray, target: Target) -> list[CountEvaluation]:
    """:func:`evaluate_total` of each of ``totals`` at ``n`` CPs (:func:`count_splits`)."""
    return count_splits(n, totals, target).evaluations(range(len(totals)))


def group_evaluations(
    counts: Sequence[int], totals: FloatArray, target: Target, *, umax: float, cps: int | None, goal: bool,
    peaks: dict[int, int] | None = None,
) -> list[list[CountEvaluation]]:  # fmt: skip
    """:func:`evaluations` of each native demand of ``totals`` (busy engines), each list equal to
    the scalar one: every count evaluated once for the rates still choosing
    (:func:`evaluate_totals`), each rate leaving at its own first settled count.  ``peaks``:
    filled with each count evaluated and its :attr:`CountSplits.peak` (a policy whose cap at
    every count is at least its peak gives the same lists)."""
    out: list[list[CountEvaluation]] = [[] for _ in range(len(totals))]
    active = list(range(len(totals)))
    for k in counts:
        if not active:
            break
        still = []
        splits = count_splits(k, totals[active], target, peak=peaks is not None)
        if peaks is not None:
            peaks[k] = splits.peak
        gcp, on_gcp, engines, given = splits.gcp, splits.on_gcp, splits.engines, target.ziips
        past = cps is None or k >= cps
        for j, (i, ev) in enumerate(zip(active, splits.evaluations(range(len(active))), strict=True)):
            out[i].append(ev)
            # splits.util(j) within the ceiling, splits.settled(j) and the given count passed
            settled = on_gcp[j] <= 0.0 or (given is not None and engines[j] >= given)
            if goal or not (gcp[j] / k <= umax + UTIL_EPS and settled and past):
                still.append(i)
        active = still
    return out


def with_response(ev: CountEvaluation, *, basis: Basis, rmodel: ResponseModel, tps: float) -> CountEvaluation:
    """``ev`` with its modelled response time (ms) at ``ev.n`` CPs, where the model has response data."""
    if not (rmodel.has_response_data and ev.total > 0 and ev.response is None):
        return ev
    bd = rmodel.breakdown(tps, cps=ev.n, cost_factor=cp_cost_factor(basis, ev.proj, ev.gcp))
    assert bd.total_ms is not None
    return replace(
        ev, response=bd.total_ms + ziip_residence_ms(ev.ziip, ev.ziips, tps), cp_residence=bd.cp_residence_ms
    )


def evaluations(
    counts: Sequence[int], basis: Basis, target: Target, *, umax: float, cps: int | None, goal: bool
) -> list[CountEvaluation]:
    """The CP counts the choice reads, evaluated in order without response times.

    Up to the first count within the utilisation ceiling whose specialty engines take all the
    eligible work (and the given count ``cps``): no later count spills less or has fewer
    engines, so that is all any objective of the choice needs (:data:`models_lib.choice.OBJECTIVES`),
    unless a response-time goal is checked at every count within the ceiling (``goal``); then,
    or when no count is within it, every rated count.  Evaluating all 141 counts of a z13 with
    their response times was most of the cost of an answer.
    """
    out = []
    for k in counts:
        ev = evaluate_count(k, basis=basis, target=target)
        out.append(ev)
        settled = ev.on_gcp <= 0.0 or (target.ziips is not None and ev.ziips >= target.ziips)
        if not goal and ev.util <= umax + UTIL_EPS and settled and (cps is None or k >= cps):
            break
    return out


def cp_cost_factor(basis: Basis, proj: Projection, gcp: float) -> float:
    """Factor from the response model's native CP cost to the target GCP cost per transaction:
    LSPR factor x payload factor x the share of the work left on GCPs."""
    return cost_factor(basis.total, proj.factor, basis.payload_factor, gcp)


def cost_factor(native_busy: float, factor: float, payload_factor: float, gcp: float, idle_share: float = 1.0) -> float:
    """:func:`cp_cost_factor` from numbers: ``native_busy`` engines on the measured LPAR,
    projected by ``factor``, of which ``gcp`` target busy engines run on the CPs.

    With no load at all (a rate of 0, or a line clipped at 0) the share is ``idle_share``.
    """
    # Share of the native work that runs on CPs (``gcp`` is in target-CP busy engines).
    native_on_target = native_busy * factor
    gcp_share = gcp / native_on_target if native_on_target > 0 else idle_share
    return factor * payload_factor * max(gcp_share, 1e-12)


def ziip_residence_ms(ziip_busy: float, ziips: int, tps: float) -> float:
    """M/M/z residence of the eligible work on ``ziips`` specialty engines at ``tps``, ms (0
    without specialty work; ``inf`` at or beyond their capacity).

    ``ziip_busy`` is in busy engines; the service time per transaction is ``ziip_busy / tps``
    and the wait is Erlang C (Menasce, Almeida and Dowdy 2004, M/M/c).
    """
    if ziips == 0 or ziip_busy <= 0.0 or tps <= 0.0:
        return 0.0
    if ziip_busy >= ziips:
        return math.inf
    service = ziip_busy / tps
    return (service + erlang_c(ziips, ziip_busy) * service / (ziips - ziip_busy)) * 1000.0
