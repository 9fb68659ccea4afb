"""What the answers of one group of rates share (:func:`models_lib.decision.answers_at`), found
once per group and kept in its :data:`Memo` by exact inputs: the parts that do not depend on the
rate (the response fit's warnings, the binding's label), and those that depend only on the chosen
CPs and specialty engines (the capacity ratings and the projection of the basis, the projection
warning, the MP sentence) or on the CP count and cost factor (the knee).  A scalar answer passes
a memo of its own: it finds each part once, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from models_lib.answer_build import CapacityRatings, capacity_ratings, mp_effect_note, projection_basis
from models_lib.answer_parts import ProjectionBasis
from models_lib.engine import EnginePolicy
from models_lib.evaluation import CountEvaluation
from models_lib.saturation_ranges import knee

if TYPE_CHECKING:
    from models_lib.prepared import PreparedWorkload

__all__ = ["Memo", "count_parts", "knee_at", "memoised", "mp_note"]

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


def count_parts(pw: PreparedWorkload, chosen: CountEvaluation, memo: Memo) -> tuple[CapacityRatings, ProjectionBasis]:
    """The capacity ratings and the basis's projection of ``chosen``'s CPs and specialty engines."""
    return memoised(
        memo,
        ("count", chosen.n, float(chosen.ziips)),
        lambda: (
            capacity_ratings(pw.capacity, chosen, pw.capacity_setting),
            projection_basis(chosen, pw.capacity, pw.capacity_setting),
        ),
    )


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
