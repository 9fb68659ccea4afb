"""Django's Redis cache, with one client object per connection pool, that degrades when Redis fails.

One client per pool.  ``django.core.cache.backends.redis.RedisCacheClient.get_client`` builds a
new ``redis.Redis`` for every cache operation, and redis-py 8 fills about 170 response callbacks
in each new client: about 1 ms of CPU here, four times in a cold estimate (throttle read and
write, answer read and write).  A ``redis.Redis`` is safe to share between threads (it takes a
connection from its pool per command), so this backend keeps one per pool.

Degrading.  The shared caches (answers, throttle histories) only save work; losing them must
never fail a request or a job.  So any Redis error of a cache operation (connection refused, a
timeout, a read-only replica, an out-of-memory refusal) makes the operation answer as an empty
cache would: ``get`` its default, ``set`` nothing, ``add`` / ``touch`` / ``delete`` ``False``,
``get_many`` ``{}``.  The caller computes, and answers without the cache.  After a failure the
cache is left alone for ``outage_retry_s`` seconds (every operation answers "empty" at once, so
requests do not each wait for a timeout), then tried again.  The outage is logged once per
such interval, with the number of failed operations, and :func:`cache_outage` tells
``/healthz`` that the service runs degraded.  ``incr`` and ``clear`` still raise: they have no
"empty cache" answer, and nothing in the product calls them.

Use it as ``"BACKEND": "config.redis_cache.RedisCache"`` with ``OPTIONS`` ``socket_timeout`` and
``socket_connect_timeout`` (seconds; Django's default is to wait for ever) and
``outage_retry_s``; everything else is Django's.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.cache.backends import redis as django_redis
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: Errors that mean "the cache is not there": redis-py's own, and socket errors it lets through.
CACHE_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)
#: Seconds a failed cache is left alone (and the outage logged at most once), unless configured.
DEFAULT_OUTAGE_RETRY_S = 5.0


@dataclass
class _Outage:
    """The state of one Redis cache server, shared by every thread of this process."""

    retry_s: float
    down_until: float = float("-inf")
    failed_at: float = float("-inf")
    errors: int = 0  # failed operations since this process started
    unlogged: int = 0  # failed operations not yet in a log line
    down: bool = False  # failed last time it was tried


@dataclass(frozen=True)
class CacheOutage:
    """What :func:`cache_outage` reports: failed operations in all, and the last one's age (s)."""

    errors: int
    seconds_since_last_error: float


_outages: dict[str, _Outage] = {}  # by LOCATION
_outages_lock = threading.Lock()


def cache_outage(*, location: str) -> CacheOutage | None:
    """The last failure of this process's caches on the Redis at ``location`` (a cache's
    ``LOCATION``), if it was less than that cache's ``outage_retry_s`` ago; else ``None``."""
    outage = _outages.get(location)
    if outage is None:
        return None
    age = time.monotonic() - outage.failed_at
    return CacheOutage(errors=outage.errors, seconds_since_last_error=age) if age < outage.retry_s else None


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, servers: Any, *args: Any, outage_retry_s: float = DEFAULT_OUTAGE_RETRY_S, **kwargs: Any) -> None:
        super().__init__(servers, *args, **kwargs)
        self._clients: dict[int, Any] = {}
        self._clients_lock = threading.Lock()
        with _outages_lock:
            location = servers if isinstance(servers, str) else ",".join(servers)
            self._outage = _outages.setdefault(location, _Outage(retry_s=float(outage_retry_s)))

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's private helpers (absent from django-stubs): the pool index and the pool.
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        client = self._clients.get(index)
        if client is None:
            with self._clients_lock:
                client = self._clients.get(index)
                if client is None:
                    pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
                    client = self._clients[index] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client

    def _degrade(self, operation: Callable[[], T], empty: T) -> T:
        outage = self._outage
        if time.monotonic() < outage.down_until:
            return empty
        try:
            value = operation()
        except CACHE_ERRORS as exc:
            self._failed(exc)
            return empty
        if outage.down:
            outage.down = False
            logger.warning("Shared cache reachable again after %d failed cache operations", outage.errors)
        return value

    def _failed(self, exc: BaseException) -> None:
        outage = self._outage
        now = time.monotonic()
        with _outages_lock:
            outage.errors += 1
            outage.unlogged += 1
            first_in_interval = now >= outage.down_until
            outage.failed_at = now
            outage.down_until = now + outage.retry_s
            outage.down = True
            unlogged = outage.unlogged
            if first_in_interval:
                outage.unlogged = 0
        if first_in_interval:
            logger.warning(
                "Shared cache unreachable (%s: %s): answering without it for the next %g s "
                "(%d failed cache operations in this process, %d since the last report)",
                type(exc).__name__,
                exc,
                outage.retry_s,
                outage.errors,
                unlogged,
            )

    def add(self, key: Any, value: Any, timeout: Any) -> bool:
        return self._degrade(lambda: bool(super(RedisCacheClient, self).add(key, value, timeout)), False)

    def get(self, key: Any, default: Any) -> Any:
        return self._degrade(lambda: super(RedisCacheClient, self).get(key, default), default)

    def set(self, key: Any, value: Any, timeout: Any) -> None:
        self._degrade(lambda: super(RedisCacheClient, self).set(key, value, timeout), None)

    def touch(self, key: Any, timeout: Any) -> bool:
        return self._degrade(lambda: bool(super(RedisCacheClient, self).touch(key, timeout)), False)

    def delete(self, key: Any) -> bool:
        return self._degrade(lambda: bool(super(RedisCacheClient, self).delete(key)), False)

    def get_many(self, keys: Any) -> dict[Any, Any]:
        return self._degrade(lambda: dict(super(RedisCacheClient, self).get_many(keys)), {})

    def has_key(self, key: Any) -> bool:
        return self._degrade(lambda: bool(super(RedisCacheClient, self).has_key(key)), False)

    def set_many(self, data: Any, timeout: Any) -> None:
        self._degrade(lambda: super(RedisCacheClient, self).set_many(data, timeout), None)

    def delete_many(self, keys: Any) -> None:
        self._degrade(lambda: super(RedisCacheClient, self).delete_many(keys), None)


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
