"""Admin: staff maintain reference data here; everyone else reads it through the API."""

from django.contrib import admin

from sizing import models


class PointMetricInline(admin.TabularInline):
    model = models.PointMetric
    extra = 0


@admin.register(models.SourceDocument)
class SourceDocumentAdmin(admin.ModelAdmin):
    list_display = ("slug", "identifier", "title", "publisher", "published", "seed_file")
    search_fields = ("slug", "title", "identifier")


@admin.register(models.Machine)
class MachineAdmin(admin.ModelAdmin):
    list_display = ("slug", "name", "machine_type", "generation")


@admin.register(models.CapacityRating)
class CapacityRatingAdmin(admin.ModelAdmin):
    list_display = ("model", "machine", "cps", "mips", "msu")
    list_filter = ("machine",)


class ConfigurationInline(admin.TabularInline):
    model = models.Configuration
    extra = 0
    fields = ("slug", "name", "visibility", "owner")


@admin.register(models.Path)
class PathAdmin(admin.ModelAdmin):
    list_display = ("slug", "name", "native_machine", "source")
    inlines = [ConfigurationInline]


@admin.register(models.Configuration)
class ConfigurationAdmin(admin.ModelAdmin):
    list_display = ("__str__", "name", "visibility", "owner")
    list_filter = ("path", "visibility")


@admin.register(models.BenchmarkPoint)
class BenchmarkPointAdmin(admin.ModelAdmin):
    list_display = ("configuration", "machine", "etr", "response_time_ms", "reference_text")
    list_filter = ("configuration__path", "machine")
    list_select_related = ("configuration__path", "machine")
    inlines = [PointMetricInline]


@admin.register(models.Statement)
class StatementAdmin(admin.ModelAdmin):
    list_display = ("key", "kind", "path", "configuration", "reference_text")
    list_filter = ("kind", "path")
