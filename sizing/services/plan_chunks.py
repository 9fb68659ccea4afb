"""Plans evaluated by workers: one chunk job per candidate, then one assembly.

A ``plan`` job of more than one candidate is not evaluated by the worker that claims it: that
worker writes one child job per candidate (``Job.parent``; kind ``plan``, ``params`` = the plan's
inputs and ``candidate``) in one transaction and sends them after the commit, as a big batch is
split (``sizing.services.batch_chunks``): chunks are ordinary jobs, claimed by compare-and-swap,
leased, recovered by the reconciler when their worker dies.  Whoever ends a chunk calls
:func:`plan_after_chunk` (through ``batch_after_chunk``), which under the lock on the plan's job
sets its progress (ended candidates / all) and, once every chunk has succeeded, assembles the
plan's answer exactly as an unsplit run would (``sizing.jobs.plan.plan_result``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from sizing.jobs.plan import plan_result
from sizing.models import Job, JobKind, JobStatus
from sizing.services.reports import product_names

logger = logging.getLogger(__name__)

Send = Callable[..., object]


def plan_chunks_of(params: dict[str, Any]) -> list[int] | None:
    """Candidate indices to evaluate as separate tasks, or ``None`` when one worker evaluates the
    plan (a chunk already, one candidate, or no other workers: no broker)."""
    if settings.CELERY_TASK_ALWAYS_EAGER or params.get("candidate") is not None:
        return None
    count = len(params["candidates"])
    return list(range(count)) if count > 1 else None


def plan_split(*, job: Job, attempt: int, chunks: list[int], send: Send) -> bool:
    """Write a chunk job per candidate of ``job`` and send them after the commit; ``False`` if the
    plan's job is no longer ours (cancelled, taken over)."""
    with transaction.atomic():
        mine = Job.objects.select_for_update().filter(pk=job.pk, status=JobStatus.RUNNING, attempts=attempt)
        if not mine.exists():
            return False
        if Job.objects.filter(parent_id=job.pk).exists():
            return True  # split already (a redelivered task): the chunks carry on
        children = Job.objects.bulk_create(
            Job(
                owner_id=job.owner_id,
                parent_id=job.pk,
                kind=JobKind.PLAN,
                params={**job.params, "candidate": i},
                task_id=f"{job.task_id}-candidate-{i}",
                model_version=job.model_version,
            )
            for i in chunks
        )
        mine.update(progress=0, heartbeat_at=timezone.now())
        for child in children:
            transaction.on_commit(partial(send, job_id=child.pk, task_id=child.task_id))
    logger.info("job %s: plan split into %s candidates", job.pk, len(chunks))
    return True


def plan_after_chunk(*, parent: Job) -> str | None:
    """Progress, assembly or failure of a split plan (its job locked by the caller)."""
    chunks = list(Job.objects.filter(parent_id=parent.pk).order_by("pk").values("status", "error", "params"))
    now = timezone.now()
    lost = next((c for c in chunks if c["status"] in (JobStatus.FAILED, JobStatus.CANCELLED)), None)
    if lost is not None:
        label = parent.params["candidates"][lost["params"]["candidate"]]["label"]
        Job.objects.filter(pk=parent.pk, status=JobStatus.RUNNING).update(
            status=JobStatus.FAILED, finished_at=now, error=f"Candidate {label} {lost['status']}: {lost['error']}"
        )
        Job.objects.filter(parent_id=parent.pk, status__in=(JobStatus.QUEUED, JobStatus.RUNNING)).update(
            status=JobStatus.CANCELLED, finished_at=now, error="Another candidate of its plan failed."
        )
        return JobStatus.FAILED
    done = sum(1 for c in chunks if c["status"] == JobStatus.SUCCEEDED)
    if done < len(chunks):
        Job.objects.filter(pk=parent.pk).update(progress=min(99, 99 * done // max(len(chunks), 1)), heartbeat_at=now)
        return None
    parts = list(Job.objects.filter(parent_id=parent.pk).order_by("pk").values_list("result", flat=True))
    answers = [part for part in parts if part is not None]
    if len(answers) < len(parts):
        raise RuntimeError(f"job {parent.pk}: a succeeded candidate has no stored answer")
    result = plan_result(inputs=parent.params, candidates=answers, names=product_names(parent.owner))
    Job.objects.filter(pk=parent.pk, status=JobStatus.RUNNING).update(
        status=JobStatus.SUCCEEDED, result=result, progress=100, finished_at=now, error=""
    )
    Job.objects.filter(parent_id=parent.pk).update(result=None)  # the plan holds the answer now
    return JobStatus.SUCCEEDED
