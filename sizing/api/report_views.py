"""PDF reports: a saved estimate, a comparison (``?ids=``), a finished job; heavy ones on a worker.

``GET /api/v1/estimates/{id}/report.pdf``, ``GET /api/v1/estimates/report.pdf?ids=1,2,3`` and
``GET /api/v1/jobs/{id}/report.pdf`` answer the PDF (200).  A report too heavy for a request
(a large batch) answers 202 with a progress URL (``/api/v1/reports/{id}/``) while a worker
builds it; the same GET answers the PDF once it is built.  Only the owner sees any of them:
another user gets 404.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from sizing import presentation
from sizing.api.estimate_serializers import ErrorSerializer
from sizing.api.throttles import ThrottledView
from sizing.models import Report, ReportStatus
from sizing.selectors.estimates import estimate_list
from sizing.selectors.jobs import job_list
from sizing.services import reports
from sizing.users import signed_in_user

MAX_COMPARE = 3


class PDFRenderer(BaseRenderer):
    """application/pdf; an error body (a dict) is written as JSON so a client still reads it."""

    media_type = "application/pdf"
    format = "pdf"
    charset = None
    render_style = "binary"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Mapping[str, Any] | None = None
    ) -> bytes:
        if isinstance(data, bytes):
            return data
        return json.dumps(data).encode()


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Content-Length"] = str(len(pdf))
    return response


class ReportStatusSerializer(serializers.ModelSerializer[Report]):
    url = serializers.SerializerMethodField()
    pdf_url = serializers.SerializerMethodField()
    job = serializers.SerializerMethodField()

    class Meta:
        model = Report
        fields = ["id", "url", "status", "job", "pdf_url", "error", "created_at", "started_at", "finished_at"]

    def _absolute(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    def get_url(self, report: Report) -> str:
        return self._absolute(reverse("report-detail", kwargs={"pk": report.pk}))

    def get_pdf_url(self, report: Report) -> str | None:
        if report.status != ReportStatus.SUCCEEDED:
            return None
        return self._absolute(reverse("report-pdf", kwargs={"pk": report.pk}))

    def get_job(self, report: Report) -> str:
        return self._absolute(reverse("job-detail", kwargs={"pk": report.job_id}))


#: ``?customer=``: who the PDF is prepared for, on every operation that answers a PDF.
CUSTOMER_PARAMETER = OpenApiParameter(
    "customer",
    {"type": "string", "maxLength": presentation.CUSTOMER_MAX_LENGTH},
    required=False,
    description=(
        "Who the PDF is prepared for (the customer's name), printed as “Prepared for …” beside “Prepared by” "
        f"(the account's full name, else its user name). Printable text, at most {presentation.CUSTOMER_MAX_LENGTH} "
        "characters; none given: the PDF names only who prepared it. Only the PDF prints it."
    ),
)
BAD_CUSTOMER = {400: OpenApiResponse(ErrorSerializer, description="Bad input, naming the field (`customer`)")}


def asked_customer(request: Request) -> str:
    """The ``customer`` query parameter, checked: printable text within the bound, spaces at the
    ends dropped; "" when none is given.  400 naming ``customer`` otherwise."""
    text = str(request.query_params.get("customer", "")).strip(" ")
    problem = presentation.customer_problem(text)
    if problem is not None:
        raise ValidationError({"customer": [problem]})
    return text


PDF_200 = {(200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="The report")}
NOT_FOUND = {404: OpenApiResponse(ErrorSerializer, description="No such record among yours")}


class _ReportView(ThrottledView, APIView):
    renderer_classes = [JSONRenderer, PDFRenderer]
    throttle_scopes = {"get": "reports"}


class EstimateReportView(_ReportView):
    @extend_schema(
        parameters=[CUSTOMER_PARAMETER],
        responses={**PDF_200, **BAD_CUSTOMER, **NOT_FOUND},
        summary="PDF report of a saved estimate",
        operation_id="estimate_report_pdf",
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        customer = asked_customer(request)
        estimate = get_object_or_404(estimate_list(user=signed_in_user(request)), pk=pk)
        pdf = reports.estimate_report_pdf(user=signed_in_user(request), estimate=estimate, customer=customer)
        return pdf_response(pdf, f"zsizer-estimate-{estimate.pk}.pdf")


class ComparisonReportView(_ReportView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "ids",
                {"type": "string", "pattern": r"^\d+(,\d+){1,2}$"},
                required=True,
                description="Two or three different estimate ids: 1,2,3",
            ),
            CUSTOMER_PARAMETER,
        ],
        responses={**PDF_200, 400: OpenApiResponse(ErrorSerializer), **NOT_FOUND},
        summary="PDF report comparing two or three saved estimates",
        operation_id="estimate_comparison_report_pdf",
    )
    def get(self, request: Request) -> HttpResponse:
        customer = asked_customer(request)
        raw = [p.strip() for p in request.query_params.get("ids", "").split(",") if p.strip()]
        if not 2 <= len(raw) <= MAX_COMPARE or not all(p.isdigit() for p in raw):
            # Raised, not returned: the error handler renders it as JSON although a PDF was asked for.
            raise ValidationError({"ids": [f"Give two or three estimate ids separated by commas (got {len(raw)})."]})
        ids = list(dict.fromkeys(int(p) for p in raw))
        if len(ids) != len(raw):
            raise ValidationError({"ids": ["The same estimate is named twice."]})
        found = {e.pk: e for e in estimate_list(user=signed_in_user(request)).filter(pk__in=ids)}
        missing = [i for i in ids if i not in found]
        if missing:
            raise NotFound(f"No estimate {', '.join(map(str, missing))} among yours.")
        pdf = reports.comparison_report_pdf(
            user=signed_in_user(request), estimates=[found[i] for i in ids], customer=customer
        )
        return pdf_response(pdf, f"zsizer-comparison-{'-'.join(map(str, ids))}.pdf")


class JobReportView(_ReportView):
    @extend_schema(
        parameters=[CUSTOMER_PARAMETER],
        responses={
            **PDF_200,
            202: OpenApiResponse(ReportStatusSerializer, description="Heavy report: being built; poll its url"),
            **BAD_CUSTOMER,
            409: OpenApiResponse(ErrorSerializer, description="The job has not succeeded"),
            **NOT_FOUND,
        },
        summary="PDF report of a finished job (202 with a progress URL while a worker builds a heavy one)",
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        customer = asked_customer(request)
        job = get_object_or_404(job_list(user=signed_in_user(request), with_result=True), pk=pk)
        try:
            if not reports.report_is_heavy(job):
                return pdf_response(
                    reports.job_report_pdf(user=signed_in_user(request), job=job, customer=customer),
                    f"zsizer-job-{job.pk}.pdf",
                )
            report = reports.report_request(user=signed_in_user(request), job=job, customer=customer)
        except reports.ReportNotReady as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
        if report.status == ReportStatus.SUCCEEDED:
            return pdf_response(reports.report_pdf_bytes(report), f"zsizer-job-{job.pk}.pdf")
        body = ReportStatusSerializer(report, context={"request": request}).data
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": str(body["url"])})


def _own_report(request: Request, pk: int) -> Report:
    return get_object_or_404(Report.objects.filter(owner_id=signed_in_user(request).pk).defer("pdf"), pk=pk)


class ReportDetailView(APIView):
    @extend_schema(responses={200: ReportStatusSerializer, **NOT_FOUND}, summary="Progress of a heavy report")
    def get(self, request: Request, pk: int) -> Response:
        report = _own_report(request, pk)
        return Response(ReportStatusSerializer(report, context={"request": request}).data)


class ReportPDFView(APIView):
    renderer_classes = [JSONRenderer, PDFRenderer]

    @extend_schema(
        responses={**PDF_200, 409: OpenApiResponse(ErrorSerializer, description="Not built (yet)"), **NOT_FOUND},
        summary="The PDF of a heavy report once built",
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        report = _own_report(request, pk)
        if report.status != ReportStatus.SUCCEEDED:
            detail = f"Report {report.pk} is {report.status}" + (f": {report.error}" if report.error else ".")
            return Response({"detail": detail}, status=status.HTTP_409_CONFLICT)
        return pdf_response(reports.report_pdf_bytes(report), f"zsizer-job-{report.job_id}.pdf")
