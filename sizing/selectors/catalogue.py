"""What each workload path has published: the home page's catalogue and the workbench's choices.

Everything is computed from the stored points and statements (no numbers typed here), so the
catalogue follows ``benchmarks/`` as it grows.  Four queries whatever the number of paths.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Prefetch, Q

from sizing.models import (
    BenchmarkPoint,
    CapacityRating,
    Machine,
    MetricName,
    MetricUnit,
    Path,
    SourceDocument,
    Statement,
    StatementKind,
)
from sizing.selectors.reference import visible_configurations

_BUSY_SUFFIX = "_cpu"  # busy-CPU metrics (cics_cpu, lpar_cpu...); *_per_tran and shares are not

#: Statements that constrain CPU cost without points (as selectors.configuration_data reads them).
_CPU_STATEMENTS = {(StatementKind.BOUND, "throughput"), (StatementKind.RATIO, "cpu_per_tran")}

CPU_FIT = "cpu-fit"
RATIOS_BOUNDS = "ratios-bounds"
NO_CPU = "no-cpu"

_BASIS_TEXT = {
    CPU_FIT: "CPU measured at several rates: sized from a line fitted to the published points.",
    RATIOS_BOUNDS: "No CPU per transaction published: sized from published ratios and capacity bounds only.",
    NO_CPU: "No CPU data published: CPs cannot be sized from this source.",
}


@dataclass(frozen=True)
class EtrRange:
    low: float
    high: float


@dataclass
class ConfigurationSummary:
    slug: str
    name: str
    description: str
    points: int = 0
    cpu_points: int = 0
    etr: EtrRange | None = None
    response_times: bool = False
    statement_kinds: list[str] = field(default_factory=list)
    basis: str = NO_CPU

    @property
    def basis_text(self) -> str:
        return _BASIS_TEXT[self.basis]


@dataclass
class PathSummary:
    slug: str
    name: str
    description: str
    native_machine: str
    native_machine_name: str
    source_slug: str
    source_label: str
    configurations: list[ConfigurationSummary]
    machines: list[str]
    etr: EtrRange | None
    payloads: list[int]
    request_payloads: list[int]
    metrics: list[str]
    statement_counts: dict[str, int]
    basis: str

    @property
    def basis_text(self) -> str:
        return _BASIS_TEXT[self.basis]

    @property
    def point_count(self) -> int:
        return sum(c.points for c in self.configurations)


def _range(values: list[float]) -> EtrRange | None:
    return EtrRange(min(values), max(values)) if values else None


def _configuration_basis(cpu_points: int, etrs: set[float], cpu_statements: bool) -> str:
    if cpu_points >= 2 and len(etrs) >= 2:
        return CPU_FIT
    if cpu_statements or cpu_points:
        return RATIOS_BOUNDS
    return NO_CPU


def path_summaries(*, user: AbstractBaseUser | AnonymousUser | None) -> list[PathSummary]:
    """One summary per path: machines, ETR range, payloads, metrics and what sizing can rest on."""
    configs = visible_configurations(user=user)
    paths = (
        Path.objects.select_related("native_machine", "source")
        .prefetch_related(Prefetch("configurations", queryset=configs.order_by("slug")))
        .order_by("slug")
    )
    points = (
        BenchmarkPoint.objects.filter(configuration__in=configs)
        .select_related("machine")
        .prefetch_related("metrics")
        .only("id", "etr", "configuration_id", "response_time_ms", "request_bytes", "response_bytes", "machine__slug")
    )
    by_config: dict[int, list[BenchmarkPoint]] = {}
    for point in points:
        by_config.setdefault(point.configuration_id, []).append(point)
    statements = Statement.objects.filter(path__isnull=False).values_list("path_id", "configuration_id", "kind", "data")
    path_kinds: dict[int, dict[str, int]] = {}
    config_kinds: dict[int, set[str]] = {}
    cpu_statements: set[tuple[int, int | None]] = set()  # (path, configuration or None for path-wide)
    for path_id, config_id, kind, data in statements:
        counts = path_kinds.setdefault(path_id, {})
        counts[kind] = counts.get(kind, 0) + 1
        if config_id is not None:
            config_kinds.setdefault(config_id, set()).add(kind)
        if (kind, (data or {}).get("quantity")) in _CPU_STATEMENTS:
            cpu_statements.add((path_id, config_id))

    labels = dict(MetricName.choices)
    kind_labels = dict(StatementKind.choices)
    out: list[PathSummary] = []
    for path in paths:
        path_points: list[BenchmarkPoint] = []
        config_summaries = []
        for config in path.configurations.all():
            rows = by_config.get(config.id, [])
            path_points.extend(rows)
            cpu_rows = [p for p in rows if any(m.name.endswith(_BUSY_SUFFIX) for m in p.metrics.all())]
            kinds = config_kinds.get(config.id, set())
            config_summaries.append(
                ConfigurationSummary(
                    slug=config.slug,
                    name=config.name,
                    description=config.description,
                    points=len(rows),
                    cpu_points=len(cpu_rows),
                    etr=_range([p.etr for p in rows]),
                    response_times=any(p.response_time_ms is not None for p in rows),
                    statement_kinds=sorted(kinds),
                    basis=_configuration_basis(
                        len(cpu_rows),
                        {p.etr for p in cpu_rows},
                        bool({(path.id, config.id), (path.id, None)} & cpu_statements),
                    ),
                )
            )
        metric_names = {m.name for p in path_points for m in p.metrics.all()}
        bases = {c.basis for c in config_summaries}
        basis = CPU_FIT if CPU_FIT in bases else RATIOS_BOUNDS if RATIOS_BOUNDS in bases else NO_CPU
        out.append(
            PathSummary(
                slug=path.slug,
                name=path.name,
                description=path.description,
                native_machine=path.native_machine.slug,
                native_machine_name=path.native_machine.name,
                source_slug=path.source.slug,
                source_label=path.source.identifier or path.source.title,
                configurations=config_summaries,
                machines=sorted({p.machine.slug for p in path_points}),
                etr=_range([p.etr for p in path_points]),
                payloads=sorted({p.response_bytes for p in path_points if p.response_bytes is not None}),
                request_payloads=sorted({p.request_bytes for p in path_points if p.request_bytes is not None}),
                metrics=[labels[name] for name in MetricName.values if name in metric_names],
                statement_counts={kind_labels[k]: n for k, n in sorted(path_kinds.get(path.id, {}).items())},
                basis=basis,
            )
        )
    return out


def workbench_choices(*, user: AbstractBaseUser | AnonymousUser | None) -> dict[str, Any]:
    """The workbench's valid choices: each path with its configurations, and the machines that
    have LSPR ratings (an estimate projects the published cost onto any of them)."""
    paths = [
        {
            "slug": p.slug,
            "name": p.name,
            "native_machine": p.native_machine,
            "basis": p.basis,
            "configurations": [
                {"slug": c.slug, "name": c.name, "basis": c.basis, "basis_text": c.basis_text, "etr": _etr_dict(c.etr)}
                for c in p.configurations
            ],
        }
        for p in path_summaries(user=user)
        if p.configurations
    ]
    machines = sorted(
        (
            {"slug": m.slug, "name": m.name, "machine_type": m.machine_type, "generation": m.generation}
            for m in Machine.objects.filter(ratings__isnull=False).distinct()
        ),
        key=_newest_first,
    )
    return {"paths": paths, "machines": machines, "default_machine": current_machine()}


def _newest_first(machine: dict[str, str]) -> tuple[int, str]:
    """Newest generation first (z17, z16, ..., zEC12, z10); within one, the large machine (the
    lower type number: 9175 before 9176, 3931 before 3932) before the smaller one."""
    digits = re.search(r"(\d+)", machine["generation"] or machine["slug"])
    return (-int(digits.group(1)) if digits else 0, machine["machine_type"])


def current_machine() -> str | None:
    """The default target: the machine with the highest rated capacity of one CP (a full-speed
    CP of the newest generation rated), read from the ratings rather than a list of names."""
    fastest = CapacityRating.objects.filter(cps=1).select_related("machine").order_by("-mips").first()
    return None if fastest is None else fastest.machine.slug


#: The example the workbench opens on: the best-measured path (FiTeq multi-region, 17 points in
#: REDP-5114 Tables 11-1 and 11-2, CPU per address space at each ETR) at the rate its Table 11-1
#: reached (8,680.75 TPS), projected onto the fastest machine rated, at 7,000 TPS: the rate rounded
#: down to a thousand within the 85 % ceiling of its fitted software station (0.85 x 8,830 = 7,505
#: TPS; at 8,000 the station runs at 91 % and the answer does not fit, models_lib.feasibility).
EXAMPLE_PATH = "fiteq-authenticator"
EXAMPLE_CONFIGURATION = "multi-region"
EXAMPLE_TPS = 7000


def workbench_example(*, user: AbstractBaseUser | AnonymousUser | None) -> dict[str, Any]:
    """Inputs of the opening example: a well-measured path on a current machine.

    "Current" is read from the ratings, not from a list of names: the machine with the highest
    rated capacity of one CP (a full-speed CP of the newest generation rated).  Empty when the
    example path or any rating is missing (the page then opens empty)."""
    if not any(
        p.slug == EXAMPLE_PATH and any(c.slug == EXAMPLE_CONFIGURATION for c in p.configurations)
        for p in path_summaries(user=user)
    ):
        return {}
    machine = current_machine()
    if machine is None:
        return {}
    return {"path": EXAMPLE_PATH, "configuration": EXAMPLE_CONFIGURATION, "machine": machine, "tps": EXAMPLE_TPS}


def _etr_dict(etr: EtrRange | None) -> dict[str, float] | None:
    return None if etr is None else {"low": etr.low, "high": etr.high}


# -- reference data browser --------------------------------------------------------------------


@dataclass
class SourceSummary:
    slug: str
    label: str
    title: str
    publisher: str
    published: str
    paths: list[str]
    points: int
    statements: int


def source_summaries(*, user: AbstractBaseUser | AnonymousUser | None) -> list[SourceSummary]:
    """Every source document with the paths it measures and how many points and statements it gave."""
    configs = visible_configurations(user=user)
    sources = SourceDocument.objects.annotate(
        n_points=Count("points", filter=Q(points__configuration__in=configs), distinct=True),
        n_statements=Count("statements", distinct=True),
    ).prefetch_related(Prefetch("paths", queryset=Path.objects.order_by("slug")))
    return [
        SourceSummary(
            slug=s.slug,
            label=s.identifier or s.title,
            title=s.title,
            publisher=s.publisher,
            published=s.published,
            paths=[p.slug for p in s.paths.all()],
            points=s.n_points,
            statements=s.n_statements,
        )
        for s in sources.order_by("slug")
    ]


@dataclass
class SourceDetail:
    source: SourceDocument
    paths: list[Path]
    points: list[BenchmarkPoint]
    statements: list[Statement]
    metric_columns: list[tuple[str, str]]

    def point_groups(self) -> list[tuple[str, list[tuple[BenchmarkPoint, list[Any]]]]]:
        """Points grouped by path/configuration, each with its metric cells in column order."""
        groups: dict[str, list[tuple[BenchmarkPoint, list[Any]]]] = {}
        for p in self.points:
            by_name = {m.name: m for m in p.metrics.all()}
            cells = [by_name.get(name) for name, _ in self.metric_columns]
            groups.setdefault(f"{p.configuration.path.slug} / {p.configuration.slug}", []).append((p, cells))
        return list(groups.items())


def _metric_label(label: str, units: set[tuple[str, int | None]]) -> str:
    """A column's heading with its unit ("LPAR busy, % of 10 engines"; "CICS CPU, % of one CP"):
    a busy % of ten engines and one of one CP must not read as the same scale."""
    if len(units) != 1:
        kinds = {u for u, _ in units}
        return f"{label}, % of the engines given per row" if kinds == {MetricUnit.PCT_OF_POOL} else label
    unit, engines = next(iter(units))
    words = {
        MetricUnit.PCT_ONE_CP: "% of one CP",
        MetricUnit.PCT_OF_POOL: f"% of {engines} engines" if engines else "% of the pool",
        MetricUnit.PCT_SHARE: "% share",
        MetricUnit.US_PER_TRAN: "µs of one CP per transaction",
        MetricUnit.MS_PER_TRAN: "ms of one CP per transaction",
    }
    return f"{label}, {words.get(MetricUnit(unit), unit)}" if unit in MetricUnit.values else label


def source_detail(*, user: AbstractBaseUser | AnonymousUser | None, slug: str) -> SourceDetail | None:
    """A source document with its points (metrics prefetched) and its statements."""
    source = SourceDocument.objects.filter(slug__iexact=slug).first()
    if source is None:
        return None
    points = list(
        BenchmarkPoint.objects.filter(source=source, configuration__in=visible_configurations(user=user))
        .select_related("configuration__path", "machine")
        .prefetch_related("metrics")
        .order_by("configuration__path__slug", "configuration__slug", "etr", "id")
    )
    statements = list(
        Statement.objects.filter(source=source).select_related("path", "configuration").order_by("kind", "key")
    )
    units: dict[str, set[tuple[str, int | None]]] = {}
    for p in points:
        for m in p.metrics.all():
            units.setdefault(m.name, set()).add((m.unit, m.engines))
    present = set(units)
    labels = {name: _metric_label(label, units.get(name, set())) for name, label in MetricName.choices}
    return SourceDetail(
        source=source,
        paths=list(source.paths.order_by("slug")),
        points=points,
        statements=statements,
        metric_columns=[(name, labels[name]) for name in MetricName.values if name in present],
    )
