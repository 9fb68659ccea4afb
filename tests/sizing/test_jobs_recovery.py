"""The database is the truth for jobs: the reconciler, the per-user limits, and a database outage.

In-process against the real test database and the real Redis broker (the reconciler reads the
broker's queue to tell a lost message from one still waiting).  The same paths under real
faults (a worker SIGKILLed, Redis restarted, PostgreSQL stopped) are in test_jobs_faults.py.
"""

from __future__ import annotations

import socket
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from sizing.models import Job, JobStatus
from sizing.services import jobs as service
from sizing.services.job_recovery import broker_task_ids, jobs_reconcile
from sizing.services.jobs import MAX_ATTEMPTS, RUNNING_LIMIT_WAIT_S, job_run, job_send
from tests.celery_worker import purge_queue, purge_unacked, unique_queue

pytestmark = pytest.mark.django_db(transaction=True)

CURVE = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "cps_list": [4]}
#: A curve result with every field a curve's has (the schema describes it: tests/openapi_check.py), no series.
TRIVIAL = {
    "kind": "curve",
    **{k: CURVE[k] for k in ("path", "configuration", "machine")},
    "max_utilization": 0.85,
    "response_time_data": False,
    "series": [],
    "warnings": [],
    "basis": {},
    "table": {"columns": [], "rows": []},
}


@pytest.fixture(name="queue")
def fixture_queue(settings: Any) -> Iterator[str]:
    """A broker queue of this test's own on the real Redis, deleted afterwards; no delivery an
    earlier test's killed worker left unacknowledged (the broker reads those for every queue)."""
    settings.ZSIZER_TASK_QUEUE = unique_queue()
    purge_unacked()
    yield settings.ZSIZER_TASK_QUEUE
    purge_queue(settings.ZSIZER_TASK_QUEUE)


@pytest.fixture(name="trivial_runner")
def fixture_trivial_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jobs compute a constant: these tests are about states, not numbers."""
    monkeypatch.setitem(service.RUNNERS, "curve", lambda **_: TRIVIAL)


def _job(owner: Any, **fields: Any) -> Job:
    return Job.objects.create(owner=owner, kind="curve", params=CURVE, task_id=str(uuid.uuid4()), **fields)


def _ago(seconds: float) -> Any:
    return timezone.now() - timedelta(seconds=seconds)


# -- the reconciler ----------------------------------------------------------------------------


def test_a_running_job_whose_lease_ran_out_is_requeued_sent_and_rerun_once(
    user: Any, api: Any, settings: Any, queue: str, trivial_runner: None
) -> None:
    stale = _ago(settings.ZSIZER_JOB_LEASE_SECONDS + 1)
    job = _job(
        user,
        status=JobStatus.RUNNING,
        attempts=1,
        heartbeat_at=stale,
        started_at=stale,
        last_started_at=stale,
        worker_host="dead",
    )
    report = jobs_reconcile()
    assert (report.requeued, report.failed, report.resent) == ([job.pk], [], [])
    job.refresh_from_db()
    assert (job.status, job.heartbeat_at, job.worker_host, job.attempts) == (JobStatus.QUEUED, None, "", 1)
    assert job.sent_at is not None and job.sent_at > stale
    assert job.task_id in broker_task_ids()  # the message is in the real Redis queue
    # A second pass (another worker's reconciler) finds nothing to do.
    again = jobs_reconcile()
    assert (again.requeued, again.failed, again.resent) == ([], [], [])
    rerun_at = timezone.now()
    assert job_run(job_id=job.pk, hostname="w2").state == JobStatus.SUCCEEDED
    job.refresh_from_db()
    assert (job.status, job.attempts, job.result) == (JobStatus.SUCCEEDED, 2, TRIVIAL)
    # The first start is kept (issue 24); the re-run is the last start.
    assert job.started_at == stale
    assert rerun_at <= job.last_started_at <= job.finished_at
    shown = api.get(f"/api/v1/jobs/{job.pk}/").json()
    assert shown["attempts"] == 2
    assert parse_datetime(shown["started_at"]) == stale
    assert parse_datetime(shown["last_started_at"]) == job.last_started_at


def test_a_running_job_with_a_live_lease_is_left_alone(user: Any, queue: str) -> None:
    job = _job(user, status=JobStatus.RUNNING, attempts=1, heartbeat_at=timezone.now(), started_at=_ago(600))
    before = Job.objects.filter(pk=job.pk).values().get()
    report = jobs_reconcile()
    assert (report.requeued, report.failed, report.resent) == ([], [], [])
    assert Job.objects.filter(pk=job.pk).values().get() == before


def test_a_job_whose_workers_died_max_attempts_times_fails_with_the_reason(
    user: Any, settings: Any, queue: str
) -> None:
    stale = _ago(settings.ZSIZER_JOB_LEASE_SECONDS + 1)
    job = _job(user, status=JobStatus.RUNNING, attempts=MAX_ATTEMPTS, heartbeat_at=stale, started_at=stale)
    assert jobs_reconcile().failed == [job.pk]
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED and job.finished_at is not None
    assert job.error.startswith(f"Gave up after {MAX_ATTEMPTS} attempts: the worker running the job was lost")


def test_a_queued_job_the_broker_lost_is_resent_and_one_it_holds_is_not(user: Any, settings: Any, queue: str) -> None:
    stale = _ago(settings.ZSIZER_JOB_RESEND_SECONDS + 1)
    lost = _job(user, sent_at=stale)
    held = _job(user)
    job_send(job_id=held.pk, task_id=held.task_id)  # really in the Redis queue
    Job.objects.filter(pk=held.pk).update(sent_at=stale)
    never_sent = _job(user)  # the broker was down at submission: sent_at stays empty
    Job.objects.filter(pk=never_sent.pk).update(created_at=stale)
    fresh = _job(user, sent_at=timezone.now())  # just sent: not looked at yet
    assert broker_task_ids() == {held.task_id}
    report = jobs_reconcile()
    assert sorted(report.resent) == sorted([lost.pk, never_sent.pk])
    assert broker_task_ids() == {held.task_id, lost.task_id, never_sent.task_id}
    assert fresh.task_id not in broker_task_ids()
    assert all(j.sent_at > stale for j in Job.objects.filter(pk__in=[lost.pk, held.pk, never_sent.pk]))
    assert jobs_reconcile().resent == []  # all sent just now


def test_reconcile_jobs_command_reports_what_it_did(user: Any, settings: Any, queue: str) -> None:
    from io import StringIO

    from django.core.management import call_command

    _job(user, sent_at=_ago(settings.ZSIZER_JOB_RESEND_SECONDS + 1))
    out = StringIO()
    call_command("reconcile_jobs", stdout=out)
    assert out.getvalue().strip() == (
        "requeued 0 (lease expired), failed 0 (gave up), re-sent 1 (lost by the broker), ended 0 split batches"
    )


# -- per-user limits -------------------------------------------------------------------------


def test_beyond_the_queued_limit_a_submission_answers_429_and_stores_nothing(
    api: Any, user: Any, other_user: Any, settings: Any, queue: str, reload_benchmarks: None
) -> None:
    settings.ZSIZER_MAX_QUEUED_JOBS_PER_USER = 2
    _job(user, status=JobStatus.RUNNING, heartbeat_at=timezone.now())  # running jobs do not count
    for _ in range(2):
        assert api.post("/api/v1/jobs/", {"kind": "curve", "params": CURVE}, format="json").status_code == 202
    response = api.post("/api/v1/jobs/", {"kind": "curve", "params": CURVE}, format="json")
    assert response.status_code == 429 and response["Retry-After"] == "10"
    body = response.json()
    assert (body["code"], body["queued"], body["limit"]) == ("too_many_queued_jobs", 2, 2)
    assert body["detail"].startswith("You have 2 jobs waiting to run; at most 2 may be queued at once.")
    assert Job.objects.filter(owner=user).count() == 3
    _job(other_user)  # another engineer's queue is theirs
    assert Job.objects.filter(owner=other_user, status=JobStatus.QUEUED).count() == 1


def test_the_running_limit_holds_a_job_queued_until_the_owners_other_job_ends(
    user: Any, other_user: Any, settings: Any, trivial_runner: None
) -> None:
    settings.ZSIZER_MAX_RUNNING_JOBS_PER_USER = 1
    settings.CELERY_TASK_ALWAYS_EAGER = False
    busy = _job(user, status=JobStatus.RUNNING, attempts=1, heartbeat_at=timezone.now())
    waiting = _job(user)
    outcome = job_run(job_id=waiting.pk, hostname="w1")
    assert (outcome.state, outcome.retry_in_s) == (JobStatus.QUEUED, RUNNING_LIMIT_WAIT_S)
    waiting.refresh_from_db()
    assert (waiting.status, waiting.attempts) == (JobStatus.QUEUED, 0) and waiting.sent_at is not None
    # Another engineer is not held back by this one's jobs.
    assert job_run(job_id=_job(other_user).pk, hostname="w1").state == JobStatus.SUCCEEDED
    Job.objects.filter(pk=busy.pk).update(status=JobStatus.SUCCEEDED, finished_at=timezone.now())
    assert job_run(job_id=waiting.pk, hostname="w1").state == JobStatus.SUCCEEDED


# -- a database outage -------------------------------------------------------------------------


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_database_outage_answers_503_json_and_the_next_request_recovers(api: Any, user: Any) -> None:
    port = connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["PORT"] = str(_closed_port())  # nothing listens there: connection refused
    try:
        for method, url in (("get", "/api/v1/jobs/"), ("post", "/api/v1/jobs/")):
            response = getattr(api, method)(url, {"kind": "curve", "params": CURVE}, format="json")
            assert response.status_code == 503, response.content
            assert response["Content-Type"] == "application/json" and response["Retry-After"] == "5"
            assert response.json() == {
                "detail": "The database is unavailable; nothing was changed. Try again in 5 s.",
                "code": "database_unavailable",
            }
    finally:
        connection.close()
        connection.settings_dict["PORT"] = port
    # The database is back: the same process answers, no restart.
    assert api.get("/api/v1/jobs/").status_code == 200
    assert Job.objects.count() == 0  # the refused submission stored nothing
