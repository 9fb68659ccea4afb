"""What a report cites for an answer: its points (table, page), leave-one-out errors, LSPR
ratings and the source documents, read from the stored reference data (reads only).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from models_lib.costmodel import median_abs_loo_error
from sizing.models import BenchmarkPoint, CapacityRating, Configuration, EngineRule, SourceDocument, Statement
from sizing.records import BasisRecord
from sizing.selectors.fitted import current_reference


@dataclass(frozen=True)
class PointRow:
    id: int
    source: str
    table: str
    #: the page the source prints the point on ("": the reference gives none)
    page: str
    etr: float
    lpar_cps: int | None
    response_time_ms: float | None
    loo_relative_error: float | None
    #: the row of the source's table the point is ("4"), as its key numbers it; "" where it does not
    row: str = ""


#: A point's key numbers the row of its table: "t9-1-r4" is Table 9-1's fourth row (benchmarks/).
_ROW_KEY = re.compile(r"-r(\d+)$")


def point_row(key: str) -> str:
    """The row of its source's table a point's key names ("t9-1-r4" -> "4"), or ""."""
    found = _ROW_KEY.search(key)
    return found.group(1) if found else ""


@dataclass(frozen=True)
class RatingRow:
    id: int
    model: str
    capacity_setting: str
    cps: int
    mips: float
    msu: float
    source: str


@dataclass(frozen=True)
class SourceRow:
    identifier: str  # the document's number ("REDP-5114"), "" where it has none (never the seed's slug)
    title: str
    publisher: str
    published: str


@dataclass(frozen=True)
class ReportBasis:
    """The published rows behind one answer, ready to print."""

    points: list[PointRow] = field(default_factory=list)
    loo_median_abs_error: float | None = None
    loo_component: str | None = None
    ratings: list[RatingRow] = field(default_factory=list)
    statements: list[tuple[str, str]] = field(default_factory=list)
    sources: list[SourceRow] = field(default_factory=list)


def _loo_by_point(configuration: Configuration, component: str | None) -> tuple[dict[int, float | None], float | None]:
    """Leave-one-out relative error of each point of ``component`` and their median |error|."""
    try:
        model = current_reference().fitted(configuration).model
    except ValueError:
        return {}, None
    rows = [r for r in model.loo_table() if component is None or r.component == component]
    by_point = {r.point_id: r.relative_error for r in rows if r.point_id is not None}
    return by_point, median_abs_loo_error(rows) if rows else None


def _source_row(doc: SourceDocument) -> SourceRow:
    # A document without a number is named by its title alone: the slug is the seed's key, which a
    # customer reading the report has never seen.
    return SourceRow(doc.identifier, doc.title, doc.publisher, doc.published)


def report_basis(*, configuration: Configuration, basis: BasisRecord | Mapping[str, Any]) -> ReportBasis:
    """The rows ``basis`` (an estimate's or a job's ``basis``, typed: stored JSON is read by
    ``BasisRecord.from_dict``) names, with their sources.

    Four queries whatever the answer: points, ratings, statements, engine rules of the machines.
    """
    record = basis if isinstance(basis, BasisRecord) else BasisRecord.from_dict(basis)
    component = None if record.model is None else record.model.component
    loo, median = _loo_by_point(configuration, component)
    point_ids = list(record.points)
    points = list(BenchmarkPoint.objects.filter(id__in=point_ids).select_related("source").order_by("etr"))
    rating_ids = [] if record.projection is None else list(record.projection.rating_ids)
    ratings = list(CapacityRating.objects.filter(id__in=rating_ids).select_related("source"))
    statement_ids = list(record.statements)
    # The engine names the statements and points it used (a borrowed cost's points among the
    # points), so every one of them, and its document, is a source of the answer.
    statements = list(Statement.objects.filter(id__in=statement_ids).select_related("source"))
    docs: dict[int, SourceDocument] = {}
    rules = EngineRule.objects.filter(generation__in=_generations(record)).select_related("source")
    for source in [
        *(p.source for p in points),
        *(r.source for r in ratings),
        *(s.source for s in statements),
        *(r.source for r in rules),
    ]:
        docs.setdefault(source.pk, source)
    return ReportBasis(
        points=[
            PointRow(
                id=p.pk,
                source=p.source.identifier or p.source.title,
                table=str((p.reference or {}).get("table") or (p.reference or {}).get("figure") or p.reference_text),
                page=str((p.reference or {}).get("page") or ""),
                etr=p.etr,
                lpar_cps=p.lpar_cps,
                response_time_ms=p.response_time_ms,
                loo_relative_error=loo.get(p.pk),
                row=point_row(p.key),
            )
            for p in points
        ],
        loo_median_abs_error=median,
        loo_component=component,
        ratings=[
            RatingRow(r.pk, r.model, r.capacity_setting, r.cps, r.mips, r.msu, r.source.identifier or r.source.title)
            for r in sorted(ratings, key=lambda r: rating_ids.index(r.pk))
        ],
        statements=_once([(s.reference_text, s.text) for s in statements]),
        sources=sorted((_source_row(d) for d in docs.values()), key=lambda s: (s.identifier or s.title).lower()),
    )


def _once(statements: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each statement's text once, with the references that state it joined ("Table 1; Table 2")."""
    refs: dict[str, list[str]] = {}
    for ref, text in statements:
        key = " ".join(text.split())
        if ref not in refs.setdefault(key, []):
            refs[key].append(ref)
    # the fullest text first, so that an excerpt of it reads as said (sizing.presentation.fresh)
    return sorted((("; ".join(r), text) for text, r in refs.items()), key=lambda rt: -len(rt[1]))


def _generations(basis: BasisRecord) -> list[str]:
    """Engine rules are cited by generation in the assumptions; match the ones the basis names."""
    text = " ".join(basis.assumptions)
    return [g for g in EngineRule.objects.values_list("generation", flat=True) if f"{g}:" in text]
