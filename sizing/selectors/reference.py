"""Reads of published reference data (querysets shaped for the API and the services)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, Q, QuerySet

from sizing.models import (
    BenchmarkPoint,
    CapacityRating,
    Configuration,
    EngineRule,
    Machine,
    Path,
    SourceDocument,
    Statement,
    Visibility,
)


def visible_configurations(*, user: AbstractBaseUser | AnonymousUser | None) -> QuerySet[Configuration]:
    """Published configurations, plus the user's own private ones."""
    condition = Q(visibility=Visibility.PUBLISHED)
    if user is not None and user.is_authenticated:
        condition |= Q(visibility=Visibility.PRIVATE, owner_id=user.pk)
    return Configuration.objects.filter(condition)


def machine_list() -> QuerySet[Machine]:
    return Machine.objects.all()


def source_list() -> QuerySet[SourceDocument]:
    return SourceDocument.objects.all()


def path_list(*, user: AbstractBaseUser | AnonymousUser | None) -> QuerySet[Path]:
    return Path.objects.select_related("native_machine", "source").prefetch_related(
        Prefetch("configurations", queryset=visible_configurations(user=user).order_by("slug"))
    )


def points_for(
    *,
    user: AbstractBaseUser | AnonymousUser | None,
    path: str | None = None,
    configuration: str | None = None,
    machine: str | None = None,
) -> QuerySet[BenchmarkPoint]:
    """Benchmark points, filtered by path, configuration and machine slugs (case-insensitive)."""
    qs = (
        BenchmarkPoint.objects.filter(configuration__in=visible_configurations(user=user))
        .select_related("configuration__path", "machine", "source")
        .prefetch_related("metrics")
    )
    if path:
        qs = qs.filter(configuration__path__slug__iexact=path)
    if configuration:
        qs = qs.filter(configuration__slug__iexact=configuration)
    if machine:
        qs = qs.filter(machine__slug__iexact=machine)
    return qs.order_by("configuration__path__slug", "configuration__slug", "etr", "id")


def statement_list(
    *, path: str | None = None, kind: str | None = None, source: str | None = None
) -> QuerySet[Statement]:
    qs = Statement.objects.select_related("source", "path", "configuration")
    if path:
        qs = qs.filter(path__slug__iexact=path)
    if kind:
        qs = qs.filter(kind=kind)
    if source:
        qs = qs.filter(source__slug__iexact=source)
    return qs.order_by("source__slug", "key")


def capacity_rating_list(
    *,
    machine: str | None = None,
    cps: int | None = None,
    machine_type: str | None = None,
    generation: str | None = None,
    setting: str | None = None,
    model: str | None = None,
) -> QuerySet[CapacityRating]:
    qs = CapacityRating.objects.select_related("machine", "source")
    if machine:
        qs = qs.filter(machine__slug__iexact=machine)
    if machine_type:
        qs = qs.filter(machine__machine_type=machine_type)
    if generation:
        qs = qs.filter(machine__generation__iexact=generation)
    if setting:
        qs = qs.filter(capacity_setting__iexact=setting)
    if model:
        qs = qs.filter(model__iexact=model)
    if cps is not None:
        qs = qs.filter(cps=cps)
    return qs.order_by("machine__slug", "capacity_setting", "cps")


def engine_rule_list() -> QuerySet[EngineRule]:
    return EngineRule.objects.select_related("source").order_by("generation")
