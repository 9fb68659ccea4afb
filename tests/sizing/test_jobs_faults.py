"""Jobs under real faults: a worker SIGKILLed mid-job, Redis restarted with jobs queued (and down
at a submission), PostgreSQL stopped and started during submissions.

Everything runs as an operator would see it, in processes of this module's own: a PostgreSQL
cluster and a Redis server on spare ports (``tests/private_services.py``; the machine's own
services are never touched), gunicorn serving the app against them, and real ``celery worker``
processes (``tests/celery_worker.py``) with the job reconciler on, every second, a 3 s lease and
re-sending after 2 s (the defaults are 10 s, 20 s and 30 s: the same code, shorter waits).  The
test is the client: HTTP with a token, and SQL on the private cluster to see every job row.

What must hold (issue 12): every job submitted ends succeeded with the right result, or failed
with a reason; none stays queued or running; no request gets a 500.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.celery_worker import Worker, database_url, start_worker
from tests.private_services import (
    HTTP_TIMEOUT_S,
    Answer,
    PrivatePostgres,
    PrivateRedis,
    free_port,
    http,
    manage,
    postgres_bin,
    start_web,
    stop_process,
)

# django_db: so that pytest-django creates the test database the stack is copied from; the
# tests themselves talk to the stack only.
pytestmark = [pytest.mark.worker, pytest.mark.django_db, pytest.mark.xdist_group("jobs-faults-stack")]  # one stack

QUEUE = "zsizer-faults"
RECOVERY = {
    "ZSIZER_RECONCILE_INTERVAL_SECONDS": "1",
    "ZSIZER_JOB_LEASE_SECONDS": "3",
    "ZSIZER_JOB_RESEND_SECONDS": "2",
}
FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13"}
CURVES = [{**FITEQ, "cps_list": [4, 6], "tps": 5000}, {**FITEQ, "cps_list": [8], "points": 10}]
#: The z/OS Connect run of REDP-5320 section 7.1 (6 GCPs, 500 ms think time): five populations,
#: a progress step each, slow enough to be killed in the middle of.
CLOSED = {
    "path": "zosconnect-cics",
    "configuration": "channel",
    "machine": "z13",
    "cps": 6,
    "ziips": 0,
    "clients": [100, 200, 300, 400, 500],
    "think_time_s": 0.5,
}
TERMINAL = ("succeeded", "failed", "cancelled")


@dataclass
class Stack:
    root: Path
    postgres: PrivatePostgres
    redis: PrivateRedis
    env: dict[str, str]
    base_url: str
    token: str

    def call(self, method: str, path: str, body: Any = None) -> Answer:
        return http(self.base_url, self.token, method, path, body)

    def submit(self, kind: str, params: dict[str, Any]) -> Answer:
        return self.call("POST", "/api/v1/jobs/", {"kind": kind, "params": params})

    def rows(self) -> dict[int, tuple[str, str, int]]:
        """Every job row: id -> (status, error, attempts), read straight from the cluster."""
        with psycopg.connect(self.env["DATABASE_URL"].replace("postgres://", "postgresql://")) as conn:
            found = conn.execute("select id, status, error, attempts from sizing_job where parent_id is null")
            return {int(i): (s, e, int(a)) for i, s, e, a in found.fetchall()}

    def result(self, job_id: int) -> Any:
        answer = self.call("GET", f"/api/v1/jobs/{job_id}/")
        assert answer.status == 200, answer
        return answer.body["result"]

    def worker(self, **kwargs: Any) -> Worker:
        return start_worker(queue=QUEUE, env={**self.env, **RECOVERY}, **kwargs)

    def wait_all_ended(self, timeout: float) -> dict[int, tuple[str, str, int]]:
        deadline = time.monotonic() + timeout
        while True:
            rows = self.rows()
            if all(status in TERMINAL for status, _, _ in rows.values()) or time.monotonic() > deadline:
                return rows
            time.sleep(0.2)


def _copy_test_database(target_url: str) -> None:
    """The pytest test database (migrated, benchmarks/ loaded) copied into the private cluster
    with pg_dump | psql: seconds, where migrate + load_benchmarks take a minute on a busy machine."""
    from django.core.management import call_command

    from sizing.models import Machine

    if not Machine.objects.exists():  # a transactional test flushed it
        call_command("load_benchmarks", verbosity=0)
    dump = subprocess.run(
        [
            postgres_bin("pg_dump"),
            "--no-owner",
            "--no-privileges",
            "-d",
            database_url().replace("postgres://", "postgresql://"),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    target = target_url.replace("postgres://", "postgresql://")
    subprocess.run(
        [postgres_bin("psql"), "-q", "-v", "ON_ERROR_STOP=1", "-d", target],
        input=dump.stdout,
        check=True,
        capture_output=True,
        timeout=120,
    )
    with psycopg.connect(target, autocommit=True) as conn:  # the jobs and users of other tests are not ours
        conn.execute("truncate sizing_job, authtoken_token cascade")


@pytest.fixture(scope="module", name="stack")
def fixture_stack(django_db_setup: None, django_db_blocker: Any) -> Iterator[Stack]:
    """PostgreSQL, Redis and gunicorn of this module's own, with a copy of the test database."""
    root = Path(tempfile.mkdtemp(prefix="zsizer-faults-"))
    processes = []
    postgres = PrivatePostgres(root, free_port())
    redis = PrivateRedis(root, free_port())
    try:
        postgres.start()
        with psycopg.connect(postgres.url("postgres").replace("postgres://", "postgresql://"), autocommit=True) as c:
            c.execute("create database zsizer")
        with django_db_blocker.unblock():
            _copy_test_database(postgres.url("zsizer"))
        redis.start()
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("ZSIZER_")},
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": postgres.url("zsizer"),
            "CELERY_BROKER_URL": redis.url(),
            "ZSIZER_TASK_QUEUE": QUEUE,
            "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        }
        username = f"operator-{uuid.uuid4().hex[:8]}"
        token = manage(
            env,
            "shell",
            "-c",
            "from django.contrib.auth import get_user_model;"
            "from rest_framework.authtoken.models import Token;"
            f"u = get_user_model().objects.create_user(username='{username}', password='x-pass-12345');"
            "print(Token.objects.create(user=u).key)",
        ).split()[-1]
        port = free_port()
        processes.append(start_web(env, port, root / "gunicorn.log"))
        yield Stack(root, postgres, redis, env, f"http://127.0.0.1:{port}", token)
    finally:
        for process in processes:
            stop_process(process)
        redis.stop()
        postgres.stop(mode="immediate")
        shutil.rmtree(root, ignore_errors=True)


def _stop(*workers: Worker | None) -> None:
    for w in workers:
        if w is not None:
            w.kill()
            w.log.unlink(missing_ok=True)


def _assert_every_job_ended(rows: dict[int, tuple[str, str, int]]) -> None:
    stuck = {i: r for i, r in rows.items() if r[0] not in TERMINAL}
    assert not stuck, f"jobs left queued or running: {stuck}"
    unexplained = {i: r for i, r in rows.items() if r[0] == "failed" and not r[1]}
    assert not unexplained, f"jobs failed without a reason: {unexplained}"


# -- (a) a worker SIGKILLed mid-job ------------------------------------------------------------


def test_a_worker_killed_mid_job_is_recovered_by_the_reconciler_within_a_minute(stack: Stack) -> None:
    first = stack.worker(slow_steps_s=3.0)  # five progress steps of 3 s: a job to kill in the middle of
    second = None
    try:
        job_id = stack.submit("closed", CLOSED).body["id"]
        # A second worker on the same queue, idle: the queue is empty, the job is the first's.
        second = stack.worker(ready=False)
        deadline = time.monotonic() + 60
        while stack.call("GET", f"/api/v1/jobs/{job_id}/").body["progress"] == 0:
            assert time.monotonic() < deadline, "the job never started"
            time.sleep(0.1)
        assert stack.rows()[job_id][0] == "running"
        first.kill()  # SIGKILL to the worker and its pool: its message stays unacknowledged
        killed_at = time.monotonic()
        # Redis would hand the dead worker's message out again only after the visibility timeout
        # (an hour): only the reconciler can bring the job back.
        second.wait_ready()
        while stack.rows()[job_id][0] not in TERMINAL:
            assert time.monotonic() - killed_at < 60, f"not recovered within a minute: {stack.rows()[job_id]}"
            time.sleep(0.2)
        status, error, attempts = stack.rows()[job_id]
        assert (status, error, attempts) == ("succeeded", "", 2), second.log_text()[-3000:]
        assert "job reconciler: requeued 1 (lease expired)" in second.log_text()
        # The right result: what an uninterrupted run of the same job computes.
        again = stack.submit("closed", CLOSED).body["id"]
        assert stack.wait_all_ended(60)[again][0] == "succeeded"
        assert stack.result(job_id) == stack.result(again)
    finally:
        _stop(first, second)
    _assert_every_job_ended(stack.rows())


# -- (b) Redis restarted with jobs queued, and down at a submission ----------------------------


def test_jobs_queued_when_redis_restarts_or_submitted_while_it_is_down_all_finish(stack: Stack) -> None:
    before = set(stack.rows())
    submitted: list[tuple[int, int]] = []  # (job id, which of CURVES)
    for i in range(6):  # no worker yet: they wait in Redis
        answer = stack.submit("curve", CURVES[i % 2])
        assert answer.status == 202, answer
        submitted.append((answer.body["id"], i % 2))
    stack.redis.stop()  # no persistence: the six messages are gone
    for i in range(2):  # the broker is down: accepted, stored queued, sent later
        answer = stack.submit("curve", CURVES[i])
        assert answer.status == 202 and answer.body["status"] == "queued", answer
        submitted.append((answer.body["id"], i))
    stack.redis.start()
    worker = stack.worker()
    try:
        rows = stack.wait_all_ended(60)
        assert {i for i, _ in submitted} == set(rows) - before
        assert all(rows[i][0] == "succeeded" for i, _ in submitted), {i: rows[i] for i, _ in submitted}
        assert "re-sent" in worker.log_text()
        # The right result: each equals a run of the same parameters with nothing lost.
        reference = [stack.submit("curve", params).body["id"] for params in CURVES]
        assert all(stack.wait_all_ended(60)[r][0] == "succeeded" for r in reference)
        expected = [stack.result(r) for r in reference]
        for job_id, which in submitted:
            assert stack.result(job_id) == expected[which]
    finally:
        _stop(worker)
    _assert_every_job_ended(stack.rows())


# -- (c) PostgreSQL stopped and started during submissions -------------------------------------


def test_postgresql_restarted_during_submissions_gives_503_not_500_and_no_job_is_stuck(stack: Stack) -> None:
    worker = stack.worker()
    answers: list[Answer] = []
    stop = threading.Event()

    def submit_continuously() -> None:
        i = 0
        while not stop.is_set():
            answers.append(stack.submit("curve", CURVES[i % 2]))
            i += 1
            time.sleep(0.2)

    def answered(condition: Any, at_least_s: float, what: str) -> None:
        """Submissions go on for at_least_s, and until an answer after now meets condition."""
        since, start = len(answers), time.monotonic()
        while time.monotonic() - start < at_least_s or not any(condition(a) for a in answers[since:]):
            assert time.monotonic() - start < 120, f"no submission {what}: {[a.status for a in answers[since:]]}"
            time.sleep(0.1)

    client = threading.Thread(target=submit_continuously)
    try:
        client.start()
        answered(lambda a: a.status == 202, 3, "accepted before the outage")
        stack.postgres.stop(mode="fast")  # connections cut, new ones refused
        answered(lambda a: a.status == 503, 5, "refused during the outage")
        stack.postgres.start()
        answered(lambda a: a.status == 202, 4, "accepted once it was back")
        stop.set()
        client.join(timeout=HTTP_TIMEOUT_S + 10)  # its last submission answers (or times out) first
        assert not client.is_alive(), "the last submission neither answered nor timed out"
        statuses = [a.status for a in answers]
        assert set(statuses) <= {202, 503}, [(a.status, a.body) for a in answers if a.status not in (202, 503)]
        refused = [a for a in answers if a.status == 503]
        assert refused, "the outage was not seen by any request"
        for a in refused:
            assert a.body["code"] == "database_unavailable" and int(a.headers["Retry-After"]) > 0
        assert statuses[-1] == 202  # recovered without a restart
        rows = stack.wait_all_ended(90)
        accepted = {a.body["id"] for a in answers if a.status == 202}
        assert accepted <= set(rows)
        _assert_every_job_ended(rows)
        assert all(rows[i][0] == "succeeded" for i in accepted), {i: rows[i] for i in accepted}
    finally:
        stop.set()
        _stop(worker)
