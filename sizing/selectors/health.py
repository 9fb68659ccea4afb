"""Is the service able to answer?  The database and the broker, each checked with a short timeout.

Used by ``/healthz``; the answer names only which dependency failed, never a host, a URL or an
error message (the endpoint is public).
"""

from __future__ import annotations

import logging
from typing import Literal

from django.conf import settings
from django.db import DatabaseError, connections

logger = logging.getLogger(__name__)

Check = Literal["ok", "unavailable", "not configured"]
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


def broker_status() -> Check:
    """PING the Redis broker; with no broker (embedded default) tasks run in-process."""
    url: str = settings.CELERY_BROKER_URL
    if not url:
        return "not configured"
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=TIMEOUT_S, socket_timeout=TIMEOUT_S)
    try:
        client.ping()
    except (redis.RedisError, OSError):
        logger.warning("health check: the broker does not answer", exc_info=True)
        return "unavailable"
    finally:
        client.close()
    return "ok"


def health() -> tuple[bool, dict[str, Check]]:
    """``(healthy, {"database": ..., "broker": ...})``: healthy when nothing is unavailable."""
    checks = {"database": database_status(), "broker": broker_status()}
    return all(value != "unavailable" for value in checks.values()), checks
