"""Read-only API over published reference data."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers, viewsets
from rest_framework.renderers import BaseRenderer

from sizing.api import reference_serializers as s
from sizing.api.formats import TABLE_FORMATS, renderers, table_asked
from sizing.models import StatementKind
from sizing.selectors import reference as selectors

PATH_PARAM = OpenApiParameter("path", str, description="Path slug (case-insensitive)")
CONFIG_PARAM = OpenApiParameter("configuration", str, description="Configuration slug (case-insensitive)")
MACHINE_PARAM = OpenApiParameter("machine", str, description="Machine slug: z13, zec12, z10")
FORMAT_PARAM = OpenApiParameter(
    "format", str, enum=["json", *TABLE_FORMATS], description="csv, xlsx: all rows as a table with a header"
)


class ReferenceViewSet(viewsets.ReadOnlyModelViewSet[Any]):
    filter_backends: list[Any] = []


class MachineViewSet(ReferenceViewSet):
    """Machines the tool sizes for."""

    serializer_class = s.MachineSerializer
    lookup_field = "slug"

    def get_queryset(self) -> Any:
        return selectors.machine_list()


class SourceDocumentViewSet(ReferenceViewSet):
    """Source documents that the reference data were transcribed from."""

    serializer_class = s.SourceDocumentSerializer
    lookup_field = "slug"

    def get_queryset(self) -> Any:
        return selectors.source_list()


class PathViewSet(ReferenceViewSet):
    """Workload paths with their configurations."""

    serializer_class = s.PathSerializer
    lookup_field = "slug"

    def get_queryset(self) -> Any:
        return selectors.path_list(user=self.request.user)

    def get_object(self) -> Any:
        self.kwargs[self.lookup_field] = self.kwargs[self.lookup_field].lower()
        return super().get_object()


@extend_schema_view(list=extend_schema(parameters=[PATH_PARAM, CONFIG_PARAM, MACHINE_PARAM, FORMAT_PARAM]))
class BenchmarkPointViewSet(ReferenceViewSet):
    """Published benchmark points with every CPU figure, unit and provenance."""

    def get_renderers(self) -> list[BaseRenderer]:
        return renderers("json", *TABLE_FORMATS, browsable=True)

    def _is_table(self) -> bool:
        return table_asked(self.request) is not None

    def get_serializer_class(self) -> Any:
        return s.BenchmarkPointCSVSerializer if self._is_table() else s.BenchmarkPointSerializer

    def paginate_queryset(self, queryset: Any) -> Any:
        return None if self._is_table() else super().paginate_queryset(queryset)

    def get_queryset(self) -> Any:
        params = self.request.query_params
        return selectors.points_for(
            user=self.request.user,
            path=params.get("path"),
            configuration=params.get("configuration"),
            machine=params.get("machine"),
        )


class _StatementFilter(serializers.Serializer[Any]):
    path = serializers.CharField(required=False)
    kind = serializers.ChoiceField(choices=StatementKind.choices, required=False)
    source = serializers.CharField(required=False)  # type: ignore[assignment]  # the API's field named source shadows Field.source in the stubs


@extend_schema_view(
    list=extend_schema(
        parameters=[
            PATH_PARAM,
            OpenApiParameter("kind", str, enum=StatementKind.values),
            OpenApiParameter("source", str, description="Source document slug"),
        ]
    )
)
class StatementViewSet(ReferenceViewSet):
    """Published statements (ratios, bounds, eligibility, traces...) with provenance."""

    serializer_class = s.StatementSerializer

    def get_queryset(self) -> Any:
        if self.action != "list":
            return selectors.statement_list()
        params = _StatementFilter(data=self.request.query_params)
        params.is_valid(raise_exception=True)
        return selectors.statement_list(**params.validated_data)


class _RatingFilter(serializers.Serializer[Any]):
    machine = serializers.CharField(required=False)
    type = serializers.RegexField(r"^\d{4}$", required=False)
    generation = serializers.CharField(required=False, max_length=40)
    setting = serializers.RegexField(r"^([4-7]00|[A-Za-z]00)$", required=False)
    model = serializers.CharField(required=False, max_length=20)
    cps = serializers.IntegerField(required=False, min_value=1, max_value=256)


@extend_schema_view(
    list=extend_schema(
        parameters=[
            MACHINE_PARAM,
            OpenApiParameter("type", str, description="Machine type, e.g. 3931"),
            OpenApiParameter("generation", str, description="Generation, e.g. z16"),
            OpenApiParameter("setting", str, description="Capacity setting: 400..700 or A00..Z00"),
            OpenApiParameter("model", str, description="Model capacity identifier, e.g. 3931-710"),
            OpenApiParameter("cps", OpenApiTypes.INT, description="CP count"),
        ]
    )
)
class CapacityRatingViewSet(ReferenceViewSet):
    """LSPR multi-image AVERAGE ratings (MIPS, MSU) of every z/OS model, by machine, setting and CPs."""

    serializer_class = s.CapacityRatingSerializer

    def get_queryset(self) -> Any:
        if self.action != "list":
            return selectors.capacity_rating_list()
        params = _RatingFilter(data=self.request.query_params)
        params.is_valid(raise_exception=True)
        data = dict(params.validated_data)
        if "type" in data:
            data["machine_type"] = data.pop("type")
        return selectors.capacity_rating_list(**data)


class EngineRuleViewSet(ReferenceViewSet):
    """Specialty-engine rules per machine generation, with the documents they come from."""

    serializer_class = s.EngineRuleSerializer
    pagination_class = None

    def get_queryset(self) -> Any:
        return selectors.engine_rule_list()
