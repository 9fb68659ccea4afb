"""Throttles count in the shared cache: two web processes spend one budget (issue 12, item 4).

Two gunicorn processes of the project, each with its own memory, serve the same user; with
``ZSIZER_CACHE_URL`` naming the test Redis they must allow ``RATE`` requests between them, not
``RATE`` each.  Without it (the embedded default) each process counts its own, which is what the
control shows, so the shared test can fail.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.test import override_settings
from rest_framework.authtoken.models import Token

from sizing.api.throttles import SCOPES
from tests.celery_worker import REPO, database_url

RATE = 5
REQUESTS = 12


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class _Server:
    def __init__(self, env: dict[str, str], threads: int = 1) -> None:
        self.port = _free_port()
        self.log = Path(tempfile.mkstemp(prefix="zsizer-gunicorn-", suffix=".log")[1])
        command = [
            sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind", f"127.0.0.1:{self.port}",
            "--workers", "1", "--timeout", "60", "--threads", str(threads),
        ]  # fmt: skip
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited:\n{self.log.read_text(errors='replace')}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise TimeoutError(self.log.read_text(errors="replace"))

    def post(self, path: str, token: str) -> int:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=b"{}",
            method="POST",
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return int(response.status)
        except urllib.error.HTTPError as exc:
            body = exc.read()
            if exc.code == 429:
                assert "detail" in json.loads(body)
            return int(exc.code)

    def call(self, method: str, path: str, token: str) -> tuple[int, dict[str, str]]:
        """Status and headers of ``method path`` (a POST sends ``{}``)."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=b"{}" if method == "POST" else None,
            method=method,
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                response.read()
                return int(response.status), dict(response.headers)
        except urllib.error.HTTPError as exc:
            exc.read()
            return int(exc.code), dict(exc.headers)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.log.unlink(missing_ok=True)


@pytest.fixture
def web_processes(request: pytest.FixtureRequest) -> Iterator[Any]:
    started: list[_Server] = []

    def start(
        count: int, *, cache_url: str | None, rates: dict[str, str] | None = None, threads: int = 1
    ) -> list[_Server]:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": database_url(),
            "ZSIZER_WRITE_THROTTLE": f"{RATE}/min",
            "PYTHONPATH": str(REPO),
            **(rates or {}),
        }
        env.pop("ZSIZER_CACHE_URL", None)
        if cache_url:
            env["ZSIZER_CACHE_URL"] = cache_url
        servers = [_Server(env, threads) for _ in range(count)]
        started.extend(servers)
        for server in servers:
            server.wait_ready()
        return servers

    yield start
    for server in started:
        server.stop()


def _statuses(servers: list[Any], token: str) -> list[int]:
    """POST an empty estimate (a 400 until the budget is spent) alternately to each server."""
    return [servers[i % len(servers)].post("/api/v1/estimates/", token) for i in range(REQUESTS)]


def _forget_history(cache_url: str, user_pk: int) -> None:
    # The test database's user ids start again at 1 in every session: drop an earlier run's history.
    client = redis.Redis.from_url(cache_url)
    client.delete(*(f"zsizer-throttles:1:throttle_{scope}_{user_pk}" for scope in SCOPES))
    client.close()


@pytest.mark.django_db(transaction=True)
def test_two_web_processes_share_one_throttle_budget_through_redis(user: Any, web_processes: Any) -> None:
    token = Token.objects.create(user=user).key
    cache_url = settings.CELERY_BROKER_URL  # the test Redis (its throttle keys are prefixed)
    _forget_history(cache_url, user.pk)
    servers = web_processes(2, cache_url=cache_url)
    statuses = _statuses(servers, token)
    _forget_history(cache_url, user.pk)
    # RATE requests in the budget (400: the empty body is refused after the throttle passed it),
    # every later one 429, whichever process it reached.
    assert statuses == [400] * RATE + [429] * (REQUESTS - RATE)


@pytest.mark.django_db(transaction=True)
def test_without_a_shared_cache_each_process_counts_its_own(user: Any, web_processes: Any) -> None:
    token = Token.objects.create(user=user).key
    servers = web_processes(2, cache_url=None)
    statuses = _statuses(servers, token)
    # Alternating between two processes: each allows RATE, so 2 x RATE pass in all.
    assert statuses.count(400) == 2 * RATE
    assert statuses[2 * RATE :] == [429] * (REQUESTS - 2 * RATE)


@pytest.mark.django_db
@pytest.mark.parametrize("backend", ["django.core.cache.backends.redis.RedisCache", "config.redis_cache.RedisCache"])
def test_an_unreachable_throttle_cache_lets_requests_through(
    api: Any, caplog: pytest.LogCaptureFixture, backend: str
) -> None:
    dead = f"redis://127.0.0.1:{_free_port()}/0"  # nothing listens there
    caches = {
        **settings.CACHES,
        settings.ZSIZER_THROTTLE_CACHE: {"BACKEND": backend, "LOCATION": dead},  # the second: the Redis script
    }
    with override_settings(CACHES=caches):
        response = api.post("/api/v1/estimates/", {}, format="json")
    assert response.status_code == 400  # the input's answer, not a 500 from the cache
    assert "Throttle cache unreachable" in caplog.text


#: One operation per scope, each answered cheaply past its throttle (400 or 404): (scope, method, path).
SCOPE_OPERATIONS = [
    ("estimates", "GET", "/api/v1/estimate"),
    ("writes", "POST", "/api/v1/estimates/"),
    ("jobs", "POST", "/api/v1/jobs/"),
    ("cancel", "DELETE", "/api/v1/jobs/999999/"),
    ("calibrations", "POST", "/api/v1/rmf/parse"),
    ("reports", "GET", "/api/v1/estimates/999999/report.pdf"),
    ("fit", "GET", "/api/v1/fit"),
]


@pytest.mark.django_db(transaction=True)
def test_two_web_processes_share_every_scope_and_every_429_says_when_to_retry(user: Any, web_processes: Any) -> None:
    # Every scope but the schema's (generated per request: slow; its throttle: tests/sizing/test_limits.py).
    assert {scope for scope, _, _ in SCOPE_OPERATIONS} == set(SCOPES) - {"schema"}
    token = Token.objects.create(user=user).key
    cache_url = settings.CELERY_BROKER_URL
    _forget_history(cache_url, user.pk)
    rates = {name: "3/min" for name, _ in settings.THROTTLE_SETTINGS.values()}
    servers = web_processes(2, cache_url=cache_url, rates=rates)
    try:
        for scope, method, path in SCOPE_OPERATIONS:
            answers = [servers[i % 2].call(method, path, token) for i in range(6)]
            codes = [code for code, _ in answers]
            # 3 in the budget, whichever process each reached; then 429 from both.
            assert 429 not in codes[:3] and codes[3:] == [429, 429, 429], (scope, codes)
            assert all(1 <= int(headers["Retry-After"]) <= 60 for _, headers in answers[3:]), scope
    finally:
        _forget_history(cache_url, user.pk)


@pytest.mark.django_db(transaction=True)
def test_a_spreadsheet_refreshing_500_rows_passes_and_a_job_flood_is_throttled(
    user: Any, web_processes: Any, reload_benchmarks: None
) -> None:
    """Issue 28's load test, at the default rates, on two gunicorn processes sharing Redis."""
    token = Token.objects.create(user=user).key
    cache_url = settings.CELERY_BROKER_URL
    _forget_history(cache_url, user.pk)
    defaults = {name: rate for name, rate in settings.THROTTLE_SETTINGS.values()}
    servers = web_processes(2, cache_url=cache_url, rates=defaults)
    rows = [
        f"/api/v1/estimate?path=fiteq-authenticator&configuration=multi-region&machine=z16&tps={1000 + 10 * i}"
        for i in range(500)
    ]
    try:
        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=4) as pool:
            codes = list(pool.map(lambda i: servers[i % 2].call("GET", rows[i], token)[0], range(len(rows))))
        refresh_s = time.monotonic() - started
        assert codes.count(200) == 500, sorted(set(codes))  # 0 429s (and every row answered)
        # The same user flooding job submissions (empty bodies: 400 until the budget is spent).
        job_rate = int(defaults["ZSIZER_JOB_THROTTLE"].split("/")[0])
        flood = [servers[i % 2].call("POST", "/api/v1/jobs/", token)[0] for i in range(job_rate + 10)]
    finally:
        _forget_history(cache_url, user.pk)
    assert flood == [400] * job_rate + [429] * 10
    # The budget is a minute's: a refresh that took longer would have been given more of it.
    assert refresh_s < 60, refresh_s


@pytest.mark.django_db(transaction=True)
def test_simultaneous_requests_in_two_processes_are_all_counted(user: Any, web_processes: Any) -> None:
    """The window is trimmed, counted and recorded in one Redis step: requests that arrive at the
    same moment in both processes cannot all read the same history and all pass."""
    token = Token.objects.create(user=user).key
    cache_url = settings.CELERY_BROKER_URL
    _forget_history(cache_url, user.pk)
    servers = web_processes(2, cache_url=cache_url, threads=8)  # gthread: requests handled at once
    try:
        with ThreadPoolExecutor(max_workers=16) as pool:
            codes = list(pool.map(lambda i: servers[i % 2].call("POST", "/api/v1/estimates/", token)[0], range(48)))
    finally:
        _forget_history(cache_url, user.pk)
    assert codes.count(400) == RATE and codes.count(429) == 48 - RATE, codes
