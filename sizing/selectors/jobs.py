"""Reads of jobs: an engineer only ever sees their own."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

from sizing.models import Job, JobKind


def job_list(*, user: User, with_result: bool = False) -> QuerySet[Job]:
    """The jobs of ``user``, newest first; an engineer never sees another's (nor the chunks a
    big batch is split into).

    The result JSON (up to megabytes for a batch) is deferred unless asked for.
    """
    # A batch's chunks are part of it; a plan's job is seen through its plan.
    qs = Job.objects.filter(owner_id=user.pk, parent=None).exclude(kind=JobKind.PLAN)
    return qs if with_result else qs.defer("result")


#: The workbench's inputs (its form's field names, ``EstimateInputSerializer``'s): a reopened job
#: fills them from its params.
WORKBENCH_FIELDS = (
    "path", "configuration", "model", "machine", "capacity_setting", "tps", "cps", "ziips", "max_utilization",
    "payload_bytes", "clients", "think_time_s", "response_time_sla_ms", "projection_band", "lpar_overhead",
    "server_share", "smt2_factor", "objective", "cics_regions",
)  # fmt: skip


def job_question(job: Job) -> dict[str, Any]:
    """The workbench's inputs a job came from, read from its stored params: the target's inputs
    as given (curve, closed, Monte Carlo, cheapest mix); for a mix, its machine and ceiling and
    its first workload; for a batch, its first CSV row.  The kind's own params (CP counts,
    clients, samples, costs, the mix's workloads, the CSV) stay in ``job.params`` for the panel."""
    params: dict[str, Any] = dict(job.params or {})
    if job.kind == JobKind.MIX:
        first = (params.get("workloads") or [{}])[0]
        params = {**{k: v for k, v in params.items() if k in ("machine", "max_utilization", "objective")}, **first}
    elif job.kind == JobKind.BATCH:
        params = _first_csv_row(str(params.get("csv") or ""))
    elif job.kind == JobKind.CURVE:
        params.pop("cps", None)  # a curve's CP counts are its own (cps_list)
    elif job.kind == JobKind.CLOSED:
        params.pop("clients", None)  # the network's populations and think time are the panel's
        params.pop("think_time_s", None)
    question = {k: params[k] for k in WORKBENCH_FIELDS if params.get(k) not in (None, "")}
    if question.get("model"):
        # The model stands for its machine, setting and CPs: the workbench fills them from it.
        question.pop("capacity_setting", None)
    return question


def _first_csv_row(text: str) -> dict[str, str]:
    """The first non-blank row of a batch's CSV by its (lower-cased) header; {} when unreadable."""
    try:
        reader = csv.reader(io.StringIO(text.lstrip("\ufeff")), strict=True)
        header = [h.strip().lower() for h in next(reader, [])]
        row = next((r for r in reader if any(c.strip() for c in r)), [])
    except csv.Error:
        return {}
    return {h: cell.strip() for h, cell in zip(header, row, strict=False) if cell.strip()}
