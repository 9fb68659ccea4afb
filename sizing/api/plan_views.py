"""Plan endpoints: create (201 answered, or 202 while workers evaluate it), poll, list own,
delete, and the answer as a PDF proposal or a CSV table."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import APIException
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from sizing.api.estimate_serializers import ErrorSerializer
from sizing.api.formats import FORMATS, OutputFormat, renderers, rows_table, table_response
from sizing.api.plan_schema import PlanInputsSerializer, PlanResultSerializer
from sizing.api.quotas import QUOTA_EXCEEDED, QuotaView
from sizing.api.renderers import XLSX_MEDIA_TYPE
from sizing.api.report_views import CUSTOMER_PARAMETER, asked_customer, pdf_response
from sizing.api.throttles import ThrottledView
from sizing.jobs.plan import COLUMN_UNITS
from sizing.jobs.plan_cec import LPAR_COLUMN_UNITS
from sizing.models import JobStatus, Plan
from sizing.reports.plan import plan_pdf
from sizing.selectors.plans import plan_list
from sizing.services.jobs import TooManyJobs
from sizing.services.plan_inputs import PlanInputSerializer
from sizing.services.plans import plan_create, plan_delete
from sizing.services.reports import author_name, product_names
from sizing.users import signed_in_user

ERRORS = {401: OpenApiResponse(ErrorSerializer, description="Not authenticated")}
NOT_FOUND = {404: OpenApiResponse(ErrorSerializer, description="No such plan among yours")}

EXAMPLE = {
    "name": "API layer and CICS, 5 years",
    "horizon_years": 5,
    "workloads": [
        {"path": "zosconnect-cics", "configuration": "channel", "tps": 2000, "peak_ratio": 1.5, "growth_pct": 25},
        {"path": "cicsts-catalog", "configuration": "v5.3", "tps": 60000, "peak_ratio": 1.3, "growth_pct": 10},
    ],
    "candidates": ["3931-708", "9175-708"],
    "generations": ["z16", "z17"],
}


class NotAnswered(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "plan_not_answered"


class PlanSerializer(serializers.ModelSerializer[Plan]):
    """A plan as listed (without its answer)."""

    url = serializers.HyperlinkedIdentityField(view_name="plan-detail")
    status = serializers.CharField(source="job.status", help_text="queued, running, succeeded, failed or cancelled")
    progress = serializers.IntegerField(source="job.progress", help_text="percent of the candidates evaluated")
    error = serializers.CharField(source="job.error", help_text="why it failed (empty otherwise)")
    report_url = serializers.SerializerMethodField(help_text="PDF proposal, once answered")
    csv_url = serializers.SerializerMethodField(help_text="The per-period table as CSV, once answered")
    xlsx_url = serializers.SerializerMethodField(help_text="The per-period table as an Excel workbook, once answered")

    class Meta:
        model = Plan
        fields = ["id", "url", "name", "period", "horizon", "status", "progress", "error", "model_version",
                  "created_at", "report_url", "csv_url", "xlsx_url"]  # fmt: skip
        read_only_fields = fields

    def _link(self, plan: Plan, name: str) -> str | None:
        if plan.job.status != JobStatus.SUCCEEDED:
            return None
        request = self.context.get("request")
        path = reverse(name, kwargs={"pk": plan.pk})
        return request.build_absolute_uri(path) if request is not None else path

    def get_report_url(self, plan: Plan) -> str | None:
        return self._link(plan, "plan-report-pdf")

    def get_csv_url(self, plan: Plan) -> str | None:
        return self._link(plan, "plan-result-csv")

    def get_xlsx_url(self, plan: Plan) -> str | None:
        return self._link(plan, "plan-result-xlsx")


@extend_schema_field(PlanInputsSerializer)
class PlanInputsField(serializers.JSONField):
    """The stored question (its shape: :class:`PlanInputsSerializer`)."""


@extend_schema_field(PlanResultSerializer(allow_null=True))
class PlanResultField(serializers.JSONField):
    """The stored answer (its shape: :class:`PlanResultSerializer`)."""


class PlanDetailSerializer(PlanSerializer):
    inputs = PlanInputsField(
        read_only=True, help_text="The question as stored: period, horizon, workloads, candidates, options"
    )
    result = PlanResultField(
        source="job.result",
        read_only=True,
        allow_null=True,
        help_text="Once succeeded: periods (each workload's peak TPS), candidates (per period: model, cps, ziips, "
        "gcp_busy, ziip_busy, utilisation, msu_consumed, holds, reasons, range; runs_out and runs_out_range "
        "earliest..latest; models with msu_installed; one of your machines adds per period lpars and pools, "
        "each with busy, busy_low, busy_high against the ceiling of its share or engines, and lpar_runs_out: the "
        "period each LPAR and the CEC run out, with the pool that binds), recommendation (kind single | upgrade | "
        "none, model, upgrade_to, upgrade_period, msu_years, cec and lpar when it keeps your machine, sentence), "
        "table {columns, rows} and, with a machine, lpar_table. See docs/plans.md.",
    )

    class Meta(PlanSerializer.Meta):
        fields = [*PlanSerializer.Meta.fields, "inputs", "result"]
        read_only_fields = fields


def _answered(plan: Plan) -> dict[str, Any]:
    if plan.job.status != JobStatus.SUCCEEDED or plan.job.result is None:
        raise NotAnswered(f"Plan {plan.pk} has no answer: it is {plan.job.status}.")
    result: dict[str, Any] = plan.job.result
    return result


def csv_rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    # A plan's stored answer is JSON (the storage boundary): its table's columns and rows.
    table = result["table"]
    return rows_table(table["columns"], table["rows"])


def _plan_table(plan: Plan, fmt: OutputFormat, which: str | None) -> Response:
    result = _answered(plan)
    if which in (None, "", "periods"):
        header = list(result["table"]["columns"])
        units = [COLUMN_UNITS.get(name, "") for name in header]
        return table_response(fmt, header=header, rows=csv_rows(result), stem=f"zsizer-plan-{plan.pk}", units=units)
    if which != "lpars":
        raise serializers.ValidationError({"table": ["Give periods (default) or lpars."]})
    if "lpar_table" not in result:
        raise serializers.ValidationError({"table": ["This plan has none of your machines as a candidate."]})
    lpars = result["lpar_table"]
    header = list(lpars["columns"])
    units = [LPAR_COLUMN_UNITS.get(name, "") for name in header]
    rows = rows_table(header, lpars["rows"])
    return table_response(fmt, header=header, rows=rows, stem=f"zsizer-plan-{plan.pk}-lpars", units=units)


TABLE_PARAMETER = OpenApiParameter(
    "table", str, enum=["periods", "lpars"], required=False,
    description="periods (default): one row per candidate and period; lpars: with one of your machines as a "
    "candidate, one row per period, LPAR and pool, then the machine's pools",
)  # fmt: skip


class PlanViewSet(
    ThrottledView,
    QuotaView,
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[Plan],
):
    """Capacity plans: workloads growing over a horizon on candidate machines, period by period."""

    throttle_scopes = {"create": "jobs", "destroy": "cancel", "report_pdf": "reports"}
    quota_actions = {"create": "plans"}
    list_quota = "plans"

    def get_queryset(self) -> QuerySet[Plan]:
        if getattr(self, "swagger_fake_view", False):  # the OpenAPI generator has no signed-in user
            return Plan.objects.none()
        detail = self.action in ("retrieve", "report_pdf", "result_csv", "result_xlsx")
        return plan_list(user=signed_in_user(self.request), with_result=detail)

    def get_serializer_class(self) -> Any:
        return PlanDetailSerializer if self.action in ("retrieve", "create") else PlanSerializer

    def get_renderers(self) -> list[BaseRenderer]:
        if self.action == "result_csv":
            return renderers("csv")
        if self.action == "result_xlsx":
            return renderers("xlsx")
        if self.action == "report_pdf":
            return renderers("pdf", "json")
        return renderers("json", browsable=True)

    @extend_schema(
        request=PlanInputSerializer,
        responses={
            201: OpenApiResponse(PlanDetailSerializer, description="Stored and answered"),
            202: OpenApiResponse(PlanDetailSerializer, description="Stored; workers evaluate it: poll its url"),
            400: OpenApiResponse(
                ErrorSerializer,
                description="Bad input, named by field ({'workloads': {'1': {'tps': [...]}}}, "
                "{'candidates': {'1': [...]}}); nothing stored",
            ),
            429: OpenApiResponse(ErrorSerializer, description="Throttled, or too many queued jobs"),
            **ERRORS,
            **QUOTA_EXCEEDED,
        },
        examples=[OpenApiExample("two workloads over five years", request_only=True, value=EXAMPLE)],
        summary="Create a capacity plan (201 answered; 202 while workers evaluate a large one)",
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            plan = plan_create(user=signed_in_user(request), data=request.data)
        except TooManyJobs as exc:
            body = {"detail": str(exc), "code": "too_many_queued_jobs", "queued": exc.queued, "limit": exc.limit}
            return Response(body, status=status.HTTP_429_TOO_MANY_REQUESTS, headers={"Retry-After": "10"})
        body = PlanDetailSerializer(plan, context={"request": request}).data
        answered = plan.job.status == JobStatus.SUCCEEDED
        code = status.HTTP_201_CREATED if answered else status.HTTP_202_ACCEPTED
        return Response(body, status=code, headers={"Location": str(body["url"])})

    @extend_schema(responses={200: PlanSerializer(many=True), **ERRORS}, summary="Your plans, newest first")
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(
        responses={200: PlanDetailSerializer, **NOT_FOUND, **ERRORS},
        summary="A plan: its status, progress and, once answered, the per-period answer",
    )
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(
        responses={
            204: OpenApiResponse(description="Deleted (cancelled first if still evaluated)"),
            **NOT_FOUND,
            **ERRORS,
        },  # fmt: skip
        summary="Delete a plan",
    )
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            plan_delete(user=signed_in_user(request), plan=self.get_object())
        except PermissionError:
            raise Http404 from None
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        responses={
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="The PDF proposal"),
            409: OpenApiResponse(ErrorSerializer, description="The plan has no answer (yet)"),
            **NOT_FOUND,
            **ERRORS,
        },
        summary="The plan as a PDF proposal",
        parameters=[CUSTOMER_PARAMETER],
    )
    def report_pdf(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        customer = asked_customer(request)
        plan = self.get_object()
        user = signed_in_user(request)
        pdf = plan_pdf(
            plan=plan, result=_answered(plan), author=author_name(user), customer=customer, names=product_names(user)
        )
        return pdf_response(pdf, f"zsizer-plan-{plan.pk}.pdf")

    @extend_schema(
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="One row per candidate and period"),
            400: OpenApiResponse(ErrorSerializer, description="An unknown table, or lpars without a machine"),
            409: OpenApiResponse(ErrorSerializer, description="The plan has no answer (yet)"),
            **NOT_FOUND,
            **ERRORS,
        },
        parameters=[TABLE_PARAMETER],
        summary="The plan's per-period table as CSV",
    )
    def result_csv(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return _plan_table(self.get_object(), FORMATS["csv"], request.query_params.get("table"))

    @extend_schema(
        responses={
            (200, XLSX_MEDIA_TYPE): OpenApiResponse(
                OpenApiTypes.BINARY, description="One row per candidate and period, one sheet"
            ),
            400: OpenApiResponse(ErrorSerializer, description="An unknown table, or lpars without a machine"),
            409: OpenApiResponse(ErrorSerializer, description="The plan has no answer (yet)"),
            **NOT_FOUND,
            **ERRORS,
        },
        parameters=[TABLE_PARAMETER],
        summary="The plan's per-period table as an Excel workbook",
    )
    def result_xlsx(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return _plan_table(self.get_object(), FORMATS["xlsx"], request.query_params.get("table"))
