"""Loading published reference data from ``benchmarks/`` into the database.

All files are validated first (``sizing.reference_format``); then everything is written in one
transaction.  Rows are matched on stable keys, a row is saved only when a value changed, and
rows that a source file no longer contains are deleted, so a second run changes nothing and an
edited value updates its row.  A load that changed anything starts a new reference-data
version (``bump_reference_version``), so cached fits and answers are dropped in every process.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

from django.db import transaction
from django.db.models import Model

from sizing.models import (
    BenchmarkPoint,
    CapacityRating,
    Configuration,
    EngineRule,
    Machine,
    Path,
    PointMetric,
    SourceDocument,
    Statement,
    Visibility,
)
from sizing.reference_format import ReferenceData, read_reference_data
from sizing.services.reference_version import bump_reference_version


@dataclass
class LoadReport:
    counts: Counter[str] = field(default_factory=Counter)

    def record(self, model: type[Model], status: str) -> None:
        self.counts[f"{model.__name__}.{status}"] += 1

    @property
    def changed(self) -> int:
        return sum(n for key, n in self.counts.items() if not key.endswith(".unchanged"))

    def summary(self) -> str:
        by_model: dict[str, dict[str, int]] = {}
        for key, n in sorted(self.counts.items()):
            model, status = key.split(".")
            by_model.setdefault(model, {})[status] = n
        lines = []
        for model, statuses in by_model.items():
            lines.append(f"{model}: " + ", ".join(f"{n} {status}" for status, n in sorted(statuses.items())))
        return "\n".join(lines)


def _upsert(report: LoadReport, model: type[Model], lookup: dict[str, Any], values: dict[str, Any]) -> Any:
    obj = model._default_manager.filter(**lookup).first()
    if obj is None:
        obj = model._default_manager.create(**lookup, **values)
        report.record(model, "created")
        return obj
    changed = [name for name, value in values.items() if getattr(obj, name) != value]
    if changed:
        for name in changed:
            setattr(obj, name, values[name])
        obj.save(update_fields=changed)
        report.record(model, "updated")
    else:
        report.record(model, "unchanged")
    return obj


def _delete_stale(report: LoadReport, queryset: Any, keep_ids: set[int]) -> None:
    stale = queryset.exclude(id__in=keep_ids)
    for _ in range(stale.count()):
        report.record(queryset.model, "deleted")
    stale.delete()


def benchmarks_load(*, directory: FsPath) -> LoadReport:
    """Validate and load every reference-data file in ``directory``.

    Raises ``ReferenceDataError`` (file, entry, reason) before writing anything if a file is
    invalid; database errors roll the whole load back.
    """
    data = read_reference_data(directory)
    with transaction.atomic():
        report = _write(data)
        if report.changed:
            bump_reference_version()
        return report


def _write(data: ReferenceData) -> LoadReport:
    report = LoadReport()
    machines = {
        m["slug"]: _upsert(report, Machine, {"slug": m["slug"]}, {k: v for k, v in m.items() if k != "slug"})
        for m in data.machines
    }
    machines_by_type = {m.machine_type: m for m in machines.values()}

    sources: dict[str, SourceDocument] = {}
    for src in data.sources:
        values = {k: v for k, v in src.source.items() if k != "slug"}
        sources[src.file] = _upsert(report, SourceDocument, {"slug": src.source["slug"]}, values)

    paths: dict[str, Path] = {}
    configs: dict[tuple[str, str], Configuration] = {}
    for src in data.sources:
        for p in src.paths:
            path = _upsert(
                report,
                Path,
                {"slug": p["slug"]},
                {
                    "name": p["name"],
                    "description": p["description"],
                    "native_machine": machines[p["native_machine"]],
                    "source": sources[src.file],
                },
            )
            paths[p["slug"]] = path
            keep = set()
            for c in p["configurations"]:
                config = _upsert(
                    report,
                    Configuration,
                    {"path": path, "slug": c["slug"], "visibility": Visibility.PUBLISHED},
                    {"name": c["name"], "description": c["description"], "attributes": c["attributes"]},
                )
                configs[(p["slug"], c["slug"])] = config
                keep.add(config.id)
            # Published configurations dropped from the file go; private calibrations stay.
            _delete_stale(
                report,
                Configuration.objects.filter(
                    path=path, visibility=Visibility.PUBLISHED, points__isnull=True, statements__isnull=True
                ),
                keep,
            )

    for src in data.sources:
        source = sources[src.file]
        keep_points = set()
        for pt in src.points:
            values = {k: v for k, v in pt.items() if k not in {"key", "path", "configuration", "machine", "metrics"}}
            values["configuration"] = configs[(pt["path"], pt["configuration"])]
            values["machine"] = machines[pt["machine"]]
            point = _upsert(report, BenchmarkPoint, {"source": source, "key": pt["key"]}, values)
            keep_points.add(point.id)
            keep_metrics = set()
            for metric in pt["metrics"]:
                row = _upsert(
                    report,
                    PointMetric,
                    {"point": point, "name": metric["name"]},
                    {"value": metric["value"], "unit": metric["unit"], "engines": metric["engines"]},
                )
                keep_metrics.add(row.id)
            _delete_stale(report, PointMetric.objects.filter(point=point), keep_metrics)
        _delete_stale(report, BenchmarkPoint.objects.filter(source=source), keep_points)

        keep_statements = set()
        for st in src.statements:
            values = {k: v for k, v in st.items() if k not in {"key", "path", "configuration"}}
            values["path"] = paths.get(st["path"]) if st["path"] else None
            values["configuration"] = configs[(st["path"], st["configuration"])] if st["configuration"] else None
            statement = _upsert(report, Statement, {"source": source, "key": st["key"]}, values)
            keep_statements.add(statement.id)
        _delete_stale(report, Statement.objects.filter(source=source), keep_statements)

    # Ratings and engine rules come only from files: whatever no file holds any more goes.
    _write_ratings(report, data, sources, machines_by_type)
    keep_rules: set[int] = set()
    for src in data.sources:
        for rule in src.engine_rules:
            values = {k: v for k, v in rule.items() if k != "generation"}
            values["source"] = sources[src.file]
            keep_rules.add(_upsert(report, EngineRule, {"generation": rule["generation"]}, values).id)
    _delete_stale(report, EngineRule.objects.all(), keep_rules)
    return report


def _write_ratings(
    report: LoadReport, data: ReferenceData, sources: dict[str, SourceDocument], machines_by_type: dict[str, Machine]
) -> None:
    """The same match-on-key rules as :func:`_upsert`, in bulk: the capacity table has thousands of rows."""
    existing = {(r.machine_id, r.capacity_setting, r.cps): r for r in CapacityRating.objects.all()}
    create: list[CapacityRating] = []
    update: list[CapacityRating] = []
    keep: set[int] = set()
    for src in data.sources:
        source = sources[src.file]
        for row in src.ratings:
            if row.get("skip"):
                continue
            machine = machines_by_type[row["machine_type"]]
            values = {"model": row["model"], "mips": row["mips"], "msu": row["msu"], "source_id": source.id}
            obj = existing.get((machine.id, row["capacity_setting"], row["cps"]))
            if obj is None:
                create.append(
                    CapacityRating(machine=machine, capacity_setting=row["capacity_setting"], cps=row["cps"], **values)
                )
                report.record(CapacityRating, "created")
                continue
            keep.add(obj.id)
            if any(getattr(obj, name) != value for name, value in values.items()):
                for name, value in values.items():
                    setattr(obj, name, value)
                update.append(obj)
                report.record(CapacityRating, "updated")
            else:
                report.record(CapacityRating, "unchanged")
    _delete_stale(report, CapacityRating.objects.all(), keep)
    CapacityRating.objects.bulk_update(update, ["model", "mips", "msu", "source_id"], batch_size=500)
    CapacityRating.objects.bulk_create(create, batch_size=500)
