"""The group path's vector functions against their scalar twins, entry for entry.

``PreparedWorkload.answers`` (``models_lib.group``) evaluates a group of rates over arrays:
:func:`~models_lib.evaluation.count_splits` with an eligible share per demand (the ends of the
eligible share's range at once), :func:`~models_lib.saturation_ranges.group_range_ends` (the
four ends of the ranges in one pass over the counts), :func:`~models_lib.answer_build.end_totals`
and :func:`~models_lib.feasibility.group_fits`.  Each entry must equal what the scalar path finds
(:func:`~models_lib.evaluation.evaluate_total`, :func:`~models_lib.saturation_ranges.ranges`,
:func:`~models_lib.answer_build.per_tran_ms`, :func:`~models_lib.feasibility.fits_at`) exactly:
the same floating-point operations in the same order.  The parts found once per group
(:func:`~models_lib.response_step.fitted_parts`, :func:`~models_lib.answer_build.capacity_ratings`,
:func:`~models_lib.answer_build.projection_basis`, :func:`~models_lib.choice.projection_warnings`)
must give what the scalar step builds without them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from models_lib.answer_basis import basis_dict, projection_basis
from models_lib.answer_build import (
    capacity_block,
    capacity_ratings,
    end_totals,
    per_tran_ms,
)
from models_lib.capacity import MAX_CPS
from models_lib.choice import choose, chosen_of, chosen_warnings, projection_warnings
from models_lib.engine import EnginePolicy
from models_lib.evaluation import CountEvaluation, count_splits, evaluate_total, given_totals, group_evaluations
from models_lib.feasibility import fits_at, fits_of, group_fits
from models_lib.group import rate_request
from models_lib.prepared import PreparedWorkload, prepare
from models_lib.response_step import fit_warnings, fitted_parts, spread_ms
from models_lib.saturation_ranges import group_range_ends, range_scales, ranges, saturation_at
from tests.models_lib import published as P
from tests.models_lib.engine_data import Z10, Z13, Z17, table

#: From a few transactions a second to past saturation (fewer and more CPs than the centre).
RATES = (0.5, 20.0, 700.0, 1234.5, 4000.0, 9000.0, 30000.0, 150000.0)
CASES = [
    ("fiteq-authenticator", "multi-region", Z13),
    ("zosconnect-cics", "channel", Z17),
    ("zosconnect-cics", "channel", Z10),
    ("cicstg", "ipic-channel-64", Z13),
]


def _prepared(path: str, configuration: str, machine: str) -> PreparedWorkload:
    cfg = P.configuration(path, configuration)
    return prepare(cfg, target_machine=machine, target_machine_type=machine, capacity=table())


def _same_evaluation(a: CountEvaluation | None, b: CountEvaluation | None) -> None:
    assert (a is None) == (b is None)
    if a is not None and b is not None:
        assert (a.n, a.ziips, a.needed, a.total, a.gcp, a.ziip, a.on_gcp, a.util) == (
            b.n, b.ziips, b.needed, b.total, b.gcp, b.ziip, b.on_gcp, b.util,
        )  # fmt: skip
        assert (a.proj, a.zproj) == (b.proj, b.zproj)


@pytest.mark.parametrize(("path", "configuration", "machine"), CASES)
@pytest.mark.parametrize("ziips", [None, 0, 3])
def test_count_splits_with_a_share_per_demand_is_evaluate_total(
    path: str, configuration: str, machine: str, ziips: int | None
) -> None:
    pw = _prepared(path, configuration, machine)
    elig = pw.eligibility
    assert elig is not None
    totals = np.array([pw.native_busy(t) for t in RATES], dtype=np.float64)
    shares = (elig.low, elig.value, elig.high, 0.0)  # 0: nothing eligible (the scalar's shortcut)
    values = np.concatenate([totals] * len(shares))
    fractions = np.repeat(np.array(shares, dtype=np.float64), len(totals))
    for n in (pw.counts[0], pw.counts[0] + 3, 12):
        splits = count_splits(n, values, pw.target(None, ziips), fractions)
        for i, (total, share) in enumerate(zip(values.tolist(), fractions.tolist(), strict=True)):
            scalar = evaluate_total(n, total, pw.target(share, ziips))
            _same_evaluation(splits.evaluation(i), scalar)
            assert splits.evaluation(i) == scalar  # every field, the defaults too (built without __init__)
            assert splits.evaluation(i).__dict__ == scalar.__dict__


@pytest.mark.parametrize(("path", "configuration", "machine"), CASES)
@pytest.mark.parametrize("ziips", [0, 3, 60])  # 60: more than the rules allow beside the counts below
def test_given_totals_are_the_scalar_totals(path: str, configuration: str, machine: str, ziips: int) -> None:
    pw = _prepared(path, configuration, machine)
    elig = pw.eligibility
    assert elig is not None
    totals = np.array([pw.native_busy(t) for t in RATES], dtype=np.float64)
    shares = (elig.low, elig.value, elig.high, 0.0)
    values = np.concatenate([totals] * len(shares))
    fractions = np.repeat(np.array(shares, dtype=np.float64), len(totals))
    for n in (pw.counts[0], pw.counts[0] + 3, 12):
        found = given_totals(n, values, pw.target(None, ziips), fractions)
        scalar = [
            evaluate_total(n, total, pw.target(share, ziips)).total
            for total, share in zip(values.tolist(), fractions.tolist(), strict=True)
        ]
        assert found == scalar
        splits = count_splits(n, values, pw.target(None, ziips), fractions)
        assert found == [splits.total(i) for i in range(len(values))]


@pytest.mark.parametrize(("path", "configuration", "machine"), CASES)
@pytest.mark.parametrize(
    "options", [{}, {"cps": 4}, {"objective": "least-msu-consumed"}, {"objective": "fewest-engines"}, {"ziips": 2}]
)
def test_the_four_ends_at_once_are_the_scalar_ranges(
    path: str, configuration: str, machine: str, options: dict[str, Any]
) -> None:
    pw = _prepared(path, configuration, machine)
    elig, cost = pw.eligibility, pw.cost
    assert elig is not None and cost is not None
    reqs = [
        rate_request(
            pw,
            t,
            cps=options.get("cps"),
            ziips=options.get("ziips"),
            clients=None,
            think_time_s=None,
            response_time_sla_ms=None,
            objective=options.get("objective"),
        )  # fmt: skip
        for t in RATES
    ]
    bases = cost.at_rates([r.t for r in reqs])
    totals = np.array([b.total for b in bases], dtype=np.float64)
    ziips = reqs[0].ziips
    ends = (pw.target(elig.low, ziips), pw.target(elig.high, ziips))
    chosen = evaluate_total(pw.counts[0] + 2, totals[0], pw.target(None, ziips))
    for band in (0.0, 0.1):
        scales = [range_scales(b, band) for b in bases]
        low, high = (totals * np.array([s[k] for s in scales]) for k in (0, 1))
        found = group_range_ends(
            pw.counts, ((low, ends[1]), (high, ends[0]), (low, ends[0]), (high, ends[1])),
            cps=reqs[0].cps, umax=reqs[0].umax, objective=reqs[0].objective, pricer=None,
        )  # fmt: skip
        for i, (req, basis) in enumerate(zip(reqs, bases, strict=True)):
            sat_of = saturation_at(basis, chosen, elig.value, pw.response)
            args = (basis, ends, pw.counts, chosen, req.cps, req.umax, sat_of, band, (None, None), True, req.objective)
            four = (found[0][i], found[1][i], found[2][i], found[3][i])
            assert ranges(*args, None, four) == ranges(*args)


@pytest.mark.parametrize(("path", "configuration", "machine"), CASES)
def test_end_totals_are_the_scalar_cpu_per_transaction(path: str, configuration: str, machine: str) -> None:
    pw = _prepared(path, configuration, machine)
    elig, cost = pw.eligibility, pw.cost
    assert elig is not None and cost is not None
    bases = cost.at_rates(list(RATES))
    ends = (pw.target(elig.low, None), pw.target(elig.high, None))
    # each rate at a few counts: rates that share a (CPs, specialty engines) are evaluated together
    chosen = [evaluate_total(n, b.total, pw.target()) for b in bases for n in (pw.counts[0], 6)]
    twice = [b for b in bases for _ in (0, 1)]
    totals = end_totals(chosen, twice, ends)
    for ev, basis, t, four in zip(chosen, twice, [t for t in RATES for _ in (0, 1)], totals, strict=True):
        assert per_tran_ms(ev, basis, t, ends, four) == per_tran_ms(ev, basis, t, ends)


@pytest.mark.parametrize(("path", "configuration", "machine"), CASES)
@pytest.mark.parametrize("given", [(None, None), (4, None), (None, 1), (2, 0)])
def test_group_fits_is_fits_at(
    path: str, configuration: str, machine: str, given: tuple[int | None, int | None]
) -> None:
    pw = _prepared(path, configuration, machine)
    cps, ziips = given
    fits = group_fits(pw, list(RATES), cps=cps, ziips=ziips)
    assert fits == [fits_at(pw, t, cps=cps, ziips=ziips) for t in RATES]
    assert any(fits) and not all(fits)


@pytest.mark.parametrize(("path", "configuration", "machine"), CASES)
def test_the_parts_found_once_per_group_are_the_scalar_ones(path: str, configuration: str, machine: str) -> None:
    pw = _prepared(path, configuration, machine)
    elig, cost = pw.eligibility, pw.cost
    assert elig is not None and cost is not None
    rmodel = pw.response
    spread, weak = fitted_parts(rmodel, cost.level)
    assert spread == (0.0 if rmodel is None else spread_ms(rmodel, cost.level))
    assert list(weak) == fit_warnings(rmodel, cost.level)
    for t in RATES:
        req = rate_request(
            pw, t, cps=None, ziips=None, clients=None, think_time_s=None, response_time_sla_ms=None
        )  # fmt: skip
        basis = cost.at(t)
        for n in (pw.counts[0], 5):
            ev = evaluate_total(n, basis.total, pw.target())
            ratings = capacity_ratings(pw.capacity, ev, pw.capacity_setting)
            assert capacity_block(pw.capacity, ev, req.policy, pw.capacity_setting, ratings) == capacity_block(
                pw.capacity, ev, req.policy, pw.capacity_setting
            )
            projection = projection_basis(ev, pw.capacity, pw.capacity_setting)
            one = basis_dict(basis, ev, pw.capacity, pw.capacity_setting, elig, ("a",), projection=projection)
            assert one == basis_dict(basis, ev, pw.capacity, pw.capacity_setting, elig, ("a",))
            given = replace(req, ziips=1)
            for r in (req, given):
                assert chosen_warnings(ev, r, projection_warnings(ev.proj)) == chosen_warnings(ev, r)


@pytest.mark.parametrize(("path", "configuration", "machine"), [*CASES, ("cicsts-catalog", "v5.3", Z13)])
@pytest.mark.parametrize(("payload", "overhead"), [(None, None), (32768, None), (None, 0.2), (262144, 0.15)])
def test_bases_at_rates_are_the_scalar_bases(
    path: str, configuration: str, machine: str, payload: int | None, overhead: float | None
) -> None:
    cfg = P.configuration(path, configuration)
    pw = prepare(
        cfg, target_machine=machine, target_machine_type=machine, capacity=table(), payload_bytes=payload,
        lpar_overhead=overhead,
    )  # fmt: skip
    cost = pw.cost
    assert cost is not None
    bases = cost.at_rates(list(RATES))
    assert bases == [cost.at(t) for t in RATES]
    assert [b.__dict__ for b in bases] == [cost.at(t).__dict__ for t in RATES]


@pytest.mark.parametrize(("path", "configuration", "machine"), CASES)
@pytest.mark.parametrize("given", [(None, None), (4, None), (None, 1), (2, 0), (1, None)])
@pytest.mark.parametrize("objective", ["fewest-cps", "least-msu-consumed"])
def test_fits_and_the_chosen_count_from_the_evaluated_counts(
    path: str, configuration: str, machine: str, given: tuple[int | None, int | None], objective: str
) -> None:
    pw = _prepared(path, configuration, machine)
    elig, cost = pw.eligibility, pw.cost
    assert elig is not None and cost is not None
    cps, ziips = given
    reqs = [
        rate_request(
            pw,
            t,
            cps=cps,
            ziips=ziips,
            clients=None,
            think_time_s=None,
            response_time_sla_ms=None,
            objective=objective,
        )  # fmt: skip
        for t in RATES
    ]
    bases = cost.at_rates(list(RATES))
    totals = np.array([b.total for b in bases], dtype=np.float64)
    target = pw.target(elig.value, ziips)
    evals = group_evaluations(pw.counts, totals, target, umax=reqs[0].umax, cps=cps, goal=False)
    fits = fits_of(pw, list(RATES), evals, cps=cps, ziips=ziips)
    assert fits == [fits_at(pw, t, cps=cps, ziips=ziips) for t in RATES]
    assert any(fits) and not all(fits)
    for ev, req, basis in zip(evals, reqs, bases, strict=True):
        assert chosen_of(ev, req, pw.response, basis) == choose(ev, req, pw.response, basis, machine).chosen


@pytest.mark.parametrize(("path", "configuration", "machine"), CASES)
@pytest.mark.parametrize("ziips", [None, 1, 5])
@pytest.mark.parametrize("per_cp", [None, 1.0, 2.0, 0.5])
def test_under_caps_of_at_least_the_peaks_the_evaluations_are_the_same(
    path: str, configuration: str, machine: str, ziips: int | None, per_cp: float | None
) -> None:
    """``group_evaluations``' peaks: where another policy's caps are at least the peak engines
    at every count evaluated, that policy evaluates the same counts to the same figures (the
    other rule's sentence then reads the group's evaluations)."""
    pw = _prepared(path, configuration, machine)
    elig, cost = pw.eligibility, pw.cost
    assert elig is not None and cost is not None
    totals = np.array([b.total for b in cost.at_rates(list(RATES))], dtype=np.float64)
    target = pw.target(elig.value, ziips)
    other = replace(target, policy=pw.policy.with_ratio(per_cp))
    peaks: dict[int, int] = {}
    mine = group_evaluations(pw.counts, totals, target, umax=pw.max_utilization, cps=None, goal=False, peaks=peaks)
    theirs = group_evaluations(pw.counts, totals, other, umax=pw.max_utilization, cps=None, goal=False)
    assert mine == group_evaluations(pw.counts, totals, target, umax=pw.max_utilization, cps=None, goal=False)
    assert sorted(peaks) == sorted({e.n for evs in mine for e in evs})

    def cap(policy: EnginePolicy, n: int) -> int:
        rules = policy.max_engines(n)
        return MAX_CPS - n if rules is None else rules

    if all(p <= min(cap(target.policy, n), cap(other.policy, n)) for n, p in peaks.items()):
        assert [[e.__dict__ for e in evs] for evs in mine] == [[e.__dict__ for e in evs] for evs in theirs]
