"""What the answers of one group of rates share (:func:`models_lib.decision_group.answers_at`), found
once per group and kept in its :data:`Memo` by exact inputs: the parts that do not depend on the
rate (the response fit's warnings, the binding's label, the basis's points, fit summary,
statements and shares), and those that depend only on the chosen CPs and specialty engines (the
capacity ratings and the projection of the basis, the most specialty engines allowed, the
projection warning, the MP sentence) or on the CP count and cost factor (the knee).  A scalar answer passes
a memo of its own: it finds each part once, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import is_
from typing import TYPE_CHECKING, Any, TypeVar

from models_lib.answer import SizingWarning
from models_lib.answer_basis import BasisParts, basis_parts, projection_basis
from models_lib.answer_build import (
    CapacityRatings,
    capacity_ratings,
    final_assumptions,
    mp_effect_note,
)
from models_lib.answer_parts import ProjectionBasis
from models_lib.choice import projection_warnings
from models_lib.cost_basis import Basis
from models_lib.engine import EnginePolicy
from models_lib.evaluation import CountEvaluation
from models_lib.response_step import fitted_parts
from models_lib.saturation_ranges import knee
from models_lib.scope import Eligibility

if TYPE_CHECKING:
    from models_lib.prepared import PreparedWorkload

__all__ = [
    "DecisionParts", "Memo", "band_of", "basis_parts_at", "count_parts", "decision_parts", "knee_at", "memoised",
    "mp_note",
]  # fmt: skip

#: The parts by (what, CP count or 0, a number: specialty engines, cost factor or band).
Memo = dict[tuple[str, int, float], Any]

_T = TypeVar("_T")


def memoised(memo: Memo, key: tuple[str, int, float], make: Callable[[], _T]) -> _T:
    """``make()``, once per ``key`` of ``memo``: a part of the answer that depends only on what
    the key states."""
    if key not in memo:
        memo[key] = make()
    value: _T = memo[key]
    return value


def count_parts(
    pw: PreparedWorkload, chosen: CountEvaluation, policy: EnginePolicy, memo: Memo
) -> tuple[CapacityRatings, ProjectionBasis, int | None]:
    """The capacity ratings and the basis's projection of ``chosen``'s CPs and specialty engines,
    and the most specialty engines ``policy`` allows beside its CPs."""
    key = ("count", chosen.n, float(chosen.ziips))
    parts: tuple[CapacityRatings, ProjectionBasis, int | None] | None = memo.get(key)
    if parts is None:
        parts = memo[key] = (
            capacity_ratings(pw.capacity, chosen, pw.capacity_setting),
            projection_basis(chosen, pw.capacity, pw.capacity_setting),
            policy.max_engines(chosen.n),
        )
    return parts


def basis_parts_at(basis: Basis, eligibility: Eligibility, memo: Memo) -> BasisParts:
    """:func:`~models_lib.answer_build.basis_parts`, once per group while the basis's points, fit
    summary and statements hold the same values (the same objects: each rate's basis has its
    own tuples and summary, of the fit's values) and the eligible share is the same."""
    hit = memo.get(_BASIS)
    points, model, statements = basis.points, basis.model, basis.statements
    if hit is not None and hit[0] is eligibility:
        kept_points, kept_model, kept_statements, parts = hit[1:]
        if (
            len(points) == len(kept_points)
            and len(statements) == len(kept_statements)
            and all(map(is_, points, kept_points))
            and all(map(is_, statements, kept_statements))
            and (
                model is kept_model
                or (
                    model is not None
                    and kept_model is not None
                    and tuple(model) == tuple(kept_model)
                    and all(map(is_, model.values(), kept_model.values()))
                )
            )
        ):
            return parts  # type: ignore[no-any-return]
    parts = basis_parts(basis, eligibility)
    memo[_BASIS] = (eligibility, points, model, statements, parts)
    return parts


_BASIS = ("basis", 0, 0.0)


def mp_note(pw: PreparedWorkload, chosen: CountEvaluation, policy: EnginePolicy, memo: Memo) -> str | None:
    """:func:`~models_lib.answer_build.mp_effect_note`, once per (CPs, specialty engines)."""
    note: str | None = memoised(
        memo, ("mp", chosen.n, float(chosen.ziips)), lambda: mp_effect_note(pw.capacity, chosen, policy)
    )
    return note


def knee_at(pw: PreparedWorkload, n: int, cp_factor: float, memo: Memo) -> float | None:
    """:func:`~models_lib.saturation_ranges.knee`, once per CP count and cost factor."""
    value = memoised(memo, ("knee", n, cp_factor), lambda: knee(pw.response, n, cp_factor))
    return value if isinstance(value, float) else None


def band_of(pw: PreparedWorkload, chosen: CountEvaluation) -> float:
    """The projection band of the ranges at ``chosen``: none where nothing is projected."""
    return 0.0 if chosen.proj.is_identity() and chosen.zproj.is_identity() else pw.projection_band


#: What :func:`decision_parts` finds: band, projection warnings, assumptions, the fit's parts and the cap.
DecisionParts = tuple[
    float, tuple[SizingWarning, ...], tuple[str, ...], tuple[float, tuple[SizingWarning, ...]], tuple[int | None]
]


def decision_parts(
    pw: PreparedWorkload, level: float, policy: EnginePolicy, chosen: CountEvaluation, memo: Memo
) -> DecisionParts:
    """What :func:`models_lib.decision._decided` reads that depends only on the chosen CPs and
    specialty engines (the group's options aside), once per (CPs, specialty engines): the
    projection band (:func:`band_of`), the projection's warnings, the assumptions after the
    choice's (the rules, the band, the split and the response model; the SMT-2 statement; the MP
    note), the response fit's parts (:func:`~models_lib.response_step.fitted_parts`, at
    ``level``, once per ``memo``) and ``(policy.max_engines(chosen.n),)``."""
    key = ("decided", chosen.n, float(chosen.ziips))
    parts: DecisionParts | None = memo.get(key)
    if parts is None:
        band = band_of(pw, chosen)
        tail = (
            *final_assumptions(policy, chosen, band, pw.response, level),
            *((pw.smt2_statement,) if pw.smt2_statement else ()),
        )
        mp = mp_note(pw, chosen, policy, memo)
        fitted = memoised(memo, ("fit", 0, 0.0), lambda: fitted_parts(pw.response, level))
        cap = (policy.max_engines(chosen.n),)
        parts = memo[key] = (band, projection_warnings(chosen.proj), tail if mp is None else (*tail, mp), fitted, cap)
    return parts
