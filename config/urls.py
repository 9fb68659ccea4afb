from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from sizing.api.throttles import ThrottledView
from sizing.views import healthz, healthz_live


class SchemaView(ThrottledView, SpectacularAPIView):
    """The OpenAPI schema: public (docs/deployment.md says why), generated per request, so
    throttled per client (scope ``schema``)."""

    throttle_scopes = {"get": "schema"}


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("healthz/ready", healthz, name="healthz-ready"),
    path("healthz/live", healthz_live, name="healthz-live"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("sizing.api.urls")),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("", include("sizing.urls")),
]

# JSON for /api/ (a URL no route matches is a JSON 404, not Django's HTML page).
handler400 = "sizing.api.errors.bad_request"
handler403 = "sizing.api.errors.permission_denied"
handler404 = "sizing.api.errors.not_found"
handler500 = "sizing.api.errors.server_error"
