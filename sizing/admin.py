"""Admin: staff maintain reference data here; everyone else reads it through the API."""

from typing import Any

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest

from sizing import models
from sizing.services.reference_version import bump_reference_version


class ReferenceAdmin(admin.ModelAdmin[Any]):
    """Reference data edited here start a new reference-data version (cached fits are dropped)."""

    def delete_model(self, request: HttpRequest, obj: Model) -> None:
        super().delete_model(request, obj)
        bump_reference_version()

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        super().delete_queryset(request, queryset)
        bump_reference_version()

    def save_related(self, request: HttpRequest, form: ModelForm[Any], formsets: Any, change: bool) -> None:
        # Runs after save_model in the admin's transaction, for the row and its inlines.
        super().save_related(request, form, formsets, change)
        bump_reference_version()


class PointMetricInline(admin.TabularInline[models.PointMetric, models.BenchmarkPoint]):
    model = models.PointMetric
    extra = 0


@admin.register(models.SourceDocument)
class SourceDocumentAdmin(ReferenceAdmin):
    list_display = ("slug", "identifier", "title", "publisher", "published", "seed_file")
    search_fields = ("slug", "title", "identifier")


@admin.register(models.Machine)
class MachineAdmin(ReferenceAdmin):
    list_display = ("slug", "name", "machine_type", "generation")


@admin.register(models.CapacityRating)
class CapacityRatingAdmin(ReferenceAdmin):
    list_display = ("model", "machine", "cps", "mips", "msu")
    list_filter = ("machine",)


class ConfigurationInline(admin.TabularInline[models.Configuration, models.Path]):
    model = models.Configuration
    extra = 0
    fields = ("slug", "name", "visibility", "owner")


@admin.register(models.Path)
class PathAdmin(ReferenceAdmin):
    list_display = ("slug", "name", "native_machine", "source")
    inlines = [ConfigurationInline]


@admin.register(models.Configuration)
class ConfigurationAdmin(ReferenceAdmin):
    list_display = ("__str__", "name", "visibility", "owner")
    list_filter = ("path", "visibility")


@admin.register(models.BenchmarkPoint)
class BenchmarkPointAdmin(ReferenceAdmin):
    list_display = ("configuration", "machine", "etr", "response_time_ms", "reference_text")
    list_filter = ("configuration__path", "machine")
    list_select_related = ("configuration__path", "machine")
    inlines = [PointMetricInline]


@admin.register(models.Statement)
class StatementAdmin(ReferenceAdmin):
    list_display = ("key", "kind", "path", "configuration", "reference_text")
    list_filter = ("kind", "path")
