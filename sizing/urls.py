"""Browser pages (the sizing workbench)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from sizing import views
from sizing.users import SignInView

urlpatterns = [
    path(
        "login/",
        SignInView.as_view(),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.home, name="home"),
    path("size/", views.workbench, name="workbench"),
    path("ui/chart-data", views.chart_data, name="chart-data"),
    path("ui/models", views.models_data, name="models-data"),
    path("plans/", views.plan_workbench, name="plans"),
    path("cecs/", views.cec_workbench, name="cecs"),
    path("reference/", views.reference_list, name="reference"),
    path("reference/lspr/", views.lspr_index, name="lspr"),
    path("reference/lspr/<slug:slug>/", views.lspr_machine, name="lspr-machine"),
    path("reference/<slug:slug>/", views.reference_detail, name="reference-detail"),
    path("estimates/", views.estimate_index, name="estimates"),
    path("estimates/compare/", views.estimate_compare, name="estimate-compare"),
    path("estimates/<int:pk>/", views.estimate_detail, name="estimate-page"),
    path("estimates/<int:pk>/delete/", views.estimate_remove, name="estimate-remove"),
    path("prices/", views.price_book_page, name="price-book-page"),
    path("calibrations/", views.calibration_index, name="calibrations"),
    path("calibrations/new/", views.calibration_new, name="calibration-new"),
    path("calibrations/<int:pk>/", views.calibration_detail, name="calibration-page"),
    path("calibrations/<int:pk>/delete/", views.calibration_remove, name="calibration-remove"),
]
