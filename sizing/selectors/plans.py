"""Reads of plans: an engineer only ever sees their own."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

from sizing.models import Configuration, Plan, SourceDocument

DELETED = "(no longer stored)"


def plan_list(*, user: User, with_result: bool = False) -> QuerySet[Plan]:
    """The plans of ``user``, newest first, with their job (status, progress) in the same query;
    the answer (the job's result) is deferred unless asked for."""
    qs = Plan.objects.filter(owner_id=user.pk).select_related("job")
    return qs if with_result else qs.defer("job__result", "job__params")


def plan_sources(*, inputs: dict[str, Any]) -> list[dict[str, Any]]:
    """Each workload of a stored plan: its configuration's name and the documents its data come
    from (the path's source and its points' sources), in the plan's order."""
    out = []
    for w in inputs["workloads"]:
        config = (
            Configuration.objects.filter(path__slug=w["path"], slug=w["configuration"])
            .select_related("path__source")
            .first()
        )
        if config is None:  # deleted since (a calibration): the plan still names it
            out.append({**w, "name": DELETED, "sources": []})
            continue
        docs = {config.path.source.pk: config.path.source}
        for src in SourceDocument.objects.filter(points__configuration=config).distinct():
            docs[src.pk] = src
        # the document number where it has one, never the seed's slug (a key no customer knows)
        names = [f"{d.identifier}: {d.title}" if d.identifier else d.title for d in docs.values()]
        out.append({**w, "name": config.name, "sources": names})
    return out


def workload_names(*, inputs: dict[str, Any]) -> list[str]:
    """Each workload of a stored plan by its product names: ``z/OS Connect EE (CICS, channel)``
    (the path's and the configuration's names), in the plan's order."""
    out = []
    for w in inputs["workloads"]:
        config = Configuration.objects.filter(path__slug=w["path"], slug=w["configuration"]).select_related("path")
        row = config.first()
        out.append(DELETED if row is None else f"{row.path.name} ({row.name})")
    return out
