"""The sizing decision at an array of rates: :func:`models_lib.decision.answer_at` of each rate
of a group (one prepared workload, the same options), sharing what does not depend on the rate.

The bases at the rates are found once (:meth:`~models_lib.native_cost.NativeCost.at_rates`), the
CP counts at the centre and at the ends of the ranges are evaluated over the array of the rates'
demands (:func:`~models_lib.evaluation.group_evaluations`,
:func:`~models_lib.saturation_ranges.group_range_ends`), and the other recorded engine rule's
sentence is found for the whole group; what remains per rate is :func:`models_lib.decision`'s
decided steps and answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from models_lib.answer import SizingResult
from models_lib.answer_build import capacity_ratings, end_totals
from models_lib.capacity import MAX_CPS
from models_lib.choice import RateRequest, choose, chosen_of, replaced
from models_lib.cost_basis import Basis
from models_lib.decision import _answer, _decided, _Decision, _every, _other_rule, _other_sentence
from models_lib.engine import EnginePolicy
from models_lib.evaluation import CountEvaluation, Target, group_evaluations
from models_lib.feasibility import fits_of
from models_lib.group_memo import Memo, band_of, memoised
from models_lib.native_cost import NativeCost
from models_lib.saturation_ranges import group_range_ends, range_scales
from models_lib.scope import Eligibility

if TYPE_CHECKING:
    from models_lib.prepared import PreparedWorkload

__all__ = ["answers_at"]

FloatArray = npt.NDArray[np.float64]


@dataclass
class _Group:
    """What a group of requests finds once for its answers and the other rule's sentences: the
    bases (:meth:`~models_lib.native_cost.NativeCost.at_rates`) and their central totals; once
    the group is decided, its target, each rate's evaluated counts and chosen count, and the
    peak engines of each count evaluated (:func:`~models_lib.evaluation.group_evaluations`)."""

    bases: list[Basis]
    totals: FloatArray
    target: Target | None = None
    evals: list[list[CountEvaluation]] | None = None
    chosen: list[CountEvaluation] | None = None
    peaks: dict[int, int] = field(default_factory=dict)


def _group_bases(cost: NativeCost, reqs: Sequence[RateRequest]) -> _Group:
    bases = cost.at_rates([req.t for req in reqs])
    return _Group(bases, np.array([basis.total for basis in bases], dtype=np.float64))


def _cap(policy: EnginePolicy, n: int) -> int:
    rules = policy.max_engines(n)
    return MAX_CPS - n if rules is None else rules


def _same_evaluations(found: _Group | None, target: Target) -> bool:
    """The group's evaluated counts are those under ``target`` (the group's but for the policy):
    at every count evaluated, both policies' caps are at least its peak engines."""
    if found is None or found.target is None or found.evals is None:
        return False
    mine = found.target
    if (mine.fraction, mine.ziips, mine.ziip_ceiling) != (target.fraction, target.ziips, target.ziip_ceiling):
        return False
    return all(p <= min(_cap(mine.policy, n), _cap(target.policy, n)) for n, p in found.peaks.items())


def _decide_group(
    pw: PreparedWorkload,
    cost: NativeCost,
    reqs: Sequence[RateRequest],
    memo: Memo,
    found: _Group | None = None,
) -> list[tuple[_Decision, Eligibility]]:
    """:func:`_decide` of each request (the same options, rates of their own): the CP counts at
    the centre and at the ends of the ranges evaluated over the array of the rates' demands
    (:func:`~models_lib.evaluation.group_evaluations`, :func:`~models_lib.saturation_ranges.group_range_ends`);
    ``found``: the requests' bases and totals (:func:`_group_bases`), given the group's
    evaluated counts and chosen counts."""
    elig = pw.eligibility
    assert elig is not None
    first = reqs[0]
    group = _group_bases(cost, reqs) if found is None else found
    bases, totals = group.bases, group.totals
    target = pw.target(elig.value, first.ziips)
    evals = group_evaluations(
        pw.counts, totals, target, umax=first.umax, cps=first.cps, goal=_every(first), peaks=group.peaks
    )
    choices = [
        choose(ev, req, pw.response, basis, pw.target_machine_type)
        for ev, req, basis in zip(evals, reqs, bases, strict=True)
    ]
    group.target, group.evals, group.chosen = target, evals, [choice.chosen for choice in choices]
    scales = [range_scales(basis, band_of(pw, choice.chosen)) for basis, choice in zip(bases, choices, strict=True)]
    low, high = (totals * np.array([s[k] for s in scales], dtype=np.float64) for k in (0, 1))
    ends = (pw.target(elig.low, first.ziips), pw.target(elig.high, first.ziips))
    f0, f1, f2, f3 = group_range_ends(
        pw.counts, ((low, ends[1]), (high, ends[0]), (low, ends[0]), (high, ends[1])),
        cps=first.cps, umax=first.umax, objective=first.objective, pricer=first.pricer,
    )  # fmt: skip
    fits = fits_of(pw, [req.t for req in reqs], evals, cps=first.cps, ziips=first.ziips, sla=first.sla)
    per_tran = end_totals([choice.chosen for choice in choices], bases, ends)
    return [
        (_decided(pw, cost, req, basis, choice, memo, ((f0[i], f1[i], f2[i], f3[i]), fits[i], per_tran[i], ends, scales[i])), elig)
        for i, (req, basis, choice) in enumerate(zip(reqs, bases, choices, strict=True))
    ]  # fmt: skip


def _other_sentences(
    alt_pw: PreparedWorkload,
    cost: NativeCost,
    reqs: Sequence[RateRequest],
    rule: str,
    found: _Group | None = None,
) -> list[str]:
    """:func:`_other_sentence` of each request's answer under the other rule (``alt_pw``; the
    requests under its policy), finding only what the sentence states, as :func:`answer_at`
    finds it: the chosen count among the evaluated ones, whether the rate fits, the MSU used;
    ``found``: the requests' bases and totals (:func:`_group_bases`); where the group under the
    rule in force is decided and no cap binds at its counts (:func:`_same_evaluations`), its
    evaluated and chosen counts, the same under the other rule (the choice does not read the
    rule)."""
    elig = alt_pw.eligibility
    assert elig is not None
    first = reqs[0]
    group = _group_bases(cost, reqs) if found is None else found
    bases, totals = group.bases, group.totals
    target = alt_pw.target(elig.value, first.ziips)
    if _same_evaluations(group, target):
        assert group.evals is not None and group.chosen is not None
        evals, picked = group.evals, group.chosen
    else:
        evals = group_evaluations(alt_pw.counts, totals, target, umax=first.umax, cps=first.cps, goal=_every(first))
        picked = [chosen_of(ev, req, alt_pw.response, basis) for ev, req, basis in zip(evals, reqs, bases, strict=True)]
    fits = fits_of(alt_pw, [req.t for req in reqs], evals, cps=first.cps, ziips=first.ziips, sla=first.sla)
    out = []
    memo: Memo = {}
    for chosen, fit in zip(picked, fits, strict=True):
        key = ("count", chosen.n, float(chosen.ziips))
        ratings = memoised(memo, key, lambda: capacity_ratings(alt_pw.capacity, chosen, alt_pw.capacity_setting))  # noqa: B023
        msu = chosen.gcp * ratings[0].msu / chosen.n  # capacity_block's CP MSU used
        other = (chosen.n if fit else None, chosen.ziips if fit else None, chosen.util, msu)
        out.append(_other_sentence(alt_pw.policy.name, rule, other))
    return out


def answers_at(pw: PreparedWorkload, cost: NativeCost, reqs: Sequence[RateRequest]) -> list[SizingResult]:
    """:func:`answer_at` of each request (one workload, the same options, rates of their own),
    equal to it answer for answer, sharing what does not depend on the rate: the workload under
    the other recorded rule (what its sentence states found for the whole group), and the basis
    and CP counts evaluated over the array of rates (:func:`models_lib.evaluation.group_evaluations`)."""
    if not reqs:
        return []
    setup = _other_rule(pw, reqs[0].policy)
    found = _group_bases(cost, reqs)
    memo: Memo = {}
    decided = _decide_group(pw, cost, reqs, memo, found)
    rules: list[str | None]
    if isinstance(setup, tuple):
        alt_pw, rule = setup
        rules = list(_other_sentences(alt_pw, cost, [replaced(r, policy=alt_pw.policy) for r in reqs], rule, found))
    else:
        rules = [setup] * len(reqs)
    return [_answer(pw, cost, req, rule, d, memo) for req, rule, d in zip(reqs, rules, decided, strict=True)]
