"""Browser pages (the sizing workbench): thin views that render templates.

The pages draw their numbers from the REST API and from ``/ui/chart-data``; the reads behind
the server-rendered pages live in ``sizing.selectors`` and the chart numbers in
``sizing.services.charts``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET, require_POST
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from sizing import presentation
from sizing.api.throttles import ThrottledView
from sizing.models import CecConfiguration
from sizing.plotly_static import plotly_bundle
from sizing.records import EstimateRecord
from sizing.selectors import catalogue, health, lspr
from sizing.selectors.calibrations import calibration_fit, calibration_list
from sizing.selectors.estimates import estimate_list
from sizing.selectors.jobs import job_list, job_question
from sizing.selectors.plans import plan_list
from sizing.selectors.price_books import BOOK_FIELDS, price_book_row
from sizing.selectors.targets import machine_settings, model_choices
from sizing.services import charts
from sizing.services.calibrations import calibration_delete
from sizing.services.cecs import cec_shares, machine_name, specialty_name
from sizing.services.estimate_inputs import EstimateInputSerializer
from sizing.services.estimates import estimate_delete
from sizing.services.price_books import price_book_delete, price_book_form_fields, price_book_save, validated_price_book
from sizing.services.quotas import quota_usage
from sizing.services.reports import product_names
from sizing.users import signed_in_user

MAX_COMPARE = 3


def _render_with_charts(
    request: HttpRequest, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """Render a page that draws Plotly charts: it loads plotly.js from this server's static files."""
    bundle = plotly_bundle()
    context["plotly_src"] = static(bundle.static_path)
    context["plotly_integrity"] = bundle.file_integrity
    return render(request, template, context, status=status)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "sizing/home.html", {"paths": catalogue.path_summaries(user=request.user)})


@login_required
def workbench(request: HttpRequest) -> HttpResponse:
    """The sizing page; query parameters (path, configuration, machine, tps, ...) pre-fill the form.

    ``?job=<id>`` reopens one of the engineer's jobs: the form shows the inputs it was started
    with, and the jobs panel its kind, its own params and its result."""
    jobs = job_list(user=signed_in_user(request))
    reopened = None
    if request.GET.get("job", "").isdigit():
        job = get_object_or_404(jobs, pk=int(request.GET["job"]))
        reopened = {"id": job.pk, "kind": job.kind, "params": job.params, "url": reverse("job-detail", args=[job.pk])}
        initial = job_question(job)
    else:
        initial = {k: v for k, v in request.GET.items() if k in EstimateInputSerializer().fields}
    example = not initial and reopened is None
    if example:  # a first visit opens on a worked example rather than an empty form
        initial = catalogue.workbench_example(user=request.user)
    return _render_with_charts(
        request,
        "sizing/workbench.html",
        {
            "choices": {**catalogue.workbench_choices(user=request.user), "targets": machine_settings()},
            "initial": initial,
            "example": example and bool(initial),
            # the note says the example's own rate (the form holds it)
            "example_rate": presentation.rate(float(catalogue.EXAMPLE_TPS)) if example and initial else "",
            "generations": list(dict.fromkeys(m["generation"] for m in machine_settings().values())),
            "reopened_job": reopened,
            "recent_jobs": list(jobs.only("id", "kind", "status", "created_at")[:8]),
        },
    )


@login_required
@require_GET
@cache_control(private=True, max_age=300)
def models_data(request: HttpRequest) -> JsonResponse:
    """GET /ui/models: every rated model for the workbench's model picker (fetched on first use,
    so the page's first answer does not wait for 2,487 rows)."""
    return JsonResponse(model_choices())


class ChartDataView(ThrottledView, APIView):
    """GET /ui/chart-data: the numbers behind the workbench charts (same inputs, 400s and
    throttle as GET /api/v1/estimate)."""

    throttle_scopes = {"get": "estimates"}
    schema = None  # a page's private endpoint, not part of the public API

    def get(self, request: Request) -> Response:
        data = EstimateInputSerializer(data=request.query_params.dict())
        data.is_valid(raise_exception=True)
        body = charts.chart_data(user=signed_in_user(request), inputs=data.validated_data)
        # The page prints the server's words (presentation), never a second copy in JS.
        # The software limit of the typed answer lets the warnings follow the binding resource.
        shown = {**body["estimate"], "software_limit_tps": body.get("software_limit_tps")}
        names = product_names(signed_in_user(request))  # the workloads the engine's messages name by slug
        return Response({**body, "display": presentation.present(shown, names)})


chart_data = ChartDataView.as_view()


# -- reference data --------------------------------------------------------------------------


@login_required
def plan_workbench(request: HttpRequest) -> HttpResponse:
    """Capacity plans: the form (opening on the worked example), the answer's chart and table,
    and the owner's saved plans; the page talks to /api/v1/plans/."""
    choices = catalogue.workbench_choices(user=request.user)
    return _render_with_charts(
        request,
        "sizing/plans.html",
        {
            "choices": choices,
            "generations": [m["slug"] for m in choices["machines"]],
            "plans": plan_list(user=signed_in_user(request))[:20],
            "quota": quota_usage(owner_id=signed_in_user(request).pk, name="plans"),
        },
    )


@login_required
def cec_workbench(request: HttpRequest) -> HttpResponse:
    """Your machines (issue 29): a CEC entered by hand or read from RMF, drawn as pools and LPARs,
    and workloads placed into one of its LPARs; the page talks to /api/v1/cecs/."""
    user = signed_in_user(request)
    rows = list(CecConfiguration.objects.filter(owner=user)[:50])
    chosen = next((r for r in rows if str(r.pk) == request.GET.get("cec")), rows[0] if rows else None)
    machine = None
    if chosen is not None:
        machine = {
            "id": chosen.pk, "name": chosen.name, "model": chosen.model, "machine": machine_name(chosen),
            "cps": chosen.cps, "ziips": chosen.ziips, "icfs": chosen.icfs, "ifls": chosen.ifls,
            "as_of": chosen.as_of.isoformat(), "lpars": chosen.lpars, "shares": cec_shares(chosen),
            "specialty": specialty_name(chosen.machine_type),
        }  # fmt: skip
    return _render_with_charts(
        request,
        "sizing/cecs.html",
        {"choices": catalogue.workbench_choices(user=request.user), "cecs": rows, "machine": machine},
    )


@login_required
def reference_list(request: HttpRequest) -> HttpResponse:
    return render(request, "sizing/reference_list.html", {"sources": catalogue.source_summaries(user=request.user)})


@login_required
def reference_detail(request: HttpRequest, slug: str) -> HttpResponse:
    source = lspr.lspr_source()
    if source is not None and source["slug"] == slug.lower():
        return redirect("lspr")  # the capacity ratings have their own pages
    detail = catalogue.source_detail(user=request.user, slug=slug)
    if detail is None:
        raise Http404("No such source document.")
    return _render_with_charts(
        request,
        "sizing/reference_detail.html",
        {"detail": detail, "chart": charts.source_points_chart(points=detail.points)},
    )


@login_required
def lspr_index(request: HttpRequest) -> HttpResponse:
    """LSPR ratings: every machine with its settings, and MIPS (or MSU) per CP against CPs."""
    overview = lspr.lspr_overview()
    return _render_with_charts(
        request,
        "sizing/lspr.html",
        {"overview": overview, "chart": {"series": overview["series"], "title": "All machines"}},
    )


@login_required
def lspr_machine(request: HttpRequest, slug: str) -> HttpResponse:
    """One machine's models (filtered by ?setting=), per-CP capacity per setting, engine rules."""
    detail = lspr.lspr_machine(slug=slug, setting=request.GET.get("setting"))
    if detail is None:
        raise Http404("No such rated machine.")
    return _render_with_charts(
        request,
        "sizing/lspr_machine.html",
        {"detail": detail, "chart": {"series": detail["series"], "title": detail["machine"].name}},
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
        {
            "estimates": estimate_list(user=signed_in_user(request)),
            "max_compare": MAX_COMPARE,
            "quota": quota_usage(owner_id=signed_in_user(request).pk, name="estimates"),
        },
    )


def _question_names(estimate: Any) -> dict[str, str]:
    """A saved estimate's path, configuration and machine by name."""
    return {
        "path": estimate.configuration.path.name,
        "configuration": estimate.configuration.name,
        "machine": estimate.machine.name,
    }


@login_required
def estimate_detail(request: HttpRequest, pk: int) -> HttpResponse:
    estimate = get_object_or_404(estimate_list(user=signed_in_user(request)), pk=pk)
    # The stored answer is read into its record once; every part of the page is written from it.
    record = EstimateRecord.from_dict({"inputs": estimate.inputs, **estimate.outputs})
    question_names = _question_names(estimate)  # the question by name, as the PDF says it (never slugs)
    names = product_names(signed_in_user(request))
    return _render_with_charts(
        request,
        "sizing/estimate_detail.html",
        {
            "estimate": estimate,
            "answer": estimate.outputs,
            "figures": presentation.figures(record),
            **presentation.warnings_by_level(record, names),
            "basis_rows": presentation.basis_rows(record),
            "cost_rows": presentation.cost_rows(record),
            "assumptions": presentation.assumptions(record, names),
            "input_rows": [
                (label, question_names.get(key) or presentation.input_value(key, estimate.inputs[key], unit))
                for label, key, unit in presentation.INPUT_LABELS
                if estimate.inputs.get(key) is not None
            ],
            "pdf_url": _pdf_url(estimate.pk),
            "workbench_query": _workbench_query(estimate.inputs, estimate.name),
        },
    )


def _workbench_query(inputs: dict[str, Any], name: str) -> str:
    """The workbench's query string for a saved question: every stored input (9000.0 as typed,
    9000) and the estimate's name, so the form it opens shows that question and no other."""
    plain = {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in inputs.items() if v is not None}
    return urlencode({**plain, **({"name": name} if name else {})})


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
    # Each stored answer read into its record once, for both tables.
    records = [EstimateRecord.from_dict({**e.outputs, "inputs": e.inputs}) for e in estimates]
    rows = presentation.compare_rows(records)
    input_rows = presentation.compare_input_rows(records, product_names(signed_in_user(request)))
    return render(
        request,
        "sizing/estimate_compare.html",
        {
            "estimates": estimates,
            "rows": rows,
            "input_rows": input_rows,
            "error": error,
            "compare_ids": ",".join(str(e.pk) for e in estimates),
        },
        status=status,
    )


@login_required
@require_POST
def estimate_remove(request: HttpRequest, pk: int) -> HttpResponse:
    estimate = get_object_or_404(estimate_list(user=signed_in_user(request)), pk=pk)
    estimate_delete(user=signed_in_user(request), estimate=estimate)
    return redirect("estimates")


# -- private calibrations: paste, read, fix, save; then size on another machine --------------


@login_required
def calibration_index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "sizing/calibration_list.html",
        {
            "calibrations": calibration_list(user=request.user),
            "quota": quota_usage(owner_id=signed_in_user(request).pk, name="calibrations"),
        },
    )


@login_required
def calibration_new(request: HttpRequest) -> HttpResponse:
    """The paste page: the report is read by ``POST /api/v1/rmf/parse`` and saved by ``POST
    /api/v1/calibrations/`` (calibration.js), so the page and the API give the same answers."""
    paths = [{"slug": p.slug, "name": p.name} for p in catalogue.path_summaries(user=request.user)]
    return render(request, "sizing/calibration_new.html", {"paths": paths})


@login_required
def calibration_detail(request: HttpRequest, pk: int) -> HttpResponse:
    calibration = get_object_or_404(calibration_list(user=request.user), pk=pk)
    machines = catalogue.workbench_choices(user=request.user)["machines"]
    return render(
        request,
        "sizing/calibration_detail.html",
        {"calibration": calibration, "fit": calibration_fit(calibration=calibration), "machines": machines},
    )


@login_required
@require_POST
def calibration_remove(request: HttpRequest, pk: int) -> HttpResponse:
    calibration = get_object_or_404(calibration_list(user=request.user), pk=pk)
    try:
        calibration_delete(user=signed_in_user(request), calibration=calibration)
    except ValidationError as exc:
        calibration = get_object_or_404(calibration_list(user=request.user), pk=pk)  # rolled back: read again
        machines = catalogue.workbench_choices(user=request.user)["machines"]
        context = {
            "calibration": calibration,
            "fit": calibration_fit(calibration=calibration),
            "machines": machines,
            "error": " ".join(exc.messages),
        }
        return render(request, "sizing/calibration_detail.html", context, status=400)
    return redirect("calibrations")


@login_required
def price_book_page(request: HttpRequest) -> HttpResponse:
    """Your prices: the same form and checks as ``PUT /api/v1/price-book``; a refused book is a
    400 naming each bad field, and nothing is stored."""
    user = signed_in_user(request)
    row = price_book_row(user=user)
    values: dict[str, Any] = {} if row is None else {k: getattr(row, k) for k in BOOK_FIELDS}
    errors: dict[str, Any] = {}
    status = 200
    if request.method == "POST":
        if request.POST.get("action") == "delete":
            price_book_delete(user=user)
            return redirect("price-book-page")
        values = {k: request.POST.get(k, "") for k in BOOK_FIELDS}
        try:
            price_book_save(user=user, data=validated_price_book(values))
        except serializers.ValidationError as exc:
            errors, status = dict(exc.detail) if isinstance(exc.detail, dict) else {}, 400
        else:
            return redirect("price-book-page")
    context = {"values": values, "errors": errors, "has_book": row is not None, "fields": price_book_form_fields()}
    return render(request, "sizing/price_book.html", context, status=status)


# -- health ------------------------------------------------------------------------------------


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """``/healthz/ready`` and ``/healthz`` (no login): 200 when the database answers
    (``"degraded"`` when the broker or the shared cache does not: jobs wait, answers are computed
    without the cache), else 503; no configuration shown."""
    status, checks = health.health()
    return JsonResponse({"status": status, **checks}, status=503 if status == "unavailable" else 200)


@require_GET
@never_cache
def healthz_live(request: HttpRequest) -> JsonResponse:
    """``/healthz/live``: the process answers (a container restarts only when this fails)."""
    return JsonResponse({"status": "ok"})
