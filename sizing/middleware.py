"""A database outage answers 503 with a JSON body and Retry-After, never a 500.

A view (or DRF's authentication inside it) that cannot reach the database raises Django's
``OperationalError`` or ``InterfaceError``.  This middleware turns those into::

    503 {"detail": "The database is unavailable ...", "code": "database_unavailable"}
    Retry-After: ZSIZER_DB_RETRY_AFTER_SECONDS

Recovery needs no restart: the failed connection is closed here, and ``CONN_HEALTH_CHECKS``
(``config.env.database_from_url``) makes the next request test a kept connection before using
it, so the first request after the database is back gets a fresh one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

UNAVAILABLE = (OperationalError, InterfaceError)


def database_unavailable_response() -> JsonResponse:
    """The 503 a request gets while the database is unreachable."""
    retry_after = settings.ZSIZER_DB_RETRY_AFTER_SECONDS
    response = JsonResponse(
        {
            "detail": f"The database is unavailable; nothing was changed. Try again in {retry_after} s.",
            "code": "database_unavailable",
        },
        status=503,
    )
    response["Retry-After"] = str(retry_after)
    return response


def _close_broken_connections() -> None:
    for conn in connections.all(initialized_only=True):
        try:
            if conn.connection is not None and not conn.is_usable():
                conn.close()
        except Exception:  # closing a dead socket may itself fail; the wrapper is reset either way
            conn.connection = None


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, UNAVAILABLE):
            return None
        logger.warning("database unavailable for %s %s: %s", request.method, request.path, exception)
        _close_broken_connections()
        return database_unavailable_response()
