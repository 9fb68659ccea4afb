"""Reads of estimates and jobs: an engineer only ever sees their own."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import QuerySet

from sizing.models import Estimate


def estimate_list(
    *, user: User, path: str | None = None, configuration: str | None = None, machine: str | None = None
) -> QuerySet[Estimate]:
    qs = Estimate.objects.filter(owner_id=user.pk).select_related("configuration__path", "machine", "owner")
    if path:
        qs = qs.filter(configuration__path__slug__iexact=path)
    if configuration:
        qs = qs.filter(configuration__slug__iexact=configuration)
    if machine:
        qs = qs.filter(machine__slug__iexact=machine)
    return qs
