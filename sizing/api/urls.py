from django.urls import include, path
from rest_framework.routers import DefaultRouter

from sizing.api import calibration_views, estimate_views, job_views, model_views, reference_views

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

urlpatterns = [
    path("estimate", estimate_views.EstimateQueryView.as_view(), name="estimate-query"),
    path("rmf/parse", calibration_views.RmfParseView.as_view(), name="rmf-parse"),
    path("models/", model_views.FittedModelsView.as_view(), name="models"),
    path("jobs/<int:pk>/result.csv", job_views.JobViewSet.as_view({"get": "result_csv"}), name="job-result-csv"),
    path("", include(router.urls)),
]
