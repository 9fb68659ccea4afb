"""Refuse malformed requests before any view sees them, with a JSON body naming the problem.

* a body larger than ``ZSIZER_MAX_BODY_BYTES`` (by its Content-Length): 413;
* a Content-Length that is not a number, or a charset Python does not know: 400;
* a NUL byte in the URL path or in any query parameter (name or value): 400 naming it.
  PostgreSQL cannot store or compare NUL characters, so a NUL reaching a filter was a 500;
* a form (``application/x-www-form-urlencoded``) or ``multipart/form-data`` body whose text is
  not valid in its charset or holds a NUL (``sizing.form_bodies``): 400 ``{"detail": ...}``
  naming the field, as a JSON body gets from ``sizing.api.parsers.StrictJSONParser``, instead
  of Django's replacement characters.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from sizing.form_bodies import form_problem, multipart_problem

NUL = "\x00"


class RequestGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refusal = self.refusal(request)
        return refusal if refusal is not None else self.get_response(request)

    def refusal(self, request: HttpRequest) -> HttpResponse | None:
        limit = settings.ZSIZER_MAX_BODY_BYTES
        length = request.META.get("CONTENT_LENGTH") or "0"
        try:
            size = int(length)
        except ValueError:
            return JsonResponse({"detail": f"Content-Length {length!r} is not a number of bytes."}, status=400)
        if size > limit:
            return JsonResponse(
                {"detail": f"The request body is {size:,} bytes; the limit is {limit:,} bytes."}, status=413
            )
        charset = request.content_params.get("charset") if request.content_params else None
        if charset:
            try:
                codecs.lookup(charset)
            except LookupError:
                return JsonResponse({"detail": f"Unknown charset {charset!r} in Content-Type; send UTF-8."}, status=400)
        if NUL in request.path:
            return JsonResponse({"detail": "The URL path contains a NUL byte (%00)."}, status=400)
        bad = sorted({key for key, values in request.GET.lists() if NUL in key or any(NUL in v for v in values)})
        if bad:
            reason = "Contains a NUL byte (%00), which no parameter accepts."
            return JsonResponse({key.replace(NUL, "\\u0000"): [reason] for key in bad}, status=400)
        problem = self.body_problem(request, charset or settings.DEFAULT_CHARSET)
        if problem is not None:
            return JsonResponse({"detail": problem}, status=400)
        return None

    @staticmethod
    def body_problem(request: HttpRequest, encoding: str) -> str | None:
        """A form or multipart body's text that is not valid (read once; at most the body limit)."""
        if request.method not in ("POST", "PUT", "PATCH") or not request.META.get("CONTENT_LENGTH"):
            return None
        if request.content_type == "application/x-www-form-urlencoded":
            return form_problem(request.body, encoding)
        if request.content_type == "multipart/form-data":
            boundary = (request.content_params or {}).get("boundary", "")
            if not boundary:
                return None  # Django's parser refuses it with its own error
            return multipart_problem(request.body, boundary, encoding)
        return None
