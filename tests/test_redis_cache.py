"""config.redis_cache: Django's Redis cache with one client object per pool, on the test Redis."""

from __future__ import annotations

import threading
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
