"""GET /api/v1/models/: every fitted model with parameters, R-squared, n, ETR range and LOO errors."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from sizing.api.estimate_serializers import ErrorSerializer
from sizing.selectors.models import fitted_models
from sizing.users import signed_in_user


class LinearFitSummarySerializer(serializers.Serializer[Any]):
    """One component's fitted line (``models_lib.costmodel.LinearFit.summary``)."""

    slope_ms = serializers.FloatField(help_text="CP-ms per transaction")
    intercept_cps = serializers.FloatField(help_text="fixed busy CPs")
    r2 = serializers.FloatField(allow_null=True)
    n = serializers.IntegerField()
    etr_min = serializers.FloatField()
    etr_max = serializers.FloatField()
    slope_se_ms = serializers.FloatField(allow_null=True)
    intercept_se_cps = serializers.FloatField(allow_null=True)
    residual_std_cps = serializers.FloatField(allow_null=True)
    interval_basis = serializers.CharField(help_text="residuals or assumed-relative-sd")
    weighting = serializers.CharField(help_text="none or relative (points weighted by 1/ETR^2)")


_LOO_FIELDS: dict[str, serializers.Field[Any, Any, Any, Any]] = {
    "path": serializers.CharField(),
    "configuration": serializers.CharField(),
    "component": serializers.CharField(),
    "point_id": serializers.IntegerField(allow_null=True),
    "etr": serializers.FloatField(),
    "published_busy": serializers.FloatField(help_text="busy CPs as published"),
    "loo_predicted": serializers.FloatField(allow_null=True, help_text="busy CPs predicted without this point"),
    "relative_error": serializers.FloatField(allow_null=True),
}
_MODEL_FIELDS: dict[str, serializers.Field[Any, Any, Any, Any]] = {
    "path": serializers.CharField(),
    "configuration": serializers.CharField(),
    "machine": serializers.CharField(),
    "machine_type": serializers.CharField(),
    "lpar_cps": serializers.IntegerField(allow_null=True),
    "primary": serializers.CharField(allow_null=True),
    "points": serializers.ListField(child=serializers.IntegerField()),
    "fits": serializers.DictField(child=LinearFitSummarySerializer()),
    "leave_one_out": inline_serializer("LeaveOneOutRow", fields=_LOO_FIELDS, many=True),
    "loo_median_abs_error": serializers.FloatField(allow_null=True),
    "has_cpu_model": serializers.BooleanField(),
    "bounds": serializers.ListField(child=serializers.IntegerField()),
    "eligibility": serializers.IntegerField(allow_null=True),
}


class FittedModelsView(APIView):
    """Every configuration's CPU models (busy CPs = intercept + slope x ETR per component)."""

    @extend_schema(
        parameters=[OpenApiParameter("path", str, description="Only this path")],
        responses={
            200: inline_serializer("FittedModel", fields=_MODEL_FIELDS, many=True),
            401: OpenApiResponse(ErrorSerializer),
        },
    )
    def get(self, request: Request) -> Response:
        return Response(fitted_models(user=signed_in_user(request), path=request.query_params.get("path")))
