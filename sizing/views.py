"""Browser pages (the sizing workbench): thin views that render templates.

The pages draw their numbers from the REST API and from ``/ui/chart-data``; the reads behind
the server-rendered pages live in ``sizing.selectors`` and the chart numbers in
``sizing.services.charts``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from sizing.api.estimate_serializers import EstimateInputSerializer
from sizing.api.throttles import SharedScopedRateThrottle
from sizing.selectors import catalogue
from sizing.selectors.estimates import estimate_list
from sizing.services import charts
from sizing.services.estimates import estimate_delete
from sizing.users import signed_in_user

MAX_COMPARE = 3


def _render_with_charts(
    request: HttpRequest, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """Render a page that draws Plotly charts: it loads plotly.js from this server."""
    context["plotly_src"] = reverse("plotly-js", kwargs={"version": charts.plotly_js_file()[1]})
    return render(request, template, context, status=status)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "sizing/home.html", {"paths": catalogue.path_summaries(user=request.user)})


@login_required
def workbench(request: HttpRequest) -> HttpResponse:
    """The sizing page; query parameters (path, configuration, machine, tps, ...) pre-fill the form."""
    initial = {k: v for k, v in request.GET.items() if k in EstimateInputSerializer().fields}
    example = not initial
    if example:  # a first visit opens on a worked example rather than an empty form
        initial = catalogue.workbench_example(user=request.user)
    return _render_with_charts(
        request,
        "sizing/workbench.html",
        {
            "choices": catalogue.workbench_choices(user=request.user),
            "initial": initial,
            "example": example and bool(initial),
        },
    )


class ChartDataView(APIView):
    """GET /ui/chart-data: the numbers behind the workbench charts (same inputs, 400s and
    throttle as GET /api/v1/estimate)."""

    throttle_classes = [SharedScopedRateThrottle]
    throttle_scope = "estimates"
    schema = None  # a page's private endpoint, not part of the public API

    def get(self, request: Request) -> Response:
        data = EstimateInputSerializer(data=request.query_params.dict())
        data.is_valid(raise_exception=True)
        return Response(charts.chart_data(user=signed_in_user(request), inputs=data.validated_data))


chart_data = ChartDataView.as_view()


# -- reference data --------------------------------------------------------------------------


@login_required
def reference_list(request: HttpRequest) -> HttpResponse:
    return render(request, "sizing/reference_list.html", {"sources": catalogue.source_summaries(user=request.user)})


@login_required
def reference_detail(request: HttpRequest, slug: str) -> HttpResponse:
    detail = catalogue.source_detail(user=request.user, slug=slug)
    if detail is None:
        raise Http404("No such source document.")
    return _render_with_charts(
        request,
        "sizing/reference_detail.html",
        {"detail": detail, "chart": charts.source_points_chart(points=detail.points)},
    )


# -- saved estimates -------------------------------------------------------------------------


def _pdf_url(estimate_id: int) -> str | None:
    """Link a PDF report only once the project serves one (no dead links)."""
    try:
        return reverse("estimate-pdf", kwargs={"pk": estimate_id})
    except NoReverseMatch:
        return None


@login_required
def estimate_index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "sizing/estimate_list.html",
        {"estimates": estimate_list(user=signed_in_user(request)), "max_compare": MAX_COMPARE},
    )


@login_required
def estimate_detail(request: HttpRequest, pk: int) -> HttpResponse:
    estimate = get_object_or_404(estimate_list(user=signed_in_user(request)), pk=pk)
    return _render_with_charts(
        request,
        "sizing/estimate_detail.html",
        {"estimate": estimate, "answer": estimate.outputs, "pdf_url": _pdf_url(estimate.pk)},
    )


@login_required
@require_GET
def estimate_compare(request: HttpRequest) -> HttpResponse:
    ids = request.GET.getlist("id")
    error = None
    estimates: list[Any] = []
    if not 2 <= len(ids) <= MAX_COMPARE or not all(i.isdigit() for i in ids):
        error = f"Choose two or three saved estimates to compare (you chose {len(ids)})."
    else:
        found = {e.pk: e for e in estimate_list(user=signed_in_user(request)).filter(pk__in=[int(i) for i in ids])}
        estimates = [found[int(i)] for i in ids if int(i) in found]
        if len(estimates) != len(ids):
            error = "One of those estimates does not exist or is not yours."
            estimates = []
    status = 400 if error else 200
    rows = charts.comparison_rows(estimates=estimates) if estimates else []
    input_rows = charts.comparison_input_rows(estimates=estimates) if estimates else []
    return render(
        request,
        "sizing/estimate_compare.html",
        {"estimates": estimates, "rows": rows, "input_rows": input_rows, "error": error},
        status=status,
    )


@login_required
@require_POST
def estimate_remove(request: HttpRequest, pk: int) -> HttpResponse:
    estimate = get_object_or_404(estimate_list(user=signed_in_user(request)), pk=pk)
    estimate_delete(user=signed_in_user(request), estimate=estimate)
    return redirect("estimates")


# -- plotly.js, served from the installed plotly package (no CDN, nothing committed) ---------


@require_GET
@cache_control(public=True, max_age=365 * 24 * 3600, immutable=True)
def plotly_js(request: HttpRequest, version: str) -> FileResponse:
    path, current = charts.plotly_js_file()
    if version != current:
        raise Http404("Unknown plotly.js version.")
    return FileResponse(path.open("rb"), content_type="text/javascript; charset=utf-8")
