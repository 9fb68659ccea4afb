"""The job state machine in-process: duplicate deliveries, lease take-over, cancellation between
progress steps, failures, transient errors, and the broker-less thread mode.

``job_run`` renews its lease from a thread with its own database connection, which only sees
committed rows, so these tests are transactional (and re-load the benchmarks the flush removes).
The same paths over a real worker and Redis are in test_jobs_worker.py.
"""

from __future__ import annotations

import socket
import time
from datetime import timedelta
from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from sizing.jobs import JobStopped
from sizing.models import Job, JobStatus
from sizing.services import jobs as service
from sizing.services.jobs import MAX_ATTEMPTS, job_cancel, job_run
from sizing.tasks import JobTask, run_job
from tests.celery_worker import wait_for_job

pytestmark = pytest.mark.django_db(transaction=True)

CURVE = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "cps_list": [4]}


def _job(owner: Any, **fields: Any) -> Job:
    return Job.objects.create(owner=owner, kind="curve", params=CURVE, task_id="task-1", **fields)


def _runner(monkeypatch: pytest.MonkeyPatch, fn: Any) -> None:
    monkeypatch.setitem(service.RUNNERS, "curve", fn)


def test_a_job_runs_once_and_a_second_delivery_changes_nothing(user: Any, reload_benchmarks: None) -> None:
    job = _job(user)
    assert job_run(job_id=job.pk, task_id="task-1", hostname="w1").state == JobStatus.SUCCEEDED
    job.refresh_from_db()
    assert (job.status, job.progress, job.attempts, job.worker_host) == (JobStatus.SUCCEEDED, 100, 1, "w1")
    assert job.started_at <= job.finished_at and job.result["kind"] == "curve" and job.error == ""
    before = Job.objects.filter(pk=job.pk).values().get()
    again = job_run(job_id=job.pk, task_id="task-1", hostname="w2", redelivered=True)
    assert again.state == JobStatus.SUCCEEDED and again.retry_in_s is None
    assert Job.objects.filter(pk=job.pk).values().get() == before


def test_a_delivery_while_a_live_worker_holds_the_lease_waits(user: Any) -> None:
    beat = timezone.now()
    job = _job(user, status=JobStatus.RUNNING, attempts=1, heartbeat_at=beat, worker_host="w1", started_at=beat)
    outcome = job_run(job_id=job.pk, hostname="w2", redelivered=True)
    assert outcome.state == JobStatus.RUNNING
    assert 0 < outcome.retry_in_s <= settings.ZSIZER_JOB_LEASE_SECONDS
    job.refresh_from_db()
    assert (job.attempts, job.worker_host, job.heartbeat_at) == (1, "w1", beat)


def test_a_delivery_after_the_lease_ran_out_takes_the_job_over(user: Any, reload_benchmarks: None) -> None:
    stale = timezone.now() - timedelta(seconds=settings.ZSIZER_JOB_LEASE_SECONDS + 1)
    job = _job(
        user,
        status=JobStatus.RUNNING,
        attempts=1,
        heartbeat_at=stale,
        worker_host="dead",
        started_at=stale,
        last_started_at=stale,
    )
    taken_at = timezone.now()
    assert job_run(job_id=job.pk, hostname="w2", redelivered=True).state == JobStatus.SUCCEEDED
    job.refresh_from_db()
    assert (job.status, job.attempts, job.worker_host) == (JobStatus.SUCCEEDED, 2, "w2")
    assert job.started_at == stale  # when the job first started
    assert taken_at <= job.last_started_at <= job.finished_at  # when this attempt started


def test_a_job_whose_workers_keep_dying_fails(user: Any) -> None:
    stale = timezone.now() - timedelta(seconds=settings.ZSIZER_JOB_LEASE_SECONDS + 1)
    job = _job(user, status=JobStatus.RUNNING, attempts=MAX_ATTEMPTS, heartbeat_at=stale)
    assert job_run(job_id=job.pk, hostname="w4").state == JobStatus.FAILED
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED and f"Gave up after {MAX_ATTEMPTS} attempts" in job.error


def test_a_worker_that_lost_its_job_cannot_overwrite_it(user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def slow_then_taken_over(*, params: Any, owner: Any, progress: Any) -> dict[str, Any]:
        # Another worker takes the job over (we were presumed dead) while we compute.
        Job.objects.filter(owner=owner).update(attempts=7, worker_host="w2")
        return {"table": {"columns": [], "rows": []}, "mine": True}

    _runner(monkeypatch, slow_then_taken_over)
    job = _job(user)
    assert job_run(job_id=job.pk, hostname="w1").state == "stopped"
    job.refresh_from_db()
    assert (job.status, job.result, job.worker_host) == (JobStatus.RUNNING, None, "w2")


def test_cancelling_a_running_job_stops_it_at_its_next_step_and_stays_cancelled(
    user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service, "PROGRESS_INTERVAL_S", 0.0)
    steps: list[int] = []

    def cancelled_midway(*, params: Any, owner: Any, progress: Any) -> dict[str, Any]:
        for i in range(1, 100):
            progress(i, 100)
            steps.append(i)
            if i == 3:
                job_cancel(user=owner, job=Job.objects.get(owner=owner))
        return {"table": {"columns": [], "rows": []}}

    _runner(monkeypatch, cancelled_midway)
    job = _job(user)
    assert job_run(job_id=job.pk, hostname="w1").state == "stopped"
    assert steps == [1, 2, 3]  # the fourth step found the job cancelled
    job.refresh_from_db()
    assert (job.status, job.result, job.error) == (JobStatus.CANCELLED, None, "Cancelled by its owner.")
    assert job.progress < 100


@pytest.mark.parametrize(
    ("raised", "message"),
    [
        (ValueError("tps must be finite and > 0, got -1"), "tps must be finite and > 0, got -1"),
        (SoftTimeLimitExceeded(), f"soft time limit of {settings.CELERY_TASK_SOFT_TIME_LIMIT} s"),
        (KeyError("oops"), "Internal error while computing the job (KeyError)"),
    ],
)
def test_a_computation_that_raises_fails_the_job_with_a_message(
    user: Any, monkeypatch: pytest.MonkeyPatch, raised: Exception, message: str
) -> None:
    def boom(**_: Any) -> dict[str, Any]:
        raise raised

    _runner(monkeypatch, boom)
    job = _job(user)
    assert job_run(job_id=job.pk, hostname="w1").state == JobStatus.FAILED
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED and message in job.error and job.finished_at is not None


def test_a_transient_database_error_puts_the_job_back_and_the_task_retries(
    user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def flaky(**_: Any) -> dict[str, Any]:
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return {"table": {"columns": [], "rows": []}}

    _runner(monkeypatch, flaky)
    job = _job(user)
    with pytest.raises(OperationalError):
        job_run(job_id=job.pk, hostname="w1")
    job.refresh_from_db()
    assert (job.status, job.heartbeat_at, job.attempts) == (JobStatus.QUEUED, None, 1)
    # The task turns it into a retry (eager here: at once) that claims it again.
    run_job.apply(args=[job.pk], task_id="task-1")
    job.refresh_from_db()
    assert (job.status, job.attempts, len(calls)) == (JobStatus.SUCCEEDED, 2, 2)


def test_what_escapes_the_task_fails_the_job(user: Any) -> None:
    job = _job(user, status=JobStatus.RUNNING)
    JobTask().on_failure(RuntimeError("hard time limit"), "task-1", [job.pk], {}, None)
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED and "hard time limit" in job.error


def test_progress_is_written_at_most_twice_a_second(user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    writes: list[int] = []
    real = service._Lease.mine

    def counting(self: Any) -> Any:
        writes.append(1)
        return real(self)

    monkeypatch.setattr(service._Lease, "mine", counting)

    def busy(*, params: Any, owner: Any, progress: Any) -> dict[str, Any]:
        start = time.monotonic()
        for i in range(10_000):
            progress(i, 10_000)
        assert time.monotonic() - start < 1.0
        return {"table": {"columns": [], "rows": []}}

    _runner(monkeypatch, busy)
    job_run(job_id=_job(user).pk, hostname="w1")
    assert len(writes) <= 4  # at most two progress writes in the second, plus the final write


def test_without_a_broker_a_job_runs_in_a_thread_through_the_same_states(
    api: Any, settings: Any, reload_benchmarks: None
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the embedded default: no CELERY_BROKER_URL
    response = api.post("/api/v1/jobs/", {"kind": "curve", "params": CURVE}, format="json")
    assert response.status_code == 202 and response.json()["status"] == "queued"
    job = wait_for_job(response.json()["id"], timeout=30)
    assert (job.status, job.progress, job.attempts) == (JobStatus.SUCCEEDED, 100, 1), job.error
    assert job.worker_host == socket.gethostname() and job.started_at and job.finished_at
    assert api.get(f"/api/v1/jobs/{job.pk}/result.csv").status_code == 200


def test_progress_callback_raises_once_the_job_is_gone(user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "PROGRESS_INTERVAL_S", 0.0)
    job = _job(user, status=JobStatus.RUNNING, attempts=1)
    lease = service._Lease(job_id=job.pk, attempt=1)
    progress = service._Progress(lease)
    progress(1, 2)
    assert Job.objects.get(pk=job.pk).progress == 49
    Job.objects.filter(pk=job.pk).update(status=JobStatus.CANCELLED)
    with pytest.raises(JobStopped):
        progress(2, 2)


def test_the_task_retries_a_job_whose_lease_is_live_when_it_would_run_out(
    user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    beat = timezone.now()
    job = _job(user, status=JobStatus.RUNNING, attempts=1, heartbeat_at=beat, worker_host="w1")
    retries: list[dict[str, Any]] = []

    class Retried(Exception):
        pass

    def fake_retry(**kwargs: Any) -> Exception:
        retries.append(kwargs)
        return Retried()

    monkeypatch.setattr(run_job, "retry", fake_retry)
    run_job.push_request(id="task-1", hostname="w2", retries=0, is_eager=False, delivery_info={"redelivered": True})
    try:
        with pytest.raises(Retried):
            run_job.run(job.pk)
    finally:
        run_job.pop_request()
    (kwargs,) = retries
    assert 0 < kwargs["countdown"] <= settings.ZSIZER_JOB_LEASE_SECONDS and kwargs["max_retries"] >= 100
    job.refresh_from_db()
    assert (job.status, job.attempts, job.worker_host) == (JobStatus.RUNNING, 1, "w1")
