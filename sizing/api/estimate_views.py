"""Estimate endpoints: create and store, compute without storing (JSON or CSV), list and read own."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import models_lib
from sizing.api.estimate_serializers import ErrorSerializer, EstimateInputSerializer, EstimateOutputSerializer
from sizing.api.quotas import QUOTA_EXCEEDED, QuotaView
from sizing.api.renderers import CSVRenderer, CsvRows
from sizing.api.result_schema import EstimateAnswerSerializer, StoredEstimateSerializer
from sizing.api.throttles import ThrottledView
from sizing.models import Estimate
from sizing.selectors.estimates import estimate_list
from sizing.services.estimate_csv import HEADER, estimate_csv_row, stored_estimate_record
from sizing.services.estimate_inputs import validated_estimate_inputs
from sizing.services.estimates import estimate_compute, estimate_create, estimate_delete, normalised_inputs
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


def _csv_response(rows: list[dict[str, Any]], filename: str) -> Response:
    """One row per saved estimate, with the header every estimate CSV has (docs/csv.md)."""
    cells = [estimate_csv_row(stored_estimate_record(row)) for row in rows]
    return Response(CsvRows(HEADER, cells), headers={"Content-Disposition": f'attachment; filename="{filename}"'})


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
        # Saved estimates as CSV (?format=csv): the pages' "Download CSV" links.
        if self.action in ("list", "retrieve"):
            return [JSONRenderer(), BrowsableAPIRenderer(), CSVRenderer()]
        return super().get_renderers()

    @extend_schema(
        request=EstimateInputSerializer,
        responses={201: StoredEstimateSerializer, **ERRORS, **QUOTA_EXCEEDED},
        summary="Size a scenario and store the estimate",
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        estimate = estimate_create(user=signed_in_user(request), inputs=validated_estimate_inputs(request.data))
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
            OpenApiParameter("format", str, enum=["json", "csv"], description="csv: every estimate, one flat row each"),
        ],
        responses={200: StoredEstimateSerializer(many=True), **ERRORS},
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if getattr(request.accepted_renderer, "format", None) == "csv":
            rows = EstimateOutputSerializer(self.get_queryset(), many=True, context={"request": request}).data
            return _csv_response(list(rows), "zsizer-estimates.csv")
        return super().list(request, *args, **kwargs)

    @extend_schema(
        parameters=[OpenApiParameter("format", str, enum=["json", "csv"], description="csv: one flat row")],
        responses={200: StoredEstimateSerializer, 404: OpenApiResponse(ErrorSerializer), **ERRORS},
    )
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if getattr(request.accepted_renderer, "format", None) == "csv":
            estimate = self.get_object()
            row = EstimateOutputSerializer(estimate, context={"request": request}).data
            return _csv_response([row], f"zsizer-estimate-{estimate.pk}.csv")
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(responses={204: None, 404: OpenApiResponse(ErrorSerializer), **ERRORS})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        estimate_delete(user=signed_in_user(request), estimate=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


class EstimateQueryView(ThrottledView, APIView):
    """Size a scenario without storing it: query parameters in, the answer out (JSON or one CSV row)."""

    throttle_scopes = {"get": "estimates"}
    renderer_classes = [JSONRenderer, BrowsableAPIRenderer, CSVRenderer]

    @extend_schema(
        parameters=[EstimateInputSerializer, OpenApiParameter("format", str, enum=["json", "csv"])],
        responses={
            (200, "application/json"): EstimateAnswerSerializer,
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="format=csv: a header and one row"),
            **ERRORS,
        },
        summary="Size a scenario without storing it (format=csv for one flat row with a header)",
    )
    def get(self, request: Request, **kwargs: Any) -> Response:
        params = {k: v for k, v in request.query_params.items() if k != "format"}
        inputs = validated_estimate_inputs(params)
        config_row, machine_row, outputs = estimate_compute(user=signed_in_user(request), inputs=inputs)
        body = {
            "inputs": normalised_inputs(inputs, config_row, machine_row),
            "model_version": models_lib.__version__,
            **outputs,
        }
        if getattr(request.accepted_renderer, "format", None) == "csv":
            return Response(CsvRows(HEADER, [estimate_csv_row(body)]))
        return Response(body)
