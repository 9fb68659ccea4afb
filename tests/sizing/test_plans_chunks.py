"""A plan's candidates as chunk jobs, in-process: the split, progress, assembly equal to an unsplit
run, a failed candidate, the reconciler ending a plan, and deleting a plan being evaluated.

``job_run`` is called for the plan's job and for each chunk in turn (in reverse order, so the
assembly cannot lean on the order chunks end in); their messages go to a queue of the test's
own on the real Redis.  Real workers are in test_plans_worker.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone

from sizing.jobs.plan import evaluate_candidate, run_plan
from sizing.models import Job, JobStatus, Plan
from sizing.services.job_recovery import broker_task_ids, jobs_reconcile
from sizing.services.jobs import job_run
from sizing.services.plans import plan_create, plan_delete
from tests.celery_worker import purge_queue, unique_queue

pytestmark = pytest.mark.django_db(transaction=True)

PLAN = {
    "name": "chunks",
    "horizon_years": 3,
    "workloads": [
        {"path": "zosconnect-cics", "configuration": "channel", "tps": 2000, "peak_ratio": 1.5, "growth_pct": 25},
        {"path": "cicsts-catalog", "configuration": "v5.3", "tps": 60000, "peak_ratio": 1.3, "growth_pct": 10},
    ],
    "candidates": ["3931-708", "9175-706"],
    "generations": ["z17"],
}


@pytest.fixture(name="on_workers")
def fixture_on_workers(settings: Any) -> Iterator[None]:
    """Every plan to the workers (a broker; its queue the test's own)."""
    settings.ZSIZER_PLAN_INLINE_EVALUATIONS = 0
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.ZSIZER_TASK_QUEUE = unique_queue()
    yield
    purge_queue(settings.ZSIZER_TASK_QUEUE)


def _chunks(plan: Plan) -> list[Job]:
    return list(Job.objects.filter(parent_id=plan.job_id).order_by("pk"))


def test_a_plan_is_split_per_candidate_and_assembled_as_an_unsplit_run(
    user: Any, on_workers: None, reload_benchmarks: None
) -> None:
    plan = plan_create(user=user, data=PLAN)
    assert plan.job.status == JobStatus.QUEUED
    assert job_run(job_id=plan.job_id, hostname="w1").state == JobStatus.RUNNING
    chunks = _chunks(plan)
    assert [c.params["candidate"] for c in chunks] == [0, 1, 2]
    assert all(c.status == JobStatus.QUEUED for c in chunks)
    assert {c.task_id for c in chunks} <= (broker_task_ids() or set())
    progress = []
    for chunk in reversed(chunks):
        assert job_run(job_id=chunk.pk, hostname="w2").state == JobStatus.SUCCEEDED
        plan.job.refresh_from_db()
        progress.append((plan.job.status, plan.job.progress))
    # Progress is the share of candidates ended: 99 * 1 // 3 = 33, 99 * 2 // 3 = 66, then 100.
    assert progress == [(JobStatus.RUNNING, 33), (JobStatus.RUNNING, 66), (JobStatus.SUCCEEDED, 100)]
    assert plan.job.result == run_plan(params=plan.job.params, owner=user, progress=lambda *_: None)
    assert all(c.result is None for c in _chunks(plan))  # the plan holds the answer now


def test_a_failed_candidate_fails_the_plan_with_its_name_and_reason(
    user: Any, on_workers: None, reload_benchmarks: None
) -> None:
    plan = plan_create(user=user, data=PLAN)
    job_run(job_id=plan.job_id, hostname="w1")
    first, second, third = _chunks(plan)
    assert job_run(job_id=first.pk, hostname="w2").state == JobStatus.SUCCEEDED
    Job.objects.filter(pk=second.pk).update(status=JobStatus.FAILED, error="Gave up after 3 attempts.")
    assert jobs_reconcile().assembled == [plan.job_id]
    plan.job.refresh_from_db()
    assert (plan.job.status, plan.job.result) == (JobStatus.FAILED, None)
    assert plan.job.error == "Candidate 9175-706 failed: Gave up after 3 attempts."
    third.refresh_from_db()
    assert third.status == JobStatus.CANCELLED


def test_the_reconciler_assembles_a_plan_whose_last_candidates_worker_died_before_it_could(
    user: Any, on_workers: None, reload_benchmarks: None
) -> None:
    plan = plan_create(user=user, data=PLAN)
    job_run(job_id=plan.job_id, hostname="w1")
    *others, last = _chunks(plan)
    for chunk in others:
        job_run(job_id=chunk.pk, hostname="w2")
    part = evaluate_candidate(owner=user, inputs=last.params, index=last.params["candidate"])
    Job.objects.filter(pk=last.pk).update(status=JobStatus.SUCCEEDED, result=part, finished_at=timezone.now())
    assert jobs_reconcile().assembled == [plan.job_id]
    plan.job.refresh_from_db()
    assert plan.job.status == JobStatus.SUCCEEDED
    assert plan.job.result == run_plan(params=plan.job.params, owner=user, progress=lambda *_: None)


def test_deleting_a_plan_being_evaluated_cancels_and_removes_its_candidates(
    user: Any, on_workers: None, reload_benchmarks: None
) -> None:
    plan = plan_create(user=user, data=PLAN)
    job_run(job_id=plan.job_id, hostname="w1")
    chunks = _chunks(plan)
    plan_delete(user=user, plan=plan)
    assert not Plan.objects.exists() and not Job.objects.filter(pk__in=[plan.job_id, *(c.pk for c in chunks)]).exists()
    # A chunk's message delivered afterwards finds nothing to do.
    assert job_run(job_id=chunks[0].pk, hostname="w2").state == "deleted"
