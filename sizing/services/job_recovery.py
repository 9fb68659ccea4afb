"""The reconciler: the database is the truth for jobs, the broker only carries them.

A job row is written first and its task sent after the commit (``job_submit``).  Whatever the
broker or a worker then loses, one pass of :func:`jobs_reconcile` puts right from the rows:

* **Running, lease expired** (its worker was killed, ran out of memory, lost its host): the job
  goes back to ``queued`` and is sent again, by a compare-and-swap on (status, attempts,
  heartbeat_at), so of several reconcilers (one per worker) only one wins.  The new run claims
  it with ``attempts`` + 1; the lost worker, should it still be alive, finds every write of its
  own (conditional on its attempt number) refused and stops at its next progress step, so a job
  is never stored twice, and a re-run computes the same answer (every kind is deterministic;
  Monte Carlo from its seed).  After ``MAX_ATTEMPTS`` lost workers the job fails with a reason.
* **Queued, not seen by the broker** for ``ZSIZER_JOB_RESEND_SECONDS`` since it was last sent
  (the broker was down at submission, Redis restarted and lost its queue): sent again.  A job
  whose message the broker still holds (waiting behind others, or held by a worker for a
  countdown) is left alone, so a long queue does not fill with duplicates; a duplicate that
  does get through is harmless, since only a ``queued`` job can be claimed.
* **A batch split into chunks** whose chunks have all ended is assembled (or failed) if the
  worker that ended the last one died before it could (``sizing.services.batch_chunks``).

Every worker runs a pass every ``ZSIZER_RECONCILE_INTERVAL_SECONDS`` (``sizing.tasks``);
``manage.py reconcile_jobs`` runs one by hand.  With the defaults (lease 20 s, every 10 s) a job
whose worker died is running again within 30 s.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from sizing.models import Job, JobKind, JobStatus
from sizing.services.batch_chunks import batch_after_chunk
from sizing.services.jobs import MAX_ATTEMPTS, gave_up_message, job_queue, job_send

logger = logging.getLogger(__name__)

#: At most this many jobs of each kind are handled in one pass (the next pass takes the rest).
PASS_LIMIT = 500


@dataclass
class ReconcileReport:
    """Job ids by what one pass did to them; ``threads`` run re-sent jobs without a broker."""

    requeued: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    resent: list[int] = field(default_factory=list)
    assembled: list[int] = field(default_factory=list)
    threads: list[threading.Thread] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"requeued {len(self.requeued)} (lease expired), failed {len(self.failed)} (gave up), "
            f"re-sent {len(self.resent)} (lost by the broker), ended {len(self.assembled)} split batches"
        )


def jobs_reconcile(*, now: datetime | None = None) -> ReconcileReport:
    """One pass of the reconciler (see the module docstring)."""
    now = now or timezone.now()
    report = ReconcileReport()
    _recover_lost_running(now=now, report=report)
    _resend_lost_queued(now=now, report=report)
    _end_split_batches(report=report)
    if report.requeued or report.failed or report.resent or report.assembled:
        logger.warning("job reconciler: %s", report)
    return report


def _send(job_id: int, task_id: str, report: ReconcileReport) -> None:
    thread = job_send(job_id=job_id, task_id=task_id)
    if thread is not None:
        report.threads.append(thread)


def _recover_lost_running(*, now: datetime, report: ReconcileReport) -> None:
    expired = now - timedelta(seconds=settings.ZSIZER_JOB_LEASE_SECONDS)
    has_chunks = Exists(Job.objects.filter(parent_id=OuterRef("pk")))
    lost = (
        Job.objects.filter(status=JobStatus.RUNNING)
        .filter(Q(heartbeat_at__lt=expired) | Q(heartbeat_at=None, last_started_at__lt=expired))
        .exclude(has_chunks)  # a split batch lives in its chunks
        .values("pk", "attempts", "heartbeat_at", "task_id")
        .order_by("pk")[:PASS_LIMIT]
    )
    for row in lost:
        same = Job.objects.filter(
            pk=row["pk"], status=JobStatus.RUNNING, attempts=row["attempts"], heartbeat_at=row["heartbeat_at"]
        )
        if row["attempts"] >= MAX_ATTEMPTS:
            if same.update(status=JobStatus.FAILED, finished_at=now, error=gave_up_message(row["attempts"])):
                report.failed.append(row["pk"])
        elif same.update(status=JobStatus.QUEUED, heartbeat_at=None, worker_host="", progress=0, sent_at=now):
            report.requeued.append(row["pk"])
            _send(row["pk"], row["task_id"], report)


def _resend_lost_queued(*, now: datetime, report: ReconcileReport) -> None:
    cutoff = now - timedelta(seconds=settings.ZSIZER_JOB_RESEND_SECONDS)
    waiting = list(
        Job.objects.filter(status=JobStatus.QUEUED)
        .annotate(last_sent=Coalesce("sent_at", "created_at"))
        .filter(last_sent__lt=cutoff)
        .values("pk", "task_id", "sent_at")
        .order_by("pk")[:PASS_LIMIT]
    )
    if not waiting:
        return
    held = broker_task_ids()
    for row in waiting:
        same = Job.objects.filter(pk=row["pk"], status=JobStatus.QUEUED, sent_at=row["sent_at"])
        if not same.update(sent_at=now):
            continue  # claimed, cancelled or handled by another reconciler meanwhile
        if held is not None and row["task_id"] in held:
            continue  # still in the broker: that message will run it
        report.resent.append(row["pk"])
        _send(row["pk"], row["task_id"], report)


def _end_split_batches(*, report: ReconcileReport) -> None:
    """A split batch whose chunks have all ended (the worker that ended the last one died before
    it could assemble the batch), or one of whose chunks failed without a worker to say so (the
    reconciler gave it up): assembled, or failed with the chunk's reason."""
    chunks = Job.objects.filter(parent_id=OuterRef("pk"))
    ended = (
        Job.objects.filter(status=JobStatus.RUNNING)
        .filter(Exists(chunks))
        .filter(
            ~Exists(chunks.filter(status__in=(JobStatus.QUEUED, JobStatus.RUNNING)))
            | Exists(chunks.filter(status__in=(JobStatus.FAILED, JobStatus.CANCELLED)))
        )
        .values_list("pk", flat=True)
        .order_by("pk")[:PASS_LIMIT]
    )
    for parent_id in list(ended):
        if batch_after_chunk(parent_id=parent_id) is not None:
            report.assembled.append(parent_id)


def broker_task_ids() -> set[str] | None:
    """Ids of the job tasks the broker holds: waiting in the queue, or delivered and not yet
    acknowledged (running, or held by a worker for a countdown).  ``None`` when that cannot be
    told (no broker, not Redis, the broker unreachable): then every waiting job is re-sent."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return None
    from config.celery import app

    try:
        with app.connection_for_read() as conn:
            channel: Any = conn.default_channel
            if not hasattr(channel, "_q_for_pri"):
                return None
            client = channel.client
            ids: set[str] = set()
            queues = {job_queue(JobKind.BATCH), job_queue(JobKind.CURVE)}  # both queues
            for queue in sorted(queues):
                for priority in channel.priority_steps:
                    key = channel._q_for_pri(queue, priority)
                    ids.update(_task_id(json.loads(raw)) for raw in client.lrange(key, 0, -1))
            ids.update(_task_id(json.loads(raw)[0]) for raw in client.hvals(channel.unacked_key))
            return ids
    except Exception:
        logger.warning("job reconciler: cannot read the broker's queue", exc_info=True)
        return None


def _task_id(message: dict[str, Any]) -> str:
    headers = message.get("headers") or {}
    return str(headers.get("id") or (message.get("properties") or {}).get("correlation_id") or "")
