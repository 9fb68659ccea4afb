"""Quotas on what a user stores, throttles on every write and expensive read (issue 31 items 2
and 4's cancel, issue 28 item 3).

In-process here: the quotas (a 4xx naming the quota, used / allowed on each list), every
throttled operation answering 429 with ``Retry-After``, cancel not counted with submit.  The
shared cache across processes and the spreadsheet's load: tests/sizing/test_throttles.py.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from sizing.api.throttles import SCOPES
from sizing.models import BenchmarkPoint, Calibration, Job, JobStatus
from sizing.services.quotas import QUOTAS
from tests.celery_worker import purge_queue, unique_queue

pytestmark = pytest.mark.django_db


def _table_11_1_csv() -> str:
    """FiTeq's published Table 11-1 as a customer's CSV: LPAR busy % of 10 CPs -> % of one CP."""
    rows = BenchmarkPoint.objects.filter(configuration__slug="multi-region", reference__table="Table 11-1")
    lines = []
    for row in rows.prefetch_related("metrics").order_by("etr"):
        lpar = {m.name: m for m in row.metrics.all()}["lpar_cpu"]
        lines.append(f"{row.etr},{lpar.value * lpar.engines},{row.response_time_ms}")
    assert len(lines) == 4
    return "etr,cpu_pct,response_time_ms\n" + "\n".join(lines)


def _calibrate(api: Any, csv_text: str, n: int) -> Any:
    body = {"name": f"Bank A {n}", "path": "fiteq-authenticator", "model": "2827-710", "csv_text": csv_text}
    return api.post("/api/v1/calibrations/", body, format="json")


def _rates(**low: str) -> dict[str, str]:
    return {**{scope: "10000/min" for scope in SCOPES}, **low}


@pytest.fixture
def throttles(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Set some scopes' rates low for this test, with an empty throttle history."""

    def set_rates(**low: str) -> None:
        monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", _rates(**low))
        caches[settings.ZSIZER_THROTTLE_CACHE].clear()

    yield set_rates
    caches[settings.ZSIZER_THROTTLE_CACHE].clear()


# -- quotas ------------------------------------------------------------------------------------


def test_a_calibration_past_the_quota_is_refused_naming_it_and_the_list_shows_it(api: Any) -> None:
    csv_text = _table_11_1_csv()
    with override_settings(ZSIZER_MAX_CALIBRATIONS_PER_USER=3):
        for n in range(3):
            assert _calibrate(api, csv_text, n).status_code == 201
        refused = _calibrate(api, csv_text, 3)
        listed = api.get("/api/v1/calibrations/").json()
    assert refused.status_code == 403
    body = refused.json()
    assert body["code"] == "quota_exceeded" and body["quota"] == "calibrations"
    assert (body["used"], body["allowed"], body["setting"]) == (3, 3, "ZSIZER_MAX_CALIBRATIONS_PER_USER")
    assert "at most 3 are kept per user (ZSIZER_MAX_CALIBRATIONS_PER_USER)" in body["detail"]
    assert Calibration.objects.count() == 3  # nothing half-written
    assert listed["quota"] == {
        "name": "calibrations", "used": 3, "allowed": 3, "setting": "ZSIZER_MAX_CALIBRATIONS_PER_USER"
    }  # fmt: skip


def test_the_default_quota_refuses_the_240th_calibration(api: Any, user: Any) -> None:
    # The user stored 239 calibrations in 20 s.  The default keeps 100: the 101st (and so
    # the 240th) is refused.  The first is made through the API, the rest copied from it.
    allowed = settings.ZSIZER_MAX_CALIBRATIONS_PER_USER
    assert allowed == 100
    csv_text = _table_11_1_csv()
    assert _calibrate(api, csv_text, 0).status_code == 201
    first = Calibration.objects.select_related("configuration").get()
    slug = first.configuration.slug
    for n in range(1, allowed):
        configuration = Calibration.objects.select_related("configuration").get(pk=first.pk).configuration
        configuration.pk = None
        configuration.slug = f"{slug}-{n}"
        configuration.save()
        copy = Calibration.objects.get(pk=first.pk)
        copy.pk = None
        copy.configuration = configuration
        copy.save()
    assert Calibration.objects.filter(owner=user).count() == allowed
    refused = _calibrate(api, csv_text, allowed)
    assert refused.status_code == 403 and refused.json()["quota"] == "calibrations"
    assert refused.json()["allowed"] == 100


def test_estimates_and_plans_have_quotas_too(api: Any) -> None:
    body = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "tps": 8000}
    with override_settings(ZSIZER_MAX_ESTIMATES_PER_USER=1, ZSIZER_MAX_PLANS_PER_USER=1):
        assert api.post("/api/v1/estimates/", body, format="json").status_code == 201
        refused = api.post("/api/v1/estimates/", body, format="json")
        assert api.get("/api/v1/estimates/").json()["quota"]["used"] == 1
        plans = api.get("/api/v1/plans/").json()
    assert refused.status_code == 403 and refused.json()["quota"] == "estimates"
    assert plans["quota"] == {"name": "plans", "used": 0, "allowed": 1, "setting": "ZSIZER_MAX_PLANS_PER_USER"}


def test_a_quota_lowered_below_what_a_user_keeps_refuses_with_every_row_counted(api: Any) -> None:
    """The check counts at most the quota's rows (its cost does not grow with the table); a user
    over it (the setting lowered since) is told how many rows they really have."""
    body = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "tps": 8000}
    for _ in range(4):
        assert api.post("/api/v1/estimates/", body, format="json").status_code == 201
    with override_settings(ZSIZER_MAX_ESTIMATES_PER_USER=2):
        refused = api.post("/api/v1/estimates/", body, format="json")
        listed = api.get("/api/v1/estimates/").json()["quota"]
    assert refused.status_code == 403
    assert (refused.json()["used"], refused.json()["allowed"]) == (4, 2)
    assert "you have 4 saved estimates; at most 2 are kept per user" in refused.json()["detail"]
    assert (listed["used"], listed["allowed"]) == (4, 2)


def test_kept_jobs_make_room_by_deleting_the_oldest_finished_and_refuse_when_all_are_active(
    api: Any, user: Any
) -> None:
    finished = [Job.objects.create(owner=user, kind="curve", params={}, status=JobStatus.SUCCEEDED) for _ in range(3)]
    with override_settings(ZSIZER_MAX_KEPT_JOBS_PER_USER=3):
        # A refused submission loses nothing: its check made room, and its 400 rolled that back.
        assert api.post("/api/v1/jobs/", {"kind": "curve", "params": {}}, format="json").status_code == 400
        assert set(Job.objects.values_list("pk", flat=True)) == {j.pk for j in finished}
        # An accepted one makes room by deleting the oldest finished job.
        accepted = api.post("/api/v1/jobs/", {"kind": "curve", "params": CURVE}, format="json")
        assert accepted.status_code == 202, accepted.content
        kept = set(Job.objects.values_list("pk", flat=True))
        assert kept == {finished[1].pk, finished[2].pk, accepted.json()["id"]}  # the oldest went
        for _ in range(2):
            Job.objects.create(owner=user, kind="curve", params={}, status=JobStatus.QUEUED)
        Job.objects.filter(status=JobStatus.SUCCEEDED).delete()
        refused = api.post("/api/v1/jobs/", {"kind": "curve", "params": {}}, format="json")
        listed = api.get("/api/v1/jobs/").json()
    assert refused.status_code == 403 and refused.json()["quota"] == "jobs"
    assert listed["quota"]["used"] == 3 and listed["quota"]["allowed"] == 3


#: A valid job and a valid estimate (published FiTeq points).
CURVE = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "cps_list": [4, 6, 8]}
ESTIMATE = {"path": "fiteq-authenticator", "configuration": "multi-region", "machine": "z13", "tps": 8000}
#: (quota, its setting, where a create is posted, the body, the create's status)
CREATES = [
    ("jobs", "ZSIZER_MAX_KEPT_JOBS_PER_USER", "/api/v1/jobs/", {"kind": "curve", "params": CURVE}, 202),
    ("estimates", "ZSIZER_MAX_ESTIMATES_PER_USER", "/api/v1/estimates/", ESTIMATE, 201),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("quota", "setting", "url", "body", "created"), CREATES, ids=[c[0] for c in CREATES])
def test_concurrent_creates_of_one_user_never_pass_the_quota(
    user: Any, settings: Any, reload_benchmarks: None, quota: str, setting: str, url: str, body: Any, created: int
) -> None:
    """Eight creates at once from eight threads, each with its own connection to PostgreSQL, with
    room for three: exactly three are stored and five refused naming the quota (the count and
    the create are one transaction under a lock on the user's row)."""
    limit, attempts = 3, 8
    setattr(settings, setting, limit)
    settings.CELERY_TASK_ALWAYS_EAGER = False  # submitted jobs go to a queue of this test's own
    settings.ZSIZER_TASK_QUEUE = unique_queue()
    token = Token.objects.create(user=user).key
    start = threading.Barrier(attempts)
    answers: list[tuple[int, Any]] = []

    def create() -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        try:
            start.wait(timeout=30)
            response = client.post(url, body, format="json")
            answers.append((response.status_code, response.json()))
        finally:
            connection.close()  # this thread's own

    threads = [threading.Thread(target=create) for _ in range(attempts)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    finally:
        purge_queue(settings.ZSIZER_TASK_QUEUE)
    statuses = sorted(status for status, _ in answers)
    assert statuses == [created] * limit + [403] * (attempts - limit), answers
    assert {b["quota"] for s, b in answers if s == 403} == {quota}
    assert {(b["used"], b["allowed"]) for s, b in answers if s == 403} == {(limit, limit)}
    assert QUOTAS[quota].used(user.pk) == limit


# -- throttles ---------------------------------------------------------------------------------

#: One throttled operation per scope, answered cheaply once past the throttle (400 or 404).
OPERATIONS: list[tuple[str, str, str, Any]] = [
    ("estimates", "get", "/api/v1/estimate", None),
    ("estimates", "get", "/ui/chart-data", None),
    ("writes", "post", "/api/v1/estimates/", {}),
    ("writes", "delete", "/api/v1/calibrations/999999/", None),
    ("jobs", "post", "/api/v1/jobs/", {}),
    ("jobs", "post", "/api/v1/plans/", {}),
    ("cancel", "delete", "/api/v1/jobs/999999/", None),
    ("cancel", "delete", "/api/v1/plans/999999/", None),
    ("calibrations", "post", "/api/v1/calibrations/", {}),
    ("calibrations", "post", "/api/v1/rmf/parse", {}),
    ("reports", "get", "/api/v1/estimates/999999/report.pdf", None),
    ("reports", "get", "/api/v1/estimates/report.pdf?ids=1", None),
    ("reports", "get", "/api/v1/jobs/999999/report.pdf", None),
    ("reports", "get", "/api/v1/plans/999999/report.pdf", None),
    ("fit", "get", "/api/v1/fit", None),
    ("fit", "get", "/api/v1/upgrade", None),
    ("schema", "get", "/api/schema/", None),
    ("writes", "post", "/api/v1/cecs/", {}),
    ("writes", "put", "/api/v1/price-book", {}),
    ("calibrations", "post", "/api/v1/cecs/parse-rmf/", {}),
    ("fit", "post", "/api/v1/cecs/999999/place/", {}),
]


def test_every_scope_has_a_setting_and_a_rate() -> None:
    assert set(SCOPES) == set(settings.THROTTLE_SETTINGS)
    assert {scope for scope, *_ in OPERATIONS} == set(SCOPES)


@pytest.mark.parametrize(("scope", "method", "url", "body"), OPERATIONS)
def test_every_throttled_operation_answers_429_with_retry_after(
    api: Any, throttles: Any, scope: str, method: str, url: str, body: Any
) -> None:
    throttles(**{scope: "2/min"})
    call = getattr(api, method)
    codes = [
        call(url, body, format="json").status_code if body is not None else call(url).status_code for _ in range(2)
    ]
    third = call(url, body, format="json") if body is not None else call(url)
    assert 429 not in codes
    assert third.status_code == 429
    assert 1 <= int(third["Retry-After"]) <= 60
    assert "detail" in json.loads(third.content)


def test_cancel_is_not_throttled_with_submit(api: Any, user: Any, throttles: Any) -> None:
    throttles(jobs="2/min")
    job = Job.objects.create(owner=user, kind="curve", params={}, status=JobStatus.QUEUED)
    submits = [api.post("/api/v1/jobs/", {}, format="json").status_code for _ in range(3)]
    assert submits == [400, 400, 429]
    assert api.delete(f"/api/v1/jobs/{job.pk}/").status_code == 204
    assert Job.objects.get(pk=job.pk).status == JobStatus.CANCELLED


def test_a_spreadsheets_refresh_and_the_pages_reads_share_a_generous_budget() -> None:
    # 500 rows a minute pass; jobs stay protected.
    rates = dict(settings.THROTTLE_SETTINGS)
    assert rates["estimates"] == ("ZSIZER_ESTIMATE_THROTTLE", "600/min")
    assert rates["jobs"] == ("ZSIZER_JOB_THROTTLE", "60/min")


def test_each_list_page_shows_its_quota_used_and_allowed(user: Any, client: Any) -> None:
    client.force_login(user)
    with override_settings(ZSIZER_MAX_ESTIMATES_PER_USER=5000):
        estimates = client.get("/estimates/").content.decode()
    assert "You keep 0 of the 5,000 saved estimates a user may keep." in estimates
    assert "You keep 0 of the 100 calibrations a user may keep." in client.get("/calibrations/").content.decode()
    assert "You keep 0 of the 200 plans a user may keep." in client.get("/plans/").content.decode()
