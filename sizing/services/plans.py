"""Capacity plans: store one and answer it in the request when small, or hand it to workers.

A plan's answer is its job's (kind ``plan``): a small plan is evaluated here and stored with a
job that has already succeeded; a larger one is submitted as a job
(:func:`sizing.services.jobs.job_submit`), which a worker splits into one task per candidate
(``sizing.services.plan_chunks``).  Either way the same function computes the answer
(:func:`sizing.jobs.plan.run_plan`).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from rest_framework import serializers

import models_lib
from sizing.jobs.plan import evaluations, run_plan
from sizing.models import Job, JobKind, JobStatus, Plan
from sizing.services.jobs import ACTIVE, job_cancel, job_submit
from sizing.services.plan_cec_inputs import cec_candidate
from sizing.services.plan_inputs import plan_inputs
from sizing.services.quotas import quota_check


def _no_progress(done: float, total: float) -> None:
    return None


def plan_create(*, user: User, data: Any) -> Plan:
    """Check and store a plan owned by ``user``; answered at once when it asks for at most
    ``ZSIZER_PLAN_INLINE_EVALUATIONS`` workload evaluations (candidates x periods x workloads),
    else queued for workers.

    The checks and an inline answer are computed first, outside any transaction; the owner's
    quota is checked in the short transaction that stores the plan and its job
    (:func:`~sizing.services.quotas.quota_check`).  Raises DRF's ``ValidationError`` naming the
    field (nothing stored), :class:`~sizing.services.quotas.QuotaExceeded`, and
    :class:`sizing.services.jobs.TooManyJobs` when the owner's queue is full.
    """
    inputs = plan_inputs(user=user, data=data, machine=cec_candidate)
    if evaluations(inputs) <= settings.ZSIZER_PLAN_INLINE_EVALUATIONS:
        try:
            result = run_plan(params=inputs, owner=user, progress=_no_progress)
        except ValueError as exc:  # a workload the engine cannot size on a candidate
            raise serializers.ValidationError({"workloads": [str(exc)]}) from None
        now = timezone.now()
        with transaction.atomic():
            quota_check(owner_id=user.pk, name="plans")
            job = Job.objects.create(
                owner=user,
                kind=JobKind.PLAN,
                params=inputs,
                status=JobStatus.SUCCEEDED,
                progress=100,
                result=result,
                task_id=str(uuid.uuid4()),
                model_version=models_lib.__version__,
                started_at=now,
                finished_at=now,
            )
            return _store(user=user, inputs=inputs, job=job)
    with transaction.atomic():
        quota_check(owner_id=user.pk, name="plans")
        job = job_submit(user=user, kind=JobKind.PLAN, params=inputs)
        return _store(user=user, inputs=inputs, job=job)


def _store(*, user: User, inputs: dict[str, Any], job: Job) -> Plan:
    return Plan.objects.create(
        owner=user,
        name=inputs["name"],
        period=inputs["period"],
        horizon=inputs["horizon"],
        inputs=inputs,
        job=job,
        model_version=models_lib.__version__,
    )


def plan_delete(*, user: User, plan: Plan) -> None:
    """Delete ``user``'s plan; a plan still being evaluated is cancelled first (its tasks stop)."""
    if plan.owner_id != user.pk:
        raise PermissionError("Only the owner can delete a plan.")
    job = plan.job
    if job.status in ACTIVE:
        job_cancel(user=user, job=job)
    job.delete()  # the plan and the candidates' chunks with it
