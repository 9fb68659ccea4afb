"""Estimate endpoints: create and store, compute without storing (JSON, CSV or XLSX), list and read own."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from sizing.api.estimate_serializers import ErrorSerializer, EstimateInputSerializer, EstimateOutputSerializer
from sizing.api.formats import TABLE_FORMATS, OutputFormat, renderers, table_asked, table_response
from sizing.api.quotas import QUOTA_EXCEEDED, QuotaView
from sizing.api.renderers import XLSX_MEDIA_TYPE
from sizing.api.result_schema import EstimateAnswerSerializer, StoredEstimateSerializer
from sizing.api.throttles import ThrottledView
from sizing.models import Estimate
from sizing.records import EstimateRecord
from sizing.selectors.estimates import estimate_list
from sizing.services.estimate_csv import HEADER, UNITS, estimate_csv_row
from sizing.services.estimate_inputs import estimate_inputs
from sizing.services.estimates import estimate_answer_record, estimate_create, estimate_delete
from sizing.services.list_inputs import MAX_LISTED_IDS, comma_items
from sizing.users import signed_in_user

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input: field name -> list of reasons"),
    401: OpenApiResponse(ErrorSerializer, description="Not authenticated"),
    429: OpenApiResponse(ErrorSerializer, description="Throttled"),
}


class _ListFilter(serializers.Serializer[Any]):
    path = serializers.CharField(required=False)
    configuration = serializers.CharField(required=False)
    machine = serializers.CharField(required=False)
    ids = serializers.RegexField(
        r"^\d+(,\d+)*$",
        required=False,
        help_text=f"Only these estimates: ids separated by commas (e.g. 3,5), at most {MAX_LISTED_IDS}",
    )

    def validate_ids(self, value: str) -> str:
        count = len(comma_items(value))
        if count > MAX_LISTED_IDS:
            raise serializers.ValidationError(f"At most {MAX_LISTED_IDS} ids; got {count:,}.")
        return value


def _table_response(fmt: OutputFormat, records: list[EstimateRecord], stem: str) -> Response:
    """One row per estimate, with the header every estimate table has (docs/csv.md)."""
    rows = [estimate_csv_row(record) for record in records]
    return table_response(fmt, header=HEADER, rows=rows, stem=stem, units=[UNITS[name] for name in HEADER])


FORMAT_ENUM = ["json", *TABLE_FORMATS]


class EstimateViewSet(
    ThrottledView,
    QuotaView,
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[Estimate],
):
    """Stored estimates, each owned by the engineer who made it."""

    throttle_scopes = {"create": "writes", "destroy": "writes", "list": "estimates", "retrieve": "estimates"}
    quota_actions = {"create": "estimates"}
    list_quota = "estimates"
    serializer_class = EstimateOutputSerializer

    def get_queryset(self) -> QuerySet[Estimate]:
        if getattr(self, "swagger_fake_view", False):  # the OpenAPI generator has no signed-in user
            return Estimate.objects.none()
        filters: dict[str, Any] = {}
        if self.action == "list":
            params = _ListFilter(data=self.request.query_params)
            params.is_valid(raise_exception=True)
            filters = dict(params.validated_data)
        ids = filters.pop("ids", None)
        qs = estimate_list(user=signed_in_user(self.request), **filters)
        return qs.filter(pk__in=[int(i) for i in ids.split(",")]) if ids else qs

    def get_renderers(self) -> list[BaseRenderer]:
        # Saved estimates as a table (?format=csv, ?format=xlsx): the pages' "Download" links.
        if self.action in ("list", "retrieve"):
            return renderers("json", *TABLE_FORMATS, browsable=True)
        return super().get_renderers()

    @extend_schema(
        request=EstimateInputSerializer,
        responses={201: StoredEstimateSerializer, **ERRORS, **QUOTA_EXCEEDED},
        summary="Size a scenario and store the estimate",
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        inputs = estimate_inputs(request.data)
        estimate = estimate_create(user=signed_in_user(request), inputs=inputs)
        body = EstimateOutputSerializer(estimate, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": str(body["url"])})

    @extend_schema(
        parameters=[
            OpenApiParameter("path", str),
            OpenApiParameter("configuration", str),
            OpenApiParameter("machine", str),
            OpenApiParameter(
                "ids",
                {"type": "string", "pattern": r"^(\d+(,\d+)*)?$"},
                description="Only these estimates: ids separated by commas (empty: all)",
            ),
            OpenApiParameter(
                "format", str, enum=FORMAT_ENUM, description="csv, xlsx: every estimate, one flat row each"
            ),
        ],
        responses={200: StoredEstimateSerializer(many=True), **ERRORS},
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        fmt = table_asked(request)
        if fmt is not None:
            rows = EstimateOutputSerializer(self.get_queryset(), many=True, context={"request": request}).data
            return _table_response(fmt, [EstimateRecord.from_dict(row) for row in rows], "zsizer-estimates")
        return super().list(request, *args, **kwargs)

    @extend_schema(
        parameters=[OpenApiParameter("format", str, enum=FORMAT_ENUM, description="csv, xlsx: one flat row")],
        responses={200: StoredEstimateSerializer, 404: OpenApiResponse(ErrorSerializer), **ERRORS},
    )
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        fmt = table_asked(request)
        if fmt is not None:
            estimate = self.get_object()
            row = EstimateOutputSerializer(estimate, context={"request": request}).data
            return _table_response(fmt, [EstimateRecord.from_dict(row)], f"zsizer-estimate-{estimate.pk}")
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(responses={204: None, 404: OpenApiResponse(ErrorSerializer), **ERRORS})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        estimate_delete(user=signed_in_user(request), estimate=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


class EstimateQueryView(ThrottledView, APIView):
    """Size a scenario without storing it: query parameters in, the answer out (JSON, or one
    row of CSV or XLSX)."""

    throttle_scopes = {"get": "estimates"}

    def get_renderers(self) -> list[BaseRenderer]:
        return renderers("json", *TABLE_FORMATS, browsable=True)

    @extend_schema(
        parameters=[EstimateInputSerializer, OpenApiParameter("format", str, enum=FORMAT_ENUM)],
        responses={
            (200, "application/json"): EstimateAnswerSerializer,
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="format=csv: a header and one row"),
            (200, XLSX_MEDIA_TYPE): OpenApiResponse(
                OpenApiTypes.BINARY, description="format=xlsx: a header (with units) and one row"
            ),
            **ERRORS,
        },
        summary="Size a scenario without storing it (format=csv or xlsx for one flat row with a header)",
    )
    def get(self, request: Request, **kwargs: Any) -> Response:
        params = {k: v for k, v in request.query_params.items() if k != "format"}
        inputs = estimate_inputs(params)
        record = estimate_answer_record(user=signed_in_user(request), inputs=inputs)
        fmt = table_asked(request)
        if fmt is not None:
            return _table_response(fmt, [record], "zsizer-estimate")
        return Response(record.to_dict())
