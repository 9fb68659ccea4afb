"""A real Celery worker for tests: a subprocess on the real Redis broker and the test database.

Jobs must be tested the way they run: a ``celery worker`` process (prefork pool) that takes the
message from Redis and reads and writes the job through its own database connection.  This
module starts such workers and points the test process's job submissions at them.

Use it from a test module (``@pytest.mark.worker``; the worker only sees committed rows, so
``@pytest.mark.django_db(transaction=True)``).  The fixtures are tests/conftest.py's, one
definition for every module; do not import them into a module (a session fixture imported there
becomes that module's own, and each such module would start a worker of its own)::

    from tests.celery_worker import Worker, wait_for_job

    @pytest.mark.worker
    @pytest.mark.django_db(transaction=True)
    def test_curve(jobs_worker: Worker, api: APIClient) -> None:
        job_id = api.post("/api/v1/jobs/", {...}, format="json").json()["id"]
        assert wait_for_job(job_id).status == "succeeded"

The fixture functions are named ``fixture_<name>`` so that importing them does not shadow the
parameter that requests them.  Fixtures and helpers:

* ``session_worker`` (session): one worker, ``--pool=prefork --concurrency=1``, consuming a queue
  unique to the test session (``zsizer-test-<random>``) and its interactive queue (``-interactive``), so that parallel sessions on the same
  Redis (another engineer's run, the browser tests) never take each other's jobs.  Under
  pytest-xdist each worker process (gw0, gw1, ...) is a session: it has its own Celery worker,
  test database and Redis database (config/settings/test.py).  Its
  environment: ``DJANGO_SETTINGS_MODULE=config.settings.test``, ``DATABASE_URL`` of the pytest
  test database, ``CELERY_BROKER_URL`` of the test settings, ``ZSIZER_TASK_QUEUE`` = its queue.
  Its log is ``worker.log_text()``; it is stopped (warm, then killed) at the end of the session.
* ``jobs_worker`` (function): ``session_worker``, with ``settings.ZSIZER_TASK_QUEUE`` pointed at its
  queue and the benchmarks re-loaded (``reload_benchmarks``).
* ``reload_benchmarks`` (function): ``load_benchmarks`` again.  Transactional tests flush the
  database when they finish, and pytest-django runs them after all the others, so each one
  must load the reference data it needs.
* ``start_worker(queue=..., env=..., slow_steps_s=...)``: a worker of your own (stop it with
  ``.stop()``, kill it with ``.kill()``: SIGKILL to its whole process group, as a crash or the
  OOM killer would).  ``slow_steps_s`` makes every progress step of a job take that long
  longer, so a test can act while a job is running; it is injected by this module's
  ``worker_process_init`` hook in the worker (``-A tests.celery_worker``), not by any setting
  of the product.  Its job reconciler is off (``ZSIZER_RECONCILE_INTERVAL_SECONDS=0``) unless
  ``env`` turns it on.
* ``wait_for_job(job_id, until=..., timeout=...)``: poll the row until its status is one of
  ``until`` (default: finished).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from config.celery import app  # the app `celery -A tests.celery_worker` runs

REPO = Path(__file__).resolve().parent.parent
READY_TIMEOUT_S = 90.0
#: Set in a worker's environment by start_worker(slow_steps_s=...).
STEP_DELAY_ENV = "ZSIZER_TEST_STEP_DELAY_S"
FINISHED = ("succeeded", "failed", "cancelled")


@dataclass
class Worker:
    """A ``celery worker`` subprocess (its own process group) and its log file."""

    name: str
    queue: str
    process: subprocess.Popen[bytes]
    log: Path
    started: float = field(default_factory=time.monotonic)

    @property
    def hostname(self) -> str:
        """The node name the worker reports (``Job.worker_host``)."""
        return self.name

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def alive(self) -> bool:
        return self.process.poll() is None

    def wait_ready(self, timeout: float = READY_TIMEOUT_S) -> Worker:
        """Wait for "ready." in the log (the consumer is up); fail with the log if it died."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if " ready." in self.log_text():
                return self
            if not self.alive():
                raise RuntimeError(f"worker {self.name} exited with {self.process.returncode}:\n{self.log_text()}")
            time.sleep(0.05)
        raise TimeoutError(f"worker {self.name} not ready after {timeout} s:\n{self.log_text()}")

    def kill(self) -> None:
        """SIGKILL the whole process group: the main process and its pool, with no goodbye."""
        self._signal_group(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self, timeout: float = 20.0) -> None:
        """Warm shutdown (SIGTERM), then SIGKILL if it takes longer than ``timeout``."""
        if not self.alive():
            return
        self._signal_group(signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def _signal_group(self, sig: int) -> None:
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:
            pass


def database_url() -> str:
    """``DATABASE_URL`` of the database pytest-django created (e.g. ``test_zsizer``)."""
    from django.db import connection

    s = connection.settings_dict
    auth = quote(s["USER"] or "", safe="")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"], safe="")
    host = s["HOST"] or "127.0.0.1"
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{quote(s['NAME'], safe='')}"


def unique_queue() -> str:
    return f"zsizer-test-{uuid.uuid4().hex[:10]}"


def start_worker(
    *,
    queue: str,
    env: dict[str, str] | None = None,
    slow_steps_s: float | None = None,
    ready: bool = True,
    consume: str = "both",
    concurrency: int = 1,
) -> Worker:
    """Start a worker on ``queue`` (see the module docstring); ``env`` adds/overrides variables.

    ``consume``: ``both`` (``queue`` and its interactive queue ``<queue>-interactive``, as a worker
    started without ``-Q``), ``interactive`` (the interactive queue alone, as the compose file's
    ``worker-interactive``) or ``bulk`` (``queue`` alone)."""
    from django.conf import settings

    name = f"jobs-{uuid.uuid4().hex[:8]}@{os.uname().nodename}"
    log = Path(tempfile.mkstemp(prefix="zsizer-worker-", suffix=".log")[1])
    environ = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "ZSIZER_TASK_QUEUE": queue,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH", "")])),
        "PYTHONUNBUFFERED": "1",
        # Off unless a test asks: a reconciler would re-send the stale rows other tests commit.
        "ZSIZER_RECONCILE_INTERVAL_SECONDS": "0",
        **(env or {}),
    }
    if slow_steps_s is not None:
        environ[STEP_DELAY_ENV] = str(slow_steps_s)
    queues = {"both": f"{queue},{queue}-interactive", "interactive": f"{queue}-interactive", "bulk": queue}[consume]
    command = [
        sys.executable, "-m", "celery", "-A", "tests.celery_worker", "worker",
        "--pool=prefork", f"--concurrency={concurrency}", "-Q", queues, "-n", name, "--loglevel=INFO",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=REPO, env=environ, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    worker = Worker(name=name, queue=queue, process=process, log=log)
    if ready:
        try:
            worker.wait_ready()
        except Exception:
            worker.kill()
            raise
    return worker


def purge_queue(queue: str) -> None:
    """Delete a test queue from Redis: the messages a failed test left in it and its bindings
    (kombu keeps no record of them in a fresh connection, so the keys are deleted by name)."""
    with app.connection_for_write() as conn:
        channel = conn.default_channel
        keys: list[str] = []
        for name in (queue, f"{queue}-interactive"):
            keys += [channel._q_for_pri(name, pri) for pri in channel.priority_steps]
            keys += [channel.keyprefix_queue % name, channel.keyprefix_binding_permanent % name]
        channel.client.delete(*keys)


def purge_unacked() -> None:
    """Forget the messages a worker took and never acknowledged (a worker an earlier test killed
    mid-task leaves its delivery in the broker's unacked hash, which every queue shares)."""
    with app.connection_for_write() as conn:
        channel = conn.default_channel
        channel.client.delete(channel.unacked_key, channel.unacked_index_key)


def wait_for_job(
    job_id: int, *, until: Iterable[str] = FINISHED, timeout: float = 60.0, check: Callable[[Any], bool] | None = None
) -> Any:
    """Poll the job row until its status is in ``until`` (and ``check(job)`` holds, if given)."""
    from sizing.models import Job

    wanted = set(until)
    deadline = time.monotonic() + timeout
    job = None
    while time.monotonic() < deadline:
        job = Job.objects.get(pk=job_id)
        if job.status in wanted and (check is None or check(job)):
            return job
        time.sleep(0.05)
    state = None if job is None else (job.status, job.progress, job.attempts, job.error)
    raise TimeoutError(f"job {job_id} not {sorted(wanted)} after {timeout} s: {state}")


@pytest.fixture(scope="session", name="session_worker")
def fixture_session_worker(django_db_setup: None) -> Iterator[Worker]:
    """One real worker for the session, on a queue of its own."""
    queue = unique_queue()
    worker = start_worker(queue=queue)
    try:
        yield worker
    finally:
        worker.stop()
        purge_queue(queue)
        worker.log.unlink(missing_ok=True)


@pytest.fixture(name="reload_benchmarks")
def fixture_reload_benchmarks(transactional_db: None) -> None:
    """Load ``benchmarks/`` into the (flushed) database of a transactional test."""
    from django.core.management import call_command

    call_command("load_benchmarks", verbosity=0)


@pytest.fixture(name="jobs_worker")
def fixture_jobs_worker(session_worker: Worker, settings: Any, reload_benchmarks: None) -> Worker:
    """The session's worker, with this test's job submissions sent to its queue."""
    if not session_worker.alive():
        pytest.fail(f"the session's worker died:\n{session_worker.log_text()}")
    settings.ZSIZER_TASK_QUEUE = session_worker.queue
    return session_worker


# -- inside the worker process (celery -A tests.celery_worker) ---------------------------------


def _slow_progress_steps() -> None:
    """Make every progress step of a job slower by $ZSIZER_TEST_STEP_DELAY_S seconds."""
    delay = float(os.environ[STEP_DELAY_ENV])
    from sizing.services import jobs

    original = jobs._Progress.__call__

    def slow(self: Any, done: float, total: float) -> None:
        time.sleep(delay)
        original(self, done, total)

    jobs._Progress.__call__ = slow  # type: ignore[method-assign]


if os.environ.get(STEP_DELAY_ENV):
    from celery.signals import worker_process_init

    worker_process_init.connect(lambda **_: _slow_progress_steps(), weak=False)
