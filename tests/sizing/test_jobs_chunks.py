"""Big batches split into chunk jobs: the split, progress that adds up, assembly in row order
equal to an unsplit run, a failed chunk, cancellation, and the reconciler ending a batch.

In-process: ``job_run`` is called for the batch and for each chunk in turn (in reverse order,
so that the assembly cannot lean on the order chunks end in).  The messages of the chunks go
to a queue of the test's own on the real Redis.  Chunks spread over two real workers are in
test_jobs_worker.py.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone

from sizing.jobs.batch import run_batch
from sizing.models import Job, JobStatus
from sizing.services.job_recovery import broker_task_ids, jobs_reconcile
from sizing.services.jobs import RUNNING_LIMIT_WAIT_S, job_cancel, job_run, jobs_on_workers
from tests.celery_worker import purge_queue, unique_queue

pytestmark = pytest.mark.django_db(transaction=True)

GOOD = [
    "fiteq-authenticator,multi-region,z13,5000,",
    "cicstg,ipic-channel-64,z10,1000,4",
    "fiteq-authenticator,multi-region,z13,2500,",
    "zosconnect-cics,channel,z13,300,",
]
BAD = ["no-such-path,multi-region,z13,5000,", "fiteq-authenticator,multi-region,z13,-5,"]
#: Eight rows, two bad, in chunks of three: 3 + 3 + 2.
CSV = (
    "path,configuration,machine,tps,cps\n" + "\n".join([*GOOD[:2], BAD[0], *GOOD[2:], BAD[1], GOOD[0], GOOD[1]]) + "\n"
)


@pytest.fixture(name="split_batches")
def fixture_split_batches(settings: Any) -> Iterator[None]:
    """Chunks of three rows, workers on a broker (its queue the test's own)."""
    settings.ZSIZER_BATCH_CHUNK_ROWS = 3
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.ZSIZER_TASK_QUEUE = unique_queue()
    yield
    purge_queue(settings.ZSIZER_TASK_QUEUE)


def _batch(owner: Any, text: str = CSV) -> Job:
    return Job.objects.create(owner=owner, kind="batch", params={"csv": text}, task_id=str(uuid.uuid4()))


def _chunks(batch: Job) -> list[Job]:
    return list(Job.objects.filter(parent=batch).order_by("pk"))


def test_a_big_batch_is_split_and_assembled_in_row_order_as_an_unsplit_run(
    user: Any, split_batches: None, reload_benchmarks: None
) -> None:
    batch = _batch(user)
    assert job_run(job_id=batch.pk, hostname="w1").state == JobStatus.RUNNING
    chunks = _chunks(batch)
    # ceil(8 / 3) = 3 chunks of rows 1-3, 4-6, 7-8, all queued and sent to the broker.
    assert [(c.params["chunk"]["first_row"], c.params["chunk"]["count"]) for c in chunks] == [(1, 3), (4, 3), (7, 2)]
    assert all(c.status == JobStatus.QUEUED and c.owner_id == user.pk for c in chunks)
    assert {c.task_id for c in chunks} <= broker_task_ids()
    progress = []
    for chunk in reversed(chunks):
        assert job_run(job_id=chunk.pk, hostname="w2").state == JobStatus.SUCCEEDED
        batch.refresh_from_db()
        progress.append((batch.status, batch.progress))
    # Progress is the share of rows in ended chunks: 99 * 2 // 8 = 24, 99 * 5 // 8 = 61, then 100.
    assert progress == [(JobStatus.RUNNING, 24), (JobStatus.RUNNING, 61), (JobStatus.SUCCEEDED, 100)]
    unsplit = run_batch(params={"csv": CSV}, owner=user, progress=lambda *_: None)
    assert batch.result == unsplit
    at = batch.result["table"]["columns"].index("row")
    assert [r[at] for r in batch.result["table"]["rows"]] == list(range(1, 9))
    assert (batch.result["rows"], batch.result["succeeded"], batch.result["failed"]) == (8, 6, 2)
    assert all(c.result is None for c in _chunks(batch))  # the batch holds the rows now
    # A batch of at most ZSIZER_BATCH_CHUNK_ROWS rows is sized by one worker, unsplit.
    small = _batch(user, "path,configuration,machine,tps,cps\n" + "\n".join(GOOD[:3]))
    assert job_run(job_id=small.pk, hostname="w1").state == JobStatus.SUCCEEDED
    assert _chunks(small) == [] and Job.objects.get(pk=small.pk).result["rows"] == 3


def test_the_owners_running_limit_counts_chunks_and_not_their_split_batch(
    user: Any, other_user: Any, split_batches: None, reload_benchmarks: None, settings: Any
) -> None:
    settings.ZSIZER_MAX_RUNNING_JOBS_PER_USER = 1
    batch = _batch(user)
    assert job_run(job_id=batch.pk, hostname="w1").state == JobStatus.RUNNING
    first, second, third = _chunks(batch)
    assert jobs_on_workers(owner_id=user.pk) == 0  # the split batch waits for its chunks on no worker
    # A worker is computing the first chunk: that is the owner's one job on a worker.
    now = timezone.now()
    Job.objects.filter(pk=first.pk).update(status=JobStatus.RUNNING, attempts=1, last_started_at=now, heartbeat_at=now)
    assert jobs_on_workers(owner_id=user.pk) == 1
    for waiting in (second, third):
        outcome = job_run(job_id=waiting.pk, hostname="w2")
        assert (outcome.state, outcome.retry_in_s) == (JobStatus.QUEUED, RUNNING_LIMIT_WAIT_S)
        waiting.refresh_from_db()
        assert (waiting.status, waiting.attempts) == (JobStatus.QUEUED, 0) and waiting.sent_at is not None
    # A new job of the same owner waits too; another engineer's batch does not.
    mine = _batch(user, "path,configuration,machine,tps,cps\n" + GOOD[0] + "\n")
    assert job_run(job_id=mine.pk, hostname="w2").state == JobStatus.QUEUED
    theirs = _batch(other_user, "path,configuration,machine,tps,cps\n" + GOOD[0] + "\n")
    assert job_run(job_id=theirs.pk, hostname="w3").state == JobStatus.SUCCEEDED
    # The first chunk's worker ends it; the others then run one at a time and the batch is whole.
    Job.objects.filter(pk=first.pk).update(status=JobStatus.QUEUED, attempts=0, heartbeat_at=None)
    for chunk in (first, second, third):
        assert job_run(job_id=chunk.pk, hostname="w2").state == JobStatus.SUCCEEDED
    batch.refresh_from_db()
    assert batch.status == JobStatus.SUCCEEDED
    assert batch.result == run_batch(params={"csv": CSV}, owner=user, progress=lambda *_: None)
    assert job_run(job_id=mine.pk, hostname="w2").state == JobStatus.SUCCEEDED


def test_a_chunk_that_failed_fails_its_batch_with_its_rows_and_reason(
    user: Any, split_batches: None, reload_benchmarks: None
) -> None:
    batch = _batch(user)
    job_run(job_id=batch.pk, hostname="w1")
    first, second, third = _chunks(batch)
    assert job_run(job_id=first.pk, hostname="w2").state == JobStatus.SUCCEEDED
    # The second chunk's workers kept dying: the reconciler gave it up (as in test_jobs_recovery).
    Job.objects.filter(pk=second.pk).update(status=JobStatus.FAILED, error="Gave up after 3 attempts.")
    assert jobs_reconcile().assembled == [batch.pk]
    batch.refresh_from_db()
    assert (batch.status, batch.result) == (JobStatus.FAILED, None)
    assert batch.error == "Rows 4..6 (chunk 2 of 3) failed: Gave up after 3 attempts."
    third.refresh_from_db()
    assert (third.status, third.error) == (JobStatus.CANCELLED, "Another chunk of its batch failed.")


def test_the_reconciler_assembles_a_batch_whose_last_chunks_worker_died_before_it_could(
    user: Any, split_batches: None, reload_benchmarks: None
) -> None:
    batch = _batch(user)
    job_run(job_id=batch.pk, hostname="w1")
    *others, last = _chunks(batch)
    for chunk in others:
        job_run(job_id=chunk.pk, hostname="w2")
    # The last chunk's worker stored its part, then died before assembling the batch.
    part = run_batch(params=last.params, owner=user, progress=lambda *_: None)
    Job.objects.filter(pk=last.pk).update(status=JobStatus.SUCCEEDED, result=part, finished_at=timezone.now())
    assert Job.objects.get(pk=batch.pk).status == JobStatus.RUNNING
    assert jobs_reconcile().assembled == [batch.pk]
    batch.refresh_from_db()
    assert batch.status == JobStatus.SUCCEEDED
    assert batch.result == run_batch(params={"csv": CSV}, owner=user, progress=lambda *_: None)


def test_cancelling_a_split_batch_cancels_its_chunks(user: Any, split_batches: None, reload_benchmarks: None) -> None:
    batch = _batch(user)
    job_run(job_id=batch.pk, hostname="w1")
    first, *_ = _chunks(batch)
    job_run(job_id=first.pk, hostname="w2")
    job_cancel(user=user, job=batch)
    statuses = [c.status for c in _chunks(batch)]
    assert statuses == [JobStatus.SUCCEEDED, JobStatus.CANCELLED, JobStatus.CANCELLED]
    assert job_run(job_id=_chunks(batch)[1].pk, hostname="w2").state == JobStatus.CANCELLED
    batch.refresh_from_db()
    assert (batch.status, batch.result) == (JobStatus.CANCELLED, None)


def test_the_chunks_are_not_listed_and_their_urls_are_404(api: Any, user: Any, split_batches: None) -> None:
    batch = _batch(user)
    job_run(job_id=batch.pk, hostname="w1")
    listed = [j["id"] for j in api.get("/api/v1/jobs/").json()["results"]]
    assert listed == [batch.pk]
    assert api.get(f"/api/v1/jobs/{_chunks(batch)[0].pk}/").status_code == 404
