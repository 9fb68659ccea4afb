"""Jobs: heavy solves run by a Celery worker, or in a thread of this process without a broker.

A job moves ``queued -> running -> succeeded | failed``, or to ``cancelled`` from either of the
first two.  Every transition is a conditional UPDATE on the state it leaves (and, while running,
on the attempt number that owns it), and its row count says whether it happened, so a task that
is delivered twice does no harm and a cancelled job is never overwritten.

Redelivery.  Tasks are acknowledged late, so a worker that dies mid-job leaves its message
unacknowledged and the broker delivers it again (Redis: after the visibility timeout).  That
delivery finds the job ``running``.  To tell a dead worker from a live one, the worker running a
job renews a lease, ``Job.heartbeat_at``, every quarter of ``ZSIZER_JOB_LEASE_SECONDS`` from a
background thread.  A delivery that finds a running job with a live lease (a duplicate while its
worker is still at it) retries later and changes nothing; once the lease has run out it takes the
job over with a compare-and-swap on (status, attempts, heartbeat_at), so only one delivery wins,
and the old owner's late writes (all conditional on its attempt number) change nothing.  A job
whose workers die ``MAX_ATTEMPTS`` times fails instead of looping.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from celery import Task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import DatabaseError, InterfaceError, OperationalError, connections, transaction
from django.db.models import Exists, F, OuterRef, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerOperationalError
from redis.exceptions import RedisError

import models_lib
from config.celery import app as celery_app
from sizing.jobs import RUNNERS, JobStopped
from sizing.models import Job, JobKind, JobStatus
from sizing.services.batch_chunks import batch_after_chunk, batch_chunks_of, batch_split
from sizing.services.plan_chunks import plan_chunks_of, plan_split
from sizing.services.quotas import lock_owner, quota_check

logger = logging.getLogger(__name__)

#: The Celery task that runs a job (sizing.tasks.run_job).
RUN_JOB_TASK = "sizing.run_job"
#: A job is given up after its worker has been lost this many times.
MAX_ATTEMPTS = 3
#: Progress is written at most this often (seconds); each write also renews the lease and
#: notices a cancellation.
PROGRESS_INTERVAL_S = 0.5
#: A job whose owner has the most running jobs allowed is looked at again after this (seconds).
RUNNING_LIMIT_WAIT_S = 3.0
#: Errors worth retrying: the database or the broker was briefly unreachable.
TRANSIENT_DB_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
#: Every error worth retrying: the database, the broker or a Redis cache briefly unreachable (the
#: shared caches degrade by themselves, config.redis_cache; this is for any Redis they miss).
TRANSIENT_ERRORS: tuple[type[Exception], ...] = (
    *TRANSIENT_DB_ERRORS,
    BrokerOperationalError,
    RedisError,
    ConnectionError,
    TimeoutError,
)

ACTIVE = (JobStatus.QUEUED, JobStatus.RUNNING)
TERMINAL = (JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.CANCELLED)


class JobNotCancellable(Exception):
    """The job has already finished (succeeded or failed): there is nothing to cancel."""


class TooManyJobs(Exception):
    """The user already has ``limit`` queued jobs (``ZSIZER_MAX_QUEUED_JOBS_PER_USER``)."""

    def __init__(self, *, queued: int, limit: int) -> None:
        self.queued = queued
        self.limit = limit
        super().__init__(
            f"You have {queued} jobs waiting to run; at most {limit} may be queued at once. "
            "Wait for some to start, or cancel some, and submit again."
        )


# -- submit and cancel (the web process) ---------------------------------------------------


def job_submit(*, user: User, kind: str, params: dict[str, Any]) -> Job:
    """Store a queued job owned by ``user`` and send it to a worker once the row is committed.

    ``params`` must already be validated (``sizing.api.job_serializers``).  Without a broker
    (``CELERY_TASK_ALWAYS_EAGER``) the job runs in a background thread of this process, through
    the same task and the same states, so the request still answers at once.

    The row is the truth: if the broker cannot take the task after the commit, the job stays
    ``queued`` and the reconciler (``sizing.services.job_recovery``) sends it once the broker is
    back.  The owner's kept-jobs quota (a plan's job is counted as its plan, by the plan's
    service) and queue are checked in the transaction that writes the row, under the lock on
    their user row: it raises :class:`~sizing.services.quotas.QuotaExceeded`, or
    :class:`TooManyJobs` when the user already has ``ZSIZER_MAX_QUEUED_JOBS_PER_USER`` queued
    jobs, and nothing is stored (no finished job is pruned).
    """
    if kind not in RUNNERS:
        raise ValidationError({"kind": [f"Unknown job kind {kind!r}."]})
    with transaction.atomic():
        lock_owner(user.pk)
        if kind != JobKind.PLAN:
            quota_check(owner_id=user.pk, name="jobs")
        limit = settings.ZSIZER_MAX_QUEUED_JOBS_PER_USER
        queued = Job.objects.filter(owner_id=user.pk, parent=None, status=JobStatus.QUEUED).count()
        if queued >= limit:
            raise TooManyJobs(queued=queued, limit=limit)
        job = Job.objects.create(
            owner=user,
            kind=kind,
            params=params,
            task_id=str(uuid.uuid4()),
            model_version=models_lib.__version__,
        )
        job_id, task_id = job.pk, job.task_id
        transaction.on_commit(partial(job_send, job_id=job_id, task_id=task_id))
    return job


#: Short jobs a user waits for at the screen: their own queue, apart from batches and plans.
INTERACTIVE_KINDS = frozenset({JobKind.CURVE, JobKind.CLOSED, JobKind.MONTECARLO, JobKind.OPTIMIZE})


def job_queue(kind: str) -> str:
    """The queue a job of ``kind`` is sent to: ``<ZSIZER_TASK_QUEUE>-interactive`` for the short
    interactive kinds, ``ZSIZER_TASK_QUEUE`` for the rest (batches and their chunks, mixes, plans)."""
    base: str = settings.ZSIZER_TASK_QUEUE
    return f"{base}-interactive" if kind in INTERACTIVE_KINDS else base


def job_time_limits(kind: str) -> tuple[int, int]:
    """``(soft, hard)`` time limits (s) of a job of ``kind``."""
    if kind in INTERACTIVE_KINDS:
        return settings.ZSIZER_INTERACTIVE_SOFT_TIME_LIMIT, settings.ZSIZER_INTERACTIVE_TIME_LIMIT
    return settings.CELERY_TASK_SOFT_TIME_LIMIT, settings.CELERY_TASK_TIME_LIMIT


def _run_job_task() -> Task[Any, Any]:
    """The worker's task, looked up by its name in the Celery app: sizing.tasks calls this module,
    so this module does not import it (``SizingConfig.ready`` registers the task in every process)."""
    return celery_app.tasks[RUN_JOB_TASK]


def job_send(*, job_id: int, task_id: str) -> threading.Thread | None:
    """Hand the job's task to the broker (or, without one, to a thread: returned); ``sent_at``
    records it.  A broker that cannot take it leaves the job queued for the reconciler."""
    run_job = _run_job_task()

    if settings.CELERY_TASK_ALWAYS_EAGER:
        thread = threading.Thread(
            target=_run_in_thread,
            kwargs={"job_id": job_id, "task_id": task_id},
            name=f"zsizer-job-{job_id}",
            daemon=True,
        )
        thread.start()
        return thread
    try:
        kind = str(Job.objects.filter(pk=job_id).values_list("kind", flat=True).first() or "")
        soft, hard = job_time_limits(kind)
        run_job.apply_async(
            args=(job_id,),
            task_id=task_id,
            queue=job_queue(kind),
            # The limits travel with the message; read them now, not when the task was imported.
            soft_time_limit=soft,
            time_limit=hard,
            # Briefly: the request waits for this, and the reconciler sends what fails here.
            retry=True,
            retry_policy={"max_retries": 2, "interval_start": 0.1, "interval_step": 0.2, "interval_max": 0.5},
        )
    except Exception:  # the broker is down: the job stays queued and the reconciler sends it later
        logger.warning("job %s: the broker could not take it; the reconciler will send it", job_id, exc_info=True)
        try:
            Job.objects.filter(pk=job_id, status=JobStatus.QUEUED).update(sent_at=None)
        except DatabaseError:
            pass
        return None
    try:
        Job.objects.filter(pk=job_id, status=JobStatus.QUEUED).update(sent_at=timezone.now())
    except DatabaseError:  # without sent_at the reconciler may send it once more: harmless
        logger.warning("job %s: sent, but sent_at could not be recorded", job_id, exc_info=True)
    return None


def _run_in_thread(*, job_id: int, task_id: str) -> None:
    run_job = _run_job_task()

    try:
        run_job.apply(args=(job_id,), task_id=task_id)
    finally:
        connections.close_all()  # this thread's own connections


def job_cancel(*, user: User, job: Job) -> Job:
    """Cancel a queued or running job of ``user``; its task is revoked (terminated if running).

    Cancelling a cancelled job changes nothing; a finished job raises :class:`JobNotCancellable`.
    The running task also stops by itself at its next progress step (it finds the job no longer
    ``running``), which is what stops a job run in-process without a broker.
    """
    if job.owner_id != user.pk:
        raise PermissionError("Only the owner can cancel a job.")
    for _ in range(3):  # the status may move on between the read and the conditional update
        current = Job.objects.filter(pk=job.pk).values_list("status", flat=True).first()
        if current is None or current == JobStatus.CANCELLED:
            break
        if current in (JobStatus.SUCCEEDED, JobStatus.FAILED):
            raise JobNotCancellable(f"Job {job.pk} has already {current}; there is nothing to cancel.")
        changed = Job.objects.filter(pk=job.pk, status=current).update(
            status=JobStatus.CANCELLED, finished_at=timezone.now(), error="Cancelled by its owner."
        )
        if changed:
            # A batch's chunks stop with it (each at its next progress step).
            Job.objects.filter(parent_id=job.pk, status__in=ACTIVE).update(
                status=JobStatus.CANCELLED, finished_at=timezone.now(), error="Its batch was cancelled."
            )
            transaction.on_commit(partial(_revoke, task_id=job.task_id, terminate=current == JobStatus.RUNNING))
            break
    job.refresh_from_db()
    return job


def _revoke(*, task_id: str, terminate: bool) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER or not task_id:
        return
    from config.celery import app

    try:
        app.control.revoke(task_id, terminate=terminate, signal="SIGTERM")
    except Exception:  # the status is what counts: a task that starts later finds the job cancelled
        logger.warning("could not broadcast the revocation of task %s", task_id, exc_info=True)


# -- run (the worker) --------------------------------------------------------------------------


@dataclass(frozen=True)
class RunOutcome:
    """What :func:`job_run` did: ``state`` is the job's state afterwards as far as this delivery
    knows; ``retry_in_s`` is set when another worker holds a live lease on the job."""

    state: str
    retry_in_s: float | None = None


def _lease() -> timedelta:
    return timedelta(seconds=settings.ZSIZER_JOB_LEASE_SECONDS)


def job_run(
    *,
    job_id: int,
    task_id: str = "",
    hostname: str = "",
    redelivered: bool = False,
    soft_time_limit_s: float | None = None,
) -> RunOutcome:
    """Claim the job, compute it and store the result (or the error); safe to call twice.

    ``soft_time_limit_s`` is the limit the task runs under (for the error message; Celery
    enforces it).

    Raises only the transient errors of :data:`TRANSIENT_ERRORS` (database, broker, Redis), after
    putting the job back to ``queued`` where it can, so that the caller retries it.
    """
    hostname = hostname or socket.gethostname()
    claimed = _claim(job_id=job_id, hostname=hostname)
    if claimed is None:
        return RunOutcome(JobStatus.QUEUED, retry_in_s=RUNNING_LIMIT_WAIT_S)
    if not claimed:
        outcome = _take_over_if_abandoned(job_id=job_id, hostname=hostname, redelivered=redelivered)
        if outcome is not None:
            return outcome
    job = Job.objects.select_related("owner").get(pk=job_id)
    attempt = job.attempts
    logger.info("job %s (%s): attempt %s on %s, task %s", job_id, job.kind, attempt, hostname, task_id)
    outcome = _compute(job=job, attempt=attempt, soft_time_limit_s=soft_time_limit_s)
    if job.parent_id is not None and outcome.state in TERMINAL:
        batch_after_chunk(parent_id=job.parent_id)  # the batch's progress, or its assembly
    return outcome


def _claim(*, job_id: int, hostname: str) -> bool | None:
    """queued -> running: ``True`` if this delivery claimed the job, ``False`` if it was not
    queued, ``None`` if its owner already has ``ZSIZER_MAX_RUNNING_JOBS_PER_USER`` jobs on workers
    (:func:`jobs_on_workers`: it stays queued; the task looks again later).

    The limit holds for the chunks of a split batch or plan as for any job: a 5,000-row batch is
    20 chunks, and were they exempt one user's batch would take every worker."""
    queued = Job.objects.filter(pk=job_id, status=JobStatus.QUEUED)
    row = queued.values("owner_id").first()
    if row is None:
        return False
    if settings.CELERY_TASK_ALWAYS_EAGER:  # without a broker there are no workers to share
        return bool(queued.update(**_claim_fields(hostname)))
    with transaction.atomic():
        lock_owner(row["owner_id"])
        if jobs_on_workers(owner_id=row["owner_id"]) >= settings.ZSIZER_MAX_RUNNING_JOBS_PER_USER:
            # The task's retry is its message: nothing for the reconciler.
            queued.update(sent_at=timezone.now())
            return None
        # The start time is read under the lock, after the count: a job counted as ended had
        # its finished_at written before this, so the owner's jobs' times never overlap more
        # than the limit allows.
        return bool(queued.update(**_claim_fields(hostname)))


def _claim_fields(hostname: str) -> dict[str, Any]:
    now = timezone.now()
    return {
        "status": JobStatus.RUNNING,
        # started_at is the first start: a job queued again (lost worker, transient error) keeps it.
        "started_at": Coalesce(F("started_at"), Value(now)),
        "last_started_at": now,
        "heartbeat_at": now,
        "worker_host": hostname,
        "attempts": F("attempts") + 1,
        "progress": 0,
        "error": "",
    }


def jobs_on_workers(*, owner_id: int) -> int:
    """How many of the owner's jobs a worker is computing now: running jobs, chunks included,
    except a batch or plan split into chunks (it waits for them and holds no worker)."""
    split = Exists(Job.objects.filter(parent_id=OuterRef("pk")))
    return int(Job.objects.filter(owner_id=owner_id, status=JobStatus.RUNNING).exclude(split).count())


def gave_up_message(attempts: int) -> str:
    return (
        f"Gave up after {attempts} attempts: the worker running the job was lost each time "
        "(killed, out of memory, or over the hard time limit)."
    )


def _take_over_if_abandoned(*, job_id: int, hostname: str, redelivered: bool) -> RunOutcome | None:
    """``None`` when this delivery now owns a job that a dead worker left running."""
    now = timezone.now()
    row = Job.objects.filter(pk=job_id).values("status", "attempts", "heartbeat_at").first()
    if row is None:
        logger.info("job %s: deleted before it ran", job_id)
        return RunOutcome("deleted")
    if row["status"] != JobStatus.RUNNING:
        # Already finished or cancelled: a duplicate delivery, or a revoked task that got through.
        return RunOutcome(row["status"])
    if Job.objects.filter(parent_id=job_id).exists():
        return RunOutcome(JobStatus.RUNNING)  # a batch split into chunks: it lives in them
    beat = row["heartbeat_at"]
    if beat is not None and beat > now - _lease():
        wait = (beat + _lease() - now).total_seconds()
        logger.info("job %s: running elsewhere with a live lease; checking again in %.1f s", job_id, wait)
        return RunOutcome(JobStatus.RUNNING, retry_in_s=max(wait, 0.1))
    same = Job.objects.filter(pk=job_id, status=JobStatus.RUNNING, attempts=row["attempts"], heartbeat_at=beat)
    if row["attempts"] >= MAX_ATTEMPTS:
        same.update(
            status=JobStatus.FAILED,
            finished_at=now,
            error=gave_up_message(row["attempts"]),
        )
        return RunOutcome(JobStatus.FAILED)
    taken = same.update(
        heartbeat_at=now, last_started_at=now, worker_host=hostname, attempts=F("attempts") + 1, progress=0
    )
    if not taken:
        return RunOutcome(JobStatus.RUNNING, retry_in_s=1.0)  # another delivery took it over first
    logger.warning(
        "job %s: taking over from a lost worker (lease expired at %s, redelivered=%s)",
        job_id,
        beat + _lease() if beat else None,
        redelivered,
    )
    return None


class _Lease:
    """Renews ``heartbeat_at`` from a background thread while the job computes; notices when the
    job stops being ours (cancelled, or taken over after we were presumed dead)."""

    def __init__(self, *, job_id: int, attempt: int) -> None:
        self.job_id = job_id
        self.attempt = attempt
        self.lost = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"zsizer-lease-{job_id}", daemon=True)

    def mine(self) -> Any:
        return Job.objects.filter(pk=self.job_id, status=JobStatus.RUNNING, attempts=self.attempt)

    def __enter__(self) -> _Lease:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _beat(self) -> None:
        interval = settings.ZSIZER_JOB_LEASE_SECONDS / 4
        try:
            while not self._stop.wait(interval):
                try:
                    if not self.mine().update(heartbeat_at=timezone.now()):
                        self.lost.set()
                        return
                except DatabaseError:
                    logger.warning("job %s: could not renew the lease", self.job_id, exc_info=True)
        finally:
            connections.close_all()


class _Progress:
    """The callback handed to a kind: ``progress(done, total)``; raises JobStopped when the job
    was cancelled or taken over, so the computation stops at its next step."""

    def __init__(self, lease: _Lease) -> None:
        self.lease = lease
        self.percent = 0
        self.written_at = time.monotonic()

    def __call__(self, done: float, total: float) -> None:
        if self.lease.lost.is_set():
            raise JobStopped
        percent = int(min(max(done / total if total else 0.0, 0.0), 1.0) * 99)  # 100 is "stored"
        self.percent = max(self.percent, percent)
        if time.monotonic() - self.written_at < PROGRESS_INTERVAL_S:
            return
        self.written_at = time.monotonic()
        if not self.lease.mine().update(progress=self.percent, heartbeat_at=timezone.now()):
            self.lease.lost.set()
            raise JobStopped


def _compute(*, job: Job, attempt: int, soft_time_limit_s: float | None) -> RunOutcome:
    chunks = batch_chunks_of(job.params) if job.kind == JobKind.BATCH else None
    if chunks is not None:  # a big batch: its chunks run on every idle worker
        split = batch_split(job=job, attempt=attempt, chunks=chunks, send=job_send)
        return RunOutcome(JobStatus.RUNNING if split else "stopped")
    candidates = plan_chunks_of(job.params) if job.kind == JobKind.PLAN else None
    if candidates is not None:  # a plan of several candidates: one task per candidate
        split = plan_split(job=job, attempt=attempt, chunks=candidates, send=job_send)
        return RunOutcome(JobStatus.RUNNING if split else "stopped")
    runner = RUNNERS[job.kind]
    with _Lease(job_id=job.pk, attempt=attempt) as lease:
        try:
            result = runner(params=job.params, owner=job.owner, progress=_Progress(lease))
        except JobStopped:
            logger.info("job %s: stopped (cancelled or taken over)", job.pk)
            return RunOutcome("stopped")
        except SoftTimeLimitExceeded:
            limit = soft_time_limit_s or settings.CELERY_TASK_SOFT_TIME_LIMIT
            return _finish(
                lease,
                status=JobStatus.FAILED,
                error=(
                    f"Stopped after the soft time limit of {limit:g} s. Ask for less work "
                    "(fewer CP counts, clients, samples or rows) or split the job."
                ),
            )
        except ValidationError as exc:
            return _finish(lease, status=JobStatus.FAILED, error=_validation_message(exc))
        except ValueError as exc:
            return _finish(lease, status=JobStatus.FAILED, error=str(exc) or type(exc).__name__)
        except TRANSIENT_ERRORS:
            logger.warning("job %s: a transient error; queued again for a retry", job.pk, exc_info=True)
            _requeue(lease)
            raise
        except Exception as exc:
            logger.exception("job %s (%s) failed unexpectedly", job.pk, job.kind)
            return _finish(
                lease, status=JobStatus.FAILED, error=f"Internal error while computing the job ({type(exc).__name__})."
            )
        return _finish(lease, status=JobStatus.SUCCEEDED, result=result)


def _finish(lease: _Lease, *, status: str, result: Any = None, error: str = "") -> RunOutcome:
    fields: dict[str, Any] = {"status": status, "finished_at": timezone.now(), "error": error}
    if status == JobStatus.SUCCEEDED:
        fields.update(result=result, progress=100)
    if lease.mine().update(**fields):
        return RunOutcome(status)
    # Cancelled (or taken over) while we computed: theirs is the last word.
    return RunOutcome("stopped")


def _requeue(lease: _Lease) -> None:
    try:
        # sent_at: the task's own retry is the message that will run it; the reconciler waits.
        lease.mine().update(status=JobStatus.QUEUED, heartbeat_at=None, sent_at=timezone.now())
    except DatabaseError:
        pass  # the database is still away; the lease runs out and a retry takes the job over


def _validation_message(exc: ValidationError) -> str:
    if hasattr(exc, "error_dict"):
        return "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items())
    return " ".join(exc.messages)


def job_fail(*, job_id: int, error: str) -> bool:
    """Mark a job that has not finished as failed (the task gave up: retries exhausted, hard time
    limit, an unexpected error outside the computation); ``True`` if it changed."""
    return bool(
        Job.objects.filter(pk=job_id, status__in=ACTIVE).update(
            status=JobStatus.FAILED, error=error, finished_at=timezone.now()
        )
    )


# -- reads -------------------------------------------------------------------------------------
