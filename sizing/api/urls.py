from django.urls import include, path
from rest_framework.routers import DefaultRouter

from sizing.api import (
    calibration_views,
    cec_views,
    estimate_views,
    fit_views,
    job_views,
    model_views,
    plan_views,
    price_book_views,
    reference_views,
    report_views,
)
from sizing.api.formats import TABLE_FORMATS

router = DefaultRouter()
router.register("machines", reference_views.MachineViewSet, basename="machine")
router.register("paths", reference_views.PathViewSet, basename="path")
router.register("sources", reference_views.SourceDocumentViewSet, basename="source")
router.register("points", reference_views.BenchmarkPointViewSet, basename="point")
router.register("statements", reference_views.StatementViewSet, basename="statement")
router.register("capacity-ratings", reference_views.CapacityRatingViewSet, basename="capacity-rating")
router.register("engine-rules", reference_views.EngineRuleViewSet, basename="engine-rule")
router.register("estimates", estimate_views.EstimateViewSet, basename="estimate")
router.register("jobs", job_views.JobViewSet, basename="job")
router.register("calibrations", calibration_views.CalibrationViewSet, basename="calibration")
router.register("plans", plan_views.PlanViewSet, basename="plan")
router.register("cecs", cec_views.CecViewSet, basename="cec")

urlpatterns = [
    path("estimate", estimate_views.EstimateQueryView.as_view(), name="estimate-query"),
    path("price-book", price_book_views.PriceBookView.as_view(), name="price-book"),
    path("rmf/parse", calibration_views.RmfParseView.as_view(), name="rmf-parse"),
    path("models/", model_views.FittedModelsView.as_view(), name="models"),
    path("fit", fit_views.FitView.as_view(), name="fit"),
    path("upgrade", fit_views.UpgradeView.as_view(), name="upgrade"),
    path("jobs/<int:pk>/result.csv", job_views.JobViewSet.as_view({"get": "result_csv"}), name="job-result-csv"),
    path("jobs/<int:pk>/result.xlsx", job_views.JobViewSet.as_view({"get": "result_xlsx"}), name="job-result-xlsx"),
    path("estimates/report.pdf", report_views.ComparisonReportView.as_view(), name="estimate-comparison-pdf"),
    path("estimates/<int:pk>/report.pdf", report_views.EstimateReportView.as_view(), name="estimate-pdf"),
    path("jobs/<int:pk>/report.pdf", report_views.JobReportView.as_view(), name="job-pdf"),
    path(
        "cecs/<int:pk>/place.pdf",
        cec_views.CecViewSet.as_view({"post": "place"}),
        {"format": "pdf"},
        name="cec-place-pdf",
    ),
    path("plans/<int:pk>/report.pdf", plan_views.PlanViewSet.as_view({"get": "report_pdf"}), name="plan-report-pdf"),
    path("plans/<int:pk>/result.csv", plan_views.PlanViewSet.as_view({"get": "result_csv"}), name="plan-result-csv"),
    path("plans/<int:pk>/result.xlsx", plan_views.PlanViewSet.as_view({"get": "result_xlsx"}), name="plan-result-xlsx"),
    # Tables as operations of their own, one media type each (?format=csv and ?format=xlsx are
    # served as well): the URL's format selects the renderer, as DRF's format suffixes do.
    *(
        route
        for fmt in TABLE_FORMATS
        for route in (
            path(
                f"estimate.{fmt}",
                estimate_views.EstimateQueryView.as_view(),
                {"format": fmt},
                name=f"estimate-query-{fmt}",
            ),
            path(
                f"cecs/<int:pk>/place.{fmt}",
                cec_views.CecViewSet.as_view({"post": "place"}),
                {"format": fmt},
                name=f"cec-place-{fmt}",
            ),
            path(
                f"estimates.{fmt}",
                estimate_views.EstimateViewSet.as_view({"get": "list"}),
                {"format": fmt},
                name=f"estimate-list-{fmt}",
            ),
            path(
                f"estimates/<int:pk>.{fmt}",
                estimate_views.EstimateViewSet.as_view({"get": "retrieve"}),
                {"format": fmt},
                name=f"estimate-detail-{fmt}",
            ),
            path(
                f"points.{fmt}",
                reference_views.BenchmarkPointViewSet.as_view({"get": "list"}),
                {"format": fmt},
                name=f"point-list-{fmt}",
            ),
        )
    ),
    path("reports/<int:pk>/", report_views.ReportDetailView.as_view(), name="report-detail"),
    path("reports/<int:pk>/report.pdf", report_views.ReportPDFView.as_view(), name="report-pdf"),
    path("", include(router.urls)),
]
