"""Rate limits counted in the shared ``throttles`` cache, so that every web process spends one budget.

DRF's throttles keep each user's request history in ``django.core.cache.cache`` (the default
cache, this process's memory here): four gunicorn workers would allow four times the rate.
These count in ``settings.ZSIZER_THROTTLE_CACHE``: Redis when ``ZSIZER_CACHE_URL`` is set, else
this process's memory (the embedded default, one process).

If the shared cache cannot be reached the request is let through and the failure logged: a
throttle guards capacity, and a Redis outage must not turn every API call into a 500.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import caches
from redis.exceptions import RedisError
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

logger = logging.getLogger(__name__)


class SharedScopedRateThrottle(ScopedRateThrottle):
    """``ScopedRateThrottle`` (rates per ``throttle_scope``) with its history in the shared cache."""

    def __init__(self) -> None:
        super().__init__()
        self.cache = caches[settings.ZSIZER_THROTTLE_CACHE]

    def allow_request(self, request: Request, view: APIView) -> bool:
        try:
            return bool(super().allow_request(request, view))
        except Exception as exc:  # the cache's client errors (redis ConnectionError, TimeoutError...)
            if not _is_cache_error(exc):
                raise
            logger.warning("Throttle cache unreachable, request allowed: %s", exc)
            return True


def _is_cache_error(exc: Exception) -> bool:
    return isinstance(exc, (RedisError, ConnectionError, TimeoutError))
