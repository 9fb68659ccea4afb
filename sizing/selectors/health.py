"""Is the service able to answer?  The database and the broker, each checked with a short timeout,
and the shared cache.

Used by ``/healthz/ready`` (and ``/healthz``, the same answer); ``/healthz/live`` checks
nothing but that the process answers.  The answer names only which dependency failed, never a
host, a URL or an error message (the endpoint is public).  The database is needed: without it
the service is down (*unavailable*).  The broker and the shared cache are not: while the broker is
down jobs are still accepted and stored, and the reconciler sends them once it is back; without
the cache (``ZSIZER_CACHE_URL``) answers are computed without it.  Either makes the service
*degraded*, never a reason to restart it.
"""

from __future__ import annotations

import logging
from typing import Literal

from django.conf import settings
from django.db import DatabaseError, connections

logger = logging.getLogger(__name__)

Check = Literal["ok", "unavailable", "not configured"]
Status = Literal["ok", "degraded", "unavailable"]
TIMEOUT_S = 2.0


def database_status() -> Check:
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.warning("health check: the database does not answer", exc_info=True)
        # A broken connection must not be reused by the next request of this thread.
        connections["default"].close_if_unusable_or_obsolete()
        return "unavailable"
    return "ok"


def _ping(url: str, what: str) -> Check:
    """PING the Redis at ``url``: ``ok``, or ``unavailable`` (logged, naming ``what``)."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=TIMEOUT_S, socket_timeout=TIMEOUT_S)
    try:
        client.ping()
    except (redis.RedisError, OSError):
        logger.warning("health check: the %s does not answer", what, exc_info=True)
        return "unavailable"
    finally:
        client.close()
    return "ok"


def broker_status() -> Check:
    """PING the Redis broker; with no broker (embedded default) tasks run in-process."""
    url: str = settings.CELERY_BROKER_URL
    return _ping(url, "broker") if url else "not configured"


def cache_status() -> Check:
    """PING the shared cache's Redis; ``unavailable`` too when a cache operation of this process
    failed within the cache's retry interval (the cache is being bypassed)."""
    url: str = settings.ZSIZER_CACHE_URL
    if not url:
        return "not configured"
    from config.redis_cache import cache_outage

    if _ping(url, "shared cache") != "ok":
        return "unavailable"
    return "unavailable" if cache_outage(location=url) is not None else "ok"


def health() -> tuple[Status, dict[str, Check]]:
    """``(status, {"database": ..., "broker": ..., "cache": ...})``: ``unavailable`` when the
    database is, ``degraded`` when the broker or the shared cache is, else ``ok``."""
    checks = {"database": database_status(), "broker": broker_status(), "cache": cache_status()}
    if checks["database"] == "unavailable":
        return "unavailable", checks
    return ("degraded" if "unavailable" in (checks["broker"], checks["cache"]) else "ok"), checks
