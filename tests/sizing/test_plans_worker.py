"""A plan too large to answer in the request: 202, one task per candidate on real Celery workers
(``celery worker`` subprocesses over the real Redis), progress, and a worker killed mid-candidate
whose task the next worker takes over; the answer equals the plan evaluated in-process.

See tests/celery_worker.py for the worker fixtures.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from sizing.jobs.plan import run_plan
from sizing.models import Job, JobStatus, Plan
from tests.celery_worker import purge_queue, start_worker, unique_queue, wait_for_job

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

PLAN = {
    "name": "API layer and CICS",
    "horizon_years": 5,
    "workloads": [
        {"path": "zosconnect-cics", "configuration": "channel", "tps": 2000, "peak_ratio": 1.5, "growth_pct": 25},
        {"path": "cicsts-catalog", "configuration": "v5.3", "tps": 60000, "peak_ratio": 1.3, "growth_pct": 10},
    ],
    "candidates": ["3931-708", "9175-708"],
    "generations": ["z16", "z17"],
}
#: As test_jobs_worker.py: Redis hands an unacknowledged message on after 3 s; leases last 2 s.
KILL_ENV = {"ZSIZER_BROKER_VISIBILITY_TIMEOUT": "3", "ZSIZER_JOB_LEASE_SECONDS": "2"}


def _submit(api: Any, settings: Any) -> tuple[Plan, str]:
    settings.ZSIZER_PLAN_INLINE_EVALUATIONS = 0  # every plan goes to the workers
    response = api.post("/api/v1/plans/", PLAN, format="json")
    assert response.status_code == 202, response.content
    body = response.json()
    assert body["status"] == "queued" and body["result"] is None and response["Location"] == body["url"]
    return Plan.objects.select_related("job").get(pk=body["id"]), body["url"]


def _wait_for_chunk(plan: Plan, timeout: float = 60.0) -> Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        chunk = Job.objects.filter(parent_id=plan.job_id, status=JobStatus.RUNNING, progress__gt=0).first()
        if chunk is not None:
            return chunk
        time.sleep(0.2)
    raise AssertionError("no candidate started")


def test_a_large_plan_runs_one_task_per_candidate_and_survives_a_killed_worker(
    reload_benchmarks: None, settings: Any, api: Any
) -> None:
    queue = unique_queue()
    settings.ZSIZER_TASK_QUEUE = queue
    first = start_worker(queue=queue, env=KILL_ENV, slow_steps_s=1.0)
    second = None
    try:
        plan, url = _submit(api, settings)
        chunk = _wait_for_chunk(plan)
        progress = api.get(url).json()
        assert progress["status"] == "running" and progress["report_url"] is None
        first.kill()  # SIGKILL mid-candidate: its message stays unacknowledged
        time.sleep(float(KILL_ENV["ZSIZER_BROKER_VISIBILITY_TIMEOUT"]) + 0.5)
        second = start_worker(queue=queue, env=KILL_ENV)
        job = wait_for_job(plan.job_id, timeout=180)
        assert job.status == JobStatus.SUCCEEDED, (job.error, second.log_text()[-3000:])
        chunks = list(Job.objects.filter(parent_id=job.pk).order_by("pk"))
        # One task per candidate, in the candidates' order; the killed one ran again.
        assert [c.params["candidate"] for c in chunks] == list(range(4))
        assert {c.status for c in chunks} == {JobStatus.SUCCEEDED}
        assert Job.objects.get(pk=chunk.pk).attempts == 2
        assert "taking over from a lost worker" in second.log_text()
        # The answer: what the plan evaluated in one process gives.
        expected = run_plan(params=job.params, owner=job.owner, progress=lambda *_: None)
        assert job.result == expected
        body = api.get(url).json()
        assert (body["status"], body["progress"]) == ("succeeded", 100)
        assert body["result"]["recommendation"] == expected["recommendation"]
        assert api.get(body["csv_url"]).status_code == 200
    finally:
        first.kill()
        if second is not None:
            second.stop()
        purge_queue(queue)
        for w in (first, second):
            if w is not None:
                w.log.unlink(missing_ok=True)
