"""Rate limits counted in the shared ``throttles`` cache, so that every web process spends one budget.

DRF's throttles keep each user's request history in ``django.core.cache.cache`` (the default
cache, this process's memory here): four gunicorn workers would allow four times the rate.
These count in ``settings.ZSIZER_THROTTLE_CACHE``: Redis when ``ZSIZER_CACHE_URL`` is set, else
this process's memory (the embedded default, one process).

If the shared cache cannot be reached the request is let through and the failure logged: a
throttle guards capacity, and a Redis outage must not turn every API call into a 500.

On Redis the window is one sorted set per user and scope, trimmed, counted and added to by one
script, so simultaneous requests in several processes are all counted (DRF's own throttle reads
the history and writes it back: 8 of 48 simultaneous requests passed a rate of 5 through two
processes, tests/sizing/test_throttles.py).  Elsewhere (one process's memory) DRF's history.

Every 429 carries ``Retry-After`` (whole seconds, at least 1): the wait until the oldest request
in the window leaves it.

Scopes (rates in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, each from an environment variable,
docs/configuration.md; what each covers: docs/api.md, "Limits"):

``estimates``     cheap reads: an answer without storing it, the chart data, your estimates and calibrations
``writes``        stored writes: estimates created or deleted, calibrations deleted
``jobs``          submissions: jobs and plans
``cancel``        cancelling a job, deleting a plan (never counted with submissions)
``calibrations``  calibrations created, RMF reports parsed
``reports``       PDF reports
``fit``           which model fits, the upgrade comparison
``schema``        the OpenAPI schema (public: per client address)

A view takes them with :class:`ThrottledView`: ``throttle_scopes = {"create": "writes", ...}``
keyed by the viewset's action (or, on a plain ``APIView``, by the HTTP method in lower case).
"""

from __future__ import annotations

import logging
import math
import uuid
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.cache import caches
from redis.exceptions import RedisError
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from config.redis_cache import RedisCache

logger = logging.getLogger(__name__)

#: Every scope the API uses (each has a rate in DEFAULT_THROTTLE_RATES; tests/sizing/test_limits.py).
SCOPES = ("estimates", "writes", "jobs", "cancel", "calibrations", "reports", "fit", "schema")


class SharedScopedRateThrottle(ScopedRateThrottle):
    """``ScopedRateThrottle`` (rates per scope) with its history in the shared cache.

    The scope is the one given (``SharedScopedRateThrottle("reports")``), else the view's
    ``throttle_scope``."""

    def __init__(self, scope: str | None = None) -> None:
        super().__init__()
        self.cache = caches[settings.ZSIZER_THROTTLE_CACHE]
        self.fixed_scope = scope

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.fixed_scope is not None:
            self.scope = self.fixed_scope
            self.rate = self.get_rate()
            self.num_requests, self.duration = self.parse_rate(self.rate)
            allow = super(ScopedRateThrottle, self).allow_request
        else:
            allow = super().allow_request
        try:
            if isinstance(self.cache, RedisCache):
                return self._allow_in_redis(request, view)
            return bool(allow(request, view))
        except Exception as exc:  # the cache's client errors (redis ConnectionError, TimeoutError...)
            if not _is_cache_error(exc):
                raise
            logger.warning("Throttle cache unreachable, request allowed: %s", exc)
            return True

    def _allow_in_redis(self, request: Request, view: APIView) -> bool:
        """The sliding window as one Redis script: trim, count and record in one step, so that
        requests arriving at the same moment in several processes are all counted (DRF's
        read-then-write of the history list would let simultaneous ones through uncounted)."""
        if self.fixed_scope is None:
            scope = getattr(view, self.scope_attr, None)
            if not scope:
                return True
            self.scope = str(scope)
            self.rate = self.get_rate()
            self.num_requests, self.duration = self.parse_rate(self.rate)
        ident = self.get_cache_key(request, view)
        if ident is None or self.num_requests is None or self.duration is None:
            return True
        cache: Any = self.cache
        key = cache.make_and_validate_key(ident)
        client = cache._cache.get_client(key, write=True)
        now = self.timer()
        allowed, oldest = _SLIDING_WINDOW(
            keys=[key], args=[now, self.duration, self.num_requests, f"{now:.6f}-{uuid.uuid4().hex[:8]}"], client=client
        )
        self.now = now
        self.history = [] if allowed else [float(oldest)] * int(self.num_requests)
        return bool(allowed)

    def wait(self) -> float | None:
        wait = super().wait()
        return None if wait is None else max(1.0, float(math.ceil(wait)))


class _SlidingWindow:
    """``(allowed, oldest)``: drop entries older than the window, refuse if ``limit`` remain
    (answering the oldest's time), else record this request; the key expires with the window."""

    SCRIPT = """
local key, now, window, limit = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= limit then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return {0, oldest[2]}
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('EXPIRE', key, math.ceil(window) + 1)
return {1, '0'}
"""

    def __call__(self, *, keys: list[str], args: list[Any], client: Any) -> tuple[int, float]:
        allowed, oldest = client.eval(self.SCRIPT, len(keys), *keys, *args)
        return int(allowed), float(oldest)


_SLIDING_WINDOW = _SlidingWindow()


class ThrottledView:
    """A view whose actions are throttled by scope, in the shared cache.

    ``throttle_scopes`` maps an action (``create``, ``destroy``, ``list``, a custom action) or, on
    a plain ``APIView``, an HTTP method (``get``, ``post``) to a scope of :data:`SCOPES`; what is
    not named is not throttled.  Mix it in before the view's DRF base classes::

        class ThingViewSet(ThrottledView, QuotaView, mixins.CreateModelMixin, ..., viewsets.GenericViewSet[Thing]):
            throttle_scopes = {"create": "writes", "destroy": "writes", "list": "estimates"}
    """

    throttle_scopes: Mapping[str, str] = {}

    def get_throttles(self) -> list[BaseThrottle]:
        request: Request = getattr(self, "request")  # noqa: B009 (set by APIView.dispatch)
        action = getattr(self, "action", None) or (request.method or "").lower()
        scope = self.throttle_scopes.get(action)
        return [SharedScopedRateThrottle(scope)] if scope else []


def _is_cache_error(exc: Exception) -> bool:
    return isinstance(exc, (RedisError, ConnectionError, TimeoutError))


def scope_of(view: Any, action: str) -> str | None:
    """The scope ``view`` throttles ``action`` by (tests and docs)."""
    return dict(getattr(view, "throttle_scopes", {})).get(action)
