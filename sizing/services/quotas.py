"""Per-user quotas on what is stored: calibrations, estimates, plans and kept jobs.

A quota is a name, the setting that holds its limit, and how to count one user's rows.  A
create that would pass the limit raises :class:`QuotaExceeded` (the API answers 403 with
``code: quota_exceeded``, the quota's name, what is used and what is allowed, and the setting
that changes it: ``sizing.api.errors``); every list of the API and the pages shows the quota as
used / allowed (:func:`quota_usage`).

Kept jobs are the exception that proves the rule: a job is a request's record, not something
the user made to keep, and the API has no way to delete a finished one.  So a submission first
deletes the owner's oldest *finished* jobs beyond the quota (plans keep their own job: they are
counted as plans), and is refused only when every kept job is still queued or running.

A new kind of stored row gets a quota with :func:`register_quota` (and a setting in
config/settings/base.py, documented in docs/configuration.md), is looked at early by
``sizing.api.quotas.QuotaView`` on its create action, and is checked by :func:`quota_check` in
its create service.

A quota is checked twice.  ``sizing.api.quotas.QuotaView`` looks first, before the create's
work and without a lock (:func:`quota_precheck`), so a user already at the quota is refused
before anything is sized.  Then the create's service does its work (the sizing, the fits, the
plan's checks) outside any transaction, and only then opens the short transaction that locks
the owner's user row, counts and writes (:func:`quota_check` first thing in it, the row before
the commit).  So two creates of one user at the same instant size in parallel, are counted one
after the other, and never pass the limit together; other users are not held up.  The job
service and the workers take the same lock for the per-user job limits (``sizing.services.jobs``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet

from sizing.models import Calibration, CecConfiguration, Estimate, Job, JobKind, JobStatus, Plan


@dataclass(frozen=True)
class Quota:
    name: str
    noun: str
    setting: str
    rows: Callable[[int], QuerySet[Any]]

    @property
    def limit(self) -> int:
        return int(getattr(settings, self.setting))

    def used(self, owner_id: int) -> int:
        return int(self.rows(owner_id).count())

    def reached(self, owner_id: int) -> int | None:
        """The owner's rows where they fill the quota, else ``None``: whether the owner has a
        :attr:`limit`-th row (at most that many looked at: a create's check costs the same at
        any size of the table), all of them counted only for the refusal's message."""
        sql, params, owner_at = _limit_row_query(self, self.limit)
        values = [owner_id if i in owner_at else p for i, p in enumerate(params)]
        with transaction.get_connection().cursor() as cursor:
            cursor.execute(sql, values)
            if cursor.fetchone() is None:
                return None
        return self.used(owner_id)


#: (quota name, limit, database vendor) -> the SQL of the owner's limit-th row, its parameters
#: and the positions of the owner's id among them.
_LIMIT_ROW_SQL: dict[tuple[str, int, str], tuple[str, tuple[Any, ...], frozenset[int]]] = {}


def _limit_row_query(quota: Quota, limit: int) -> tuple[str, tuple[Any, ...], frozenset[int]]:
    """The quota's query of an owner's ``limit``-th row, compiled once (the ORM built and
    compiled it on every create: a millisecond of the create's CPU, twice): the same query for
    every owner but the owner's id, found as the parameters that differ between two owners."""
    key = (quota.name, limit, transaction.get_connection().vendor)
    found = _LIMIT_ROW_SQL.get(key)
    if found is None:
        one, other = (quota.rows(owner).order_by().values("pk")[limit - 1 : limit].query for owner in (-1, -2))
        sql, params = one.sql_with_params()
        owner_at = frozenset(
            i for i, (a, b) in enumerate(zip(params, other.sql_with_params()[1], strict=True)) if a != b
        )
        assert owner_at, f"the {quota.name} quota's rows do not depend on the owner"
        found = _LIMIT_ROW_SQL[key] = (sql, tuple(params), owner_at)
    return found


@dataclass(frozen=True)
class QuotaUsage:
    name: str
    used: int
    allowed: int
    setting: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "used": self.used, "allowed": self.allowed, "setting": self.setting}


class QuotaExceeded(Exception):
    """``owner`` already has ``limit`` rows of the quota ``name``."""

    def __init__(self, quota: Quota, *, used: int) -> None:
        self.quota = quota
        self.used = used
        self.limit = quota.limit
        super().__init__(
            f"Quota reached: you have {used:,} {quota.noun}; at most {self.limit:,} are kept per user "
            f"({quota.setting}). Delete some and try again."
        )

    def body(self) -> dict[str, Any]:
        return {
            "detail": str(self),
            "code": "quota_exceeded",
            "quota": self.quota.name,
            "used": self.used,
            "allowed": self.limit,
            "setting": self.quota.setting,
        }


QUOTAS: dict[str, Quota] = {}


def register_quota(name: str, *, noun: str, setting: str, rows: Callable[[int], QuerySet[Any]]) -> Quota:
    """Declare a quota: ``rows(owner_id)`` are what counts against ``settings.<setting>``."""
    quota = Quota(name=name, noun=noun, setting=setting, rows=rows)
    QUOTAS[name] = quota
    return quota


def _kept_jobs(owner_id: int) -> QuerySet[Job]:
    return Job.objects.filter(owner_id=owner_id, parent=None).exclude(kind=JobKind.PLAN)


register_quota(
    "estimates",
    noun="saved estimates",
    setting="ZSIZER_MAX_ESTIMATES_PER_USER",
    rows=lambda owner_id: Estimate.objects.filter(owner_id=owner_id),
)
register_quota(
    "calibrations",
    noun="calibrations",
    setting="ZSIZER_MAX_CALIBRATIONS_PER_USER",
    rows=lambda owner_id: Calibration.objects.filter(owner_id=owner_id),
)
register_quota(
    "plans",
    noun="plans",
    setting="ZSIZER_MAX_PLANS_PER_USER",
    rows=lambda owner_id: Plan.objects.filter(owner_id=owner_id),
)
register_quota("jobs", noun="kept jobs", setting="ZSIZER_MAX_KEPT_JOBS_PER_USER", rows=_kept_jobs)


def quota_usage(*, owner_id: int, name: str) -> QuotaUsage:
    quota = QUOTAS[name]
    return QuotaUsage(name=name, used=quota.used(owner_id), allowed=quota.limit, setting=quota.setting)


def lock_owner(owner_id: int) -> None:
    """Serialise one user's quota checks, submissions and job claims: lock their user row to the
    end of the caller's transaction (one must be open), so that each counts the others' rows."""
    if not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError("lock_owner() needs the caller's transaction")
    # the query written out: the ORM's own (select_for_update) cost a millisecond of a create.
    # A database without row locks (SQLite, `make run`'s) serialises its writers itself, as
    # select_for_update, which leaves the clause out there, relied on.
    connection = transaction.get_connection()
    if not connection.features.has_select_for_update:
        return
    with connection.cursor() as cursor:
        cursor.execute(_LOCK_OWNER_SQL.format(table=get_user_model()._meta.db_table), [owner_id])


#: The owner's row locked until the transaction ends.
_LOCK_OWNER_SQL = "SELECT 1 FROM {table} WHERE id = %s FOR UPDATE"


def _active_kept_jobs(owner_id: int) -> QuerySet[Job]:
    return _kept_jobs(owner_id).filter(status__in=(JobStatus.QUEUED, JobStatus.RUNNING))


def quota_precheck(*, owner_id: int, name: str) -> None:
    """Raise :class:`QuotaExceeded` if the owner is already at the quota ``name``: the early answer,
    before a create's work, without the lock and without writing (for kept jobs: if their queued
    and running jobs alone fill it, since the finished ones would make room).

    It only spares a refused create its work; :func:`quota_check`, in the create's transaction,
    is the check that holds under concurrency."""
    quota = QUOTAS[name]
    if name == "jobs":
        active = _active_kept_jobs(owner_id).count()
        if active >= quota.limit:
            raise QuotaExceeded(quota, used=active)
    elif (used := quota.reached(owner_id)) is not None:
        raise QuotaExceeded(quota, used=used)


def quota_check(*, owner_id: int, name: str) -> None:
    """Raise :class:`QuotaExceeded` if one more row of ``name`` would pass the owner's quota
    (for kept jobs: after the oldest finished ones beyond it are deleted).

    Call it first thing in the transaction that then writes the row, after the create's work:
    it locks the owner (:func:`lock_owner`) until that transaction ends, so a concurrent create
    of theirs waits there and counts this one."""
    quota = QUOTAS[name]
    lock_owner(owner_id)
    if name == "jobs":
        _prune_finished_jobs(owner_id, keep=quota.limit - 1)
    used = quota.reached(owner_id)
    if used is not None:
        raise QuotaExceeded(quota, used=used)


def _prune_finished_jobs(owner_id: int, *, keep: int) -> None:
    """Delete the owner's oldest finished jobs so that at most ``keep`` jobs remain (active ones
    are never deleted; their chunks and reports go with a deleted job)."""
    jobs = _kept_jobs(owner_id)
    excess = jobs.count() - keep
    if excess <= 0:
        return
    finished = (JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.CANCELLED)
    oldest = list(jobs.filter(status__in=finished).order_by("created_at", "pk").values_list("pk", flat=True)[:excess])
    if oldest:
        Job.objects.filter(pk__in=oldest).delete()


register_quota(
    "cecs",
    noun="machine configurations",
    setting="ZSIZER_MAX_CECS_PER_USER",
    rows=lambda owner_id: CecConfiguration.objects.filter(owner_id=owner_id),
)
