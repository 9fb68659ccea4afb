"""The shared cache fails, the service does not (issue 24, item 1): with the Redis behind
``ZSIZER_CACHE_URL`` stopped, every computing endpoint answers as with it, ``/healthz`` says
``degraded`` (200), and a Redis error that reaches a job queues it again for a retry instead of
failing it.

The cache is a redis-server of this module's own on a spare port (``tests/private_services.py``),
stopped for real; the machine's Redis is never touched.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from redis.exceptions import ConnectionError as RedisConnectionError

from sizing.models import Job, JobStatus
from sizing.services.jobs import job_run
from sizing.services.reference_version import bump_reference_version
from tests.private_services import PrivateRedis, free_port

pytestmark = pytest.mark.django_db

FITEQ = {"path": "fiteq-authenticator", "configuration": "multi-region"}
ZOSCONNECT = {"path": "zosconnect-cics", "configuration": "channel"}
#: A batch of two estimates (each answer is looked up in the answer cache).
BATCH = "path,configuration,machine,tps\nfiteq-authenticator,multi-region,z13,5000\nfiteq-authenticator,multi-region,z14,7000\n"
#: One request per computing endpoint (method, path, parameters or body).
REQUESTS: list[tuple[str, str, dict[str, Any]]] = [
    ("GET", "/api/v1/estimate", {**FITEQ, "machine": "z13", "tps": 8000}),
    ("POST", "/api/v1/estimates/", {**FITEQ, "machine": "z14", "tps": 6000}),
    ("GET", "/api/v1/fit", {**FITEQ, "tps": 8000, "generations": "z16"}),
    ("GET", "/api/v1/upgrade", {**ZOSCONNECT, "machine": "z13", "cps": 6, "tps": 800}),
]


def _shared(url: str) -> dict[str, Any]:
    options = {"socket_connect_timeout": 0.3, "socket_timeout": 0.3, "outage_retry_s": 60}
    return {"BACKEND": "config.redis_cache.RedisCache", "LOCATION": url, "OPTIONS": options}


@pytest.fixture(name="cache_redis")
def fixture_cache_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A private Redis serving as the shared cache (answers and throttles) of this process."""
    server = PrivateRedis(tmp_path, free_port())
    server.start()
    caches = {
        **settings.CACHES,
        "answers": _shared(server.url()),
        settings.ZSIZER_THROTTLE_CACHE: _shared(server.url()),
    }
    try:
        with override_settings(CACHES=caches, ZSIZER_CACHE_URL=server.url()):
            yield server
    finally:
        server.stop()


def _call(api: Any, method: str, path: str, params: dict[str, Any]) -> Any:
    if method == "GET":
        return api.get(path, params)
    return api.post(path, params, format="json")


def _answer(response: Any) -> Any:
    body = response.json()
    # A stored estimate's row fields differ between two POSTs; its computed answer must not.
    return {k: v for k, v in body.items() if k not in ("id", "url", "created_at")}


def test_every_computing_endpoint_answers_as_before_with_the_cache_stopped(api: Any, cache_redis: PrivateRedis) -> None:
    # The answers with the cache up (computed, then stored in Redis).
    before = []
    for method, path, params in REQUESTS:
        response = _call(api, method, path, params)
        assert response.status_code in (200, 201), response.json()
        before.append(_answer(response))
    cache_redis.stop()
    # A new reference-data token: same data, new keys, so every answer is computed again, now
    # without a cache to read or write.
    bump_reference_version()
    for (method, path, params), expected in zip(REQUESTS, before, strict=True):
        response = _call(api, method, path, params)
        assert response.status_code in (200, 201), (path, response.json())
        assert _answer(response) == expected, path
    # And /healthz says so: up, degraded, the cache named.
    health = api.get("/healthz")
    assert health.status_code == 200
    assert health.json() == {"status": "degraded", "database": "ok", "broker": "ok", "cache": "unavailable"}


def test_healthz_is_ok_with_the_cache_up_and_degraded_not_down_without_it(client: Any, tmp_path: Path) -> None:
    server = PrivateRedis(tmp_path, free_port())
    server.start()
    try:
        with override_settings(ZSIZER_CACHE_URL=server.url()):
            up = client.get("/healthz")
            server.stop()
            down = client.get("/healthz")
    finally:
        server.stop()
    assert (up.status_code, up.json()) == (200, {"status": "ok", "database": "ok", "broker": "ok", "cache": "ok"})
    assert down.status_code == 200
    assert down.json() == {"status": "degraded", "database": "ok", "broker": "ok", "cache": "unavailable"}


def test_a_redis_error_that_reaches_a_job_queues_it_again_for_a_retry(user: Any, tmp_path: Path) -> None:
    # Django's own Redis cache (which does not degrade) on a port nothing listens on: the
    # ConnectionError reaches the job's computation, as any Redis error the shared caches
    # missed would.
    dead = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": f"redis://127.0.0.1:{free_port()}/0"}
    bump_reference_version()  # a fresh token: the answer is not in this process's memory
    with override_settings(CACHES={**settings.CACHES, "answers": dead}):
        job = Job.objects.create(owner=user, kind="batch", params={"csv": BATCH})
        with pytest.raises(RedisConnectionError):
            job_run(job_id=job.pk)  # raised for the task to retry with backoff (sizing.tasks)
    job.refresh_from_db()
    assert (job.status, job.error, job.attempts) == (JobStatus.QUEUED, "", 1)
    first_start = job.started_at
    assert first_start is not None and job.last_started_at == first_start
    # The retry, with the cache back (here: this process's memory), computes it.
    assert job_run(job_id=job.pk).state == JobStatus.SUCCEEDED
    job.refresh_from_db()
    assert (job.status, job.attempts) == (JobStatus.SUCCEEDED, 2)
    # The first start is kept; the retry is the last start (issue 24, item 5).
    assert job.started_at == first_start and job.last_started_at > first_start
    table = job.result["table"]
    rows = [dict(zip(table["columns"], row, strict=True)) for row in table["rows"]]
    assert [row["error"] for row in rows] == [None, None]  # both rows sized, none refused
