"""Sizing reports as PDF: a saved estimate, a comparison of two or three, a finished job.

The numbers are the stored answers (``Estimate.outputs``, ``Job.result``); the charts are drawn
from the same chart data the pages use (``sizing.services.charts``); the basis is read by
``sizing.selectors.report_basis``.  The layout lives in ``sizing.reports``.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Sequence
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connections, transaction
from django.utils import timezone
from reportlab.platypus import Flowable, PageBreak

import models_lib
from config.celery import app as celery_app
from sizing import presentation
from sizing.models import Estimate, Job, JobKind, JobStatus, Machine, Report, ReportStatus, Visibility
from sizing.records import EstimateRecord, JobParams, JobResult
from sizing.reports import document
from sizing.reports.estimate import (
    EstimateSubject,
    comparison_summary,
    comparison_table,
    estimate_story,
    scenario_name,
)
from sizing.selectors.report_basis import ReportBasis, report_basis
from sizing.services import charts, local_account
from sizing.services.cecs import specialty_name

logger = logging.getLogger(__name__)


class ReportNotReady(Exception):
    """The job has no result to report on (it has not succeeded)."""


def author_name(user: User) -> str:
    """The engineer's full name from the account, else the user name; the local account of
    ``make run`` (no person behind it) is not named unless a name is set on it."""
    full = str(getattr(user, "get_full_name", lambda: "")() or "")
    return presentation.prepared_by(full, user.get_username(), unnamed=local_account.USERNAME)


_author = author_name


def estimate_subject(estimate: Estimate) -> EstimateSubject:
    config = estimate.configuration
    return EstimateSubject(
        id=estimate.pk,
        name=estimate.name,
        path_name=config.path.name,
        configuration_name=config.name,
        machine_name=estimate.machine.name,
        inputs=dict(estimate.inputs),
        outputs=dict(estimate.outputs),
        model_version=estimate.model_version,
        saved=estimate.created_at.strftime("%Y-%m-%d %H:%M UTC"),
        # The hook for calibrated estimates: a private configuration, or a basis that says so.
        private_data=config.visibility == Visibility.PRIVATE
        or EstimateRecord.from_dict(estimate.outputs).basis.data_origin not in (None, "published"),
    )


def _chart_data(*, user: User, inputs: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """The estimate page's chart numbers, or None and why (reference data changed since)."""
    try:
        return charts.chart_data(user=user, inputs=inputs), ""
    except ValidationError as exc:
        return None, f"The charts could not be drawn with the current reference data: {'; '.join(exc.messages)}"


def _estimate_parts(*, user: User, estimate: Estimate) -> tuple[EstimateSubject, list[Flowable]]:
    subject = estimate_subject(estimate)
    basis = report_basis(configuration=estimate.configuration, basis=EstimateRecord.from_dict(estimate.outputs).basis)
    chart, note = _chart_data(user=user, inputs=dict(estimate.inputs))
    return subject, estimate_story(subject, basis, chart, note, product_names(user))


def estimate_report_pdf(*, user: User, estimate: Estimate, customer: str = "") -> bytes:
    """The report of one saved estimate of ``user`` (the caller has checked ownership), prepared
    for ``customer`` (none named: "")."""
    created = timezone.now()
    subject, story = _estimate_parts(user=user, estimate=estimate)
    title = f"Sizing report: {scenario_name(subject)}"
    head = document.title_block(
        title=title,
        scenario=scenario_name(subject),
        author=_author(user),
        created=created,
        lines=[
            f"Estimate #{subject.id}, saved {subject.saved}, engine version {document.escape(subject.model_version)}."
        ],
        customer=customer,
    )
    story = [*head, *story, *document.disclaimer()]
    return document.render(story, document.Meta(title=title, author=_author(user), created=created, customer=customer))


def comparison_report_pdf(*, user: User, estimates: Sequence[Estimate], customer: str = "") -> bytes:
    """Two or three estimates side by side, then each one's report in full."""
    created = timezone.now()
    subjects = [estimate_subject(e) for e in estimates]
    title = "Sizing comparison: " + " / ".join(f"#{s.id}" for s in subjects)
    head = document.title_block(
        title=title,
        scenario=" vs ".join(scenario_name(s) for s in subjects),
        author=_author(user),
        created=created,
        customer=customer,
    )
    story: list[Flowable] = [*head, *comparison_summary(subjects), PageBreak()]
    story += [*document.heading("Side by side"), *comparison_table(subjects)]
    for estimate in estimates:
        subject, parts = _estimate_parts(user=user, estimate=estimate)
        story += [
            # a new page, unless the last one still has half of itself free (no near-empty page
            # of the previous estimate's last lines)
            document.NewSection(document.PAGE[1] / 2),
            document.para(document.escape(f"#{subject.id} {scenario_name(subject)}"), document.styles().title),
        ]
        story += parts
    story += document.disclaimer()
    return document.render(story, document.Meta(title=title, author=_author(user), created=created, customer=customer))


def job_report_pdf(*, user: User, job: Job, customer: str = "") -> bytes:
    """The report of a succeeded job of ``user``."""
    from sizing.reports.jobs import job_story  # the job layouts are only needed here

    if job.status != JobStatus.SUCCEEDED or not job.result:
        raise ReportNotReady(f"Job {job.pk} has no result to report on: it is {job.status}.")
    created = timezone.now()
    result = result_with_engine(job)
    basis = _job_basis(user=user, job=job)
    title = f"{JobKind(job.kind).label}: job #{job.pk}"
    names = product_names(user)
    head = document.title_block(
        title=title,
        scenario=_job_scenario(job, names),
        author=_author(user),
        created=created,
        lines=[
            f"Job #{job.pk} ({job.kind}), finished {job.finished_at:%Y-%m-%d %H:%M UTC}, engine version {document.escape(job.model_version)}."
        ]
        if job.finished_at
        else [],
        customer=customer,
    )
    story = [*head, *job_story(job.kind, dict(job.params), result, basis, names), *document.disclaimer()]
    return document.render(story, document.Meta(title=title, author=_author(user), created=created, customer=customer))


def result_with_engine(job: Job) -> dict[str, Any]:
    """The job's result with its machine's specialty engine: a result stored before the runners
    wrote it (``specialty_engine``) has it from the machine's generation (zAAP on z10..zEC12/zBC12)."""
    result = dict(job.result or {})
    if "specialty_engine" not in result:
        machine = Machine.objects.filter(slug=str(job.params.get("machine") or "")).first()
        if machine is not None:
            result["specialty_engine"] = specialty_name(machine.machine_type)
    return result


def _job_scenario(job: Job, names: presentation.ProductNames = presentation.NO_NAMES) -> str:
    """The job's question in a line, in product and machine names."""
    p = JobParams.from_dict(job.params)
    if job.kind == "batch":
        return f"{JobResult.from_dict(job.result or {}).rows} scenarios from CSV"
    if job.kind == "mix":
        return f"{len(p.workloads)} workloads on {names.machine(p.machine)}"
    return f"{names.workload(p.path, p.configuration)} on {names.machine(p.machine)}"


def _job_basis(*, user: User, job: Job) -> ReportBasis | None:
    """The basis of a single-configuration job (curve, closed, Monte Carlo, optimise)."""
    result, params = JobResult.from_dict(job.result or {}), JobParams.from_dict(job.params)
    basis = result.any_basis
    if basis is None or not params.path:
        return None
    from sizing.services.estimates import resolve_configuration

    try:
        config = resolve_configuration(user=user, path=params.path, configuration=str(params.configuration))
    except ValidationError:
        return None
    return report_basis(configuration=config, basis=basis)


# -- heavy reports, built on a worker ----------------------------------------------------------

#: The Celery task that builds a report (sizing.tasks.build_report; looked up by name because
#: sizing.tasks calls this module).
BUILD_REPORT_TASK = "sizing.build_report"
#: A batch with more rows than this is reported on a worker (about 5 ms a row to lay out).
HEAVY_BATCH_ROWS = 100


def report_is_heavy(job: Job) -> bool:
    return job.kind == JobKind.BATCH and int((job.result or {}).get("rows") or 0) > HEAVY_BATCH_ROWS


def report_request(*, user: User, job: Job, customer: str = "") -> Report:
    """The stored report of ``job`` for ``customer``, or a new one queued for a worker once the row
    is committed.

    A report that failed is tried again; one queued, running or done is returned as it is.
    """
    if job.status != JobStatus.SUCCEEDED or not job.result:
        raise ReportNotReady(f"Job {job.pk} has no result to report on: it is {job.status}.")
    with transaction.atomic():
        Job.objects.select_for_update().filter(pk=job.pk).first()  # one report per job at a time
        existing = (
            Report.objects.filter(job=job, model_version=models_lib.__version__, customer=customer)
            .exclude(status=ReportStatus.FAILED)
            .defer("pdf")
            .first()
        )
        if existing is not None:
            return existing
        report = Report.objects.create(
            owner=user, job=job, task_id=str(uuid.uuid4()), model_version=models_lib.__version__, customer=customer
        )
        transaction.on_commit(partial(_dispatch, report_id=report.pk, task_id=report.task_id))
    return report


def _dispatch(*, report_id: int, task_id: str) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        threading.Thread(
            target=_build_in_thread, kwargs={"report_id": report_id}, name=f"zsizer-report-{report_id}", daemon=True
        ).start()
        return
    try:
        # Looked up by name: sizing.tasks imports this module.
        celery_app.tasks[BUILD_REPORT_TASK].apply_async(
            args=(report_id,), task_id=task_id, queue=settings.ZSIZER_TASK_QUEUE
        )
    except Exception as exc:  # the broker is down: say so on the report instead of leaving it queued
        Report.objects.filter(pk=report_id, status=ReportStatus.QUEUED).update(
            status=ReportStatus.FAILED,
            error=f"The report could not be queued: the task broker is unreachable ({type(exc).__name__}).",
            finished_at=timezone.now(),
        )


def _build_in_thread(*, report_id: int) -> None:
    try:
        report_build(report_id=report_id)
    finally:
        connections.close_all()  # this thread's own connections


def report_build(*, report_id: int) -> str:
    """Build report ``report_id`` (worker side); a second delivery of the same task does nothing."""
    claimed = Report.objects.filter(pk=report_id, status=ReportStatus.QUEUED).update(
        status=ReportStatus.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return "not-queued"
    report = Report.objects.select_related("owner", "job").defer("pdf").get(pk=report_id)
    try:
        pdf = job_report_pdf(user=report.owner, job=report.job, customer=report.customer)
    except Exception as exc:  # a report that cannot be built says why, rather than staying "running"
        logger.exception("report %s: could not be built", report_id)
        Report.objects.filter(pk=report_id, status=ReportStatus.RUNNING).update(
            status=ReportStatus.FAILED, error=f"{type(exc).__name__}: {exc}", finished_at=timezone.now()
        )
        return "failed"
    Report.objects.filter(pk=report_id, status=ReportStatus.RUNNING).update(
        status=ReportStatus.SUCCEEDED, pdf=pdf, finished_at=timezone.now()
    )
    return "succeeded"


def report_pdf_bytes(report: Report) -> bytes:
    """The stored PDF of a succeeded report."""
    pdf = Report.objects.filter(pk=report.pk).values_list("pdf", flat=True).first()
    return bytes(pdf or b"")


def product_names(user: User) -> presentation.ProductNames:
    """The names of the paths, configurations (published and ``user``'s own) and machines."""
    from sizing.models import Machine, Path
    from sizing.selectors.reference import visible_configurations

    configs = visible_configurations(user=user).select_related("path").values_list("path__slug", "slug", "name")
    return presentation.ProductNames(
        paths=dict(Path.objects.values_list("slug", "name")),
        configurations={(p, c): name for p, c, name in configs},
        machines=dict(Machine.objects.values_list("slug", "name")),
    )
