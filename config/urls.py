from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from sizing.views import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("sizing.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("", include("sizing.urls")),
]

# JSON for /api/ (a URL no route matches is a JSON 404, not Django's HTML page).
handler400 = "sizing.api.errors.bad_request"
handler403 = "sizing.api.errors.permission_denied"
handler404 = "sizing.api.errors.not_found"
handler500 = "sizing.api.errors.server_error"
