"""The answer's basis (:class:`~models_lib.answer_parts.AnswerBasis`): the published points,
fit, projection, statements, assumptions and native demand an answer rests on; what of it does
not depend on the rate (:func:`basis_parts`, :func:`projection_basis`) is found once per group
of rates (:mod:`models_lib.group_memo`)."""

from __future__ import annotations

from models_lib.answer_parts import AnswerBasis, FitSummary, NativeDemand, ProjectionBasis, ServerShare, Share
from models_lib.cost_basis import Basis
from models_lib.evaluation import CountEvaluation
from models_lib.inputs import CapacityTable
from models_lib.scope import Eligibility

__all__ = ["BasisParts", "basis_dict", "basis_parts", "projection_basis"]


def projection_basis(chosen: CountEvaluation, capacity: CapacityTable, setting: str | None) -> ProjectionBasis:
    """The basis's projection of ``chosen`` (the same for every rate that chose its CPs and
    specialty engines)."""
    proj = chosen.proj
    return ProjectionBasis(
        from_machine_type=proj.from_machine_type,
        from_cps=proj.from_cps,
        to_machine_type=proj.to_machine_type,
        to_cps=proj.to_cps,
        factor=proj.factor,
        specialty_factor=chosen.zproj.factor,
        capacity_setting=setting or capacity.full_speed_setting.get(proj.to_machine_type, ""),
        source=proj.source,
        rating_ids=tuple(proj.rating_ids),
    )


#: The parts of the answer's basis that do not depend on the rate, only on the basis's points,
#: fit and statements and on the eligible share: points, fit summary, statements, server share
#: and eligible share (:func:`basis_parts`).
BasisParts = tuple[tuple[int, ...], FitSummary | None, tuple[int, ...], ServerShare | None, Share]


def basis_parts(basis: Basis, eligibility: Eligibility) -> BasisParts:
    """:data:`BasisParts` of ``basis`` and ``eligibility``."""
    share = eligibility.server_share
    return (
        tuple(dict.fromkeys((*basis.points, *eligibility.points))),
        None if basis.model is None else FitSummary(**basis.model),
        tuple(dict.fromkeys((*basis.statements, *eligibility.statements))),
        None if share is None else ServerShare(**share),
        Share(eligibility.value, eligibility.low, eligibility.high),
    )


def basis_dict(
    basis: Basis,
    chosen: CountEvaluation,
    capacity: CapacityTable,
    setting: str | None,
    eligibility: Eligibility,
    assumptions: tuple[str, ...],
    lpar: tuple[float | None, float | None, float | None] = (None, None, None),
    projection: ProjectionBasis | None = None,
    parts: BasisParts | None = None,
) -> AnswerBasis:
    """The answer's ``basis``: points, model, projection, statements, assumptions, native demand;
    ``projection``: :func:`projection_basis`, and ``parts``: :func:`basis_parts`, already found."""
    points, model, statements, server_share, eligible_share = (
        basis_parts(basis, eligibility) if parts is None else parts
    )
    return AnswerBasis(
        points=points,
        model=model,
        projection=projection_basis(chosen, capacity, setting) if projection is None else projection,
        statements=statements,
        assumptions=(*basis.assumptions, *eligibility.assumptions, *assumptions),
        server_share=server_share,
        eligible_share=eligible_share,
        native=NativeDemand(
            component=basis.component,
            intercept_cps=basis.intercept,
            slope_s=basis.slope,
            payload_factor=basis.payload_factor,
            busy_cps=basis.total,
            lpar_factor=lpar[0],
            lpar_factor_low=lpar[1],
            lpar_factor_high=lpar[2],
        ),
    )
