"""API error shape: JSON with the field and a sentence, never a 500 or an HTML page for bad input.

* ``exception_handler`` (DRF): Django validation errors become 400 with their fields; an error
  is always rendered as JSON, also where the client asked for CSV or PDF (``format=csv``); a body
  Django refused to read (``RequestDataTooBig``, too many fields) is a 413 or a 400.
* ``not_found``, ``bad_request``, ``server_error``, ``permission_denied``: Django's handlers for
  the URLconf, JSON under ``/api/`` (a URL no route matches, e.g. ``/api/v1/jobs/1.5/``) and
  Django's own pages elsewhere.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from sizing.services.quotas import QuotaExceeded


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "payload_too_large"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, QuotaExceeded):
        _json_errors(context)
        return Response(exc.body(), status=status.HTTP_403_FORBIDDEN)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        exc = exceptions.ValidationError(detail=detail)
    elif isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge(f"{exc} (the limit is ZSIZER_MAX_BODY_BYTES).")
    elif isinstance(exc, SuspiciousOperation):
        exc = exceptions.ParseError(str(exc))
    response = drf_exception_handler(exc, context)
    if response is not None:
        _json_errors(context)
        if isinstance(exc, exceptions.Throttled) and "Retry-After" not in response:
            response["Retry-After"] = "1"  # every 429 says when to come back
    return response


def _json_errors(context: dict[str, Any]) -> None:
    request = context.get("request")
    if request is not None:
        renderer = getattr(request, "accepted_renderer", None)
        if renderer is None or getattr(renderer, "format", None) not in ("json", "api"):
            # CSV or PDF was asked for; the error is a sentence in JSON, not a table or a document.
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = "application/json"


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": "Not found: no API resource at this URL."}, status=404)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": f"Bad request: {exception}"}, status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": "You do not have permission to perform this action."}, status=403)
    return defaults.permission_denied(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": "Internal error: the request was not completed."}, status=500)
    return defaults.server_error(request)
