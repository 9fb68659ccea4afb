"""Job endpoints: submit (202), poll, list own, cancel, and the result table as CSV."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import APIException
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from sizing.api.estimate_serializers import ErrorSerializer
from sizing.api.formats import FORMATS, TABLE_FORMATS, OutputFormat, renderers, rows_table, table_asked, table_response
from sizing.api.job_serializers import (
    JobDetailSerializer,
    JobSerializer,
    JobSubmitSerializer,
    submit_doc_serializers,
)
from sizing.api.quotas import QUOTA_EXCEEDED, QuotaView
from sizing.api.renderers import XLSX_MEDIA_TYPE
from sizing.api.throttles import ThrottledView
from sizing.models import Job, JobKind, JobStatus
from sizing.selectors.jobs import job_list
from sizing.services.estimate_csv import UNITS
from sizing.services.jobs import JobNotCancellable, TooManyJobs, job_cancel, job_submit
from sizing.users import signed_in_user

ERRORS = {
    401: OpenApiResponse(ErrorSerializer, description="Not authenticated"),
}
NOT_FOUND = {404: OpenApiResponse(ErrorSerializer, description="No such job among yours")}
THROTTLED = {429: OpenApiResponse(ErrorSerializer, description="Throttled (scope 'cancel')")}


class JobLimitSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(help_text="a sentence")
    code = serializers.CharField(required=False, help_text="too_many_queued_jobs (absent when throttled)")
    queued = serializers.IntegerField(required=False, help_text="your jobs waiting to run")
    limit = serializers.IntegerField(required=False, help_text="ZSIZER_MAX_QUEUED_JOBS_PER_USER")


SUBMIT_LIMITED = {
    429: OpenApiResponse(
        JobLimitSerializer,
        description=(
            "Throttled (scope 'jobs'), or code 'too_many_queued_jobs': the most queued jobs a user may "
            "have (ZSIZER_MAX_QUEUED_JOBS_PER_USER) are already waiting"
        ),
    )
}
FORMAT_PARAM = OpenApiParameter(
    "format",
    str,
    enum=["json", *TABLE_FORMATS],
    description="csv, xlsx: the result table of a succeeded job (as result.csv, result.xlsx)",
)

SUBMIT_REQUEST = PolymorphicProxySerializer(
    component_name="JobRequest",
    serializers=submit_doc_serializers(),
    resource_type_field_name="kind",
)


class NoResultTable(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "no_result_table"


def _table(job: Job) -> tuple[list[str], list[dict[str, Any]]]:
    # A job's stored result is JSON (the storage boundary): its table's columns and rows.
    table = (job.result or {}).get("table") or {"columns": [], "rows": []}
    return list(table["columns"]), rows_table(table["columns"], table["rows"])


class JobViewSet(
    ThrottledView,
    QuotaView,
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[Job],
):
    """Heavy solves run by a worker: submit, poll, list your own, cancel, download the table."""

    # Submitting and cancelling are throttled, each in its own scope (a user who floods submissions
    # can still cancel); polling (the progress bar asks every second or so) and reading results are not.
    throttle_scopes = {"create": "jobs", "destroy": "cancel"}
    quota_actions = {"create": "jobs"}
    list_quota = "jobs"

    def get_queryset(self) -> QuerySet[Job]:
        if getattr(self, "swagger_fake_view", False):  # the OpenAPI generator has no signed-in user
            return Job.objects.none()
        return job_list(
            user=signed_in_user(self.request), with_result=self.action in ("retrieve", "result_csv", "result_xlsx")
        )

    def get_serializer_class(self) -> Any:
        return JobDetailSerializer if self.action in ("retrieve", "create") else JobSerializer

    def get_renderers(self) -> list[BaseRenderer]:
        if self.action == "result_csv":
            return renderers("csv")
        if self.action == "result_xlsx":
            return renderers("xlsx")
        if self.action == "retrieve":
            return renderers("json", *TABLE_FORMATS, browsable=True)
        return renderers("json", browsable=True)

    @extend_schema(
        request=SUBMIT_REQUEST,
        responses={
            202: OpenApiResponse(JobDetailSerializer, description="Queued; poll its url"),
            400: OpenApiResponse(
                ErrorSerializer,
                description="Bad kind or parameters: {'kind': [...]} or {'params': {field: [...]}}; nothing stored",
            ),
            **ERRORS,
            **SUBMIT_LIMITED,
            **QUOTA_EXCEEDED,
        },
        examples=[
            OpenApiExample(
                "curve",
                request_only=True,
                value={
                    "kind": "curve",
                    "params": {
                        "path": "fiteq-authenticator",
                        "configuration": "multi-region",
                        "machine": "z13",
                        "cps_list": [4, 6, 8],
                    },
                },
            ),
            OpenApiExample(
                "closed",
                request_only=True,
                value={
                    "kind": "closed",
                    "params": {
                        "path": "zosconnect-cics",
                        "configuration": "channel",
                        "machine": "z13",
                        "cps": 6,
                        "clients": [100, 200, 300, 400, 500],
                        "think_time_s": 0.5,
                    },
                },  # fmt: skip
            ),
        ],
        summary="Submit a job (answers 202 at once; a worker computes it)",
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = JobSubmitSerializer(data=request.data, context={"user": request.user})
        data.is_valid(raise_exception=True)
        try:
            job = job_submit(
                user=signed_in_user(request), kind=data.validated_data["kind"], params=data.validated_data["params"]
            )
        except TooManyJobs as exc:
            body = {"detail": str(exc), "code": "too_many_queued_jobs", "queued": exc.queued, "limit": exc.limit}
            return Response(body, status=status.HTTP_429_TOO_MANY_REQUESTS, headers={"Retry-After": "10"})
        body = JobDetailSerializer(job, context={"request": request}).data
        location = str(body["url"])  # a plain str: wsgiref (runserver, live_server) rejects str subclasses
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": location})

    @extend_schema(responses={200: JobSerializer(many=True), **ERRORS}, summary="Your jobs, newest first (no results)")
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(
        parameters=[FORMAT_PARAM],
        responses={
            (200, "application/json"): OpenApiResponse(
                JobDetailSerializer, description="The job, its progress and result"
            ),
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="format=csv: the result table"),
            (200, XLSX_MEDIA_TYPE): OpenApiResponse(OpenApiTypes.BINARY, description="format=xlsx: the result table"),
            409: OpenApiResponse(ErrorSerializer, description="format=csv or xlsx before the job succeeded"),
            **NOT_FOUND,
            **ERRORS,
        },
        summary="Poll a job (format=csv or xlsx: its result table)",
    )
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        job = self.get_object()
        fmt = table_asked(request)
        if fmt is not None:
            return self._table(job, fmt)
        return Response(JobDetailSerializer(job, context={"request": request}).data)

    @extend_schema(
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The result table with a header row"),
            409: OpenApiResponse(ErrorSerializer, description="The job has not succeeded (yet)"),
            **NOT_FOUND,
            **ERRORS,
        },
        summary="Download the result table of a succeeded job as CSV",
    )
    def result_csv(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._table(self.get_object(), FORMATS["csv"])

    @extend_schema(
        responses={
            (200, XLSX_MEDIA_TYPE): OpenApiResponse(
                OpenApiTypes.BINARY, description="The result table, one sheet with a header row"
            ),
            409: OpenApiResponse(ErrorSerializer, description="The job has not succeeded (yet)"),
            **NOT_FOUND,
            **ERRORS,
        },
        summary="Download the result table of a succeeded job as an Excel workbook",
    )
    def result_xlsx(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._table(self.get_object(), FORMATS["xlsx"])

    def _table(self, job: Job, fmt: OutputFormat) -> Response:
        if job.status != JobStatus.SUCCEEDED:
            # Raised, not returned: the error handler renders it as JSON although a table was asked for.
            raise NoResultTable(f"Job {job.pk} has no result table: it is {job.status}.")
        header, rows = _table(job)
        units = [UNITS.get(name, "") for name in header] if job.kind == JobKind.BATCH else None
        return table_response(fmt, header=header, rows=rows, stem=f"zsizer-job-{job.pk}-{job.kind}", units=units)

    @extend_schema(
        responses={
            204: OpenApiResponse(description="Cancelled (or already cancelled)"),
            409: OpenApiResponse(ErrorSerializer, description="Already succeeded or failed: nothing to cancel"),
            **NOT_FOUND,
            **ERRORS,
            **THROTTLED,
        },
        summary="Cancel a queued or running job (its task is revoked)",
    )
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            job_cancel(user=signed_in_user(request), job=self.get_object())
        except JobNotCancellable as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
        except PermissionError:
            raise Http404 from None
        return Response(status=status.HTTP_204_NO_CONTENT)
