"""RMF report reading and private calibrations: parse, create, list, read, delete (own only)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.db import transaction
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from models_lib.calibration import MAX_INTERVALS, interval_from_section
from models_lib.rmf import MAX_REPORT_CHARS, parse_workload_activity
from sizing.api.calibration_schema import CalibrationFitSerializer, RmfParseOutputSerializer, StoredIntervalSerializer
from sizing.api.estimate_serializers import ErrorSerializer
from sizing.api.parsers import StrictJSONParser
from sizing.api.quotas import QUOTA_EXCEEDED, QuotaView
from sizing.api.throttles import ThrottledView
from sizing.models import Calibration
from sizing.selectors.calibrations import calibration_fit, calibration_list
from sizing.services.calibrations import calibration_delete, calibration_prepare, calibration_store
from sizing.services.input_fields import BoundedListField, StrictIntegerField
from sizing.users import signed_in_user

#: Largest request body read (bytes): the longest report plus JSON quoting of its tabs.
MAX_BODY_BYTES = 2 * MAX_REPORT_CHARS

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input: field name -> list of reasons"),
    401: OpenApiResponse(ErrorSerializer, description="Not authenticated"),
}


class PlainTextParser(BaseParser):
    """``text/plain`` body: the report itself (``curl --data-binary @report.txt``)."""

    media_type = "text/plain"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> dict[str, str]:
        body = stream.read(MAX_BODY_BYTES + 1) if stream is not None else b""
        try:
            return {"text": body.decode("utf-8")}
        except UnicodeDecodeError as exc:
            raise ParseError(f"text: not UTF-8 text (byte {exc.start}): paste the report as text") from None


def _check_size(request: Request) -> None:
    """Refuse an oversized body before reading it (400 naming the limit)."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > MAX_BODY_BYTES:
        raise ValidationError({"text": [f"the request is {length:,} bytes; at most {MAX_BODY_BYTES:,} are read"]})


#: What every readable report has: a line starting "-TRANSACTIONS-" (a section's grid; the parser
#: reads a line with its blanks removed, models_lib/rmf.py).  Text without one is refused, and the
#: schema says so.
RMF_SECTION_PATTERN = r"(^|\n)[ \t]*-[ \t]*[Tt][ \t]*[Rr][ \t]*[Aa][ \t]*[Nn][ \t]*[Ss][ \t]*[Aa][ \t]*[Cc][ \t]*[Tt]"


@extend_schema_field({"type": "string", "minLength": 1, "maxLength": MAX_REPORT_CHARS, "pattern": RMF_SECTION_PATTERN})
class RmfTextField(serializers.CharField):
    """RMF Workload Activity report text (at least one section)."""


class ParseInputSerializer(serializers.Serializer[Any]):
    text = RmfTextField(max_length=MAX_REPORT_CHARS, trim_whitespace=False, help_text="RMF report text")
    component = serializers.ChoiceField(
        choices=["lpar", "cics", "tor", "aor", "for"], default="lpar", help_text="what the sections' CPU covers"
    )


class RmfParseView(ThrottledView, APIView):
    """Read an RMF Workload Activity report: every section's values, and the intervals they measure."""

    throttle_scopes = {"post": "calibrations"}

    # JSON ({"text": ...}), or the report itself as text/plain (curl --data-binary @report.txt);
    # the schema declares JSON, the one body a generated client sends.
    parser_classes = [StrictJSONParser, PlainTextParser]

    @extend_schema(
        request={"application/json": ParseInputSerializer},
        responses={200: RmfParseOutputSerializer, **ERRORS},
        summary="Parse RMF Workload Activity report text (nothing is stored)",
    )
    def post(self, request: Request) -> Response:
        _check_size(request)
        data = ParseInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            report = parse_workload_activity(data.validated_data["text"])
        except ValueError as exc:
            raise ValidationError({"text": [str(exc)]}) from None
        sections = []
        intervals = []
        for section in report.sections:
            try:
                interval = interval_from_section(section, data.validated_data["component"])
            except ValueError as exc:
                raise ValidationError({"text": [str(exc)]}) from None
            body = asdict(section)
            body["cp_seconds_per_transaction"] = section.cp_seconds_per_transaction()
            body["specialty_eligible_fraction"] = section.appl.specialty_eligible_fraction()
            sections.append(body)
            if interval is not None:
                intervals.append(interval.to_dict())
        return Response({"sections": sections, "intervals": intervals})


class CalibrationInputSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=200)
    path = serializers.CharField(max_length=60, help_text="Workload path the measurements are of")
    model = serializers.CharField(max_length=20, help_text="Current model capacity identifier, e.g. 2964-708")
    cps = StrictIntegerField(required=False, allow_null=True, min_value=1, max_value=256, help_text="LPAR CPs")
    ziips = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=256, help_text="LPAR zIIPs")
    component = serializers.CharField(required=False, default="lpar", max_length=10)
    intervals = BoundedListField(
        child=serializers.DictField(), required=False, max_length=MAX_INTERVALS, help_text="measured intervals"
    )
    rmf_text = RmfTextField(required=False, max_length=MAX_REPORT_CHARS, trim_whitespace=False)
    csv_text = serializers.CharField(required=False, max_length=MAX_REPORT_CHARS, trim_whitespace=False)


@extend_schema_field(StoredIntervalSerializer(many=True))
class StoredIntervalsField(serializers.JSONField):
    """The stored intervals, returned as stored; typed for the schema."""


class CalibrationOutputSerializer(serializers.ModelSerializer[Calibration]):
    url = serializers.HyperlinkedIdentityField(view_name="calibration-detail")
    path = serializers.CharField(source="configuration.path.slug")
    configuration = serializers.CharField(source="configuration.slug")
    machine = serializers.CharField(source="machine.slug")
    intervals = StoredIntervalsField(read_only=True)
    data_origin = serializers.SerializerMethodField()
    fit = serializers.SerializerMethodField()

    class Meta:
        model = Calibration
        fields = [
            "id", "url", "name", "path", "configuration", "machine", "model", "capacity_setting", "cps", "ziips",
            "speed_factor", "component", "source_kind", "intervals", "data_origin", "fit", "created_at",
        ]  # fmt: skip

    def get_data_origin(self, obj: Calibration) -> str:
        return "customer"

    @extend_schema_field(CalibrationFitSerializer)
    def get_fit(self, obj: Calibration) -> dict[str, Any]:
        return calibration_fit(calibration=obj)


class CalibrationViewSet(
    ThrottledView,
    QuotaView,
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[Calibration],
):
    """Your calibrations: your own measured intervals, visible to you only (others get 404)."""

    serializer_class = CalibrationOutputSerializer
    # A calibration's answer carries its fit (computed per row): reads count as estimates do.
    throttle_scopes = {"create": "calibrations", "destroy": "writes", "list": "estimates", "retrieve": "estimates"}
    quota_actions = {"create": "calibrations"}
    list_quota = "calibrations"

    def get_queryset(self) -> Any:
        return calibration_list(user=self.request.user)

    @extend_schema(
        request=CalibrationInputSerializer, responses={201: CalibrationOutputSerializer, **ERRORS, **QUOTA_EXCEEDED}
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        _check_size(request)
        data = CalibrationInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # The parsing and the fit first, outside any transaction (no lock on the user's row).
        prepared = calibration_prepare(data=dict(data.validated_data))
        # The answer is shaped in the write's transaction: if it cannot be, nothing is stored.
        with transaction.atomic():
            calibration = calibration_store(user=signed_in_user(request), prepared=prepared)
            body = CalibrationOutputSerializer(calibration, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": str(body["url"])})

    @extend_schema(responses={204: None, 404: OpenApiResponse(ErrorSerializer), **ERRORS})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        calibration_delete(user=signed_in_user(request), calibration=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)
