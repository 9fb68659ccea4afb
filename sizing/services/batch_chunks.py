"""Big batches split across workers: chunk jobs that each size their rows, then one assembly.

A ``batch`` job of more than ``ZSIZER_BATCH_CHUNK_ROWS`` rows is not sized by the worker that
claims it.  That worker splits it (:func:`batch_split`): one child job per chunk of rows
(``Job.parent``; kind ``batch``, ``params = {"csv": header + its rows, "chunk": {...}}``), written
in one transaction with the batch still ``running`` and sent after the commit, so that every
idle worker takes one.  Chunks are ordinary jobs: claimed by compare-and-swap, leased, recovered
by the reconciler when their worker dies, re-sent when the broker loses them.  Each chunk stores
its rows' outcomes; whoever ends a chunk then calls :func:`batch_after_chunk`, which under a lock
on the batch row sets its progress (rows of ended chunks / all rows) and, once every chunk has
succeeded, assembles the result in row order exactly as an unsplit run would
(``sizing.jobs.batch.batch_result``), or fails the batch with the failed chunk's reason.  A plan's
candidates are chunks of its job in the same way (``sizing.services.plan_chunks``).  The
reconciler assembles a batch whose last chunk's worker died before it could.
"""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from sizing.jobs.batch import Answer, batch_result, read_rows
from sizing.models import Job, JobKind, JobStatus
from sizing.services.plan_chunks import plan_after_chunk

logger = logging.getLogger(__name__)

Send = Callable[..., object]


def batch_chunks_of(params: dict[str, Any]) -> list[tuple[int, int, str]] | None:
    """(first row, rows, CSV of the header and the chunk's rows) for each chunk, or ``None`` when
    the batch is small enough for one worker (or there are no other workers: no broker)."""
    if settings.CELERY_TASK_ALWAYS_EAGER or "chunk" in params:
        return None
    header, rows = read_rows(params["csv"])
    data = list(rows)
    size = settings.ZSIZER_BATCH_CHUNK_ROWS
    if len(data) <= size:
        return None
    chunks = []
    for first in range(0, len(data), size):
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(data[first : first + size])
        chunks.append((first + 1, len(data[first : first + size]), out.getvalue()))
    return chunks


def batch_split(*, job: Job, attempt: int, chunks: list[tuple[int, int, str]], send: Send) -> bool:
    """Write the chunk jobs of ``job`` (which this worker runs, on ``attempt``) and send them
    after the commit; ``False`` if the batch is no longer ours (cancelled, taken over)."""
    with transaction.atomic():
        mine = Job.objects.select_for_update().filter(pk=job.pk, status=JobStatus.RUNNING, attempts=attempt)
        if not mine.exists():
            return False
        if Job.objects.filter(parent_id=job.pk).exists():
            return True  # split already (a redelivered task): the chunks carry on
        total = sum(count for _, count, _ in chunks)
        children = Job.objects.bulk_create(
            Job(
                owner_id=job.owner_id,
                parent_id=job.pk,
                kind=JobKind.BATCH,
                params={
                    "csv": text,
                    "chunk": {"index": i, "first_row": first, "count": count, "of": len(chunks), "rows": total},
                },
                task_id=f"{job.task_id}-chunk-{i}",
                model_version=job.model_version,
            )
            for i, (first, count, text) in enumerate(chunks)
        )
        mine.update(progress=0, heartbeat_at=timezone.now())
        for child in children:
            transaction.on_commit(partial(send, job_id=child.pk, task_id=child.task_id))
    logger.info("job %s: batch split into %s chunks", job.pk, len(chunks))
    return True


def batch_after_chunk(*, parent_id: int) -> str | None:
    """Progress, assembly or failure of a split batch after one of its chunks ended; the batch's
    new status when it ended, else ``None``."""
    with transaction.atomic():
        parent = Job.objects.select_for_update().filter(pk=parent_id, status=JobStatus.RUNNING).first()
        if parent is None:
            return None  # cancelled, or assembled already
        if parent.kind == JobKind.PLAN:
            return plan_after_chunk(parent=parent)
        chunks = list(Job.objects.filter(parent_id=parent_id).order_by("pk").values("status", "error", "params"))
        lost = next((c for c in chunks if c["status"] in (JobStatus.FAILED, JobStatus.CANCELLED)), None)
        now = timezone.now()
        if lost is not None:
            info = lost["params"]["chunk"]
            last = info["first_row"] + info["count"] - 1
            error = f"Rows {info['first_row']}..{last} (chunk {info['index'] + 1} of {info['of']}) {lost['status']}: {lost['error']}"
            _end(parent_id, status=JobStatus.FAILED, error=error, finished_at=now)
            Job.objects.filter(parent_id=parent_id, status__in=(JobStatus.QUEUED, JobStatus.RUNNING)).update(
                status=JobStatus.CANCELLED, finished_at=now, error="Another chunk of its batch failed."
            )
            return JobStatus.FAILED
        done = [c for c in chunks if c["status"] == JobStatus.SUCCEEDED]
        if len(done) < len(chunks):
            total = chunks[0]["params"]["chunk"]["rows"]
            rows_done = sum(c["params"]["chunk"]["count"] for c in done)
            Job.objects.filter(pk=parent_id).update(progress=min(99, 99 * rows_done // max(total, 1)), heartbeat_at=now)
            return None
        _assemble(parent, now=now)
        return JobStatus.SUCCEEDED


def _assemble(parent: Job, *, now: datetime) -> None:
    header, _ = read_rows(parent.params["csv"])
    answers: list[Answer] = []
    for part in Job.objects.filter(parent_id=parent.pk).order_by("pk").values_list("result", flat=True):
        if part is None:  # a chunk's part is cleared only once its batch has ended
            raise RuntimeError(f"job {parent.pk}: a succeeded chunk has no stored rows")
        answers.extend((list(given), dict(pairs), str(error)) for given, pairs, error in part["answers"])
    _end(parent.pk, status=JobStatus.SUCCEEDED, result=batch_result(header=header, answers=answers), finished_at=now)
    # The batch holds the rows now; the chunks' copies would only double the storage.
    Job.objects.filter(parent_id=parent.pk).update(result=None)


def _end(parent_id: int, **fields: Any) -> None:
    if fields["status"] == JobStatus.SUCCEEDED:
        fields["progress"] = 100
    Job.objects.filter(pk=parent_id, status=JobStatus.RUNNING).update(error=fields.pop("error", ""), **fields)
