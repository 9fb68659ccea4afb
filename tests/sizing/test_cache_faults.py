"""The shared cache's Redis stopped mid-run (issue 24, item 1): estimates and running batch jobs
carry on without it.

As an operator would see it, in processes of this module's own: a PostgreSQL cluster, a Redis
broker and a second Redis as the shared cache (``ZSIZER_CACHE_URL``), each on a spare port
(``tests/private_services.py``; the machine's services are never touched), gunicorn serving the
app and a real ``celery worker``.  While a client calls every computing endpoint in a loop and
batch jobs run, the cache's Redis is stopped, then started again.

What must hold: no request answers anything but its success status (0 500s), every job
succeeds with every row sized, ``/healthz`` says ``degraded`` (200) while the cache is down and
``ok`` once it is back.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.celery_worker import start_worker
from tests.private_services import (
    Answer,
    PrivatePostgres,
    PrivateRedis,
    free_port,
    http,
    manage,
    start_web,
    stop_process,
)
from tests.sizing.test_jobs_faults import TERMINAL, Stack, _copy_test_database

pytestmark = [pytest.mark.worker, pytest.mark.django_db]

QUEUE = "zsizer-cache-faults"
FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region"}
ZOSCONNECT = {"path": "zosconnect-cics", "configuration": "channel"}
HEALTHY = {"status": "ok", "database": "ok", "broker": "ok", "cache": "ok"}
#: Each row a different rate, so each is computed (and looked up in the cache) afresh.
ROWS = 30


def _batch(offset: int) -> str:
    lines = ["path,configuration,machine,tps"]
    lines += [f"fiteq-authenticator,multi-region,z13,{1000 + 10 * (offset * ROWS + i)}" for i in range(ROWS)]
    return "\n".join(lines) + "\n"


def _requests(i: int) -> list[tuple[str, str, Any]]:
    """One call per computing endpoint, at a rate of its own (a fresh answer each time)."""
    tps = 2000 + 7 * i
    return [
        ("GET", f"/api/v1/estimate?path=fiteq-authenticator&configuration=multi-region&machine=z14&tps={tps}", None),
        ("POST", "/api/v1/estimates/", {**FITEQ, "machine": "z15", "tps": tps}),
        ("GET", f"/api/v1/fit?path=fiteq-authenticator&configuration=multi-region&generations=z16&tps={tps}", None),
        ("GET", f"/api/v1/upgrade?path=zosconnect-cics&configuration=channel&machine=z13&cps=6&tps={400 + i}", None),
    ]


@pytest.fixture(scope="module", name="stack")
def fixture_stack(django_db_setup: None, django_db_blocker: Any) -> Iterator[tuple[Stack, PrivateRedis]]:
    """PostgreSQL, a broker Redis, a cache Redis and gunicorn of this module's own."""
    root = Path(tempfile.mkdtemp(prefix="zsizer-cache-faults-"))
    processes = []
    postgres = PrivatePostgres(root, free_port())
    broker = PrivateRedis(root, free_port())
    (root / "cache").mkdir()
    cache = PrivateRedis(root / "cache", free_port())
    try:
        postgres.start()
        with psycopg.connect(postgres.url("postgres").replace("postgres://", "postgresql://"), autocommit=True) as c:
            c.execute("create database zsizer")
        with django_db_blocker.unblock():
            _copy_test_database(postgres.url("zsizer"))
        broker.start()
        cache.start()
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("ZSIZER_")},
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": postgres.url("zsizer"),
            "CELERY_BROKER_URL": broker.url(),
            "ZSIZER_CACHE_URL": cache.url(),
            "ZSIZER_CACHE_RETRY_SECONDS": "1",  # back in use a second after it returns
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
        yield Stack(root, postgres, broker, env, f"http://127.0.0.1:{port}", token), cache
    finally:
        for process in processes:
            stop_process(process)
        cache.stop()
        broker.stop()
        postgres.stop(mode="immediate")
        shutil.rmtree(root, ignore_errors=True)


def _health(stack: Stack) -> Answer:
    return http(stack.base_url, stack.token, "GET", "/healthz")


def test_cache_redis_stopped_mid_run_gives_no_500_and_no_failed_job(stack: tuple[Stack, PrivateRedis]) -> None:
    app, cache = stack
    # Each progress step (a batch row) takes 0.2 s longer: the jobs run through the outage.
    worker = start_worker(queue=QUEUE, env=app.env, slow_steps_s=0.2)
    answers: list[tuple[str, Answer]] = []
    stop = threading.Event()

    def call_continuously() -> None:
        i = 0
        while not stop.is_set():
            for method, path, body in _requests(i):
                answers.append((path, app.call(method, path, body)))
            i += 1

    client = threading.Thread(target=call_continuously)
    try:
        assert _health(app).body == HEALTHY
        jobs = []
        for offset in range(3):
            answer = app.submit("batch", {"csv": _batch(offset)})
            assert answer.status == 202, answer
            jobs.append(answer.body["id"])
        deadline = time.monotonic() + 60
        while not any(app.rows()[j][0] == "running" for j in jobs):
            assert time.monotonic() < deadline, "no job started"
            time.sleep(0.1)
        client.start()
        # calls answered with the cache up (a loaded machine may take seconds for the first)
        deadline = time.monotonic() + 60
        while len(answers) < 4:
            assert time.monotonic() < deadline, "no call answered before the outage"
            time.sleep(0.1)
        served_before = len(answers)
        cache.stop()
        stopped_at = time.monotonic()
        # The outage lasts 4 s, and until calls were answered and a job seen running through it.
        # The jobs are looked at through the outage (one look at its end could fall between one
        # job's end and the next one's claim).
        running_during_outage: set[int] = set()
        while (
            time.monotonic() - stopped_at < 4 or not running_during_outage or len(answers) == served_before
        ) and time.monotonic() - stopped_at < 60:
            running_during_outage |= {j for j, row in app.rows().items() if j in jobs and row[0] == "running"}
            time.sleep(0.2)
        down = _health(app)
        served_during = len(answers) - served_before
        cache.start()
        # Back in use a second after it returns (ZSIZER_CACHE_RETRY_SECONDS); the calls go on
        # until a round of them was answered with it back.
        restarted_at, answered_before_restart = time.monotonic(), len(answers)
        while True:
            up = _health(app)
            back = up.body == HEALTHY and len(answers) >= answered_before_restart + 4
            if back or time.monotonic() - restarted_at > 60:
                break
            time.sleep(0.5)
        stop.set()
        client.join(timeout=60)

        bad = [(path, a.status, a.body) for path, a in answers if a.status not in (200, 201)]
        assert not bad, bad[:5]
        assert served_before > 0 and served_during > 0, (served_before, served_during)
        assert running_during_outage, "no job was running while the cache was down"
        assert (down.status, down.body) == (
            200,
            {"status": "degraded", "database": "ok", "broker": "ok", "cache": "unavailable"},
        )
        assert up.body == HEALTHY

        rows = app.wait_all_ended(180)
        assert [rows[j][:2] for j in jobs] == [("succeeded", "")] * len(jobs), worker.log_text()[-3000:]
        for job_id in jobs:
            table = app.result(job_id)["table"]
            errors = [dict(zip(table["columns"], row, strict=True))["error"] for row in table["rows"]]
            assert errors == [None] * ROWS  # every row sized: no error (docs/csv.md: an empty cell)
        # The outage was seen (and logged once per interval), not missed.
        log = (app.root / "gunicorn.log").read_text(errors="replace")
        assert "Shared cache unreachable" in log
        assert time.monotonic() - stopped_at > 4
    finally:
        stop.set()
        worker.kill()
    assert all(status in TERMINAL for status, _, _ in app.rows().values())
