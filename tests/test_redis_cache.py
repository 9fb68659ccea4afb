"""config.redis_cache: Django's Redis cache with one client object per pool, on the test Redis."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
import uuid
from typing import Any

import pytest
from django.conf import settings

from config.redis_cache import RedisCache


@pytest.fixture
def cache() -> Any:
    backend = RedisCache(settings.CELERY_BROKER_URL, {"KEY_PREFIX": f"zsizer-test-{uuid.uuid4().hex[:8]}"})
    yield backend
    backend.clear()
    for pool in backend._cache._pools.values():  # close its sockets (a ResourceWarning otherwise)
        pool.disconnect()


def test_one_client_object_per_pool_is_reused(cache: Any) -> None:
    client = cache._cache.get_client(write=True)
    assert cache._cache.get_client(write=True) is client
    assert cache._cache.get_client("any key") is cache._cache.get_client("another key")


def test_it_stores_reads_and_deletes_as_djangos_backend_does(cache: Any) -> None:
    answer = {"cps_required": 4, "ranges": {"cps": [3.0, 5.0]}, "warnings": []}
    assert cache.get("answer") is None
    cache.set("answer", answer, timeout=60)
    assert cache.get("answer") == answer
    assert cache.add("answer", "other") is False
    cache.set("count", 1)
    assert cache.incr("count", 2) == 3
    cache.delete("answer")
    assert cache.get("answer") is None


def test_threads_share_the_client_safely(cache: Any) -> None:
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            for j in range(50):
                cache.set(f"k{i}-{j}", j)
                assert cache.get(f"k{i}-{j}") == j
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len({id(cache._cache.get_client(write=w)) for w in (True, False)}) == 1  # one pool, one client


def test_settings_select_it_for_the_shared_caches_when_a_cache_url_is_given() -> None:
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.base'; django.setup();"
        "from django.conf import settings as s;"
        "print(s.CACHES['answers']['BACKEND'], s.CACHES[s.ZSIZER_THROTTLE_CACHE]['BACKEND'])"
    )
    env = {"PATH": "/usr/bin:/bin", "ZSIZER_CACHE_URL": "redis://127.0.0.1:6379/15"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[1], env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["config.redis_cache.RedisCache", "config.redis_cache.RedisCache"]


# -- degrading: a cache that fails answers as an empty cache (issue 24, item 1) ----------------
# Each test runs its own redis-server on a spare port (tests/private_services.py), so stopping,
# freezing or demoting it never touches the machine's Redis.


@pytest.fixture
def private_redis(tmp_path: Any) -> Any:
    from tests.private_services import PrivateRedis, free_port

    server = PrivateRedis(tmp_path, free_port())
    server.start()
    yield server
    if server.process is not None:
        os.kill(server.process.pid, signal.SIGCONT)  # in case a test froze it
    server.stop()


def _backend(url: str, **options: Any) -> Any:
    opts = {"socket_connect_timeout": 0.3, "socket_timeout": 0.3, "outage_retry_s": 1.0, **options}
    return RedisCache(url, {"KEY_PREFIX": "degrade", "OPTIONS": opts})


def _close(backend: Any) -> None:
    for pool in backend._cache._pools.values():
        pool.disconnect()


def test_a_stopped_redis_makes_every_operation_answer_as_an_empty_cache_and_logs_once(
    private_redis: Any, caplog: pytest.LogCaptureFixture
) -> None:
    from config.redis_cache import cache_outage

    backend = _backend(private_redis.url())
    try:
        backend.set("answer", {"cps": 4})
        assert backend.get("answer") == {"cps": 4}
        assert cache_outage(location=private_redis.url()) is None
        private_redis.stop()
        with caplog.at_level(logging.WARNING, logger="config.redis_cache"):
            for _ in range(20):
                assert backend.get("answer") is None
                assert backend.get("answer", "default") == "default"
                backend.set("answer", {"cps": 5})
                assert backend.add("other", 1) is False
                assert backend.get_many(["answer", "other"]) == {}
                assert backend.has_key("answer") is False
                assert backend.delete("answer") is False
                assert backend.touch("answer") is False
                backend.set_many({"a": 1})
                backend.delete_many(["a"])
        # One line for the whole interval (outage_retry_s = 1 s), not one per operation.
        reports = [r for r in caplog.records if "Shared cache unreachable" in r.getMessage()]
        assert len(reports) == 1, [r.getMessage() for r in reports]
        outage = cache_outage(location=private_redis.url())
        assert outage is not None and outage.errors >= 1
    finally:
        _close(backend)


def test_it_uses_redis_again_once_the_retry_interval_has_passed(
    private_redis: Any, caplog: pytest.LogCaptureFixture
) -> None:
    backend = _backend(private_redis.url())
    try:
        private_redis.stop()
        assert backend.get("k") is None  # the failure that opens the interval
        private_redis.start()
        time.sleep(1.1)  # outage_retry_s = 1 s since the failure
        with caplog.at_level(logging.WARNING, logger="config.redis_cache"):
            backend.set("k", 2)
        assert backend.get("k") == 2
        assert "Shared cache reachable again" in caplog.text
    finally:
        _close(backend)


def test_a_redis_that_stops_answering_costs_one_socket_timeout_then_nothing(private_redis: Any) -> None:
    backend = _backend(private_redis.url(), socket_timeout=0.3)
    try:
        backend.set("k", 1)
        assert backend.get("k") == 1  # the connection is open and pooled
        os.kill(private_redis.process.pid, signal.SIGSTOP)  # frozen: connected, never answering
        started = time.monotonic()
        assert backend.get("k") is None  # waits for the 0.3 s socket timeout, then gives up
        first = time.monotonic() - started
        started = time.monotonic()
        for _ in range(50):
            assert backend.get("k") is None  # inside the retry interval: no wait at all
        rest = time.monotonic() - started
        # Bounds from the configuration, not timings of a fast machine: the first read ends by
        # the socket timeout (0.3 s, with slack for a loaded machine), the next 50 add less than
        # one more timeout in all.
        assert 0.25 <= first < 5.0
        assert rest < 0.3
    finally:
        os.kill(private_redis.process.pid, signal.SIGCONT)
        _close(backend)


def test_a_read_only_replica_is_a_cache_that_keeps_nothing(private_redis: Any, tmp_path: Any) -> None:
    from tests.private_services import PrivateRedis, free_port

    # A replica of private_redis: reads answer, writes are refused (READONLY).
    replica = PrivateRedis(tmp_path / "replica", free_port())
    replica.root.mkdir()
    replica.start()
    backend = _backend(replica.url())
    try:
        import redis

        with redis.Redis.from_url(replica.url()) as admin:
            admin.replicaof("127.0.0.1", private_redis.port)
            with pytest.raises(redis.exceptions.ReadOnlyError):
                admin.set("probe", 1)  # the fault is real
        backend.set("k", 1)  # refused by Redis, not raised
        assert backend.add("k", 1) is False
        assert backend.get("k") is None
    finally:
        _close(backend)
        replica.stop()
