"""Reads of jobs: an engineer only ever sees their own."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import QuerySet

from sizing.models import Job, JobKind


def job_list(*, user: User, with_result: bool = False) -> QuerySet[Job]:
    """The jobs of ``user``, newest first; an engineer never sees another's (nor the chunks a
    big batch is split into).

    The result JSON (up to megabytes for a batch) is deferred unless asked for.
    """
    # A batch's chunks are part of it; a plan's job is seen through its plan.
    qs = Job.objects.filter(owner_id=user.pk, parent=None).exclude(kind=JobKind.PLAN)
    return qs if with_result else qs.defer("result")
