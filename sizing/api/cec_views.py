"""Your machines (issue 29): CEC configurations (create, list, read, replace, delete; own only),
a pasted RMF Partition Data Report read into one (nothing stored), and workloads placed into
one of its LPARs (nothing stored)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from models_lib.checks import InputError
from models_lib.rmf_partition import MAX_REPORT_CHARS, parse_partition_data
from sizing.api.calibration_views import _check_size
from sizing.api.cec_schema import PlacementSerializer
from sizing.api.estimate_serializers import ErrorSerializer
from sizing.api.formats import FORMATS, asked_format, renderers, table_response
from sizing.api.quotas import QUOTA_EXCEEDED, QuotaView
from sizing.api.report_views import CUSTOMER_PARAMETER, asked_customer
from sizing.api.throttles import ThrottledView
from sizing.jobs.cec import cec_place, placement_json, specialty_first
from sizing.jobs.cec_plan import cec_plan
from sizing.models import CecConfiguration
from sizing.reports.cec import place_pdf
from sizing.services.cec_csv import HEADER, placement_rows
from sizing.services.cecs import (
    CecInputSerializer,
    CecPlaceSerializer,
    CecPlanSerializer,
    cec_create,
    cec_from_partition_data,
    cec_record,
    cec_shares,
    cec_update,
    machine_name,
    nested_error,
    place_inputs,
    plan_inputs,
)
from sizing.services.reports import author_name, product_names
from sizing.services.scenario import engine_error
from sizing.users import signed_in_user

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input: field name -> list of reasons"),
    401: OpenApiResponse(ErrorSerializer, description="Not authenticated"),
}
NOT_FOUND = {404: OpenApiResponse(ErrorSerializer, description="No such machine among yours")}

EXAMPLE = {
    "name": "Production z15",
    "model": "8561-710",
    "ziips": 4,
    "as_of": "2026-11-20",
    "lpars": [
        {"name": "PROD", "cp": {"logical": 8, "weight": 700, "busy_pct": 61.25},
         "ziip": {"logical": 4, "weight": 700, "busy_pct": 21.0}},
        {"name": "TEST", "cp": {"logical": 4, "weight": 200, "busy_pct": 30.0},
         "ziip": {"logical": 2, "weight": 200, "busy_pct": 10.0}},
        {"name": "DEV", "cp": {"logical": 2, "weight": 100, "busy_pct": 25.0},
         "ziip": {"logical": 1, "weight": 100, "busy_pct": 10.0}},
    ],
}  # fmt: skip


@extend_schema_field(OpenApiTypes.OBJECT)
class SharesField(serializers.SerializerMethodField):
    """Per pool: installed engines, MIPS of one engine at the CEC's total, each LPAR's share."""


class CecSerializer(serializers.ModelSerializer[CecConfiguration]):
    """A stored machine with its pools' shares."""

    url = serializers.HyperlinkedIdentityField(view_name="cec-detail")
    shares = SharesField()

    class Meta:
        model = CecConfiguration
        fields = ["id", "url", "name", "model", "machine", "machine_type", "capacity_setting", "cps", "ziips", "icfs",
                  "ifls", "as_of", "lpars", "shares", "created_at", "updated_at"]  # fmt: skip
        read_only_fields = fields

    def get_shares(self, row: CecConfiguration) -> dict[str, Any]:
        return cec_shares(row)


class ParseRmfSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(
        max_length=MAX_REPORT_CHARS, trim_whitespace=False, help_text="RMF CPU Activity report text"
    )


class CecViewSet(
    ThrottledView,
    QuotaView,
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[CecConfiguration],
):
    """Your machines: a CEC's model, engines and LPARs, visible to you only (others get 404)."""

    serializer_class = CecSerializer
    throttle_scopes = {
        "create": "writes",
        "update": "writes",
        "destroy": "writes",
        "parse_rmf": "calibrations",
        "place": "fit",
        "plan": "fit",
    }
    quota_actions = {"create": "cecs"}
    list_quota = "cecs"
    # A configuration is replaced whole (PUT), never patched: its shares follow from all of it.
    http_method_names = ["get", "post", "put", "delete", "head", "options"]

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):  # the OpenAPI generator has no signed-in user
            return CecConfiguration.objects.none()
        return CecConfiguration.objects.filter(owner=signed_in_user(self.request))

    @extend_schema(
        request=CecInputSerializer,
        responses={201: CecSerializer, **ERRORS, **QUOTA_EXCEEDED},
        examples=[OpenApiExample("Three LPARs on a z15", value=EXAMPLE, request_only=True)],
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        row = cec_create(user=signed_in_user(request), data=request.data)
        body = CecSerializer(row, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": str(body["url"])})

    @extend_schema(request=CecInputSerializer, responses={200: CecSerializer, **ERRORS, **NOT_FOUND})
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        row = cec_update(row=self.get_object(), data=request.data)
        return Response(CecSerializer(row, context={"request": request}).data)

    @extend_schema(
        request=ParseRmfSerializer,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        summary="Read an RMF CPU Activity report's Partition Data Report into a configuration (nothing stored)",
    )
    @action(detail=False, methods=["post"], url_path="parse-rmf")
    def parse_rmf(self, request: Request) -> Response:
        _check_size(request)
        data = ParseRmfSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            report = parse_partition_data(data.validated_data["text"])
        except ValueError as exc:
            raise ValidationError({"text": [str(exc)]}) from None
        return Response(cec_from_partition_data(report))

    @extend_schema(
        request=CecPlaceSerializer,
        responses={200: PlacementSerializer, **ERRORS, **NOT_FOUND},
        summary="Add sized workloads to one of the machine's LPARs (or a new one): fits, binding, changes "
        "(?format=csv: one row per pool; ?format=pdf: the PDF to hand over)",
        parameters=[CUSTOMER_PARAMETER],
    )
    @action(detail=True, methods=["post"])
    def place(self, request: Request, pk: Any = None, **kwargs: Any) -> Response:
        row = self.get_object()
        user = signed_in_user(request)
        customer = asked_customer(request)
        question = place_inputs(user=user, row=row, data=request.data)
        cec = cec_record(row)
        # loaded: the workloads' models, loaded once for the placement, its checks and the zIIP change's
        common = {"owner": user, "machine": row.machine, "workloads": question["workloads"],
                  "max_utilization": question["max_utilization"], "loaded": {}, **question["engine"]}  # fmt: skip
        try:
            placed, mixed = cec_place(cec=cec, lpar=question["lpar"], new_lpar=question["new_lpar"], **common)
            after = None if placed.fits or placed.new else specialty_first(placed, **common)
        except InputError as exc:
            raise ValidationError(nested_error(exc.argument, str(exc))) from None
        except ValueError as exc:
            raise ValidationError(engine_error(exc).message_dict) from None
        body = placement_json(placed, mixed)
        if after is not None:
            change, again, mixed_again = after
            body["with_specialty_change"] = {"change": change.sentence, **placement_json(again, mixed_again)}
        for block in (body, *([body["with_specialty_change"]] if "with_specialty_change" in body else [])):
            for w, asked in zip(block["workloads"], question["workloads"], strict=True):
                w["name"] = asked["name"]
        answer = {"cec": row.pk, "model": row.model, "as_of": row.as_of, **body}
        fmt = asked_format(request)
        name = f"zsizer-cec-{row.pk}-{answer['lpar']}"
        if fmt.table:
            return table_response(fmt, header=HEADER, rows=placement_rows(answer), stem=name)
        if fmt is FORMATS["pdf"]:
            pdf = place_pdf(row=row, shares=cec_shares(row), answer=answer, specialty=cec.specialty,
                            machine=machine_name(row), author=author_name(user), customer=customer,
                            names=product_names(user))  # fmt: skip
            return Response(pdf, headers={"Content-Disposition": f'attachment; filename="{fmt.filename(name)}"'})
        return Response(answer)

    @extend_schema(
        request=CecPlanSerializer,
        responses={200: OpenApiTypes.OBJECT, **ERRORS, **NOT_FOUND},
        summary="The machine over time: workloads placed into an LPAR, each LPAR growing; when each LPAR and the CEC run out",
    )
    @action(detail=True, methods=["post"])
    def plan(self, request: Request, pk: Any = None) -> Response:
        row = self.get_object()
        user = signed_in_user(request)
        question = plan_inputs(user=user, row=row, data=request.data)
        try:
            answer = cec_plan(owner=user, cec=cec_record(row), machine=row.machine, **question)
        except InputError as exc:
            raise ValidationError(nested_error(exc.argument, str(exc))) from None
        except ValueError as exc:
            raise ValidationError(engine_error(exc).message_dict) from None
        return Response({"cec": row.pk, "model": row.model, "as_of": row.as_of, **answer})

    def get_renderers(self) -> list[BaseRenderer]:
        if getattr(self, "action", None) == "place":
            return renderers("json", "csv", "xlsx", "pdf", browsable=True)
        return renderers("json", browsable=True)
