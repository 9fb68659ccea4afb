"""A create's quota under concurrency, with the user's row locked only to count and store.

A create sizes its scenario (the engine, the calibration's fit, the plan's checks) outside any
transaction, and only then locks the user's row, counts and writes in one short transaction
(sizing.services.quotas).  Shown here on the real PostgreSQL of the tests, each request in a
thread with its own connection, and the user's row locked by a connection of the test's own
(``SELECT ... FOR UPDATE``) as a concurrent create of the same user would lock it:

* while the row is locked, a calibration whose fit is refused answers its 400 (its fit ran
  without the lock), and a valid estimate is sized and then waits only to be counted and
  stored: the reference data changed while it waited do not change the answer it stores;
* a user already at the quota is refused before any sizing, without waiting for the lock;
* every create with a quota, sent N times at once one below the quota, stores exactly one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import import_module
from typing import Any

import psycopg
import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import F
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from sizing.api.cec_views import EXAMPLE as CEC_EXAMPLE
from sizing.api.plan_views import EXAMPLE as PLAN_EXAMPLE
from sizing.api.quotas import QuotaView
from sizing.models import Configuration, Estimate, PointMetric
from sizing.services.quotas import QUOTAS
from sizing.services.reference_version import bump_reference_version
from tests.celery_worker import purge_queue, unique_queue
from tests.sizing.test_limits import CURVE, ESTIMATE, _table_11_1_csv

pytestmark = pytest.mark.django_db(transaction=True)

#: How long a request may take before the test calls it hung (s): a guard, not a measure.
HANG_S = 60.0


class Post(threading.Thread):
    """One POST of the user's in a thread of its own (so with its own database connection)."""

    def __init__(self, token: str, url: str, body: Any, *, together: threading.Barrier | None = None) -> None:
        super().__init__(daemon=True)
        self.token, self.url, self.body, self.together = token, url, body, together
        self.answer: tuple[int, Any] | None = None

    def run(self) -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {self.token}")
        try:
            if self.together is not None:
                self.together.wait(timeout=HANG_S)
            response = client.post(self.url, self.body, format="json")
            self.answer = (response.status_code, response.json())
        finally:
            connection.close()  # this thread's own

    def answered(self, timeout: float = HANG_S) -> tuple[int, Any]:
        self.join(timeout)
        assert self.answer is not None, f"no answer to POST {self.url} within {timeout} s"
        return self.answer


@contextmanager
def _locked(user: Any) -> Iterator[psycopg.Connection[Any]]:
    """A connection of the test's own holding the user's row ``FOR UPDATE``, as a concurrent
    create of theirs holds it to count and store, until it rolls back."""
    params = connection.settings_dict
    holder = psycopg.connect(
        dbname=params["NAME"],
        host=params["HOST"] or None,
        port=params["PORT"] or None,
        user=params["USER"] or None,
        password=params["PASSWORD"] or None,
    )
    table = get_user_model()._meta.db_table
    try:
        holder.execute(f'SELECT id FROM "{table}" WHERE id = %s FOR UPDATE', [user.pk])
        yield holder
    finally:
        holder.rollback()
        holder.close()


def _waiting_on(holder: psycopg.Connection[Any]) -> list[str]:
    """The statements of the backends waiting for ``holder``'s locks."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT query FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))", [holder.info.backend_pid]
        )
        return [str(query) for (query,) in cursor.fetchall()]


def _wait_for_waiters(holder: psycopg.Connection[Any], count: int) -> list[str]:
    deadline = time.monotonic() + HANG_S
    while len(waiting := _waiting_on(holder)) < count:
        assert time.monotonic() < deadline, f"{len(waiting)} of {count} creates reached the lock in {HANG_S} s"
        time.sleep(0.05)
    return waiting


def test_a_create_is_sized_while_its_users_row_is_locked_and_waits_only_to_be_stored(
    user: Any, reload_benchmarks: None
) -> None:
    token = Token.objects.create(user=user).key
    before = _estimate(token)  # sized and stored with nothing else going on
    # One interval: the fit (the calibration's sizing) refuses it.
    one_interval = "\n".join(_table_11_1_csv().splitlines()[:2])
    fit_refused = {"name": "one", "path": "fiteq-authenticator", "model": "2827-710", "csv_text": one_interval}
    with _locked(user) as row_lock:
        # The 400 comes while the row is still locked: the fit never waited for the lock.
        refused = Post(token, "/api/v1/calibrations/", fit_refused)
        refused.start()
        status, body = refused.answered()
        assert status == 400 and list(body) == ["intervals"], body
        assert _waiting_on(row_lock) == []

        # A valid estimate: sized, then waiting for the lock with nothing stored.  Meanwhile the
        # configuration's published CPU figures change (a new reference version): the estimate
        # stored once the lock is released is the one sized before the change, while it waited.
        create = Post(token, "/api/v1/estimates/", ESTIMATE)
        create.start()
        [query] = _wait_for_waiters(row_lock, 1)
        assert "FOR UPDATE" in query and get_user_model()._meta.db_table in query
        assert create.answer is None and Estimate.objects.count() == 1
        with transaction.atomic():
            metrics = PointMetric.objects.filter(
                point__configuration__path__slug=ESTIMATE["path"],
                point__configuration__slug=ESTIMATE["configuration"],
            )
            assert metrics.update(value=F("value") * 1.25) > 0
            bump_reference_version()
        row_lock.rollback()  # as the other create of the user commits: this one is counted and stored
        status, body = create.answered()
    assert status == 201, body
    after = _estimate(token)
    stored = {e.pk: e.outputs for e in Estimate.objects.all()}
    assert stored[body["id"]] == stored[before] != stored[after]


def _estimate(token: str) -> int:
    """A stored estimate of ESTIMATE's, sized and stored with nothing else going on: its id."""
    post = Post(token, "/api/v1/estimates/", ESTIMATE)
    post.start()
    status, body = post.answered()
    assert status == 201, body
    return int(body["id"])


def test_a_user_at_the_quota_is_refused_before_sizing_without_waiting_for_the_lock(
    user: Any, settings: Any, reload_benchmarks: None
) -> None:
    token = Token.objects.create(user=user).key
    settings.ZSIZER_MAX_ESTIMATES_PER_USER = 1
    _estimate(token)
    with _locked(user):
        refused = Post(token, "/api/v1/estimates/", ESTIMATE)
        refused.start()
        status, body = refused.answered()
    assert status == 403, body
    quota = QUOTAS["estimates"]
    assert (body["code"], body["quota"], body["used"], body["allowed"]) == ("quota_exceeded", "estimates", 1, 1)
    assert body["setting"] == quota.setting and quota.used(user.pk) == 1


def _calibration() -> dict[str, Any]:
    return {"name": "Bank A", "path": "fiteq-authenticator", "model": "2827-710", "csv_text": _table_11_1_csv()}


#: Every create with a quota: (quota, where it is posted, its body, the statuses of a create).
CREATES: list[tuple[str, str, Callable[[], Any], set[int]]] = [
    ("estimates", "/api/v1/estimates/", lambda: ESTIMATE, {201}),
    ("calibrations", "/api/v1/calibrations/", _calibration, {201}),
    ("plans", "/api/v1/plans/", lambda: PLAN_EXAMPLE, {201, 202}),
    ("jobs", "/api/v1/jobs/", lambda: {"kind": "curve", "params": CURVE}, {202}),
    ("cecs", "/api/v1/cecs/", lambda: CEC_EXAMPLE, {201}),
]


def _quota_views(cls: type = QuotaView) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _quota_views(sub)


def test_every_create_with_a_quota_is_tested_under_concurrency() -> None:
    """A create's quota holds only if its service counts in the transaction that writes
    (``quota_check``): each one the API has is in the test below."""
    import_module(django_settings.ROOT_URLCONF)  # every view
    checked = {name for view in _quota_views() for name in view.quota_actions.values()}
    assert checked == {quota for quota, *_ in CREATES}


@pytest.mark.parametrize(("quota", "url", "body", "created"), CREATES, ids=[c[0] for c in CREATES])
def test_creates_sent_at_once_one_below_the_quota_store_exactly_one(
    user: Any, settings: Any, reload_benchmarks: None, quota: str, url: str, body: Any, created: set[int]
) -> None:
    """Six creates at once from six threads, each with its own connection, with room for one:
    exactly one is stored, and the other five are refused naming the quota (whether the early
    look or the count under the lock refused them, the answer is the same)."""
    limit, attempts = 2, 6
    setattr(settings, QUOTAS[quota].setting, limit)
    settings.CELERY_TASK_ALWAYS_EAGER = False  # submitted jobs go to a queue of this test's own
    settings.ZSIZER_TASK_QUEUE = unique_queue()
    token = Token.objects.create(user=user).key
    try:
        first = Post(token, url, body())
        first.start()
        assert first.answered()[0] in created, first.answer
        assert QUOTAS[quota].used(user.pk) == limit - 1
        together = threading.Barrier(attempts)
        posts = [Post(token, url, body(), together=together) for _ in range(attempts)]
        for post in posts:
            post.start()
        answers = [post.answered(timeout=4 * HANG_S) for post in posts]
    finally:
        purge_queue(settings.ZSIZER_TASK_QUEUE)
    stored = [b for s, b in answers if s in created]
    refused = [b for s, b in answers if s == 403]
    assert (len(stored), len(refused)) == (1, attempts - 1), answers
    assert {(b["code"], b["quota"], b["used"], b["allowed"]) for b in refused} == {
        ("quota_exceeded", quota, limit, limit)
    }
    assert QUOTAS[quota].used(user.pk) == limit
    if quota == "calibrations":  # nothing half-written: a private configuration for each calibration only
        assert Configuration.objects.filter(owner=user).count() == limit
