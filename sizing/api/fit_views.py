"""Which model fits (``GET /api/v1/fit``) and the upgrade comparison (``GET /api/v1/upgrade``):
validate, call one service, answer."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from sizing.api.estimate_serializers import ErrorSerializer
from sizing.api.throttles import ThrottledView
from sizing.services.fit import fit_compute, upgrade_compute
from sizing.services.fit_inputs import FitInputSerializer, UpgradeInputSerializer


class FitRowSerializer(serializers.Serializer[Any]):
    machine = serializers.CharField()
    machine_name = serializers.CharField()
    machine_type = serializers.CharField()
    generation = serializers.CharField()
    capacity_setting = serializers.CharField()
    kind = serializers.ChoiceField(choices=["full speed", "sub-capacity", "midrange"])
    fits = serializers.BooleanField(
        allow_null=True,
        help_text="a model of this setting carries the rate within the ceiling and goal; null: no CPU figures are "
        "published, so no verdict (reason says what is known)",
    )
    model = serializers.CharField(help_text="the smallest model that fits (or the largest tried)")
    cps = serializers.IntegerField(allow_null=True)
    ziips = serializers.IntegerField(allow_null=True)
    mips = serializers.FloatField(allow_null=True, help_text="LSPR MIPS of the model")
    msu = serializers.FloatField(allow_null=True, help_text="MSU of the model: what software is priced on")
    msu_used = serializers.FloatField(allow_null=True, help_text="MSU of the CP work at the rate")
    gcp_utilization = serializers.FloatField(allow_null=True)
    response_time_ms = serializers.FloatField(allow_null=True)
    saturation_tps = serializers.FloatField(allow_null=True)
    cps_range = serializers.ListField(
        child=serializers.FloatField(allow_null=True), allow_null=True, help_text="the estimate's range of CPs"
    )
    ziips_range = serializers.ListField(
        child=serializers.FloatField(allow_null=True), allow_null=True, help_text="the estimate's range of zIIPs"
    )
    saturation_range = serializers.ListField(
        child=serializers.FloatField(allow_null=True), allow_null=True, help_text="the estimate's saturation range"
    )
    reason = serializers.CharField(allow_blank=True)
    reason = serializers.CharField(
        allow_blank=True, help_text="why no model fits: the answer's does-not-fit sentence; or why there is no verdict"
    )
    max_tps = serializers.FloatField(allow_null=True, help_text="where none fits: the most TPS the setting carries")
    max_tps_cps = serializers.IntegerField(allow_null=True, help_text="CPs that carry max_tps")
    max_tps_ziips = serializers.IntegerField(allow_null=True, help_text="specialty engines beside them")
    cheapest_in_generation = serializers.BooleanField()
    cheapest = serializers.BooleanField()


class FitOutputSerializer(serializers.Serializer[Any]):
    path = serializers.CharField()
    configuration = serializers.CharField()
    tps = serializers.FloatField()
    max_utilization = serializers.FloatField()
    response_time_sla_ms = serializers.FloatField(allow_null=True)
    cheapest = serializers.CharField(allow_null=True, help_text="the model with the least MSU that fits")
    rows = FitRowSerializer(many=True)
    source = serializers.CharField()  # type: ignore[assignment]


ERRORS = {400: OpenApiResponse(ErrorSerializer, description="Invalid input: field name -> list of reasons")}


class FitView(ThrottledView, APIView):
    """For a rate (and a response-time goal), the smallest model of every capacity setting of each
    generation asked for, with its MSU; the cheapest in MSU marked."""

    throttle_scopes = {"get": "fit"}

    @extend_schema(
        parameters=[FitInputSerializer],
        responses={200: FitOutputSerializer, **ERRORS},
        summary="Which model fits: the smallest model per capacity setting and generation, cheapest in MSU marked",
    )
    def get(self, request: Request) -> Response:
        data = FitInputSerializer(data=request.query_params.dict())
        data.is_valid(raise_exception=True)
        body: dict[str, Any] = fit_compute(user=request.user, inputs=data.validated_data)  # type: ignore[arg-type]
        return Response(body)


class UpgradeColumnSerializer(serializers.Serializer[Any]):
    label = serializers.CharField()  # type: ignore[assignment]
    machine_type = serializers.CharField()
    model = serializers.CharField(help_text="model capacity identifier of the CPs sized (or given)")
    capacity_setting = serializers.CharField()
    cps = serializers.IntegerField(allow_null=True)
    cps_required = serializers.IntegerField(allow_null=True)
    ziips = serializers.IntegerField(allow_null=True)
    specialty_engine = serializers.CharField()
    mips_installed = serializers.FloatField(allow_null=True)
    mips_used = serializers.FloatField(allow_null=True)
    msu_installed = serializers.FloatField(allow_null=True)
    msu_used = serializers.FloatField(allow_null=True)
    specialty_mips_used = serializers.FloatField(allow_null=True)
    gcp_utilization = serializers.FloatField(allow_null=True)
    saturation_tps = serializers.FloatField(allow_null=True)
    saturation_range = serializers.ListField(child=serializers.FloatField(allow_null=True), allow_null=True)
    cps_range = serializers.ListField(child=serializers.FloatField(allow_null=True), allow_null=True)
    ziips_range = serializers.ListField(child=serializers.FloatField(allow_null=True), allow_null=True)
    response_time_ms = serializers.FloatField(allow_null=True)
    projection_factor = serializers.FloatField(allow_null=True)
    generation_gap = serializers.IntegerField(help_text="generation steps from the measured machine")
    projection_band = serializers.FloatField(
        help_text="relative error of the LSPR projection used in the ranges: the one given, else 0 (as the estimate)"
    )
    assumed_band = serializers.FloatField(
        help_text="the band assumed for this generation gap (5 % per step, not published): shown, not applied"
    )
    band_basis = serializers.CharField(help_text="which band the ranges carry, and the assumption")
    warnings = serializers.ListField(child=serializers.CharField())
    feasible = serializers.BooleanField(
        allow_null=True, help_text="false: the column does not carry the rate (see does_not_fit); null: no CPU verdict"
    )
    does_not_fit = serializers.CharField(allow_null=True, help_text="why not, and the most this target carries")
    max_tps = serializers.FloatField(allow_null=True, help_text="where it does not fit: the most TPS it carries")
    max_tps_cps = serializers.IntegerField(allow_null=True)
    max_tps_ziips = serializers.IntegerField(allow_null=True)


class UpgradeOutputSerializer(serializers.Serializer[Any]):
    path = serializers.CharField()
    configuration = serializers.CharField()
    tps = serializers.FloatField()
    measured = serializers.DictField(help_text="machine type and generation the source measured on")
    columns = UpgradeColumnSerializer(many=True, help_text="today's machine first, then each target")
    band_basis = serializers.CharField()
    source = serializers.CharField()  # type: ignore[assignment]


class UpgradeView(ThrottledView, APIView):
    """This workload on today's machine and on newer ones, side by side: CPs, zIIPs, MIPS, MSU,
    saturation, with the projection's uncertainty growing with the generation gap."""

    throttle_scopes = {"get": "fit"}

    @extend_schema(
        parameters=[UpgradeInputSerializer],
        responses={200: UpgradeOutputSerializer, **ERRORS},
        summary="Upgrade comparison: today's machine against newer generations",
    )
    def get(self, request: Request) -> Response:
        data = UpgradeInputSerializer(data=request.query_params.dict())
        data.is_valid(raise_exception=True)
        body: dict[str, Any] = upgrade_compute(user=request.user, inputs=data.validated_data)  # type: ignore[arg-type]
        return Response(body)
