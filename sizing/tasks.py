"""Celery tasks: thin wrappers that take a job id, re-fetch it and call one service."""

from __future__ import annotations

import logging
import random
import socket
import threading
from typing import Any

from celery import Task, shared_task
from celery.signals import worker_ready, worker_shutting_down
from django.conf import settings
from django.db import connections

from sizing.models import JobStatus
from sizing.services.job_recovery import jobs_reconcile
from sizing.services.jobs import RUN_JOB_TASK, TRANSIENT_ERRORS, job_fail, job_run
from sizing.services.reports import BUILD_REPORT_TASK, report_build

logger = logging.getLogger(__name__)

MAX_TRANSIENT_RETRIES = 5
#: Waiting for another worker's lease to run out is not an error; allow for a long job.
MAX_LEASE_WAITS = 100
#: A job held back by its owner's running limit is not failing: it may wait (almost) for ever.
MAX_QUEUED_WAITS = 1_000_000


def _backoff(retries: int) -> float:
    """1, 2, 4, 8, 16 s (capped at 60), with up to 50 % jitter so retries do not stampede."""
    base = min(60.0, 2.0**retries)
    return base * (1.0 + 0.5 * random.random())


class JobTask(Task[Any, str]):
    def on_failure(self, exc: BaseException, task_id: str, args: Any, kwargs: Any, einfo: Any) -> None:
        # Whatever escaped job_run (retries exhausted, the hard time limit, a bug outside the
        # computation) must not leave the job queued or running for ever.
        job_id = args[0] if args else kwargs.get("job_id")
        if job_id is not None:
            job_fail(job_id=job_id, error=f"The worker gave up on the job ({type(exc).__name__}: {exc}).")


@shared_task(
    bind=True,
    base=JobTask,
    name=RUN_JOB_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    max_retries=MAX_TRANSIENT_RETRIES,
    ignore_result=True,
)
def run_job(self: JobTask, job_id: int) -> str:
    """Run job ``job_id``: claim it, compute, store the result; a duplicate delivery is a no-op."""
    request = self.request
    try:
        outcome = job_run(
            job_id=job_id,
            task_id=request.id or "",
            hostname=request.hostname or socket.gethostname(),
            redelivered=bool((request.delivery_info or {}).get("redelivered")),
            soft_time_limit_s=(request.timelimit or (None, None))[1] or self.soft_time_limit,
        )
    except TRANSIENT_ERRORS as exc:  # database, broker or cache briefly away: retried with backoff
        raise self.retry(exc=exc, countdown=_backoff(request.retries)) from exc
    if outcome.retry_in_s is not None and not request.is_eager:
        # Another worker holds a live lease: look again when it would have run out (in-process,
        # without a broker, there is no other worker and nothing to wait for).  A job waiting
        # for its owner's other jobs (the per-user running limit) waits as long as they take.
        waits = MAX_QUEUED_WAITS if outcome.state == JobStatus.QUEUED else MAX_LEASE_WAITS
        raise self.retry(countdown=outcome.retry_in_s, max_retries=waits)
    return outcome.state


@shared_task(
    name=BUILD_REPORT_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    ignore_result=True,
)
def build_report(report_id: int) -> str:
    """Build a heavy PDF report; the row's conditional claim makes a redelivery a no-op."""
    return report_build(report_id=report_id)


# -- the reconciler, run by every worker -------------------------------------------------------

_reconciler_stop = threading.Event()


def _reconcile_forever(interval_s: float) -> None:
    while not _reconciler_stop.wait(interval_s):
        try:
            jobs_reconcile()
        except Exception:  # the database or the broker is away: try again next round
            logger.warning("job reconciler: this round failed", exc_info=True)
        finally:
            connections.close_all()  # this thread's own; nothing held open across a fork


@worker_ready.connect
def _start_reconciler(**_: Any) -> None:
    """Every worker runs the reconciler in a thread of its main process (the pool's processes
    compute jobs); its transitions are compare-and-swap, so several workers never conflict."""
    interval = settings.ZSIZER_RECONCILE_INTERVAL_SECONDS
    if interval <= 0:
        return
    _reconciler_stop.clear()
    threading.Thread(target=_reconcile_forever, args=(interval,), name="zsizer-reconciler", daemon=True).start()
    logger.info("job reconciler: every %s s", interval)


@worker_shutting_down.connect
def _stop_reconciler(**_: Any) -> None:
    _reconciler_stop.set()
