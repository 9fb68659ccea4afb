"""Serializers for published reference data (read-only)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from sizing.models import (
    BenchmarkPoint,
    CapacityRating,
    Configuration,
    EngineRule,
    Machine,
    MetricName,
    Path,
    PointMetric,
    SourceDocument,
    Statement,
)

#: Slugs as published: lower case, digits, '-', '_' and '.' (``v5.2``), so not an OpenAPI slug pattern.
SLUG_HELP = "identifier, e.g. fiteq-authenticator or v5.2"


class MachineSerializer(serializers.ModelSerializer[Machine]):
    slug = serializers.CharField(read_only=True, help_text=SLUG_HELP)

    class Meta:
        model = Machine
        fields = ["id", "slug", "name", "machine_type", "generation"]


class SourceDocumentSerializer(serializers.ModelSerializer[SourceDocument]):
    slug = serializers.CharField(read_only=True, help_text=SLUG_HELP)

    class Meta:
        model = SourceDocument
        fields = [
            "id",
            "slug",
            "title",
            "publisher",
            "identifier",
            "published",
            "authors",
            "seed_file",
            "data_file",
            "notes",
        ]


class ConfigurationSerializer(serializers.ModelSerializer[Configuration]):
    slug = serializers.CharField(read_only=True, help_text=SLUG_HELP)

    class Meta:
        model = Configuration
        fields = ["id", "slug", "name", "description", "attributes", "visibility"]


class PathSerializer(serializers.ModelSerializer[Path]):
    slug = serializers.CharField(read_only=True, help_text=SLUG_HELP)
    native_machine = serializers.SlugRelatedField[Machine](slug_field="slug", read_only=True)
    source = serializers.SlugRelatedField[SourceDocument](slug_field="slug", read_only=True)  # type: ignore[assignment]  # the API's field named source shadows Field.source in the stubs
    configurations = ConfigurationSerializer(many=True, read_only=True)

    class Meta:
        model = Path
        fields = ["id", "slug", "name", "description", "native_machine", "source", "configurations"]


class PointMetricSerializer(serializers.ModelSerializer[PointMetric]):
    class Meta:
        model = PointMetric
        fields = ["name", "value", "unit", "engines"]


class BenchmarkPointSerializer(serializers.ModelSerializer[BenchmarkPoint]):
    source = serializers.SlugRelatedField[SourceDocument](slug_field="slug", read_only=True)  # type: ignore[assignment]  # the API's field named source shadows Field.source in the stubs
    path = serializers.CharField(source="configuration.path.slug", read_only=True)
    configuration = serializers.CharField(source="configuration.slug", read_only=True)
    machine = serializers.SlugRelatedField[Machine](slug_field="slug", read_only=True)
    metrics = PointMetricSerializer(many=True, read_only=True)

    class Meta:
        model = BenchmarkPoint
        fields = [
            "id", "key", "source", "path", "configuration", "machine", "reference", "reference_text",
            "lpar_cps", "ziips", "zaaps", "clients", "think_time_s", "request_bytes", "response_bytes",
            "etr", "etr_approximate", "response_time_ms", "metrics", "notes",
        ]  # fmt: skip


class BenchmarkPointCSVSerializer(BenchmarkPointSerializer):
    """One flat row per point: each metric becomes ``<name>``, ``<name>_unit`` (and ``_engines``)."""

    def to_representation(self, instance: BenchmarkPoint) -> dict[str, Any]:
        row = super().to_representation(instance)
        metrics = {m["name"]: m for m in row.pop("metrics")}
        reference = row.pop("reference")
        row["reference"] = row.pop("reference_text")
        row.update({f"ref_{k}": reference.get(k) for k in ("table", "figure", "section", "page")})
        for name in MetricName.values:
            metric = metrics.get(name)
            row[name] = metric["value"] if metric else None
            row[f"{name}_unit"] = metric["unit"] if metric else None
            if metric and metric["engines"] is not None:
                row[f"{name}_engines"] = metric["engines"]
        notes = row.pop("notes")
        row["notes"] = notes
        return row


class StatementSerializer(serializers.ModelSerializer[Statement]):
    source = serializers.SlugRelatedField[SourceDocument](slug_field="slug", read_only=True)  # type: ignore[assignment]  # the API's field named source shadows Field.source in the stubs
    path = serializers.SlugRelatedField[Path](slug_field="slug", read_only=True, allow_null=True)
    configuration = serializers.SlugRelatedField[Configuration](slug_field="slug", read_only=True, allow_null=True)

    class Meta:
        model = Statement
        fields = [
            "id",
            "key",
            "kind",
            "source",
            "path",
            "configuration",
            "reference",
            "reference_text",
            "text",
            "data",
            "notes",
        ]


class CapacityRatingSerializer(serializers.ModelSerializer[CapacityRating]):
    machine = serializers.SlugRelatedField[Machine](slug_field="slug", read_only=True)
    machine_type = serializers.CharField(source="machine.machine_type", read_only=True)
    source = serializers.SlugRelatedField[SourceDocument](slug_field="slug", read_only=True)  # type: ignore[assignment]  # the API's field named source shadows Field.source in the stubs
    mips_per_cp = serializers.SerializerMethodField()

    generation = serializers.CharField(source="machine.generation", read_only=True)
    msu_per_cp = serializers.SerializerMethodField()

    class Meta:
        model = CapacityRating
        fields = [
            "id",
            "machine",
            "machine_type",
            "generation",
            "model",
            "capacity_setting",
            "cps",
            "mips",
            "msu",
            "mips_per_cp",
            "msu_per_cp",
            "source",
        ]

    def get_mips_per_cp(self, obj: CapacityRating) -> float:
        return obj.mips / obj.cps

    def get_msu_per_cp(self, obj: CapacityRating) -> float:
        return obj.msu / obj.cps


class EngineRuleSerializer(serializers.ModelSerializer[EngineRule]):
    source = serializers.SlugRelatedField[SourceDocument](slug_field="slug", read_only=True)  # type: ignore[assignment]  # the API's field named source shadows Field.source in the stubs

    class Meta:
        model = EngineRule
        fields = [
            "id",
            "generation",
            "machine_types",
            "java_engine",
            "ziips_per_cp",
            "zaaps_per_cp",
            "min_cps_per_lpar",
            "specialty_full_speed",
            "smt2_ziip",
            "smt2_throughput_factor",
            "max_engines",
            "unconfirmed",
            "alternatives",
            "references",
            "reference_text",
            "notes",
            "source",
        ]
